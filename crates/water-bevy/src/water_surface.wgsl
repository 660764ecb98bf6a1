// The water surface: a grid mesh (one vertex per cell, uv at the cell centres) displaced by the
// height texture, lit per pixel by Bevy's PBR lighting with normals from the heights' central
// differences, interpolated bilinearly between cells. Mirrors water_core's HeightView: heights
// along +y, grid rows toward -z, gradients in world units.

#import bevy_pbr::forward_io::{Vertex, VertexOutput, FragmentOutput}
#import water_bevy::surface_pass::{placed_vertex, lit_pixel}

struct WaterSurface {
    // Cell size, metres.
    cell_size: f32,
    // Scale of the heights as drawn (1: true heights).
    height_scale: f32,
    // The texel channel holding the height: 0 (r) for the CPU's R32Float texture, 3 (w) for
    // the GPU's normal-and-height texels.
    height_channel: u32,
    // 1 with foam to draw.
    has_foam: u32,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var heights: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(101) var<uniform> surface: WaterSurface;
@group(#{MATERIAL_BIND_GROUP}) @binding(102) var foam: texture_2d<f32>;

// The foam's coverage at uv (0 to 1), bilinear between cell centres; 0 without foam.
fn foam_at(uv: vec2<f32>) -> f32 {
    if (surface.has_foam == 0u) {
        return 0.0;
    }
    let size = vec2<f32>(textureDimensions(foam));
    let last = vec2<i32>(size) - vec2<i32>(1);
    let p = uv * size - vec2<f32>(0.5);
    let base = vec2<i32>(floor(p));
    let f = p - floor(p);
    let c00 = textureLoad(foam, clamp(base, vec2<i32>(0), last), 0).x;
    let c10 = textureLoad(foam, clamp(base + vec2<i32>(1, 0), vec2<i32>(0), last), 0).x;
    let c01 = textureLoad(foam, clamp(base + vec2<i32>(0, 1), vec2<i32>(0), last), 0).x;
    let c11 = textureLoad(foam, clamp(base + vec2<i32>(1, 1), vec2<i32>(0), last), 0).x;
    return clamp(mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y), 0.0, 1.0);
}


fn height_at(texel: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(heights)) - vec2<i32>(1);
    let texel_value = textureLoad(heights, clamp(texel, vec2<i32>(0), last), 0);
    return texel_value[surface.height_channel] * surface.height_scale;
}

// Central differences in world units: (dh/dx, dh/drow), rows running toward -z.
fn gradient_at(texel: vec2<i32>) -> vec2<f32> {
    let gx = height_at(texel + vec2<i32>(1, 0)) - height_at(texel - vec2<i32>(1, 0));
    let gy = height_at(texel + vec2<i32>(0, 1)) - height_at(texel - vec2<i32>(0, 1));
    return vec2<f32>(gx, gy) / (2.0 * surface.cell_size);
}

@vertex
fn vertex(vertex: Vertex) -> VertexOutput {
    let size = vec2<f32>(textureDimensions(heights));
    let texel = vec2<i32>(floor(vertex.uv * size));
    var position = vertex.position;
    position.y += height_at(texel);
    return placed_vertex(vertex.instance_index, position, vertex.uv);
}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    let size = vec2<f32>(textureDimensions(heights));
    // Texel centres sit at (i + 0.5) / size: blend the gradients of the four around.
    let p = in.uv * size - vec2<f32>(0.5);
    let base = vec2<i32>(floor(p));
    let f = p - floor(p);
    let g = mix(
        mix(gradient_at(base), gradient_at(base + vec2<i32>(1, 0)), f.x),
        mix(gradient_at(base + vec2<i32>(0, 1)), gradient_at(base + vec2<i32>(1, 1)), f.x),
        f.y,
    );
    // y = h(x, z) with z = -row: the normal is (-dh/dx, 1, -dh/dz) = (-gx, 1, gy).
    let n = normalize(vec3<f32>(-g.x, 1.0, g.y));
    return lit_pixel(in, is_front, n, foam_at(in.uv));
}
