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
@group(0) @binding(1) var<storage, read> cur: array<u32>;
@group(0) @binding(2) var<storage, read> old: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_cur: array<u32>;
@group(0) @binding(4) var<storage, read_write> out_old: array<u32>;
@group(0) @binding(5) var<storage, read> land: array<u32>;

// Two levels in workgroup memory: level[0] and level[1] swap roles every step.
var<workgroup> level: array<array<f32, 576>, 2>;
var<workgroup> dry: array<u32, 576>;

// f16 conversions: the WGSL twins of `f32_to_f16` and `f16_to_f32` in
// crates/water-gpu/src/storage.rs, bit for bit. Integer arithmetic only, so core WGSL with no
// shader capability: `pack2x16float` needs one that wgpu withholds from some adapters (llvmpipe
// without SHADER_F16), and leaves its rounding to the device; this rounds to nearest, ties to
// even, on every device. Every f16 shader carries the same copy of these functions
// (crates/water-gpu/tests/shaders_validate.rs checks that the copies are identical).

// The binary16 bits of v (in the low 16 bits), rounded to nearest with ties to even.
fn f32_to_f16(v: f32) -> u32 {
    let bits = bitcast<u32>(v);
    let sign = (bits >> 16u) & 0x8000u;
    let exponent = i32((bits >> 23u) & 0xffu);
    let mantissa = bits & 0x7fffffu;
    if (exponent == 255) {
        return sign | 0x7c00u | select(0u, 0x200u, mantissa != 0u);
    }
    let e = exponent - 112; // the f16 exponent field of a normal result
    if (e >= 31) {
        return sign | 0x7c00u;
    }
    if (e <= 0) {
        // Subnormal result: the 24-bit significand shifted right by 14 - e bits, rounded.
        let shift = u32(14 - e);
        if (shift > 24u) {
            return sign;
        }
        let significand = mantissa | 0x800000u;
        let kept = significand >> shift;
        let rest = significand & ((1u << shift) - 1u);
        let half = 1u << (shift - 1u);
        let up = rest > half || (rest == half && (kept & 1u) == 1u);
        return sign | (kept + select(0u, 1u, up));
    }
    let kept = (u32(e) << 10u) | (mantissa >> 13u);
    let rest = mantissa & 0x1fffu;
    let up = rest > 0x1000u || (rest == 0x1000u && (kept & 1u) == 1u);
    // A carry into the exponent (or to infinity) is the correctly rounded result.
    return sign | (kept + select(0u, 1u, up));
}

// The value of binary16 bits h (low 16 bits), exactly.
fn f16_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000u) << 16u;
    let exponent = (h >> 10u) & 0x1fu;
    let mantissa = h & 0x3ffu;
    if (exponent == 0u) {
        let magnitude = ldexp(f32(mantissa), -24);
        return select(magnitude, -magnitude, sign != 0u);
    }
    if (exponent == 31u) {
        return bitcast<f32>(sign | 0x7f800000u | (mantissa << 13u));
    }
    return bitcast<f32>(sign | ((exponent + 112u) << 23u) | (mantissa << 13u));
}

// Cell x's half of a storage word: even cells in the low half.
fn half_of(word: u32, x: u32) -> f32 {
    return f16_to_f32(select(word & 0xffffu, word >> 16u, (x & 1u) == 1u));
}

// A storage word of two cells: the even one (low) and the odd one (high).
fn pack_f16(low: f32, high: f32) -> u32 {
    return f32_to_f16(low) | (f32_to_f16(high) << 16u);
}

fn row_words() -> u32 {
    return (u.width + 1u) / 2u;
}

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
