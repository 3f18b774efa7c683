// Scores over an image: one invocation per offset (Δh, Δw) of the Δt = u_dt slice,
//   score(Δ) = passthrough + Re Σ_j c_j · e^{i ω_j·Δ},
// the angle ω_j·Δ as an exact phase word: Σ over the axes of Δ_a·step_a (turns × 2^64, the
// top word kept), so it is good to 2^-32 turn for every offset, however far.
layout(local_size_x = WORKGROUP_SIZE) in;

struct GridPair {
    vec2 coefficient;  // c_j
    uvec2 step_t;      // ω_j along t, h, w as fixed-point steps (low, high words)
    uvec2 step_h;
    uvec2 step_w;
};

layout(std430, binding = 0) readonly buffer Pairs { GridPair pairs[]; };
layout(std430, binding = 1) writeonly buffer Values { float values[]; };

layout(location = 0) uniform int u_pairs;
layout(location = 1) uniform int u_height;  // H: Δh runs −(H−1) … H−1
layout(location = 2) uniform int u_width;   // W: Δw runs −(W−1) … W−1
layout(location = 3) uniform int u_dt;
layout(location = 4) uniform float u_passthrough;

// The top word of Δ·step for a signed Δ: a negative offset turns the other way.
uint signed_phase_word(uvec2 step, int delta) {
    uint word = phase_word(step, uint(abs(delta)));
    return delta < 0 ? 0u - word : word;
}

void main() {
    int columns = 2 * u_width - 1;
    int index = int(gl_GlobalInvocationID.x);
    if (index >= (2 * u_height - 1) * columns) return;
    int dh = index / columns - (u_height - 1);
    int dw = index % columns - (u_width - 1);
    float sum = 0.0;
    for (int j = 0; j < u_pairs; ++j) {
        GridPair p = pairs[j];
        uint word = signed_phase_word(p.step_t, u_dt) + signed_phase_word(p.step_h, dh) + signed_phase_word(p.step_w, dw);
        vec2 r = word_rotor(word);
        sum += p.coefficient.x * r.x - p.coefficient.y * r.y;
    }
    values[index] = sum + u_passthrough;
}
