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

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
) {
    let channel = group.z;
    let plane = channel * u.height;
    let origin = vec2<i32>(i32(group.x * TILE) - i32(FUSED_STEPS), i32(group.y * TILE) - i32(FUSED_STEPS));

    // Load both levels (widened to f32) and the land of the tile and its halo.
    for (var i = thread; i < SPAN_CELLS; i += 256u) {
        let g = global_of(origin, i % SPAN, i / SPAN);
        if (g.valid) {
            let gx = u32(g.x);
            let gy = u32(g.y);
            let wi = (plane + gy) * row_words() + gx / 2u;
            level[0][i] = half_of(cur[wi], gx);
            level[1][i] = half_of(old[wi], gx);
            dry[i] = land[gy * u.width + gx];
        } else {
            level[0][i] = 0.0;
            level[1][i] = 0.0;
            dry[i] = 1u;
        }
    }
    workgroupBarrier();

    for (var s = 0u; s < FUSED_STEPS; s++) {
        let c = s & 1u;        // current level this step
        let o = 1u - c;        // previous level, overwritten with the new one
        for (var i = thread; i < SPAN_CELLS; i += 256u) {
            let lx = i % SPAN;
            let ly = i / SPAN;
            let g = global_of(origin, lx, ly);
            let on_rim = g.x == 0 || g.y == 0 || g.x == i32(u.width) - 1 || g.y == i32(u.height) - 1;
            var v = 0.0;
            if (g.valid && !(u.boundary == FIXED && on_rim) && dry[i] == 0u) {
                let north = level[c][tile_neighbour(origin, lx, ly, 0, -1)];
                let south = level[c][tile_neighbour(origin, lx, ly, 0, 1)];
                let east = level[c][tile_neighbour(origin, lx, ly, 1, 0)];
                let west = level[c][tile_neighbour(origin, lx, ly, -1, 0)];
                v = u.d * (u.a * (north + south + east + west) + u.b * level[c][i] - level[o][i]);
            }
            // Read all of this step's inputs before any thread writes: the barrier below
            // separates the reads of level[c] from the next step's writes into it.
            level[o][i] = v;
        }
        workgroupBarrier();
    }

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
