#include "lab/frame.h"

#include <algorithm>

#include "state/compare.h"

namespace ropelab::lab {

using namespace products;

int Frame::setting_index(int setting) const { return std::clamp(setting, 0, std::min(kSettings, compute_.settings()) - 1); }

const Planes& Frame::planes(int setting) const {
    const int s = setting_index(setting);
    return planes_[static_cast<std::size_t>(s)].get(planes_inputs(params_, compute_.setting_data(s)), compute_planes);
}

const Contrast& Frame::contrast(int setting) const {
    const int s = setting_index(setting);
    return contrast_[static_cast<std::size_t>(s)].get(contrast_inputs(params_, compute_.setting_data(s)), compute_contrast);
}

const Numbers& Frame::numbers(int setting) const {
    const int s = setting_index(setting);
    return numbers_[static_cast<std::size_t>(s)].get(numbers_inputs(params_, compute_.setting_data(s)), compute_numbers);
}

const Phasors& Frame::phasors(int setting) const {
    const int s = setting_index(setting);
    return phasors_[static_cast<std::size_t>(s)].get(phasors_inputs(params_, compute_.setting_data(s)), compute_phasors);
}

const Frequencies& Frame::frequencies(int setting) const {
    const int s = setting_index(setting);
    return frequencies_[static_cast<std::size_t>(s)].get(frequencies_inputs(setting_params(params_, s), compute_.setting_data(s)),
                                                         compute_frequencies_product);
}

const Heatmap& Frame::heatmap(int difference) const {
    const LabData* other = difference > 0 && difference < compute_.settings() ? &compute_.setting_data(difference) : nullptr;
    return heatmap_.get(heatmap_inputs(params_, compute_.data(), other), compute_heatmap);
}

const PairingStrip& Frame::pairing_strip() const {
    return pairing_strip_.get(pairing_strip_inputs(params_, compute_.data()), compute_pairing_strip);
}

Frame::Computed Frame::computed() const {
    return {planes_[0].computed(), contrast_[0].computed(),    numbers_[0].computed(),   phasors_[0].computed(),
            frequencies_[0].computed(), heatmap_.computed(), pairing_strip_.computed()};
}

}  // namespace ropelab::lab
