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
#include "core/model_families.h"

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
        bool is_null(const std::string& key) const { return json && json->contains(key) && json->at(key).is_null(); }
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

    // Every key of `o` nothing read, listed as ignored with `why` (`rope`: as a RoPE field not applied).
    void list_unread(const Object& o, const std::string& why, bool rope = false);
    // `o`'s key, listed as a RoPE field ropelab read and does not apply.
    void not_applied(const Object& o, const std::string& key, std::string why);
    bool was_read(const Object& o, const std::string& key) const { return read_.count(o.prefix + key) > 0; }

    const std::string& source() const { return source_; }

private:
    LoadedConfig& out_;
    std::string source_;
    std::set<std::string> read_;
    std::map<std::string, std::string> defaulted_;
};

// The model's parts (config_model.cpp).

// A key named like a RoPE field (rope, rotary, theta, position, partial, no_rope, layer_types,
// sliding, mrope): never listed as "not about RoPE".
bool rope_named(std::string_view key);

// text_config's model_type, else the top level's; `arch` is set to architectures[0] when given.
std::optional<std::string> read_model_type(Reader& r, const Reader::Object& t, const Reader::Object& root, bool nested,
                                           std::string& arch);
// The model_type's family, else the first architecture's, else null.
const ModelFamily* family_of(const std::optional<std::string>& type, const std::string& arch);
// head_dim; DeepSeek's [nope | rope] heads; hidden_size / num_attention_heads (GPT-J: n_embd / n_head);
// the rotated fraction, else the family's class default.
void read_head(Reader& r, const Reader::Object& t, ModelConfig& c, const ModelFamily* family);
// The layout: _ropelab.layout, DeepSeek-V3's rope_interleave, the family's modeling code, else
// --layout for a model the table does not know.
void read_layout(Reader& r, const Reader::Object& t, ModelConfig& c, LoadedConfig& out, const ModelFamily* family,
                 const std::optional<std::string>& type, const std::optional<std::string>& ropelab_layout,
                 const GivenRope& given);
// Reads rope_scaling / rope_parameters (one setting) into `s`.
void read_scaling(Reader& r, const Reader::Object& o, RopeScaling& s, LoadedConfig& out);

}  // namespace ropelab::config_detail
