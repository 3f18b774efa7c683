// Shared by every compute shader: exact phases and complex arithmetic.
// WORKGROUP_SIZE, SCORES_BLOCK, BOUND_BLOCK, HEATMAP_TILE and MODE_* come from
// src/gpu/kernel_config.h as #defines.

const float TWO_PI = 6.28318530717958647692;

// One term of score(Δ) = constant + Re Σ c·e^{iΔθ}; mirrors ReinschTerm in core/recurrence.h.
struct Term {
    vec2 coefficient;        // c
    uvec2 step;              // θ as a fixed-point step: turns × 2^64, (low, high) words
    float lambda;            // Reinsch: −4 sin²(θ'/2), θ' = θ folded into [−π/2, π/2]
    float sin_theta;         // sin θ'
    float alternate;         // −1 for folded terms: odd steps count negated
    float radians_per_step;  // θ unreduced, for the naive modes
};

// The top word of the exact phase m·step mod 2^64 (turns × 2^32), by integer multiplication.
// Valid for m < 2^32.
uint phase_word(uvec2 step, uint m) {
    uint carry, low;
    umulExtended(m, step.x, carry, low);
    return m * step.y + carry;
}

// The reduced angle of a phase word, in [−π, π).
float word_angle(uint word) { return float(int(word)) * (TWO_PI / 4294967296.0); }

float phase_angle(uvec2 step, uint m) { return word_angle(phase_word(step, m)); }

// e^{iφ} of a phase word without sin()/cos(): the nearest quarter turn comes from the top two
// bits, the rest (|x| ≤ π/4) from Taylor series good to 2e-8. Several times cheaper than the
// driver's sin and cos, each of which reduces its argument again.
vec2 word_rotor(uint word) {
    uint quarter = (word + 0x20000000u) >> 30;
    float x = float(int(word - (quarter << 30))) * (TWO_PI / 4294967296.0);
    float x2 = x * x;
    float s = x * (1.0 + x2 * (-1.0 / 6.0 + x2 * (1.0 / 120.0 + x2 * (-1.0 / 5040.0 + x2 * (1.0 / 362880.0)))));
    float c = 1.0 + x2 * (-0.5 + x2 * (1.0 / 24.0 + x2 * (-1.0 / 720.0 + x2 * (1.0 / 40320.0))));
    vec2 r = quarter == 0u ? vec2(c, s) : quarter == 1u ? vec2(-s, c)
           : quarter == 2u ? vec2(-c, -s) : vec2(s, -c);
    return r;
}

// The same for a 64-bit phase start + r·stride (heatmap rows at any position).
float phase_angle_from(uvec2 start, uvec2 stride, uint r) {
    uint carry, low;
    umulExtended(r, stride.x, carry, low);
    uint high = r * stride.y + carry;
    uint add_carry;
    low = uaddCarry(low, start.x, add_carry);
    high = high + start.y + add_carry;
    return float(int(high)) * (TWO_PI / 4294967296.0);
}

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

vec2 rotor(float angle) { return vec2(cos(angle), sin(angle)); }

float round_to_bf16(float x) {
    uint bits = floatBitsToUint(x);
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return uintBitsToFloat(bits & 0xFFFF0000u);
}

float positive_infinity() { return uintBitsToFloat(0x7F800000u); }

// A cyclic colormap for angles: a cosine palette, periodic in the angle by construction, so −π
// and π meet without a seam. Its coefficients come from core/colormap.h.
vec3 cyclic_color(float angle) {
    float t = angle / TWO_PI;
    return clamp(vec3(CYCLIC_A) + vec3(CYCLIC_B) * cos(TWO_PI * (t + vec3(CYCLIC_PHASE))), 0.0, 1.0);
}
