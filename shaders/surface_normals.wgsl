// surface_normals: per cell, the unit normal normalize(-dz/dx, -dz/dy, 1) and the height, for
// rendering (rgba = normal.xyz, height). CPU twin: crates/water-core/src/sample.rs
// (`HeightView::cell_normal`), with
// cell_gradient's central differences over two cells, one-sided at the rim, in world units.
//
// Entry points: `main` reads the compute backend's field buffer (f32 fields, the i32 classic
// field, or f16 fields packed two to a word as in grid_step_f16.wgsl: the same buffer is bound
// at bindings 1, 2 and 6, and the uniforms say which view to read) and writes a storage
// texture; `fs_main` / `fs_classic` are full-screen fragment passes over the fragment backend's
// textures.

#import full_screen
#import f16_packing
struct SurfaceUniforms {
    width: u32,
    height: u32,
    mode: u32,          // 0 signed, 1 split (height = p - n), 2 classic
    cell_size: f32,     // h, metres
    f16_words: u32,     // 1 where the compute backend's fields are f16, two to a word
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> u: SurfaceUniforms;
@group(0) @binding(1) var<storage, read> heights: array<f32>;
@group(0) @binding(2) var<storage, read> classic_heights: array<i32>;
@group(0) @binding(3) var surface: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var field_tex: texture_2d<f32>;
@group(0) @binding(5) var classic_tex: texture_2d<i32>;
@group(0) @binding(6) var<storage, read> packed_heights: array<u32>;

fn buffer_height(x: u32, y: u32) -> f32 {
    let i = y * u.width + x;
    if (u.mode == 1u) {
        return heights[i] - heights[u.width * u.height + i];
    }
    return heights[i];
}

// Cell (x, y) of channel c of an f16 field: ceil(width/2) words per row, even cells in the
// low halves.
fn packed_value(c: u32, x: u32, y: u32) -> f32 {
    return half_of(packed_heights[(c * u.height + y) * ((u.width + 1u) / 2u) + x / 2u], x);
}

fn packed_height(x: u32, y: u32) -> f32 {
    if (u.mode == 1u) {
        return packed_value(0u, x, y) - packed_value(1u, x, y);
    }
    return packed_value(0u, x, y);
}

fn classic_height(x: u32, y: u32) -> f32 {
    return f32(classic_heights[y * u.width + x]);
}

// The compute backend's height at cell (x, y), from the field buffer's view its storage takes.
fn stored_height(x: u32, y: u32) -> f32 {
    if (u.mode == 2u) {
        return classic_height(x, y);
    }
    if (u.f16_words == 1u) {
        return packed_height(x, y);
    }
    return buffer_height(x, y);
}

fn texture_height(x: u32, y: u32) -> f32 {
    let v = textureLoad(field_tex, vec2<u32>(x, y), 0);
    if (u.mode == 1u) {
        return v.r - v.g;
    }
    return v.r;
}

fn classic_texture_height(x: u32, y: u32) -> f32 {
    return f32(textureLoad(classic_tex, vec2<u32>(x, y), 0).r);
}

// The neighbours' coordinates (the distance between them, in cells, is `xr - xl` and
// `yr - yl`), the five cells the texel reads (the left, right, upper and lower neighbours, then
// the cell itself) and, once read, their heights.
struct Stencil {
    xl: u32,
    xr: u32,
    yl: u32,
    yr: u32,
    cells: array<vec2<u32>, 5>,
    heights: array<f32, 5>,
}

fn stencil(x: u32, y: u32) -> Stencil {
    let xl = select(x - 1u, 0u, x == 0u);
    let xr = min(x + 1u, u.width - 1u);
    let yl = select(y - 1u, 0u, y == 0u);
    let yr = min(y + 1u, u.height - 1u);
    let cells = array<vec2<u32>, 5>(
        vec2<u32>(xl, y),
        vec2<u32>(xr, y),
        vec2<u32>(x, yl),
        vec2<u32>(x, yr),
        vec2<u32>(x, y),
    );
    return Stencil(xl, xr, yl, yr, cells, array<f32, 5>());
}

// The texel (normal, height) from the stencil's heights.
fn surface_texel(s: Stencil) -> vec4<f32> {
    let h = s.heights;
    let gx = (h[1] - h[0]) / (f32(s.xr - s.xl) * u.cell_size);
    let gy = (h[3] - h[2]) / (f32(s.yr - s.yl) * u.cell_size);
    return vec4<f32>(normalize(vec3<f32>(-gx, -gy, 1.0)), h[4]);
}

// The three entry points differ only in where the stencil's heights are read.
@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.width || id.y >= u.height) { return; }
    var s = stencil(id.x, id.y);
    for (var k = 0u; k < 5u; k++) { s.heights[k] = stored_height(s.cells[k].x, s.cells[k].y); }
    textureStore(surface, id.xy, surface_texel(s));
}

@fragment fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    var s = stencil(u32(position.x), u32(position.y));
    for (var k = 0u; k < 5u; k++) { s.heights[k] = texture_height(s.cells[k].x, s.cells[k].y); }
    return surface_texel(s);
}

@fragment fn fs_classic(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    var s = stencil(u32(position.x), u32(position.y));
    for (var k = 0u; k < 5u; k++) {
        s.heights[k] = classic_texture_height(s.cells[k].x, s.cells[k].y);
    }
    return surface_texel(s);
}
