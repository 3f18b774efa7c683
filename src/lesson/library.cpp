#include "lesson/library.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/embedded.h"

namespace ropelab {

namespace {

struct Row {
    std::string_view name, summary;
};

// The library, in the order it is listed. Titles and scene counts come from the files.
constexpr Row kLibrary[] = {
    {"rope-from-first-principles", "Why attention needs positions, rotation by pairs, decay, images, attention, scaling, precision"},
    {"context-extension", "Stretching the context on real models: PI, NTK, dynamic NTK, YaRN, llama3, LongRoPE"},
    {"images-and-video", "M-RoPE: sections vs interleaved, the position ids of text, images and video, Qwen2-VL vs Qwen3-VL"},
    {"attention-and-long-context", "From scores to attention: Toeplitz logits, causal softmax, sliding, chunked and NoPE layers, p-RoPE"},
};

std::string file_name(std::string_view name) { return std::string(name) + ".json"; }

const EmbeddedFile* embedded_lesson(std::string_view name) {
    const auto files = embedded::lessons();
    const auto it = std::find_if(files.begin(), files.end(), [&](const EmbeddedFile& f) { return f.name == file_name(name); });
    return it == files.end() ? nullptr : &*it;
}

// The title and scene count as the file states them; the full check is load_lesson's (a test
// loads every library lesson), so a listing never pays for validating every scene.
LibraryLesson read_row(const Row& row, const EmbeddedFile& file) {
    LibraryLesson out{.name = row.name, .summary = row.summary, .title = std::string(row.name), .scenes = 0, .json = file.data};
    const nlohmann::json j = nlohmann::json::parse(file.data, nullptr, false);
    if (j.is_object()) {
        out.title = j.value("title", std::string(row.name));
        if (j.contains("scenes") && j["scenes"].is_array()) out.scenes = static_cast<int>(j["scenes"].size());
    }
    return out;
}

}  // namespace

const std::vector<LibraryLesson>& lesson_library() {
    static const std::vector<LibraryLesson> library = [] {
        std::vector<LibraryLesson> out;
        for (const Row& row : kLibrary) {
            if (const EmbeddedFile* f = embedded_lesson(row.name)) out.push_back(read_row(row, *f));
        }
        return out;
    }();
    return library;
}

const LibraryLesson* find_library_lesson(std::string_view name) {
    const auto& library = lesson_library();
    if (name == kBuiltinAlias) return library.empty() ? nullptr : &library.front();
    const auto it = std::find_if(library.begin(), library.end(), [&](const LibraryLesson& l) { return l.name == name; });
    return it == library.end() ? nullptr : &*it;
}

bool names_lesson_file(std::string_view text) {
    if (text.find('/') != std::string_view::npos || text.ends_with(".json") || text.ends_with(".ropelesson")) return true;
    // A bare word: the library's lesson of that name, else a file of that name (`ropelab talk`,
    // a lesson saved without an extension), else neither (load_lesson lists the library).
    std::error_code error;
    return !find_library_lesson(text) && std::filesystem::is_regular_file(std::filesystem::path(text), error);
}

std::string library_names_text() {
    std::string text;
    for (const LibraryLesson& l : lesson_library()) {
        const bool first = text.empty();
        text += (first ? "" : ", ") + std::string(l.name);
        if (first) text += " (or " + std::string(kBuiltinAlias) + ")";
    }
    return text;
}

}  // namespace ropelab
