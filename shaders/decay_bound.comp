// RoFormer's bound B(Δ) = (1/P) Σ_{j=1..P} |S_j(Δ)|, S_j = Σ_{k<j} e^{iΔθ_k}, for Δ in one slice [first, end).
// Each invocation owns BOUND_BLOCK distances; per pair it anchors e^{iΔθ_k} exactly at the
// first one and rotates it forward (phasor recurrence) through the block.
layout(local_size_x = WORKGROUP_SIZE) in;

layout(std140, binding = 0) uniform Terms { Term terms[MAX_TERMS]; };  // coefficient = e^{iθ}
layout(std430, binding = 1) writeonly buffer Bound { float bound[]; };
layout(std430, binding = 2) writeonly buffer Extremes { vec2 extremes[]; };  // per block, for M4

layout(location = 0) uniform uint u_end;    // one past the slice's last distance
layout(location = 2) uniform uint u_first;  // the slice's first distance, a multiple of BOUND_BLOCK
layout(location = 1) uniform uint u_pairs;

void main() {
    uint block = u_first / uint(BOUND_BLOCK) + gl_GlobalInvocationID.x;
    uint first = block * uint(BOUND_BLOCK);
    if (first >= u_end) return;

    vec2 partial[BOUND_BLOCK];
    float total[BOUND_BLOCK];
    for (int n = 0; n < BOUND_BLOCK; ++n) {
        partial[n] = vec2(0.0);
        total[n] = 0.0;
    }
    for (uint k = 0u; k < u_pairs; ++k) {
        Term t = terms[k];
        vec2 z = word_rotor(phase_word(t.step, first));
        for (int n = 0; n < BOUND_BLOCK; ++n) {
            partial[n] += z;
            total[n] += length(partial[n]);
            z = cmul(z, t.coefficient);
        }
    }
    vec2 range = vec2(positive_infinity(), -positive_infinity());
    for (int n = 0; n < BOUND_BLOCK; ++n) {
        if (first + uint(n) < u_end) {
            float b = total[n] / float(u_pairs);
            bound[first + uint(n)] = b;
            range = vec2(min(range.x, b), max(range.y, b));
        }
    }
    extremes[block] = range;
}
