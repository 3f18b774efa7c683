#pragma once
// A model file mapped read-only into memory: GGUF and safetensors files are gigabytes, far past
// read_input_file's limit, and a view reads only the tensors it needs. The file is registered as
// an input of this run the moment it is open (core/input_file.h), so no output can replace it.
#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace ropelab::models {

class MappedFile {
public:
    // Throws InputError "PATH: cannot open WHAT file (reason)" for a missing file, a folder, a
    // device or a pipe; `what` is how the registry and the errors name it ("GGUF model").
    static MappedFile open(const std::string& path, const std::string& what);
    // The bytes held in memory (tests, fuzzing, a file dropped in a browser).
    static MappedFile hold(std::string bytes, std::string name);

    std::span<const std::byte> bytes() const;
    const std::string& path() const { return path_; }

private:
    struct Mapping;
    std::shared_ptr<const Mapping> mapping_;  // shared: tensors viewed from several threads keep it alive
    std::string path_;
};

}  // namespace ropelab::models
