// Fault injection on the files users hand the lab: a config truncated at every byte, deleted,
// rewritten while it is being read, a folder, a device, a pipe, a huge file. Each load either
// returns exactly the file's model or throws an InputError that names the file.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/config_json.h"
#include "core/error.h"
#include "core/input_file.h"
#include "support/files.h"
#include "support/refusal.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

const std::string kLlamaConfig = R"({
  "architectures": ["LlamaForCausalLM"],
  "head_dim": 128,
  "max_position_embeddings": 131072,
  "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0
}
)";

class InputFiles : public test::TempDirTest {
protected:
    InputFiles() : TempDirTest("input") {}
    static void write(const std::string& path, const std::string& text) { test::write_file(path, text); }

    // The error message of loading `path`, or "" if it loaded.
    static std::string load_error(const std::string& path) {
        return test::refusal([&] { load_config_json(path); });
    }
};

TEST_F(InputFiles, TruncatedAtEveryByteIsRefusedNamingTheFile) {
    const std::string path = at("config.json");
    const std::size_t closing = kLlamaConfig.rfind('}');
    for (std::size_t n = 0; n <= closing; ++n) {  // every prefix short of the closing brace
        write(path, kLlamaConfig.substr(0, n));
        const std::string error = load_error(path);
        ASSERT_NE(error, "") << "a " << n << "-byte prefix loaded";
        ASSERT_NE(error.find(path), std::string::npos) << error;
    }
    write(path, kLlamaConfig);
    const LoadedConfig full = load_config_json(path);
    EXPECT_EQ(full.config.rope_theta, 500000.0);
    EXPECT_EQ(full.config.rope_scaling.factor, 8.0);
}

TEST_F(InputFiles, WhatCannotBeAConfigIsNamed) {
    EXPECT_NE(load_error(at("missing.json")).find("does not exist"), std::string::npos);
    EXPECT_NE(load_error(dir_.string()).find("it is a folder"), std::string::npos);
    EXPECT_NE(load_error("/dev/zero").find("not a regular file"), std::string::npos);
    ASSERT_EQ(mkfifo(at("pipe").c_str(), 0600), 0);
    EXPECT_NE(load_error(at("pipe")).find("not a regular file"), std::string::npos);  // and no hang
    {
        std::ofstream(at("huge.json")).put('{');
        fs::resize_file(at("huge.json"), kMaxInputFileBytes + 1);  // sparse: no disk used
    }
    const std::string huge = load_error(at("huge.json"));
    EXPECT_NE(huge.find("too large"), std::string::npos) << huge;
    EXPECT_NE(huge.find(at("huge.json")), std::string::npos) << huge;
}

// A writer truncates, rewrites and deletes the file while the reader loads it over and over:
// every load gives the full model or an error naming the file — never a half-read model.
TEST_F(InputFiles, RewrittenAndDeletedWhileLoading) {
    const std::string path = at("racing.json");
    write(path, kLlamaConfig);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        for (unsigned k = 0; !stop; ++k) {
            switch (k % 3) {
                case 0: fs::remove(path); break;
                case 1: write(path, kLlamaConfig.substr(0, k % kLlamaConfig.size())); break;
                case 2: write(path, kLlamaConfig); break;
            }
        }
    });
    int loaded = 0, refused = 0;
    for (int i = 0; i < 3000; ++i) {
        try {
            const LoadedConfig c = load_config_json(path);
            ASSERT_EQ(c.config.rope_theta, 500000.0);
            ASSERT_EQ(c.config.rope_scaling.type, RopeType::Llama3);
            ASSERT_EQ(c.config.rope_scaling.original_max_position_embeddings, 8192);
            ++loaded;
        } catch (const InputError& e) {
            ASSERT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
            ++refused;
        }
    }
    stop = true;
    writer.join();
    EXPECT_EQ(loaded + refused, 3000);
    RecordProperty("loaded", loaded);
    RecordProperty("refused", refused);
}

}  // namespace
}  // namespace ropelab
