// The sea to the horizon (ocean_surface.rs): camera-centred rings displaced by the ambient sea's
// tiles and, where the grid lies, by the grid's water faded out over its rim; lit per pixel by
// Bevy's PBR lighting with the normal of the displaced surface, each tile's part of the normal
// faded out where a pixel covers too much sea to show its waves. The sea's frame is the water's:
// x along world x, y along world -z, heights up (+y), from the grid's north-west corner, where
// the mesh's entity stands. Seam vertices (uv.x > 0) take the mean of their coarse edge's two
// ends, as water_gpu's RingVertex::heights_pinned does, so the rings meet without cracks.

#import bevy_pbr::forward_io::{Vertex, VertexOutput, FragmentOutput}
#import water_bevy::surface_pass::{placed_vertex, lit_pixel}
#import water_bevy::sea_taps::sea_tile_catmull_rom

struct OceanSurface {
    // Each tile's side, metres, four to a vector.
    tile_lengths: array<vec4<f32>, 2>,
    // The grid's north-west corner in the world (x, still level, z), cell size in w.
    corner: vec4<f32>,
    // Cells along x and z, rim fade (metres), drawn height scale.
    grid: vec4<f32>,
    tiles: u32,
    // The grid texture's channel holding the height: 0 (CPU r), 3 (GPU w).
    grid_channel: u32,
    // Where the grid's corner is in the sea's frame, metres (it follows a focus).
    grid_origin: vec2<f32>,
    // x: the sea's Jacobian below which it is white; y: 1 to draw the sea's foam; z: 1 to draw
    // the grid's.
    foam: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var sea_displacement: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(101) var sea_slopes: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(102) var grid_heights: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(103) var<uniform> ocean: OceanSurface;
@group(#{MATERIAL_BIND_GROUP}) @binding(104) var grid_foam: texture_2d<f32>;

fn tile_length(tile: u32) -> f32 {
    return ocean.tile_lengths[tile / 4u][tile % 4u];
}

// Bilinear read of one tile's texels at sea point p (periodic): for the shading.
fn tile_read(field: u32, tile: u32, p: vec2<f32>) -> vec4<f32> {
    let cells = i32(textureDimensions(sea_displacement).x);
    let u = p / tile_length(tile) * f32(cells);
    let base = floor(u);
    let f = u - base;
    let i = vec2<i32>(base);
    var corner: array<vec4<f32>, 4>;
    for (var k = 0; k < 4; k++) {
        let texel = (i + vec2<i32>(k % 2, k / 2)) % cells;
        let wrapped = (texel + vec2<i32>(cells)) % cells;
        if (field == 0u) {
            corner[k] = textureLoad(sea_displacement, wrapped, i32(tile), 0);
        } else {
            corner[k] = textureLoad(sea_slopes, wrapped, i32(tile), 0);
        }
    }
    return mix(mix(corner[0], corner[1], f.x), mix(corner[2], corner[3], f.x), f.y);
}

// A tile's weight in the normal of a pixel whose footprint on the sea is `footprint` metres:
// a tile holds waves from `length / 8` (its shortest, 8 samples) up to `length`; it counts
// whole while the footprint is under `length / 16` and not at all once it passes `length / 4`,
// where even its longest waves span under four pixels and could only alias into speckle. The
// twin of `tile_weight` in shaders/render_ocean_surface.wgsl (the `water render` sea), with its
// constants for normals.
fn tile_weight(tile: u32, footprint: f32) -> f32 {
    let length = tile_length(tile);
    return 1.0 - smoothstep(length / 16.0, length / 4.0, footprint);
}

// The sea's (Dx, Dy, h, dDx/dy) or (dh/dx, dh/dy, dDx/dx, dDy/dy) at p, summed over the tiles,
// each weighted by `tile_weight` for a pixel of `footprint` metres.
fn sea_read_faded(field: u32, p: vec2<f32>, footprint: f32) -> vec4<f32> {
    var total = vec4<f32>(0.0);
    for (var tile = 0u; tile < ocean.tiles; tile++) {
        total += tile_weight(tile, footprint) * tile_read(field, tile, p);
    }
    return total;
}

// The grid's weight at p (from the grid's corner): 1 inside, fading to 0 over the rim, 0
// beyond the grid.
fn grid_weight(p: vec2<f32>) -> f32 {
    let extent = ocean.grid.xy * ocean.corner.w;
    let inside = min(min(p.x, extent.x - p.x), min(p.y, extent.y - p.y));
    return clamp(inside / max(ocean.grid.z, 1e-6), 0.0, 1.0);
}

fn grid_texel(texel: vec2<i32>) -> f32 {
    let last = vec2<i32>(textureDimensions(grid_heights)) - vec2<i32>(1);
    return textureLoad(grid_heights, clamp(texel, vec2<i32>(0), last), 0)[ocean.grid_channel];
}

// The grid's height at sea point p (bilinear between cell centres), weighted by its rim fade.
fn grid_height(p: vec2<f32>) -> f32 {
    let q = p - ocean.grid_origin;
    let w = grid_weight(q);
    if (w == 0.0) {
        return 0.0;
    }
    let u = q / ocean.corner.w - vec2<f32>(0.5);
    let base = floor(u);
    let f = u - base;
    let i = vec2<i32>(base);
    let h = mix(
        mix(grid_texel(i), grid_texel(i + vec2<i32>(1, 0)), f.x),
        mix(grid_texel(i + vec2<i32>(0, 1)), grid_texel(i + vec2<i32>(1, 1)), f.x),
        f.y,
    );
    return h * w;
}

// The grid's weighted slope (dh/dx, dh/dy) at p, by central differences over a cell.
fn grid_slope(p: vec2<f32>) -> vec2<f32> {
    let h = ocean.corner.w;
    let gx = grid_height(p + vec2<f32>(h, 0.0)) - grid_height(p - vec2<f32>(h, 0.0));
    let gy = grid_height(p + vec2<f32>(0.0, h)) - grid_height(p - vec2<f32>(0.0, h));
    return vec2<f32>(gx, gy) / (2.0 * h);
}

// The grid's foam at sea point p (0 to 1, bilinear between cell centres), faded over the rim
// as its heights are; 0 off the grid.
fn grid_foam_at(p: vec2<f32>) -> f32 {
    let q = p - ocean.grid_origin;
    let w = grid_weight(q);
    if (ocean.foam.z == 0.0 || w == 0.0) {
        return 0.0;
    }
    let last = vec2<i32>(textureDimensions(grid_foam)) - vec2<i32>(1);
    let u = q / ocean.corner.w - vec2<f32>(0.5);
    let base = floor(u);
    let f = u - base;
    let i = vec2<i32>(base);
    let c00 = textureLoad(grid_foam, clamp(i, vec2<i32>(0), last), 0).x;
    let c10 = textureLoad(grid_foam, clamp(i + vec2<i32>(1, 0), vec2<i32>(0), last), 0).x;
    let c01 = textureLoad(grid_foam, clamp(i + vec2<i32>(0, 1), vec2<i32>(0), last), 0).x;
    let c11 = textureLoad(grid_foam, clamp(i + vec2<i32>(1, 1), vec2<i32>(0), last), 0).x;
    return mix(mix(c00, c10, f.x), mix(c01, c11, f.x), f.y) * w;
}

// The sea's breaking foam from its fields `a` = (Dx, Dy, h, dDx/dy) and `b` = (dh/dx, dh/dy,
// dDx/dx, dDy/dy): white where the Jacobian det(I + grad D) falls below the threshold, fading
// in over 0.15 below it (water-render's render_ocean_surface.wgsl draws its sea alike).
fn sea_foam_at(a: vec4<f32>, b: vec4<f32>) -> f32 {
    if (ocean.foam.y == 0.0) {
        return 0.0;
    }
    let jacobian = (1.0 + b.z) * (1.0 + b.w) - a.w * a.w;
    return 1.0 - smoothstep(ocean.foam.x - 0.15, ocean.foam.x, jacobian);
}

// The sea's (Dx, Dy, h) at p by Catmull-Rom, as the CPU's queries read it (the module is
// shaders/shared/sea_taps.wgsl, which the CLI renderer's sea reads through too), so the drawn
// surface is the one `WaterQuery` and the floating bodies meet.
fn sea_geometry(p: vec2<f32>) -> vec3<f32> {
    let cells = i32(textureDimensions(sea_displacement).x);
    var total = vec3<f32>(0.0);
    for (var tile = 0u; tile < ocean.tiles; tile++) {
        total += sea_tile_catmull_rom(sea_displacement, i32(tile), cells, tile_length(tile), p).xyz;
    }
    return total;
}

// Where the surface point over sea point p lies, relative to p: (Dx, Dy, height).
fn displacement(p: vec2<f32>) -> vec3<f32> {
    let sea = sea_geometry(p);
    return vec3<f32>(sea.x, sea.y, (sea.z + grid_height(p)) * ocean.grid.w);
}

@vertex
fn vertex(vertex: Vertex) -> VertexOutput {
    // The mesh lies at (x, 0, -y) from the corner.
    let p = vec2<f32>(vertex.position.x, -vertex.position.z);
    var d: vec3<f32>;
    let pin = vertex.uv.x;
    if (pin > 0.0) {
        var e = vec2<f32>(pin, 0.0);
        if (vertex.uv.y > 0.5) {
            e = vec2<f32>(0.0, pin);
        }
        d = 0.5 * (displacement(p - e) + displacement(p + e));
    } else {
        d = displacement(p);
    }
    let local = vec3<f32>(p.x + d.x, d.z, -(p.y + d.y));
    // The undisplaced sea point goes on as the uv, for the fragment's normal.
    return placed_vertex(vertex.instance_index, local, p);
}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    let p = in.uv;
    // The pixel's footprint on the sea, metres: how far the sea point under it moves from one
    // pixel to the next (far off and at grazing angles, many of the finer tiles' waves).
    let footprint = max(length(dpdx(p)), length(dpdy(p)));
    let a = sea_read_faded(0u, p, footprint);
    let b = sea_read_faded(1u, p, footprint);
    let slope = (b.xy + grid_slope(p)) * ocean.grid.w;
    // Tangents of the displaced surface x0 + D(x0), h(x0) in the sea's z-up frame.
    let tx = vec3<f32>(1.0 + b.z, a.w, slope.x);
    let ty = vec3<f32>(a.w, 1.0 + b.w, slope.y);
    let n_sea = normalize(cross(tx, ty));
    // (x, y, z up) -> world (x, z, -y).
    let n = vec3<f32>(n_sea.x, n_sea.z, -n_sea.y);
    return lit_pixel(in, is_front, n, max(grid_foam_at(p), sea_foam_at(a, b)));
}
