// shared/fused_tile: the tile of the fused multi-step kernels (grid_step_fused.wgsl and its f16
// twin): its size, the two levels and the land flags in workgroup memory, how a tile-local
// cell maps to the grid, the tile's load (`load_tile`) and its steps (`step_tile`). CPU twin
// of the idea: crates/water-core/src/kernels/temporal_blocking.rs (several steps per pass over
// memory). The FUSED_STEPS here is the host's `FUSED_STEPS` in
// crates/water-gpu/src/compute_grid.rs. Imports grid_uniforms' `u` from the kernel.

const TILE: u32 = 16u;
const FUSED_STEPS: u32 = 4u;
const SPAN: u32 = 24u;          // TILE + 2 * FUSED_STEPS
const SPAN_CELLS: u32 = 576u;   // SPAN * SPAN

// The bind group, as `ComputeGrid` binds the fused kernels (crates/water-gpu/src/
// compute_grid.rs). The kernel says what a storage word holds: `alias Word = f32;` or `u32`
// (two f16 cells).
// The current and previous levels, read; the two newest levels, written.
@group(0) @binding(1) var<storage, read> cur: array<Word>;
@group(0) @binding(2) var<storage, read> old: array<Word>;
@group(0) @binding(3) var<storage, read_write> out_cur: array<Word>;
@group(0) @binding(4) var<storage, read_write> out_old: array<Word>;
// One flag per cell (1: land).
@group(0) @binding(5) var<storage, read> land: array<u32>;
// The grid's uniforms.
@group(0) @binding(0) var<uniform> u: GridUniforms;

// Two levels in workgroup memory: level[0] and level[1] swap roles every step.
var<workgroup> level: array<array<f32, 576>, 2>;
var<workgroup> dry: array<u32, 576>;

// Global coordinate of a tile-local one, wrapped on a periodic grid; `valid` is false outside
// a non-periodic grid.
struct Global {
    x: i32,
    y: i32,
    valid: bool,
}

fn global_of(origin: vec2<i32>, lx: u32, ly: u32) -> Global {
    var gx = origin.x + i32(lx);
    var gy = origin.y + i32(ly);
    let w = i32(u.width);
    let h = i32(u.height);
    if (u.boundary == PERIODIC) {
        gx = ((gx % w) + w) % w;
        gy = ((gy % h) + h) % h;
        return Global(gx, gy, true);
    }
    return Global(gx, gy, gx >= 0 && gy >= 0 && gx < w && gy < h);
}

// Local index of the neighbour of local cell (lx, ly) one step along (dx, dy). Reflective
// grids clamp to the edge cell (which is inside the tile whenever the cell itself is).
fn tile_neighbour(origin: vec2<i32>, lx: u32, ly: u32, dx: i32, dy: i32) -> u32 {
    var nx = i32(lx) + dx;
    var ny = i32(ly) + dy;
    if (u.boundary != PERIODIC) {
        let gx = clamp(origin.x + nx, 0, i32(u.width) - 1);
        let gy = clamp(origin.y + ny, 0, i32(u.height) - 1);
        nx = gx - origin.x;
        ny = gy - origin.y;
    }
    return u32(clamp(ny, 0, i32(SPAN) - 1)) * SPAN + u32(clamp(nx, 0, i32(SPAN) - 1));
}

// Loads both levels and the land of the tile and its halo into workgroup memory (zero water,
// and land, outside a non-periodic grid); each kernel reads a cell's two levels from its own
// storage (`stored_levels(channel, x, y)`). Holds a barrier: call it from uniform control flow.
fn load_tile(origin: vec2<i32>, thread: u32, channel: u32) {
    for (var i = thread; i < SPAN_CELLS; i += 256u) {
        let g = global_of(origin, i % SPAN, i / SPAN);
        if (g.valid) {
            let x = u32(g.x);
            let y = u32(g.y);
            let levels = stored_levels(channel, x, y);
            level[0][i] = levels.x;
            level[1][i] = levels.y;
            dry[i] = land[y * u.width + x];
        } else {
            level[0][i] = 0.0;
            level[1][i] = 0.0;
            dry[i] = 1u;
        }
    }
    workgroupBarrier();
}

// FUSED_STEPS steps of the signed stencil (each as in grid_step.wgsl) on the tile loaded into
// workgroup memory: level[0] the current level, level[1] the previous; the newest ends in
// level[FUSED_STEPS & 1], the one before it in the other. `thread` is the invocation's index in
// its workgroup of 256. Holds barriers: call it from uniform control flow.
fn step_tile(origin: vec2<i32>, thread: u32) {
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
}
