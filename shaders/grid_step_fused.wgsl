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

// Cell (x, y)'s current and previous levels in channel `channel` (for `load_tile`).
fn stored_levels(channel: u32, x: u32, y: u32) -> vec2<f32> {
    let i = channel * u.width * u.height + y * u.width + x;
    return vec2<f32>(cur[i], old[i]);
}

@compute @workgroup_size(16, 16)
fn main(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(local_invocation_index) thread: u32,
) {
    let channel = group.z;
    let cells = u.width * u.height;
    let base = channel * cells;
    let origin = vec2<i32>(i32(group.x * TILE) - i32(FUSED_STEPS), i32(group.y * TILE) - i32(FUSED_STEPS));

    load_tile(origin, thread, channel);
    step_tile(origin, thread);

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
