// grid_step_f16: grid_step.wgsl over f16 storage. CPU twin: crates/water-core/src/kernels/
// grid_step.rs (with absorbing_edges.rs, the contact events of contact.rs and land.rs), as for
// grid_step.wgsl; only the loads and the store differ.
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Storage (crates/water-gpu/src/storage.rs): each row of `width` cells is ceil(width/2) u32
// words, cell 2k in the low half of word k and cell 2k+1 in the high half; an odd row's last
// high half is padding and stays +0. Channels (split: p then n) are planes of `height` rows.
// The halves are IEEE binary16, converted by the integer functions below (no f16 device
// feature or shader capability needed); all arithmetic is f32, as in grid_step.wgsl, and only
// the store rounds.
//
// One invocation per word: it computes both cells of the word and writes the word whole, so no
// two invocations write the same word.

struct GridUniforms {
    width: u32,
    height: u32,
    boundary: u32,          // 0 fixed, 1 reflective, 2 periodic, 3 absorbing
    mode: u32,              // 0 signed, 1 split
    a: f32,
    b: f32,
    d: f32,
    mur_k: f32,             // Mur's (s - 1)/(s + 1), s = sqrt(a)
    contact_amplitude: f32, // A
    has_contacts: u32,
    classic_shift: u32,     // unused here (classic_step.wgsl)
    _pad: u32,
}

const FIXED: u32 = 0u;
const PERIODIC: u32 = 2u;
const ABSORBING: u32 = 3u;
const SPLIT: u32 = 1u;

@group(0) @binding(0) var<uniform> u: GridUniforms;
@group(0) @binding(1) var<storage, read> cur: array<u32>;
@group(0) @binding(2) var<storage, read> old: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(4) var<storage, read> land: array<u32>;
@group(0) @binding(5) var<storage, read> contact_new: array<f32>;
@group(0) @binding(6) var<storage, read> contact_old: array<f32>;

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

fn word_index(c: u32, x: u32, y: u32) -> u32 {
    return (c * u.height + y) * row_words() + x / 2u;
}

fn at(c: u32, x: u32, y: u32) -> f32 {
    return half_of(cur[word_index(c, x, y)], x);
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return half_of(old[word_index(c, x, y)], x);
}

// Neighbour coordinate one step from `v` (delta -1 or +1) along an axis of `n` cells.
fn neighbour(v: u32, delta: i32, n: u32) -> u32 {
    let w = i32(v) + delta;
    if (u.boundary == PERIODIC) {
        return u32((w + i32(n)) % i32(n));
    }
    // Reflective: clamp to the edge. Fixed and absorbing only ask for interior cells.
    return u32(clamp(w, 0, i32(n) - 1));
}

// The stencil at (x, y) of channel c, in the CPU kernel's sum order ((N + S) + E) + W.
fn wave_cell(c: u32, x: u32, y: u32) -> f32 {
    let north = at(c, x, neighbour(y, -1, u.height));
    let south = at(c, x, neighbour(y, 1, u.height));
    let east = at(c, neighbour(x, 1, u.width), y);
    let west = at(c, neighbour(x, -1, u.width), y);
    return u.d * (u.a * (north + south + east + west) + u.b * at(c, x, y) - old_at(c, x, y));
}

fn mur_cell(inner: f32, edge: f32, inner_new: f32) -> f32 {
    return inner + u.mur_k * (inner_new - edge);
}

// New value of an absorbing grid's cell in a row 1..height-2: the stencil inside, Mur on the
// two edge columns from the recomputed new value of their inner neighbour.
fn absorbing_row_cell(c: u32, x: u32, y: u32) -> f32 {
    if (x == 0u) {
        return mur_cell(at(c, 1u, y), at(c, 0u, y), wave_cell(c, 1u, y));
    }
    if (x == u.width - 1u) {
        return mur_cell(at(c, x - 1u, y), at(c, x, y), wave_cell(c, x - 1u, y));
    }
    return wave_cell(c, x, y);
}

// New value of any cell of channel c before contacts and land.
fn stepped(c: u32, x: u32, y: u32) -> f32 {
    let edge = y == 0u || y == u.height - 1u || x == 0u || x == u.width - 1u;
    if (u.boundary == FIXED) {
        if (edge) {
            return 0.0;
        }
        return wave_cell(c, x, y);
    }
    if (u.boundary == ABSORBING) {
        if (y == 0u) {
            return mur_cell(at(c, x, 1u), at(c, x, 0u), absorbing_row_cell(c, x, 1u));
        }
        if (y == u.height - 1u) {
            return mur_cell(at(c, x, y - 1u), at(c, x, y), absorbing_row_cell(c, x, y - 1u));
        }
        return absorbing_row_cell(c, x, y);
    }
    return wave_cell(c, x, y);
}

// New values of every channel of cell (x, y), contacts and land applied.
fn cell(x: u32, y: u32, channels: u32) -> vec2<f32> {
    let i = y * u.width + x;
    var v = vec2<f32>(0.0, 0.0);
    v.x = stepped(0u, x, y);
    if (channels == 2u) {
        v.y = stepped(1u, x, y);
    }
    if (u.has_contacts != 0u) {
        let c_new = contact_new[i];
        let c_old = contact_old[i];
        let bow = c_new > 0.0 && c_old == 0.0;
        let stern = c_new == 0.0 && c_old > 0.0;
        if (u.mode == SPLIT) {
            if (bow) {
                v.x = u.contact_amplitude * c_new;
            } else if (stern) {
                v.y = u.contact_amplitude * c_old;
            }
        } else {
            if (bow) {
                v.x += u.contact_amplitude * c_new;
            } else if (stern) {
                v.x -= u.contact_amplitude * c_old;
            }
        }
    }
    let on_fixed_rim = u.boundary == FIXED
        && (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u);
    let dry = land[i] != 0u || on_fixed_rim;
    return select(v, vec2<f32>(0.0, 0.0), dry);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let word_x = id.x;
    let y = id.y;
    if (word_x >= row_words() || y >= u.height) {
        return;
    }
    let channels = select(1u, 2u, u.mode == SPLIT);
    let x = 2u * word_x;
    // Both cells first, then the stores: `low` and `high` hold channel values in .x (p or z)
    // and .y (n).
    let low = cell(x, y, channels);
    var high = vec2<f32>(0.0, 0.0);
    if (x + 1u < u.width) {
        high = cell(x + 1u, y, channels);
    }
    out[word_index(0u, x, y)] = pack_f16(low.x, high.x);
    if (channels == 2u) {
        out[word_index(1u, x, y)] = pack_f16(low.y, high.y);
    }
}
