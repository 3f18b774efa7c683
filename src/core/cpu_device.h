#pragma once
// The compute device on the CPU (core/cpu_kernels.h: blocks anchored at exact phases, SIMD
// recurrences over all cores). The pure-tier tests hand it to the lab; the GL device
// (src/gpu/gl_device.h) keeps one for its fallback (no compute shaders, or more terms than
// the kernels hold), so both give the same numbers. Its pictures are 0: it has no GL.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/compute_device.h"

namespace ropelab {

class CpuDevice final : public ComputeDevice {
public:
    CpuDevice() = default;
    // The notice of a GPU that could not be had, for the UI (the GL device's fallback).
    explicit CpuDevice(std::string fallback_reason) : fallback_reason_(std::move(fallback_reason)) {}

    bool is_gpu() const override { return false; }
    const std::string& name() const override { return name_; }
    std::string_view kernel_name() const override { return "cpu"; }
    const std::string& fallback_reason() const override { return fallback_reason_; }

    std::span<const float> scores(const PhasorSum& sum, std::int64_t count, AngleMode mode) override;
    std::span<const float> decay_bound(const RopeFrequencies& freqs, std::int64_t count) override;
    void set_timing(bool) override {}  // nothing to split: no kernel, no transfer
    const Timing& last_timing() const override { return timing_; }

    std::int64_t slice_unit(const SeriesJob& job) const override;
    void begin(const SeriesJob& job) override;
    void advance(const SeriesJob& job, std::int64_t from, std::int64_t to) override;
    void commit(Series slot) override;
    void pair_buffers(bool) override {}  // the back buffer is reassigned whole at begin()
    void finish() override {}            // every slice is done when advance() returns

    std::int64_t series_size(Series slot) const override;
    std::vector<M4Column> decimate(Series slot, std::span<const std::uint32_t> boundaries) override;
    float series_value(Series slot, std::int64_t index) override;
    std::vector<float> read_series(Series slot) const override;

    // No GL here: 0 = no picture on this device (see ComputeDevice).
    unsigned heatmap_texture(std::span<const PhaseStep>, std::int64_t, std::int64_t, int) override { return 0; }
    unsigned difference_heatmap_texture(std::span<const PhaseStep>, std::span<const PhaseStep>, std::int64_t,
                                        std::int64_t, int) override {
        return 0;
    }
    unsigned image_texture(int, int, int, std::span<const std::uint8_t>) override { return 0; }

    // The series' values (the GL device's fallback reads them without a copy).
    std::span<const float> values(Series slot) const { return front_[static_cast<int>(slot)]; }

private:
    std::span<const float> computed(const SeriesJob& job);  // scores() and decay_bound()
    std::string name_ = "cpu";
    std::string fallback_reason_;
    Timing timing_;
    std::vector<float> front_[kSeriesCount];
    std::vector<float> back_[kSeriesCount];  // a job's slices before commit, whole blocks
    std::int64_t back_count_[kSeriesCount] = {};
    std::vector<float> result_;  // scores() and decay_bound(), reused from call to call
};

}  // namespace ropelab
