#pragma once
// Where one update of the lab spent its time, product by product: `gui --stats` names the
// product behind the slowest frame, so a frame over budget points at what to move off the frame.
#include <chrono>
#include <string>
#include <vector>

namespace ropelab::lab {

struct FrameCosts {
    struct Part {
        std::string product;  // "scores", "image grid", "attention", "plot columns", …
        double ms = 0.0;
    };
    std::vector<Part> parts;

    void clear() { parts.clear(); }
    void add(const std::string& product, double ms) {
        for (Part& p : parts) {
            if (p.product == product) {
                p.ms += ms;
                return;
            }
        }
        parts.push_back({product, ms});
    }
    // The costliest part, or nullptr when nothing was timed.
    const Part* largest() const {
        const Part* most = nullptr;
        for (const Part& p : parts) {
            if (!most || p.ms > most->ms) most = &p;
        }
        return most;
    }
    double total_ms() const {
        double sum = 0.0;
        for (const Part& p : parts) sum += p.ms;
        return sum;
    }
};

// Times a scope into `costs` under `product` (steady clock, wall time: device waits count).
class TimedPart {
public:
    TimedPart(FrameCosts& costs, const char* product)
        : costs_(costs), product_(product), start_(std::chrono::steady_clock::now()) {}
    ~TimedPart() {
        costs_.add(product_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count());
    }
    TimedPart(const TimedPart&) = delete;
    TimedPart& operator=(const TimedPart&) = delete;

private:
    FrameCosts& costs_;
    const char* product_;
    std::chrono::steady_clock::time_point start_;
};

}  // namespace ropelab::lab
