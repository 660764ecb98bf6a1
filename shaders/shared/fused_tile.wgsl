// shared/fused_tile: the tile of the fused multi-step kernels (grid_step_fused.wgsl and its f16
// twin): its size, the two levels and the land flags in workgroup memory, and how a tile-local
// cell maps to the grid. CPU twin of the idea: crates/water-core/src/kernels/temporal_blocking.rs
// (several steps per pass over memory). The FUSED_STEPS here is the host's `FUSED_STEPS` in
// crates/water-gpu/src/compute_grid.rs. Imports grid_uniforms' `u` from the kernel.

const TILE: u32 = 16u;
const FUSED_STEPS: u32 = 4u;
const SPAN: u32 = 24u;          // TILE + 2 * FUSED_STEPS
const SPAN_CELLS: u32 = 576u;   // SPAN * SPAN

// The bind group, as `ComputeGrid` binds the fused kernels (crates/water-gpu/src/
// compute_grid.rs). The kernel says what a storage word holds: `alias Word = f32;` or `u32`
// (two f16 cells).
@group(0) @binding(0) var<uniform> u: GridUniforms;
// The current and previous levels, read; the two newest levels, written.
@group(0) @binding(1) var<storage, read> cur: array<Word>;
@group(0) @binding(2) var<storage, read> old: array<Word>;
@group(0) @binding(3) var<storage, read_write> out_cur: array<Word>;
@group(0) @binding(4) var<storage, read_write> out_old: array<Word>;
// One flag per cell (1: land).
@group(0) @binding(5) var<storage, read> land: array<u32>;

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
