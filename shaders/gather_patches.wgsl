// gather_patches: the heights of some rectangles of a grid's cells, packed one rectangle after
// another into one buffer, so a floating body or a point query reads back the patch of water it
// needs instead of the whole field. It reads the surface texture (height in w, written by
// surface_normals.wgsl from either backend's levels). CPU twin: `HeightPatches::gather` in
// crates/water-core/src/height_patches.rs; host side: crates/water-gpu/src/patch_reader.rs.
//
// One invocation per cell: x runs over a rectangle's cells (row-major), y over the rectangles.

struct Patch {
    x0: u32,
    y0: u32,
    width: u32,
    height: u32,
    start: u32,     // where its heights start in `heights`
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var surface_tex: texture_2d<f32>;
@group(0) @binding(1) var<storage, read> patches: array<Patch>;
@group(0) @binding(2) var<storage, read_write> heights: array<f32>;

@compute @workgroup_size(64)
fn gather_patches(@builtin(global_invocation_id) id: vec3<u32>) {
    let rect = patches[id.y];
    let i = id.x;
    if (i >= rect.width * rect.height) {
        return;
    }
    let cell = vec2<u32>(rect.x0 + i % rect.width, rect.y0 + i / rect.width);
    heights[rect.start + i] = textureLoad(surface_tex, cell, 0).w;
}
