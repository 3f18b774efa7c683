// The GPU-shaped exact kernel for score(Δ) = constant + Re Σ_i c_i·e^{iΔθ_i}, Δ in [first, end).
// A real GPU needs many short invocations, not the serial kernel's few long ones: here each
// invocation owns TILED_RUN consecutive distances (one exact 64-bit phase anchor per term, then
// Reinsch's recurrence, as in scores.comp), a workgroup TILED_GROUP of them. Terms are staged
// into shared memory a tile at a time (every invocation then reads the same one: a broadcast),
// results go out through shared memory so that neighbouring invocations write neighbouring
// addresses (coalesced), and each workgroup reduces its own (min, max) for M4.
layout(local_size_x = TILED_GROUP) in;

layout(std430, binding = 3) readonly buffer Terms { Term terms[]; };
layout(std430, binding = 1) writeonly buffer Scores { float scores[]; };
layout(std430, binding = 2) writeonly buffer Extremes { vec2 extremes[]; };  // one per workgroup

layout(location = 0) uniform uint u_end;
layout(location = 1) uniform uint u_terms;
layout(location = 2) uniform float u_constant;
layout(location = 6) uniform uint u_first;  // a multiple of TILED_GROUP·TILED_RUN

const uint BLOCK = uint(TILED_GROUP * TILED_RUN);
const uint PADDED_RUN = uint(TILED_RUN + 1);  // an odd stride: no shared-memory bank conflicts

shared vec2 tile_coefficient[TILED_GROUP];
shared uvec2 tile_step[TILED_GROUP];
shared vec3 tile_recurrence[TILED_GROUP];  // (λ, sin θ', alternate)
shared float staged[TILED_GROUP * (TILED_RUN + 1)];
shared vec2 ranges[TILED_GROUP];

void main() {
    uint local = gl_LocalInvocationID.x;
    uint group = u_first / BLOCK + gl_WorkGroupID.x;
    uint base = group * BLOCK;
    uint first = base + local * uint(TILED_RUN);

    float acc[TILED_RUN];
    for (int r = 0; r < TILED_RUN; ++r) acc[r] = 0.0;
    for (uint tile = 0u; tile < u_terms; tile += uint(TILED_GROUP)) {
        if (tile + local < u_terms) {
            Term t = terms[tile + local];
            tile_coefficient[local] = t.coefficient;
            tile_step[local] = t.step;
            tile_recurrence[local] = vec3(t.lambda, t.sin_theta, t.alternate);
        }
        barrier();
        uint n = min(uint(TILED_GROUP), u_terms - tile);
        for (uint j = 0u; j < n; ++j) {
            vec3 rec = tile_recurrence[j];
            vec2 u = cmul(tile_coefficient[j], word_rotor(phase_word(tile_step[j], first)));
            float y = u.x;
            float d = -(0.5 * rec.x * u.x + u.y * rec.y);  // y_0 − y_{−1}
            for (int r = 0; r < TILED_RUN; r += 2) {  // odd steps weigh folded terms by −1
                acc[r] += y;          d += rec.x * y; y += d;
                acc[r + 1] += rec.z * y; d += rec.x * y; y += d;
            }
        }
        barrier();
    }

    vec2 range = vec2(positive_infinity(), -positive_infinity());
    for (int r = 0; r < TILED_RUN; ++r) {
        float score = u_constant + acc[r];
        staged[local * PADDED_RUN + uint(r)] = score;
        if (first + uint(r) < u_end) range = vec2(min(range.x, score), max(range.y, score));
    }
    ranges[local] = range;
    barrier();
    for (int r = 0; r < TILED_RUN; ++r) {
        uint k = uint(r) * uint(TILED_GROUP) + local;  // neighbouring invocations, neighbouring Δ
        if (base + k < u_end) scores[base + k] = staged[(k / uint(TILED_RUN)) * PADDED_RUN + k % uint(TILED_RUN)];
    }
    for (uint width = uint(TILED_GROUP) / 2u; width > 0u; width >>= 1) {
        if (local < width) {
            vec2 other = ranges[local + width];
            ranges[local] = vec2(min(ranges[local].x, other.x), max(ranges[local].y, other.y));
        }
        barrier();
    }
    if (local == 0u) extremes[group] = ranges[0];
}
