// grid_step: one step of the signed five-point wave stencil, compute version.
// CPU twin: crates/water-core/src/kernels/grid_step.rs (with absorbing_edges.rs and the contact
// events of contact.rs, and the land clearing of land.rs, fused into one pass).
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Buffers hold `channels` fields of width*height cells back to back (signed: 1, split: 2 with
// p then n). The new level goes to a third buffer (the host rotates old, current and new), so
// no invocation reads a cell another one writes: the absorbing edges recompute their inner
// neighbour's new value from `cur` and `old`.

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
const REFLECTIVE: u32 = 1u;
const PERIODIC: u32 = 2u;
const ABSORBING: u32 = 3u;
const SPLIT: u32 = 1u;

@group(0) @binding(0) var<uniform> u: GridUniforms;
@group(0) @binding(1) var<storage, read> cur: array<f32>;
@group(0) @binding(2) var<storage, read> old: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> land: array<u32>;
@group(0) @binding(5) var<storage, read> contact_new: array<f32>;
@group(0) @binding(6) var<storage, read> contact_old: array<f32>;

fn cells() -> u32 {
    return u.width * u.height;
}

fn at(c: u32, x: u32, y: u32) -> f32 {
    return cur[c * cells() + y * u.width + x];
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return old[c * cells() + y * u.width + x];
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
    let edge_row = y == 0u || y == u.height - 1u;
    let edge = edge_row || x == 0u || x == u.width - 1u;
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

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let y = id.y;
    if (x >= u.width || y >= u.height) {
        return;
    }
    let i = y * u.width + x;
    let channels = select(1u, 2u, u.mode == SPLIT);
    var v: array<f32, 2>;
    for (var c = 0u; c < channels; c++) {
        v[c] = stepped(c, x, y);
    }
    if (u.has_contacts != 0u) {
        let c_new = contact_new[i];
        let c_old = contact_old[i];
        let bow = c_new > 0.0 && c_old == 0.0;
        let stern = c_new == 0.0 && c_old > 0.0;
        if (u.mode == SPLIT) {
            if (bow) {
                v[0] = u.contact_amplitude * c_new;
            } else if (stern) {
                v[1] = u.contact_amplitude * c_old;
            }
        } else {
            if (bow) {
                v[0] += u.contact_amplitude * c_new;
            } else if (stern) {
                v[0] -= u.contact_amplitude * c_old;
            }
        }
    }
    let on_fixed_rim = u.boundary == FIXED
        && (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u);
    let dry = land[i] != 0u || on_fixed_rim;
    for (var c = 0u; c < channels; c++) {
        out[c * cells() + i] = select(v[c], 0.0, dry);
    }
}
