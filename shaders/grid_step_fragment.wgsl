// grid_step (fragment): one step of the signed five-point wave stencil as a full-screen render
// pass into a third texture, as a game engine steps a simulation viewport (render-to-texture
// ping-pong). CPU twin: crates/water-core/src/kernels/grid_step.rs; compute twin:
// grid_step.wgsl, whose per-cell functions this file repeats with texture loads.
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Signed fields are R32Float textures, split fields Rg32Float (p in r, n in g). A render pass
// cannot read the texture it writes, so three textures rotate: old, current and new.

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
@group(0) @binding(1) var cur_tex: texture_2d<f32>;
@group(0) @binding(2) var old_tex: texture_2d<f32>;
@group(0) @binding(3) var land_tex: texture_2d<u32>;
@group(0) @binding(4) var contact_new_tex: texture_2d<f32>;
@group(0) @binding(5) var contact_old_tex: texture_2d<f32>;

fn at(c: u32, x: u32, y: u32) -> f32 {
    return textureLoad(cur_tex, vec2<u32>(x, y), 0)[c];
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return textureLoad(old_tex, vec2<u32>(x, y), 0)[c];
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

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
}

// One triangle that covers the whole target.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOutput {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOutput;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let x = u32(position.x);
    let y = u32(position.y);
    let channels = select(1u, 2u, u.mode == SPLIT);
    var v = vec4<f32>(0.0);
    for (var c = 0u; c < channels; c++) {
        v[c] = stepped(c, x, y);
    }
    if (u.has_contacts != 0u) {
        let c_new = textureLoad(contact_new_tex, vec2<u32>(x, y), 0).r;
        let c_old = textureLoad(contact_old_tex, vec2<u32>(x, y), 0).r;
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
    let dry = textureLoad(land_tex, vec2<u32>(x, y), 0).r != 0u || on_fixed_rim;
    return select(v, vec4<f32>(0.0), dry);
}
