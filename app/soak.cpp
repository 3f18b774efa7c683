#include "soak.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/number_text.h"
#include "core/presets.h"
#include "gpu/gl_context.h"
#include "platform.h"

namespace ropelab {

namespace {

// The soak's first frames visit every size, view, preset, angle mode and encoding once, so that
// every buffer and cache has reached its largest before memory is measured: what grows after
// that is a leak.
constexpr int kTourSizes = 21;  // N = 2^4 .. 2^24
int soak_tour_length() { return kTourSizes + static_cast<int>(presets().size()) + 9; }

// Through the lab's one door, like every other change: commands for its next step.
void soak_tour_step(views::LabView& view, int k) {
    LabParams p = view.lab().params();
    p.focused_view = k % (kViewCount + 1) - 1;
    if (k < kTourSizes) {
        p.max_distance = std::int64_t{1} << (4 + k);
    } else if (k - kTourSizes < static_cast<int>(presets().size())) {
        view.send(lab::cmd::SetState{.state = p, .control = "", .notice = ""});
        view.send(lab::cmd::SelectPreset{presets()[static_cast<std::size_t>(k - kTourSizes)].note.name});
        return;
    } else {
        k -= kTourSizes + static_cast<int>(presets().size());
        p.angle_mode = static_cast<AngleMode>(k % 3);
        p.encoding = static_cast<Encoding>(k / 3);
    }
    view.send(lab::cmd::SetState{.state = p, .control = "", .notice = ""});
}

// One random change through the controls, as a restless user would make it.
void soak_step(views::LabView& view, std::mt19937_64& rng) {
    LabParams p = view.lab().params();
    lab::Status sweep_answer;  // a sweep's refusal; the lab refuses the rest itself
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
    switch (pick(12)) {
        case 0: {
            const auto all = presets();
            view.send(lab::cmd::SelectPreset{all[static_cast<std::size_t>(pick(static_cast<int>(all.size())))].note.name});
            return;
        }
        case 1: lab::apply_sweep(p, sweep_answer, lab::Sweep::Theta, std::pow(10.0, 0.1 + 8.9 * (rng() % 1000) / 1000.0)); break;
        case 2: lab::apply_sweep(p, sweep_answer, lab::Sweep::Factor, std::pow(10.0, 3.0 * (rng() % 1000) / 1000.0)); break;
        case 3: lab::apply_sweep(p, sweep_answer, lab::Sweep::Position, static_cast<double>(rng() % static_cast<std::uint64_t>(kMaxPosition + 1))); break;
        case 4: p.focused_view = pick(kViewCount + 1) - 1; break;
        case 5: p.encoding = static_cast<Encoding>(pick(3)); break;
        case 6: p.vectors = static_cast<VectorChoice>(pick(4)); break;
        case 7: p.max_distance = std::int64_t{1} << (4 + pick(pick(8) == 0 ? 21 : 17)); break;  // now and then up to 2^24
        case 8: p.angle_mode = static_cast<AngleMode>(pick(3)); break;
        case 9: {
            ModelConfig m = p.model;
            m.layout = m.layout == PairLayout::Half ? PairLayout::Interleaved : PairLayout::Half;
            m.head_dim = 2 * (1 + pick(256));  // up to 512, sometimes refused with partial rotary
            view.send(lab::cmd::SetModel{m});
            return;
        }
        case 10: p.log_distance = !p.log_distance; break;
        case 11: p.focused_pair = pick(512); break;  // refused past the model's pairs
    }
    view.send(lab::cmd::SetState{.state = p, .control = "", .notice = ""});
}

// Non-finite numbers must never reach the screen: checks what the views draw from.
bool all_finite(const Lab& lab) {
    const LabData& d = lab.compute().data();
    for (const auto* series : {&d.invariance_rope, &d.invariance_sinusoidal, &d.naive_error, &d.bf16_error}) {
        for (double v : *series) {
            if (!std::isfinite(v)) return false;
        }
    }
    // A pair left unrotated (p-RoPE, Gemma 4's proportional RoPE, a NoPE layer) has ω = 0 by design.
    for (std::size_t i = 0; i < d.freqs.inv_freq.size(); ++i) {
        const double f = d.freqs.inv_freq[i];
        const bool unrotated = i < d.freqs.unrotated.size() && d.freqs.unrotated[i];
        if (!std::isfinite(f) || f < 0 || (f == 0 && !unrotated)) return false;
    }
    return true;
}

}  // namespace

void MemoryWatch::sample() {
    resident_.push_back(platform::resident_kib());
    heap_.push_back(platform::live_heap_kib());
}

long MemoryWatch::median(const std::vector<long>& v, std::size_t from, std::size_t to) {
    if (from >= to) return 0;
    std::vector<long> part(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to));
    std::nth_element(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2), part.end());
    return part[part.size() / 2];
}

Soak::Soak(std::uint64_t seed, int frames, const LabParams& reference)
    // Warm-up: the tour has shown every size, view and preset; caches have filled.
    : rng_(seed), memory_(frames, std::max(soak_tour_length() + 50, std::min(2000, frames / 4))), reference_(reference) {}

void Soak::before_frame(views::LabView& view, int frame) {
    Lab& lab = view.lab();
    if (frame < soak_tour_length()) {
        // Exact curves at every size the tour visits (2^24 included), so the series'
        // front and back buffers are at their largest before memory is first sampled.
        lab.set_pace(frame + 1 < soak_tour_length() ? Pace::AllAtOnce : Pace::Interactive);
        soak_tour_step(view, frame);
    } else if (memory_.due(frame)) {
        view.send(lab::cmd::SetState{.state = reference_, .control = "", .notice = ""});
    } else {
        soak_step(view, rng_);
    }
    if (!all_finite(lab)) ++non_finite_frames_;
}

void Soak::after_frame(int frame) {
    if (memory_.due(frame)) memory_.sample();
}

void Soak::print(std::size_t frames_drawn) const {
    const auto& rss = memory_.resident();
    const auto& heap = memory_.heap();
    std::printf("{\"soak_frames\": %zu, \"non_finite_frames\": %d, \"gl_errors\": %d, "
                "\"rss_early_kib\": %ld, \"rss_late_kib\": %ld, \"rss_growth_percent\": %s, "
                "\"heap_early_kib\": %ld, \"heap_late_kib\": %ld, \"heap_growth_percent\": %s, "
                "\"rss_samples_kib\": [%s], \"heap_samples_kib\": [%s]}\n",
                frames_drawn, non_finite_frames_, gpu::gl_error_count(), MemoryWatch::early(rss),
                MemoryWatch::late(rss), exact_number(MemoryWatch::growth_percent(rss)).c_str(), MemoryWatch::early(heap),
                MemoryWatch::late(heap), exact_number(MemoryWatch::growth_percent(heap)).c_str(),
                fmt::format("{}", fmt::join(rss, ", ")).c_str(), fmt::format("{}", fmt::join(heap, ", ")).c_str());
}

}  // namespace ropelab
