// M4 decimation: per pixel column, the first, last, smallest and largest sample of a series
// that never leaves the GPU. Column c covers samples [bounds[c], bounds[c+1]); an empty column
// gets min = +inf > max = −inf.
// The kernel that wrote the series also wrote the (min, max) of every block of u_block samples,
// so a column reads raw samples only in its partial first and last blocks. One invocation per
// column, no barriers (a workgroup-wide reduction was 3× slower on llvmpipe). The caller keeps
// every loop under the iteration cap software drivers put on shader loops (65535 in llvmpipe).
layout(local_size_x = WORKGROUP_SIZE) in;

layout(std430, binding = 1) readonly buffer Series { float series[]; };
layout(std430, binding = 2) readonly buffer Bounds { uint bounds[]; };
layout(std430, binding = 3) writeonly buffer Columns { vec4 columns[]; };
layout(std430, binding = 4) readonly buffer Extremes { vec2 extremes[]; };

layout(location = 0) uniform uint u_columns;
layout(location = 1) uniform uint u_block;

vec2 widen(vec2 range, float v) { return vec2(min(range.x, v), max(range.y, v)); }

void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= u_columns) return;
    uint begin = bounds[c], end = bounds[c + 1u];
    vec2 range = vec2(positive_infinity(), -positive_infinity());
    vec4 column = vec4(0.0);
    if (begin < end) {
        column.xy = vec2(series[begin], series[end - 1u]);
        uint first_block = (begin + u_block - 1u) / u_block;  // first block wholly inside
        uint last_block = end / u_block;                      // one past the last such block
        if (first_block < last_block) {
            for (uint i = begin; i < first_block * u_block; ++i) range = widen(range, series[i]);
            for (uint b = first_block; b < last_block; ++b) {
                vec2 e = extremes[b];
                range = vec2(min(range.x, e.x), max(range.y, e.y));
            }
            for (uint i = last_block * u_block; i < end; ++i) range = widen(range, series[i]);
        } else {
            for (uint i = begin; i < end; ++i) range = widen(range, series[i]);
        }
    }
    columns[c] = vec4(column.xy, range);
}
