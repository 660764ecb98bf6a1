// grid_step_fused: FUSED_STEPS steps of the signed stencil per dispatch (temporal blocking in
// workgroup memory). CPU twin: crates/water-core/src/kernels/temporal_blocking.rs (the same
// idea over rows: several steps per pass over memory), each step as in grid_step.wgsl.
//
// Each workgroup loads a tile of TILE x TILE output cells plus a halo of FUSED_STEPS cells on
// every side, for both time levels, into workgroup memory; runs FUSED_STEPS steps there (the
// cells it can still trust shrink by one ring per step); and writes the tile's two newest levels.
// Memory traffic per step falls by about FUSED_STEPS, so small and large grids alike are no
// longer bound by dispatches or by bandwidth.
//
// Boundaries: fixed, reflective and periodic (absorbing and contact events use grid_step.wgsl).
// Split grids dispatch one z layer per channel.

#import grid_uniforms
#import fused_tile

// A storage word of the levels holds an f32 cell.
alias Word = f32;

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
) {
    let channel = group.z;
    let cells = u.width * u.height;
    let base = channel * cells;
    let origin = vec2<i32>(i32(group.x * TILE) - i32(FUSED_STEPS), i32(group.y * TILE) - i32(FUSED_STEPS));

    // Load both levels and the land of the tile and its halo.
    for (var i = thread; i < SPAN_CELLS; i += 256u) {
        let g = global_of(origin, i % SPAN, i / SPAN);
        if (g.valid) {
            let gi = u32(g.y) * u.width + u32(g.x);
            level[0][i] = cur[base + gi];
            level[1][i] = old[base + gi];
            dry[i] = land[gi];
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

    // Write the tile's two newest levels.
    let newest = FUSED_STEPS & 1u;
    for (var i = thread; i < TILE * TILE; i += 256u) {
        let lx = FUSED_STEPS + i % TILE;
        let ly = FUSED_STEPS + i / TILE;
        let gx = i32(group.x * TILE + i % TILE);
        let gy = i32(group.y * TILE + i / TILE);
        if (gx < i32(u.width) && gy < i32(u.height)) {
            let li = ly * SPAN + lx;
            let gi = base + u32(gy) * u.width + u32(gx);
            out_cur[gi] = level[newest][li];
            out_old[gi] = level[1u - newest][li];
        }
    }
}
