// score(Δ) = constant + Re Σ_i c_i·e^{iΔθ_i} for Δ = first .. end−1 (one slice of a curve: the
// lab computes long curves a few slices per frame).
// Exact mode: each invocation owns SCORES_BLOCK consecutive distances, anchors every term at
// the exact phase of its first distance and runs Reinsch's recurrence from there.
// Naive modes: every distance forms fp32 angles float(m)·θ and float(m−Δ)·θ, as frameworks do.
// With u_minus_exact the naive modes give naive(Δ) − exact(Δ) instead, taken term by term: the
// difference of two whole fp32 sums would drown it in their own rounding.
layout(local_size_x = WORKGROUP_SIZE) in;

// A uniform block, not a storage buffer: every invocation reads the same term at the same time,
// and software rasterisers turn such uniform reads into one scalar load instead of a gather.
layout(std140, binding = 0) uniform Terms { Term terms[MAX_TERMS]; };
layout(std430, binding = 1) writeonly buffer Scores { float scores[]; };
// (min, max) of each invocation's block, so M4 decimation reads one entry per full block.
layout(std430, binding = 2) writeonly buffer Extremes { vec2 extremes[]; };

layout(location = 0) uniform uint u_end;    // one past the slice's last distance
layout(location = 6) uniform uint u_first;  // the slice's first distance, a multiple of SCORES_BLOCK
layout(location = 1) uniform uint u_terms;
layout(location = 2) uniform float u_constant;
layout(location = 3) uniform int u_mode;
layout(location = 4) uniform int u_query_position;
layout(location = 5) uniform int u_minus_exact;

#if SCORES_BLOCK != 64
#error "the kernel below is unrolled for 64 distances (sixteen vec4 accumulators)"
#endif

// One recurrence step into an accumulator slot; the odd steps weigh folded terms by −1.
#define EVEN(slot) slot += y;               d += t.lambda * y; y += d;
#define ODD(slot)  slot += t.alternate * y; d += t.lambda * y; y += d;
#define FOUR(v) EVEN(v.x) ODD(v.y) EVEN(v.z) ODD(v.w)

vec2 naive_rotor(float radians_per_step, int position) {
    vec2 r = rotor(float(position) * radians_per_step);
    return u_mode == MODE_BF16 ? vec2(round_to_bf16(r.x), round_to_bf16(r.y)) : r;
}

// Re[c · q · conj(k)] for the keys at first_key, first_key − 1, − 2, − 3 (the distances
// first_distance .. + 3), less Re[c · e^{iΔθ}] at those distances when u_minus_exact is set.
vec4 naive_four(Term t, vec2 cq, int first_key, uint first_distance) {
    vec4 result;
    for (int j = 0; j < 4; ++j) {
        vec2 k = naive_rotor(t.radians_per_step, first_key - j);
        result[j] = cmul(cq, vec2(k.x, -k.y)).x;
        if (u_minus_exact != 0) {
            result[j] -= cmul(t.coefficient, word_rotor(phase_word(t.step, first_distance + uint(j)))).x;
        }
    }
    return result;
}

void main() {
    uint block = u_first / uint(SCORES_BLOCK) + gl_GlobalInvocationID.x;
    uint first = block * uint(SCORES_BLOCK);
    if (first >= u_end) return;

    // Named accumulators, not an array: dynamic array indexing is per-lane scratch memory on
    // SIMD software rasterisers.
    vec4 a0 = vec4(0.0), a1 = vec4(0.0), a2 = vec4(0.0), a3 = vec4(0.0);
    vec4 a4 = vec4(0.0), a5 = vec4(0.0), a6 = vec4(0.0), a7 = vec4(0.0);
    vec4 a8 = vec4(0.0), a9 = vec4(0.0), a10 = vec4(0.0), a11 = vec4(0.0);
    vec4 a12 = vec4(0.0), a13 = vec4(0.0), a14 = vec4(0.0), a15 = vec4(0.0);
    if (u_mode == MODE_EXACT) {
        for (uint i = 0u; i < u_terms; ++i) {
            Term t = terms[i];
            vec2 u = cmul(t.coefficient, word_rotor(phase_word(t.step, first)));
            float y = u.x;
            float d = -(0.5 * t.lambda * u.x + u.y * t.sin_theta);  // y_0 − y_{−1}
            FOUR(a0) FOUR(a1) FOUR(a2) FOUR(a3) FOUR(a4) FOUR(a5) FOUR(a6) FOUR(a7)
            FOUR(a8) FOUR(a9) FOUR(a10) FOUR(a11) FOUR(a12) FOUR(a13) FOUR(a14) FOUR(a15)
        }
    } else {
        int key = u_query_position - int(first);
        for (uint i = 0u; i < u_terms; ++i) {
            Term t = terms[i];
            vec2 cq = cmul(t.coefficient, naive_rotor(t.radians_per_step, u_query_position));
            a0 += naive_four(t, cq, key, first);
            a1 += naive_four(t, cq, key - 4, first + 4u);
            a2 += naive_four(t, cq, key - 8, first + 8u);
            a3 += naive_four(t, cq, key - 12, first + 12u);
            a4 += naive_four(t, cq, key - 16, first + 16u);
            a5 += naive_four(t, cq, key - 20, first + 20u);
            a6 += naive_four(t, cq, key - 24, first + 24u);
            a7 += naive_four(t, cq, key - 28, first + 28u);
            a8 += naive_four(t, cq, key - 32, first + 32u);
            a9 += naive_four(t, cq, key - 36, first + 36u);
            a10 += naive_four(t, cq, key - 40, first + 40u);
            a11 += naive_four(t, cq, key - 44, first + 44u);
            a12 += naive_four(t, cq, key - 48, first + 48u);
            a13 += naive_four(t, cq, key - 52, first + 52u);
            a14 += naive_four(t, cq, key - 56, first + 56u);
            a15 += naive_four(t, cq, key - 60, first + 60u);
        }
    }

    vec4 acc[16] = vec4[16](a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
    vec2 range = vec2(positive_infinity(), -positive_infinity());
    for (uint n = 0u; n < uint(SCORES_BLOCK); ++n) {
        if (first + n < u_end) {
            float score = u_constant + acc[n >> 2u][n & 3u];
            scores[first + n] = score;
            range = vec2(min(range.x, score), max(range.y, score));
        }
    }
    extremes[block] = range;
}
