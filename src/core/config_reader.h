#pragma once
// Private to the config.json reader (config_json.cpp, config_model.cpp, config_reader.cpp): the
// field reader and the readers of the model's parts. Not part of ropelab's API.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/config_json.h"
#include "core/error.h"
#include "core/json_input.h"

namespace ropelab::config_detail {

std::string shown(double v);

// Every read goes through here: it names the field in errors, checks types, exactness and
// ranges, and records what was used, so what is left over can be listed as ignored.
class Reader {
public:
    Reader(LoadedConfig& out, std::string source) : out_(out), source_(std::move(source)) {}

    // A view of one object of the file; `prefix` names it ("", "text_config.", "rope_scaling.").
    struct Object {
        const Json* json = nullptr;
        std::string prefix;
        bool has(const std::string& key) const { return json && json->contains(key) && !json->at(key).is_null(); }
        const Json& at(const std::string& key) const { return json->at(key); }
    };

    [[noreturn]] void fail(const std::string& name, const std::string& text) const {
        throw InputError(fmt::format("{}: {} {}", source_, name, text));
    }

    void use(const Object& o, const std::string& key, std::string value);
    // A key the file leaves out and the model's config class fills in.
    void defaulted(const std::string& name, std::string why) { defaulted_[name] = std::move(why); }
    void mark_read(const Object& o, const std::string& key) { read_.insert(o.prefix + key); }
    void assume(std::string name, std::string value, ReadField::Origin origin, std::string why) {
        out_.used.push_back({std::move(name), std::move(value), origin, std::move(why)});
    }

    std::optional<double> number(const Object& o, const std::string& key, double lo, double hi);
    // An exact integer in [lo, hi]: 4294967424 is refused, never wrapped to 128.
    std::optional<std::int64_t> integer(const Object& o, const std::string& key, std::int64_t lo, std::int64_t hi);
    std::optional<std::string> text(const Object& o, const std::string& key);
    std::optional<bool> boolean(const Object& o, const std::string& key);
    std::vector<double> numbers(const Object& o, const std::string& key, double lo, double hi);
    std::optional<Object> object(const Object& o, const std::string& key);

    // Every key of `o` nothing read, listed as ignored with `why`.
    void list_unread(const Object& o, const std::string& why);

    const std::string& source() const { return source_; }

private:
    LoadedConfig& out_;
    std::string source_;
    std::set<std::string> read_;
    std::map<std::string, std::string> defaulted_;
};

// The model's parts (config_model.cpp).

// "gemma3_text", "llama4_text", "qwen2_5_vl_text" name the text part of a multimodal model.
std::string_view base_model_type(std::string_view type);
// text_config's model_type, else the top level's, else the first architecture's.
std::optional<std::string> read_model_type(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested);
// head_dim; DeepSeek's [nope | rope] heads; hidden_size / num_attention_heads (GPT-J: n_embd / n_head).
void read_head(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out);
// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, else HF's modeling code for the type.
void read_layout(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out,
                 const std::optional<std::string>& type, const std::optional<std::string>& ropelab_layout);
// Reads rope_scaling / rope_parameters (one setting) into `s`.
void read_scaling(Reader& r, const Reader::Object& o, RopeScaling& s, LoadedConfig& out);

}  // namespace ropelab::config_detail
