// What an export says it was computed with comes from the one state: every model field by its
// schema path, so a model flag (here --p-rope) cannot be applied and yet left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "export/data.h"
#include "lab/lab_data.h"

namespace ropelab {
namespace {

std::string parameter(const DataTable& t, const std::string& key) {
    const auto it = std::find_if(t.parameters.begin(), t.parameters.end(), [&](const auto& kv) { return kv.first == key; });
    return it == t.parameters.end() ? "(absent)" : it->second;
}

TEST(ExportParameters, EveryModelFieldIsWrittenFromTheState) {
    LabParams plain;
    LabParams p_rope = plain;
    p_rope.model.p_rope = 0.5;
    for (const ViewRow& row : view_table()) {
        if (row.id == view_of(Product::Grid) || row.id == view_of(Product::Attention)) continue;  // their own tests (sizes)
        if (row.id == View::Weights) continue;  // a model file's weights: cli/test_weights_export.cpp
        const DataTable a = view_data(row.id, plain, compute_lab_data(plain));
        const DataTable b = view_data(row.id, p_rope, compute_lab_data(p_rope));
        EXPECT_EQ(parameter(a, "model.p_rope"), "0") << row.name;
        EXPECT_EQ(parameter(b, "model.p_rope"), "0.5") << row.name;
        EXPECT_NE(a.parameters, b.parameters) << row.name << ": the exports of different states say the same";
        EXPECT_EQ(parameter(b, "model.head_dim"), "128") << row.name;
        // Issue 38: every export says how its numbers were computed, and they are float64.
        EXPECT_TRUE(parameter(a, "precision").starts_with("float64")) << row.name << ": " << parameter(a, "precision");
    }
}

}  // namespace
}  // namespace ropelab
