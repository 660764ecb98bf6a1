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

struct GridUniforms {
    width: u32,
    height: u32,
    boundary: u32,          // 0 fixed, 1 reflective, 2 periodic
    mode: u32,
    a: f32,
    b: f32,
    d: f32,
    mur_k: f32,
    contact_amplitude: f32,
    has_contacts: u32,
    classic_shift: u32,
    _pad: u32,
}

const FIXED: u32 = 0u;
const PERIODIC: u32 = 2u;
const TILE: u32 = 16u;
const FUSED_STEPS: u32 = 4u;
const SPAN: u32 = 24u;          // TILE + 2 * FUSED_STEPS
const SPAN_CELLS: u32 = 576u;   // SPAN * SPAN

@group(0) @binding(0) var<uniform> u: GridUniforms;
@group(0) @binding(1) var<storage, read> cur: array<f32>;
@group(0) @binding(2) var<storage, read> old: array<f32>;
@group(0) @binding(3) var<storage, read_write> out_cur: array<f32>;
@group(0) @binding(4) var<storage, read_write> out_old: array<f32>;
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
fn neighbour(origin: vec2<i32>, lx: u32, ly: u32, dx: i32, dy: i32) -> u32 {
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
                let north = level[c][neighbour(origin, lx, ly, 0, -1)];
                let south = level[c][neighbour(origin, lx, ly, 0, 1)];
                let east = level[c][neighbour(origin, lx, ly, 1, 0)];
                let west = level[c][neighbour(origin, lx, ly, -1, 0)];
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
