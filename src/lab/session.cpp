#include "lab/session.h"

#include <cstring>

#include <cmath>
#include <limits>
#include <type_traits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.h"

namespace ropelab {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

template <class T>
Json opt(const std::optional<T>& v) { return v ? Json(*v) : Json(nullptr); }

Json model_json(const ModelConfig& m) {
    const RopeScaling& s = m.rope_scaling;
    return Json{{"head_dim", m.head_dim},
                {"partial_rotary_factor", m.partial_rotary_factor},
                {"rope_theta", m.rope_theta},
                {"max_position_embeddings", m.max_position_embeddings},
                {"original_max_position_embeddings", opt(m.original_max_position_embeddings)},
                {"seq_len", opt(m.seq_len)},
                {"layout", std::string(to_string(m.layout))},
                {"rope_scaling",
                 Json{{"rope_type", std::string(to_string(s.type))},
                      {"factor", opt(s.factor)},
                      {"low_freq_factor", opt(s.low_freq_factor)},
                      {"high_freq_factor", opt(s.high_freq_factor)},
                      {"beta_fast", s.beta_fast},
                      {"beta_slow", s.beta_slow},
                      {"attention_factor", opt(s.attention_factor)},
                      {"mscale", opt(s.mscale)},
                      {"mscale_all_dim", opt(s.mscale_all_dim)},
                      {"original_max_position_embeddings", opt(s.original_max_position_embeddings)},
                      {"long_factor", s.long_factor},
                      {"short_factor", s.short_factor}}}};
}

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};

// A JSON value as T, refusing what would not convert cleanly. Whole numbers must be whole and in
// range, also inside arrays: converting 1e60 to an integer is undefined behaviour, not an error,
// so it is caught here (found by fuzz_session, twice).
template <class T>
T convert(const Json& value, const std::string& name) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (value.is_number_float()) {
            const double d = value.get<double>();
            if (!(d == std::floor(d) && d >= static_cast<double>(std::numeric_limits<T>::min()) &&
                  d <= static_cast<double>(std::numeric_limits<T>::max()))) {
                throw InputError(fmt::format("{} must be a whole number in range (got {})", name, value.dump()));
            }
            return static_cast<T>(d);
        }
    }
    if constexpr (is_vector<T>::value) {
        if (value.is_array()) {
            T out;
            for (std::size_t i = 0; i < value.size(); ++i) {
                out.push_back(convert<typename T::value_type>(value[i], fmt::format("{}[{}]", name, i)));
            }
            return out;
        }
    }
    try {
        return value.get<T>();
    } catch (const Json::exception&) {
        throw InputError(fmt::format("{} has the wrong type (got {})", name, value.dump()));
    }
}

// Reads fields off one JSON object, naming the path in every error and remembering which keys
// were read so the rest can be reported as unknown.
class Reader {
public:
    Reader(const Json& object, std::string path, std::vector<std::string>& warnings)
        : object_(object), path_(std::move(path)), warnings_(warnings) {
        if (!object_.is_object()) throw InputError(fmt::format("{} must be an object", path_.empty() ? "session" : path_));
    }
    ~Reader() {
        for (const auto& [key, value] : object_.items()) {
            if (!seen_.count(key)) warnings_.push_back(fmt::format("unknown field {}{} ignored", prefix(), key));
        }
    }

    template <class T>
    void get(const char* key, T& out) {
        seen_[key] = true;
        if (!object_.contains(key)) return;
        out = convert<T>(object_.at(key), prefix() + key);
    }
    template <class T>
    void get(const char* key, std::optional<T>& out) {
        seen_[key] = true;
        if (!object_.contains(key)) return;
        if (object_.at(key).is_null()) {
            out.reset();
            return;
        }
        T value{};
        get(key, value);
        out = value;
    }
    Reader child(const char* key) {
        seen_[key] = true;
        static const Json empty = Json::object();
        return Reader(object_.contains(key) ? object_.at(key) : empty, prefix() + key, warnings_);
    }
    bool has(const char* key) const { return object_.contains(key); }
    // A key whose value the caller reads itself (free-form names).
    void take(const char* key) { seen_[key] = true; }
    std::string prefix() const { return path_.empty() ? "" : path_ + "."; }

private:
    const Json& object_;
    std::string path_;
    std::vector<std::string>& warnings_;
    std::map<std::string, bool> seen_;
};

template <class Enum>
Enum named(Reader& r, const char* key, Enum current, std::initializer_list<std::pair<const char*, Enum>> names) {
    std::string text;
    r.get(key, text);
    if (text.empty()) return current;
    for (const auto& [name, value] : names) {
        if (text == name) return value;
    }
    throw InputError(fmt::format("{}{} has an unknown value \"{}\"", r.prefix(), key, text));
}

ModelConfig read_model(Reader r) {
    ModelConfig m;
    r.get("head_dim", m.head_dim);
    r.get("partial_rotary_factor", m.partial_rotary_factor);
    r.get("rope_theta", m.rope_theta);
    r.get("max_position_embeddings", m.max_position_embeddings);
    r.get("original_max_position_embeddings", m.original_max_position_embeddings);
    r.get("seq_len", m.seq_len);
    std::string layout = "interleaved";
    r.get("layout", layout);
    try {
        m.layout = parse_pair_layout(layout);
        Reader s = r.child("rope_scaling");
        std::string type = "default";
        s.get("rope_type", type);
        m.rope_scaling.type = parse_rope_type(type);
        s.get("factor", m.rope_scaling.factor);
        s.get("low_freq_factor", m.rope_scaling.low_freq_factor);
        s.get("high_freq_factor", m.rope_scaling.high_freq_factor);
        s.get("beta_fast", m.rope_scaling.beta_fast);
        s.get("beta_slow", m.rope_scaling.beta_slow);
        s.get("attention_factor", m.rope_scaling.attention_factor);
        s.get("mscale", m.rope_scaling.mscale);
        s.get("mscale_all_dim", m.rope_scaling.mscale_all_dim);
        s.get("original_max_position_embeddings", m.rope_scaling.original_max_position_embeddings);
        s.get("long_factor", m.rope_scaling.long_factor);
        s.get("short_factor", m.rope_scaling.short_factor);
        validate(m);
    } catch (const InputError& e) {
        throw InputError(fmt::format("model: {}", e.what()));
    }
    return m;
}

void require(bool ok, const std::string& field, const std::string& rule) {
    if (!ok) throw InputError(fmt::format("{} {}", field, rule));
}

}  // namespace

std::string session_to_json(const Session& s) {
    const LabParams& p = s.params;
    Json plots = Json::object();
    for (const auto& [name, state] : s.plots) {
        plots[name] = Json{{"x", {state.x.min, state.x.max}}, {"y", {state.y.min, state.y.max}}, {"user_view", state.user_view}};
    }
    const Json j{
        {"ropelab_session", kSessionVersion},
        {"preset", p.preset},
        {"model", model_json(p.model)},
        {"curves",
         Json{{"encoding", static_cast<int>(p.encoding)}, {"vectors", static_cast<int>(p.vectors)}, {"seed", p.seed},
              {"samples", p.samples}, {"custom_q", p.custom_q}, {"custom_k", p.custom_k},
              {"max_distance", p.max_distance}, {"angle_mode", std::string(to_string(p.angle_mode))},
              {"show_bound", p.show_bound}, {"log_distance", p.log_distance},
              {"invariance_distance", p.invariance_distance}}},
        {"focus",
         Json{{"pair", p.focused_pair}, {"position", p.position}, {"key_distance", p.key_distance},
              {"log_position_slider", p.log_position_slider}}},
        {"playback", Json{{"playing", p.playing}, {"speed", p.speed}, {"loop", {p.loop_from, p.loop_to}}}},
        {"layout",
         Json{{"focused_view", p.focused_view}, {"tab_view", p.tab_view}, {"show_controls", p.show_controls},
              {"ui_scale", p.ui_scale}, {"theme", p.theme == Theme::Light ? "light" : "dark"}}},
        {"plots", plots}};
    return j.dump(2) + "\n";
}

Session session_from_json(std::string_view text, std::vector<std::string>& warnings) {
    Json j;
    try {
        j = Json::parse(text);
    } catch (const Json::exception& e) {  // parse errors and out-of-range numbers alike
        throw InputError(fmt::format("session: not valid JSON: {}", e.what()));
    }
    std::vector<std::string> found;
    Session s;
    {
        Reader r(j, "", found);
        int version = 0;
        r.get("ropelab_session", version);
        require(version >= 1 && version <= kSessionVersion, "ropelab_session",
                fmt::format("must be a version from 1 to {} (got {})", kSessionVersion, version));
        LabParams& p = s.params;
        r.get("preset", p.preset);
        p.model = read_model(r.child("model"));

        Reader c = r.child("curves");
        int encoding = static_cast<int>(p.encoding), vectors = static_cast<int>(p.vectors);
        c.get("encoding", encoding);
        c.get("vectors", vectors);
        require(encoding >= 0 && encoding <= 2, "curves.encoding", fmt::format("must be 0, 1 or 2 (got {})", encoding));
        require(vectors >= 0 && vectors <= 4, "curves.vectors", fmt::format("must be 0 .. 4 (got {})", vectors));
        p.encoding = static_cast<Encoding>(encoding);
        p.vectors = static_cast<VectorChoice>(vectors);
        c.get("seed", p.seed);
        c.get("samples", p.samples);
        require(p.samples >= 1, "curves.samples", fmt::format("must be >= 1 (got {})", p.samples));
        c.get("custom_q", p.custom_q);
        c.get("custom_k", p.custom_k);
        c.get("max_distance", p.max_distance);
        require(p.max_distance >= kMinDistances && p.max_distance <= kMaxDistances, "curves.max_distance",
                fmt::format("must be in 16 .. 2^24 (got {})", p.max_distance));
        std::string mode = "exact";
        c.get("angle_mode", mode);
        p.angle_mode = parse_angle_mode(mode);
        c.get("show_bound", p.show_bound);
        c.get("log_distance", p.log_distance);
        c.get("invariance_distance", p.invariance_distance);

        Reader f = r.child("focus");
        f.get("pair", p.focused_pair);
        require(p.focused_pair >= 0 && p.focused_pair < rotary_dim(p.model) / 2, "focus.pair",
                fmt::format("must be a pair of the model, 0 .. {} (got {})", rotary_dim(p.model) / 2 - 1, p.focused_pair));
        f.get("position", p.position);
        require(p.position >= 0 && p.position <= kMaxPosition, "focus.position", fmt::format("must be in 0 .. 2^31 − 1 (got {})", p.position));
        f.get("key_distance", p.key_distance);
        f.get("log_position_slider", p.log_position_slider);

        Reader b = r.child("playback");
        b.get("playing", p.playing);
        b.get("speed", p.speed);
        require(p.speed > 0 && p.speed <= 1e6, "playback.speed", fmt::format("must be > 0 (got {})", p.speed));
        std::vector<std::int64_t> loop = {p.loop_from, p.loop_to};
        b.get("loop", loop);
        require(loop.size() == 2 && loop[0] >= 0 && loop[0] < loop[1] && loop[1] <= kMaxPosition, "playback.loop",
                "must be [from, to] with 0 <= from < to <= 2^31 − 1");
        p.loop_from = loop[0];
        p.loop_to = loop[1];

        Reader l = r.child("layout");
        l.get("focused_view", p.focused_view);
        require(p.focused_view >= -1 && p.focused_view < kViewCount, "layout.focused_view", "must be -1 .. 7");
        l.get("tab_view", p.tab_view);
        require(p.tab_view >= 0 && p.tab_view < kViewCount, "layout.tab_view", "must be 0 .. 7");
        l.get("show_controls", p.show_controls);
        l.get("ui_scale", p.ui_scale);
        require(p.ui_scale >= 1.0f && p.ui_scale <= 3.0f, "layout.ui_scale", fmt::format("must be in 1 .. 3 (got {})", p.ui_scale));
        p.theme = named(l, "theme", p.theme, {{"dark", Theme::Dark}, {"light", Theme::Light}});

        if (j.contains("plots") && j["plots"].is_object()) {
            r.take("plots");  // the plot names are free-form
            for (const auto& [name, value] : j["plots"].items()) {
                Reader pr(value, "plots." + name, found);
                std::vector<double> x = {0, 1}, y = {0, 1};
                plot::PlotState state;
                pr.get("x", x);
                pr.get("y", y);
                pr.get("user_view", state.user_view);
                require(x.size() == 2 && y.size() == 2, "plots." + name, "x and y must be [min, max]");
                state.x = {x[0], x[1]};
                state.y = {y[0], y[1]};
                s.plots[name] = state;
            }
        }
    }
    warnings.insert(warnings.end(), found.begin(), found.end());
    return s;
}

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        buffer = (buffer << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += kAlphabet[(buffer >> bits) & 63];
        }
    }
    if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
    return out;
}

std::string base64url_decode(std::string_view text) {
    std::string out;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=' || c == '\n' || c == ' ') continue;
        const char* at = std::strchr(kAlphabet, c);
        if (!at || c == '\0') throw InputError(fmt::format("share string: '{}' is not a base64url character", c));
        buffer = (buffer << 6) | static_cast<std::uint32_t>(at - kAlphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((buffer >> bits) & 0xFF);
        }
    }
    return out;
}

std::string share_string(const Session& s) { return base64url_encode(session_to_json(s)); }

Session session_from_share_string(std::string_view text, std::vector<std::string>& warnings) {
    const auto first = text.find_first_not_of(" \n\t");
    if (first != std::string_view::npos && text[first] == '{') return session_from_json(text, warnings);
    return session_from_json(base64url_decode(text), warnings);
}

}  // namespace ropelab
