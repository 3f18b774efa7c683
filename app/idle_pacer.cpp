#include "idle_pacer.h"

#include <cstring>

#include <imgui.h>

namespace ropelab {

void IdlePacer::after_frame(const Frame& f) {
    const bool changed = first_ || f.busy || f.input_events != last_.input_events || f.picture != last_.picture;
    quiet_frames_ = changed ? 0 : quiet_frames_ + 1;
    last_ = f;
    first_ = false;
}

double IdlePacer::wait_before_next(double now) const {
    if (first_) return 0.0;
    if (idle()) return kIdleWaitSeconds;
    const double left = last_.started + frame_period_ - now;
    return left > 0.0 ? left : 0.0;
}

namespace {

// FNV-1a over 64-bit words (and the tail's bytes): a few GB/s, against frames of a few MB.
class Fingerprint {
public:
    void add(const void* data, std::size_t bytes) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (; bytes >= 8; p += 8, bytes -= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, p, 8);
            mix(word);
        }
        for (; bytes > 0; ++p, --bytes) mix(*p);
    }
    template <typename T>
    void add(const T& value) { add(&value, sizeof value); }
    std::uint64_t value() const { return hash_; }

private:
    void mix(std::uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001b3ull; }
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::uint64_t draw_fingerprint(const ImDrawData* data) {
    Fingerprint f;
    if (!data || !data->Valid) return f.value();
    f.add(data->DisplayPos);
    f.add(data->DisplaySize);
    for (int i = 0; i < data->CmdListsCount; ++i) {
        const ImDrawList& list = *data->CmdLists[i];
        f.add(list.VtxBuffer.Data, static_cast<std::size_t>(list.VtxBuffer.Size) * sizeof(ImDrawVert));
        f.add(list.IdxBuffer.Data, static_cast<std::size_t>(list.IdxBuffer.Size) * sizeof(ImDrawIdx));
        for (const ImDrawCmd& cmd : list.CmdBuffer) {
            f.add(cmd.ClipRect);
            f.add(cmd.TextureId);
            f.add(cmd.VtxOffset);
            f.add(cmd.IdxOffset);
            f.add(cmd.ElemCount);
            f.add(cmd.UserCallback);
            f.add(cmd.UserCallbackData);
        }
    }
    return f.value();
}

}  // namespace ropelab
