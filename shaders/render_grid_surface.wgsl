// render_grid_surface: grid water drawn as a displaced mesh (the bodies on it: render_bodies.wgsl).
// Host twin: crates/water-render/src/grid_surface.rs (`GridSurfaceRenderer`).
//
// World frame: the grid's, metres, x and y across the grid from its corner, z up, still water at
// z = 0; cell (i, j) has its centre at ((i + 0.5) h, (j + 0.5) h). The mesh has its own
// resolution: its vertices sample the surface texture of crates/water-gpu/src/normal_height.rs
// (w = height) bilinearly between cell centres, so a 128-quad mesh can show a 1024-cell grid and
// the other way round.
//
// `displaced_height` is the one height function both shaders use: the cell heights times the
// height scale, faded to zero toward the rim (so the mesh meets a still shore instead of ending
// in a cliff) and zero inside hulls (the demo's `collision_texture` test: waves would otherwise
// show through the hull's floor). The fragment shader takes its normal from differences of that
// function along x and along y, per pixel.

#import water_light

struct SurfaceRenderUniforms {
    view_proj: mat4x4<f32>,
    eye: vec4<f32>,           // xyz: camera position (m); w: 1 perspective, 0 orthographic
    view_dir: vec4<f32>,      // xyz: view direction of an orthographic camera
    sun: vec4<f32>,           // xyz: unit direction toward the sun; w: specular exponent
    water_colour: vec4<f32>,  // rgb: colour of deep water (linear); w: absorption per metre
    sky_colour: vec4<f32>,    // rgb: sky at the horizon (linear); w: floor texture tile (m)
    grid: vec4<f32>,          // x: cells along x, y: cells along y, z: cell size h (m), w: height scale
    mesh: vec4<f32>,          // x: quads along x, y: quads along y, z: rim fade (m), w: floor depth (m)
    flags: vec4<u32>,         // x: view (0 lit, 1 normals, 2 heights), y: 1 with a hull mask, z: 1 with foam
}

@group(0) @binding(0) var<uniform> u: SurfaceRenderUniforms;
@group(0) @binding(1) var surface: texture_2d<f32>;
@group(0) @binding(2) var hull_mask: texture_2d<f32>;
@group(0) @binding(3) var floor_texture: texture_2d<f32>;
@group(0) @binding(4) var floor_sampler: sampler;
@group(0) @binding(5) var foam_texture: texture_2d<f32>;

const VIEW_LIT: u32 = 0u;
const VIEW_NORMALS: u32 = 1u;
const VIEW_HEIGHTS: u32 = 2u;

// Size of the water, metres.
fn extent() -> vec2<f32> {
    return u.grid.xy * u.grid.z;
}

// A texel of `t`, clamped to its edge.
fn texel(t: texture_2d<f32>, cell: vec2<i32>) -> vec4<f32> {
    let last = vec2<i32>(textureDimensions(t)) - vec2<i32>(1, 1);
    return textureLoad(t, clamp(cell, vec2<i32>(0, 0), last), 0);
}

// `t` (one texel a cell) at world position p, bilinear between cell centres (the surface
// texture is Rgba32Float, which not every device can filter, so the filter is written out).
fn cell_bilinear(t: texture_2d<f32>, p: vec2<f32>) -> vec4<f32> {
    let c = p / u.grid.z - vec2<f32>(0.5, 0.5);
    let base = floor(c);
    let f = c - base;
    let i = vec2<i32>(base);
    let s00 = texel(t, i);
    let s10 = texel(t, i + vec2<i32>(1, 0));
    let s01 = texel(t, i + vec2<i32>(0, 1));
    let s11 = texel(t, i + vec2<i32>(1, 1));
    return mix(mix(s00, s10, f.x), mix(s01, s11, f.x), f.y);
}

// Cell height at world position p (m).
fn cell_height(p: vec2<f32>) -> f32 {
    return cell_bilinear(surface, p).w;
}

// The foam's coverage at p (0 to 1); 0 without foam.
fn foam_at(p: vec2<f32>) -> f32 {
    if (u.flags.z == 0u) {
        return 0.0;
    }
    return clamp(cell_bilinear(foam_texture, p).x, 0.0, 1.0);
}

// 1 away from the rim, falling smoothly over the rim fade width to 0 at the centres of the rim
// cells (where a fixed boundary holds the water still) and beyond.
fn rim_fade(p: vec2<f32>) -> f32 {
    if (u.mesh.z <= 0.0) {
        return 1.0;
    }
    let e = extent();
    let half_cell = 0.5 * u.grid.z;
    let d = min(min(p.x, e.x - p.x), min(p.y, e.y - p.y)) - half_cell;
    return smoothstep(0.0, u.mesh.z, d);
}

// 0 where a hull cuts the water (any non-zero mask value in the cell under p), else 1.
fn open_water(p: vec2<f32>) -> f32 {
    if (u.flags.y == 0u) {
        return 1.0;
    }
    let cell = vec2<i32>(floor(p / u.grid.z));
    return select(1.0, 0.0, texel(hull_mask, cell).x != 0.0);
}

// The drawn height at world position p, metres.
fn displaced_height(p: vec2<f32>) -> f32 {
    return cell_height(p) * u.grid.w * rim_fade(p) * open_water(p);
}

// Unit normal of the drawn surface at p: central differences one cell apart along x and
// along y.
fn surface_normal(p: vec2<f32>) -> vec3<f32> {
    let h = u.grid.z;
    let dx = vec2<f32>(h, 0.0);
    let dy = vec2<f32>(0.0, h);
    let slope_x = (displaced_height(p + dx) - displaced_height(p - dx)) / (2.0 * h);
    let slope_y = (displaced_height(p + dy) - displaced_height(p - dy)) / (2.0 * h);
    return normalize(vec3<f32>(-slope_x, -slope_y, 1.0));
}

struct WaterVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> WaterVertex {
    let quads = vec2<u32>(u.mesh.xy);
    let column = index % (quads.x + 1u);
    let row = index / (quads.x + 1u);
    let p = vec2<f32>(f32(column), f32(row)) / u.mesh.xy * extent();
    let world = vec3<f32>(p, displaced_height(p));
    var out: WaterVertex;
    out.clip = u.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

@fragment
fn fs_main(v: WaterVertex) -> @location(0) vec4<f32> {
    let n = surface_normal(v.world.xy);
    if (u.flags.x == VIEW_NORMALS) {
        return vec4<f32>(n * 0.5 + vec3<f32>(0.5, 0.5, 0.5), 1.0);
    }
    if (u.flags.x == VIEW_HEIGHTS) {
        // Per pixel, like the normal, not interpolated between the mesh's vertices.
        let scale = max(abs(u.grid.w), 1e-30);
        return vec4<f32>(diverging(clamp(displaced_height(v.world.xy) / scale, -1.0, 1.0)), 1.0);
    }
    // Toward the camera.
    let to_eye = select(-u.view_dir.xyz, normalize(u.eye.xyz - v.world), u.eye.w > 0.5);
    let cos_theta = dot(n, to_eye);
    let reflectance = fresnel(cos_theta);
    let reflected = reflect(-to_eye, n);
    // Refraction into the water (index 1.333) down to the floor, then the floor's colour seen
    // through the water it crossed.
    let refracted = refract(-to_eye, n, 1.0 / 1.333);
    var below = u.water_colour.rgb;
    if (refracted.z < -1e-4) {
        let depth = u.mesh.w + v.world.z;
        let t = depth / -refracted.z;
        let hit = v.world + refracted * t;
        let floor_colour = textureSampleLevel(floor_texture, floor_sampler, hit.xy / u.sky_colour.w, 0.0).rgb;
        let seen = exp(-u.water_colour.w * t);
        below = mix(u.water_colour.rgb, floor_colour, seen);
    }
    let specular = pow(max(dot(reflected, u.sun.xyz), 0.0), u.sun.w);
    let water = mix(below, sky_gradient(u.sky_colour.rgb, reflected), reflectance) + vec3<f32>(specular);
    return vec4<f32>(with_foam(water, n, u.sun.xyz, foam_at(v.world.xy)), 1.0);
}
