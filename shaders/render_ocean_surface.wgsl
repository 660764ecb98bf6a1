// render_ocean_surface: the sea to the horizon, the ambient sea plus the interactive grid inside
// it, over a sky. Host twin: crates/water-render/src/ocean_surface.rs
// (`OceanSurfaceRenderer`); the mesh: crates/water-gpu/src/ring_mesh.rs (`RingMesh`).
//
// World frame: metres, z up, still water at z = 0. The ambient sea is the tiles of
// crates/water-gpu/src/ocean_synthesis.rs (`OceanSynthesis`): tile t repeats every
// `tile_length(t)` metres, sample (i, j) at (i, j) * length / samples. The geometry reads it
// by Catmull-Rom as the CPU's `SeaFrame` does (shared/sea_taps.wgsl), so near the camera, where
// no tile is faded, the drawn surface is the one bodies and queries meet; the shading (normals, the sea's foam) reads it bilinearly,
// a quarter of the taps a pixel. A mesh vertex at the
// undisplaced point p goes to p + D(p) at height h(p) (the choppy sea's Lagrangian surface),
// plus the interactive grid's height where it lands. Toward the grid's rim the interactive
// height fades over `rim fade` metres into the water around it (a scene's coarser cascades,
// where there are some), which fades to zero toward its own rim, so the sum meets the open sea
// with no step.

#import water_light
#import full_screen
#import sea_taps

struct OceanRenderUniforms {
    view_proj: mat4x4<f32>,
    inverse_view_proj: mat4x4<f32>,
    eye: vec4<f32>,             // xyz: camera (m); w: radians a pixel spans
    sun: vec4<f32>,             // xyz: unit direction toward the sun; w: specular exponent
    water_colour: vec4<f32>,    // rgb: deep water (linear); w: haze distance (m)
    sky_colour: vec4<f32>,      // rgb: sky at the horizon (linear); w: heights view range (m)
    viewport: vec4<f32>,        // xy: target size (pixels); zw: the camera's x and y (m), where the mesh is finest
    lod: vec4<f32>,             // x: finest spacing (m); y: quads centre to rim; z: grid height scale; w: rim fade (m)
    tile_lengths: array<vec4<f32>, 2>,
    grid: vec4<f32>,            // xy: cells along x and y; z: cell size (m)
    grid_origin: vec4<f32>,     // xy: the grid's corner in the world (m)
    flags: vec4<u32>,           // x: view (0 lit, 1 normals, 2 heights); y: 1 with a grid; z: tiles; w: samples a tile side
    foam: vec4<f32>,            // x: the sea's Jacobian below which it is white; y: 1 to draw the sea's foam; z: 1 with the grid's foam
    surrounding: vec4<f32>,     // the water around the grid (coarser cascades): xy cells, z cell size (m), w 1 with it
    surrounding_origin: vec4<f32>, // xy: its corner in the world (m)
}

@group(0) @binding(0) var<uniform> u: OceanRenderUniforms;
@group(0) @binding(1) var sea_displacement: texture_2d_array<f32>;
@group(0) @binding(2) var sea_normals: texture_2d_array<f32>;
@group(0) @binding(3) var grid_surface: texture_2d<f32>;
@group(0) @binding(4) var grid_foam: texture_2d<f32>;

const VIEW_NORMALS: u32 = 1u;
const VIEW_HEIGHTS: u32 = 2u;

fn tile_length(t: u32) -> f32 {
    return u.tile_lengths[t / 4u][t % 4u];
}

// Tile `t` of `field` at world point p, bilinear between its samples, wrapping (the sea
// repeats): for shading. The textures are Rgba32Float, which not every device filters.
fn tile_sample(field: texture_2d_array<f32>, t: u32, p: vec2<f32>) -> vec4<f32> {
    let n = i32(u.flags.w);
    let c = p / tile_length(t) * f32(n);
    let base = floor(c);
    let f = c - base;
    let i = vec2<i32>(base);
    let at = vec2<i32>(((i % n) + n) % n);
    let next = vec2<i32>((at + vec2<i32>(1, 1)) % n);
    let layer = i32(t);
    let s00 = textureLoad(field, at, layer, 0);
    let s10 = textureLoad(field, vec2<i32>(next.x, at.y), layer, 0);
    let s01 = textureLoad(field, vec2<i32>(at.x, next.y), layer, 0);
    let s11 = textureLoad(field, next, layer, 0);
    return mix(mix(s00, s10, f.x), mix(s01, s11, f.x), f.y);
}

// How much of tile t to keep where features smaller than `size` metres cannot be drawn: a
// tile holds waves from `length / 8` (its shortest, 8 samples) up to `length`, so it stays
// whole while `size` is under `length / lo` and is gone once `size` passes `length / hi`,
// where even its longest waves are lost (a swell is never dropped while the mesh can show it).
// Twin: `tile_weight` in crates/water-bevy/src/ocean_surface.wgsl (the Bevy sea's normals).
fn tile_weight(t: u32, size: f32, lo: f32, hi: f32) -> f32 {
    let length = tile_length(t);
    return 1.0 - smoothstep(length / lo, length / hi, size);
}

// The mesh's spacing near p, as a function of the position alone (so two vertices at one
// place, one from each side of a seam, take the same sea): at Chebyshev distance d from the
// camera, the ring there has spacing between d / n and 2 d / n; the larger is taken.
fn local_spacing(p: vec2<f32>) -> f32 {
    let d = abs(p - u.viewport.zw);
    return max(u.lod.x, 2.0 * max(d.x, d.y) / u.lod.y);
}

// (Dx, Dy, h) of the ambient sea at the undisplaced point p, for a mesh of spacing `spacing`
// (each tile by Catmull-Rom, as the CPU reads it):
// a tile whose waves the mesh there cannot show at all (its longest under 4 vertex spacings) is
// left out; until then its finest waves alias, under the haze.
fn ambient(p: vec2<f32>, spacing: f32) -> vec3<f32> {
    var sum = vec3<f32>(0.0);
    for (var t = 0u; t < u.flags.z; t = t + 1u) {
        let w = tile_weight(t, spacing, 8.0, 4.0);
        if (w <= 0.0) {
            continue;
        }
        let read = sea_tile_catmull_rom(sea_displacement, i32(t), i32(u.flags.w), tile_length(t), p);
        sum = sum + w * read.xyz;
    }
    return sum;
}

// A grid of cells laid on the world: its corner (m), its cells along x and y, its cell (m).
struct Placement {
    origin: vec2<f32>,
    cells: vec2<f32>,
    cell: f32,
}

fn grid_placement() -> Placement {
    return Placement(u.grid_origin.xy, u.grid.xy, u.grid.z);
}

// The water around the grid (a scene's coarser cascades), one texel a cell, its height in w.
@group(0) @binding(5) var surrounding_surface: texture_2d<f32>;

fn surrounding_placement() -> Placement {
    return Placement(u.surrounding_origin.xy, u.surrounding.xy, u.surrounding.z);
}

// How far world point x lies inside the grid placed at `g`, past half a cell of its rim (m);
// not above 0 off it.
fn inside_of(g: Placement, x: vec2<f32>) -> f32 {
    let local = x - g.origin;
    let extent = g.cells * g.cell;
    return min(min(local.x, extent.x - local.x), min(local.y, extent.y - local.y)) - 0.5 * g.cell;
}

fn grid_inside(x: vec2<f32>) -> f32 {
    return inside_of(grid_placement(), x);
}

// `field` (one texel a cell of the grid placed at `g`) at world point x inside it, bilinear
// between cell centres.
fn bilinear_of(field: texture_2d<f32>, g: Placement, x: vec2<f32>) -> vec4<f32> {
    let c = (x - g.origin) / g.cell - vec2<f32>(0.5);
    let base = floor(c);
    let f = c - base;
    let i = vec2<i32>(base);
    let last = vec2<i32>(g.cells) - vec2<i32>(1);
    let at = clamp(i, vec2<i32>(0), last);
    let next = clamp(i + vec2<i32>(1), vec2<i32>(0), last);
    let s00 = textureLoad(field, at, 0);
    let s10 = textureLoad(field, vec2<i32>(next.x, at.y), 0);
    let s01 = textureLoad(field, vec2<i32>(at.x, next.y), 0);
    let s11 = textureLoad(field, next, 0);
    return mix(mix(s00, s10, f.x), mix(s01, s11, f.x), f.y);
}

fn grid_bilinear(field: texture_2d<f32>, x: vec2<f32>) -> vec4<f32> {
    return bilinear_of(field, grid_placement(), x);
}

// The rim fade at `inside` metres inside a grid: 0 at its rim, 1 past `rim fade` metres.
fn rim_fade(inside: f32) -> f32 {
    return select(1.0, smoothstep(0.0, u.lod.w, inside), u.lod.w > 0.0);
}

// The water around the grid at world point x (m), faded to zero toward its own rim; 0 without
// it or off it.
fn surrounding_height(x: vec2<f32>) -> f32 {
    let inside = inside_of(surrounding_placement(), x);
    if (u.surrounding.w == 0.0 || inside <= 0.0) {
        return 0.0;
    }
    return bilinear_of(surrounding_surface, surrounding_placement(), x).w * u.lod.z * rim_fade(inside);
}

// The interactive water's height at world point x (m): the grid's, faded toward its rim into
// the water around it; that alone off the grid.
fn grid_height(x: vec2<f32>) -> f32 {
    let around = surrounding_height(x);
    let inside = grid_inside(x);
    if (u.flags.y == 0u || inside <= 0.0) {
        return around;
    }
    let own = grid_bilinear(grid_surface, x).w * u.lod.z;
    let fade = rim_fade(inside);
    // Past the fade the grid's own, exactly (whatever a backend's mix does at 1).
    if (fade >= 1.0) {
        return own;
    }
    return mix(around, own, fade);
}

// The grid's foam coverage at world point x (0 to 1), faded to none toward its rim as its
// heights are (no hard edge where the grid ends); 0 off the grid or without its foam.
fn grid_foam_at(x: vec2<f32>) -> f32 {
    let inside = grid_inside(x);
    if (u.flags.y == 0u || u.foam.z == 0.0 || inside <= 0.0) {
        return 0.0;
    }
    return clamp(grid_bilinear(grid_foam, x).x, 0.0, 1.0) * rim_fade(inside);
}

// The open sea's breaking foam at the undisplaced point p (0 to 1): where its Jacobian
// det(I + grad D) falls below the threshold (the CPU's `SeaFrame::jacobians_into` and
// `FoamField::add_breaking`), fading in over 0.15 below it. The displacement's gradient by
// central differences over each tile's samples, the tiles weighted as the normals are. Twin:
// `sea_foam_at` in crates/water-bevy/src/ocean_surface.wgsl, which reads the same gradient from
// the Bevy sea's slope textures.
fn sea_foam_at(p: vec2<f32>, footprint: f32) -> f32 {
    if (u.foam.y == 0.0) {
        return 0.0;
    }
    var grad = vec4<f32>(0.0); // dDx/dx, dDx/dy, dDy/dx, dDy/dy
    for (var t = 0u; t < u.flags.z; t = t + 1u) {
        let w = tile_weight(t, footprint, 16.0, 4.0);
        if (w <= 0.0) {
            continue;
        }
        let d = tile_length(t) / f32(u.flags.w);
        let ex = vec2<f32>(d, 0.0);
        let ey = vec2<f32>(0.0, d);
        let along_x = tile_sample(sea_displacement, t, p + ex).xy - tile_sample(sea_displacement, t, p - ex).xy;
        let along_y = tile_sample(sea_displacement, t, p + ey).xy - tile_sample(sea_displacement, t, p - ey).xy;
        grad = grad + w * vec4<f32>(along_x.x, along_y.x, along_x.y, along_y.y) / (2.0 * d);
    }
    let jacobian = (1.0 + grad.x) * (1.0 + grad.w) - grad.y * grad.z;
    return 1.0 - smoothstep(u.foam.x - 0.15, u.foam.x, jacobian);
}

// Where the mesh point p lands: displaced by the sea, raised by the sea and the grid.
fn displaced(p: vec2<f32>) -> vec3<f32> {
    let sea = ambient(p, local_spacing(p));
    let x = p + sea.xy;
    return vec3<f32>(x, sea.z + grid_height(x));
}

struct SeaVertex {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) undisplaced: vec2<f32>,
}

// `RingVertex`: (x, y, pin, axis). A pinned vertex (on a seam between rings) goes to the mean
// of its coarse edge's two ends, as `RingVertex::heights_pinned` says, so no crack opens.
@vertex
fn vs_sea(@location(0) vertex: vec4<f32>) -> SeaVertex {
    let p = vertex.xy;
    var world: vec3<f32>;
    if (vertex.z > 0.0) {
        let e = select(vec2<f32>(0.0, vertex.z), vec2<f32>(vertex.z, 0.0), vertex.w == 0.0);
        world = 0.5 * (displaced(p - e) + displaced(p + e));
    } else {
        world = displaced(p);
    }
    var out: SeaVertex;
    out.clip = u.view_proj * vec4<f32>(world, 1.0);
    out.world = world;
    out.undisplaced = p;
    return out;
}

// The sum's unit normal: the ambient slopes at the undisplaced point (a tile left out once its
// longest waves span under 4 pixels' footprints: its slopes would sparkle) plus the grid's by
// central differences.
fn sea_normal(p: vec2<f32>, x: vec2<f32>, footprint: f32) -> vec3<f32> {
    var slope = vec2<f32>(0.0);
    for (var t = 0u; t < u.flags.z; t = t + 1u) {
        let n = tile_sample(sea_normals, t, p).xyz;
        slope = slope + tile_weight(t, footprint, 16.0, 4.0) * (-n.xy / max(n.z, 0.1));
    }
    if (u.flags.y != 0u || u.surrounding.w != 0.0) {
        // The finer of the two grids' cells.
        let h = select(u.surrounding.z, u.grid.z, u.flags.y != 0u);
        let dx = vec2<f32>(h, 0.0);
        let dy = vec2<f32>(0.0, h);
        slope = slope + vec2<f32>(
            grid_height(x + dx) - grid_height(x - dx),
            grid_height(x + dy) - grid_height(x - dy),
        ) / (2.0 * h);
    }
    return normalize(vec3<f32>(-slope, 1.0));
}

// Haze between the eye and a point `distance` metres away: 0 close by, toward 1 far off.
fn haze(distance: f32) -> f32 {
    return 1.0 - exp(-distance / u.water_colour.w);
}

@fragment
fn fs_sea(v: SeaVertex) -> @location(0) vec4<f32> {
    let to_eye_far = u.eye.xyz - v.world;
    let distance = length(to_eye_far);
    let to_eye = to_eye_far / max(distance, 1e-6);
    // A pixel's footprint on the sea: wider along the view the more grazing the view.
    let footprint = distance * u.eye.w / max(abs(to_eye.z), 0.02);
    let n = sea_normal(v.undisplaced, v.world.xy, footprint);
    if (u.flags.x == VIEW_NORMALS) {
        return vec4<f32>(n * 0.5 + vec3<f32>(0.5), 1.0);
    }
    if (u.flags.x == VIEW_HEIGHTS) {
        let range = max(u.sky_colour.w, 1e-30);
        return vec4<f32>(diverging(clamp(v.world.z / range, -1.0, 1.0)), 1.0);
    }
    let reflected = reflect(-to_eye, n);
    // A ray reflected below the horizon would meet the sea again: take the horizon's sky.
    let seen_sky = sky_gradient(u.sky_colour.rgb, normalize(vec3<f32>(reflected.xy, max(reflected.z, 1e-4))));
    let lit_body = u.water_colour.rgb * (0.4 + 0.6 * max(u.sun.z, 0.0));
    let specular = pow(max(dot(reflected, u.sun.xyz), 0.0), u.sun.w);
    let water = mix(lit_body, seen_sky, fresnel(dot(n, to_eye))) + vec3<f32>(specular);
    let coverage = max(grid_foam_at(v.world.xy), sea_foam_at(v.undisplaced, footprint));
    let colour = with_foam(water, n, u.sun.xyz, coverage);
    return vec4<f32>(mix(colour, u.sky_colour.rgb, haze(distance)), 1.0);
}

// The sky behind the sea: each pixel's ray through the inverse of the camera.
@fragment
fn fs_sky(@builtin(position) pixel: vec4<f32>) -> @location(0) vec4<f32> {
    let ndc = vec2<f32>(pixel.x / u.viewport.x * 2.0 - 1.0, 1.0 - pixel.y / u.viewport.y * 2.0);
    let far = u.inverse_view_proj * vec4<f32>(ndc, 0.5, 1.0);
    let direction = normalize(far.xyz / far.w - u.eye.xyz);
    let sun = pow(max(dot(direction, u.sun.xyz), 0.0), 2000.0);
    return vec4<f32>(sky_gradient(u.sky_colour.rgb, direction) + vec3<f32>(sun), 1.0);
}
