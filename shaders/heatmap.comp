// The rotation angle of every pair at positions first + r·stride, written to an r32f image
// (x = pair, y = row) that the app samples with a cyclic colormap. Angles in radians, [−π, π).
layout(local_size_x = HEATMAP_TILE, local_size_y = HEATMAP_TILE) in;

layout(r32f, binding = 0) writeonly uniform image2D u_angles;
layout(rgba8, binding = 1) writeonly uniform image2D u_colors;
// Per pair: xy = phase of the first row, zw = phase advance per row (both turns × 2^64).
layout(std430, binding = 0) readonly buffer Phases { uvec4 phases[]; };

layout(location = 0) uniform int u_pairs;
layout(location = 1) uniform int u_rows;

void main() {
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    if (texel.x >= u_pairs || texel.y >= u_rows) return;
    uvec4 p = phases[texel.x];
    float angle = phase_angle_from(p.xy, p.zw, uint(texel.y));
    imageStore(u_angles, texel, vec4(angle, 0.0, 0.0, 0.0));
    imageStore(u_colors, texel, vec4(cyclic_color(angle), 1.0));
}
