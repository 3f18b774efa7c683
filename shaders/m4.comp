// M4 decimation: per pixel column, the first, last, smallest and largest sample of a series
// that never leaves the GPU. Column c covers samples [bounds[c], bounds[c+1]); an empty column
// gets min = +inf > max = −inf. One workgroup per column: its invocations stride through the
// column and reduce in shared memory, so each loop stays far below the iteration cap software
// drivers put on shader loops (65535 in llvmpipe).
layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = 1) readonly buffer Series { float series[]; };
layout(std430, binding = 2) readonly buffer Bounds { uint bounds[]; };
layout(std430, binding = 3) writeonly buffer Columns { vec4 columns[]; };

shared vec2 extremes[WORKGROUP_SIZE];  // (min, max) per invocation

void main() {
    uint c = gl_WorkGroupID.x;
    uint lane = gl_LocalInvocationID.x;
    uint begin = bounds[c], end = bounds[c + 1u];

    vec2 range = vec2(positive_infinity(), -positive_infinity());
    for (uint i = begin + lane; i < end; i += uint(WORKGROUP_SIZE)) {
        float v = series[i];
        range = vec2(min(range.x, v), max(range.y, v));
    }
    extremes[lane] = range;
    barrier();
    for (uint half_size = uint(WORKGROUP_SIZE) / 2u; half_size > 0u; half_size >>= 1u) {
        if (lane < half_size) {
            vec2 other = extremes[lane + half_size];
            extremes[lane] = vec2(min(extremes[lane].x, other.x), max(extremes[lane].y, other.y));
        }
        barrier();
    }
    if (lane == 0u) {
        bool empty = begin >= end;
        columns[c] = vec4(empty ? 0.0 : series[begin], empty ? 0.0 : series[end - 1u], extremes[0]);
    }
}
