// grid_step_fused_f16: grid_step_fused.wgsl over f16 storage. CPU twin, as for
// grid_step_fused.wgsl: crates/water-core/src/kernels/temporal_blocking.rs, each step as in
// grid_step.wgsl.
//
// The tile and its halo are loaded from packed f16 words (layout and conversions:
// grid_step_f16.wgsl and crates/water-gpu/src/storage.rs) into f32 workgroup memory; the FUSED_STEPS steps run in f32
// exactly as in grid_step_fused.wgsl; the tile's two newest levels are rounded to f16 once, when
// written. So a dispatch rounds two levels, not FUSED_STEPS.
//
// Tiles start at multiples of TILE (even) cells, so a tile owns whole words: TILE/2 per row.
// Boundaries: fixed, reflective and periodic (absorbing and contact events use
// grid_step_f16.wgsl). Split grids dispatch one z layer per channel.

#import grid_uniforms
#import fused_tile
#import f16_packing
// A storage word of the levels holds two f16 cells (f16_packing).
alias Word = u32;

fn row_words() -> u32 {
    return (u.width + 1u) / 2u;
}

// Cell (x, y)'s current and previous levels in channel `channel`, widened to f32 (for
// `load_tile`).
fn stored_levels(channel: u32, x: u32, y: u32) -> vec2<f32> {
    let wi = (channel * u.height + y) * row_words() + x / 2u;
    return vec2<f32>(half_of(cur[wi], x), half_of(old[wi], x));
}

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
) {
    let channel = group.z;
    let plane = channel * u.height;
    let origin = vec2<i32>(i32(group.x * TILE) - i32(FUSED_STEPS), i32(group.y * TILE) - i32(FUSED_STEPS));

    load_tile(origin, thread, channel);
    step_tile(origin, thread);

    // Write the tile's two newest levels, one word (two cells) per invocation. The padding half
    // of an odd row's last word is written as 0 (on a periodic grid the cell past the edge holds
    // the wrapped first cell, which must not leak into the padding).
    let newest = FUSED_STEPS & 1u;
    let tile_words = TILE / 2u;
    for (var i = thread; i < tile_words * TILE; i += 256u) {
        let gx = group.x * TILE + 2u * (i % tile_words);
        let gy = group.y * TILE + i / tile_words;
        if (gx < u.width && gy < u.height) {
            let li = (FUSED_STEPS + i / tile_words) * SPAN + FUSED_STEPS + 2u * (i % tile_words);
            let has_high = gx + 1u < u.width;
            let wi = (plane + gy) * row_words() + gx / 2u;
            out_cur[wi] = pack_f16(
                level[newest][li],
                select(0.0, level[newest][li + 1u], has_high),
            );
            out_old[wi] = pack_f16(
                level[1u - newest][li],
                select(0.0, level[1u - newest][li + 1u], has_high),
            );
        }
    }
}
