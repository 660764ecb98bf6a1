// classic_step: Hugo Elias's i16 ripple in i32 arithmetic, bit for bit.
// CPU twin: crates/water-core/src/kernels/classic_step.rs (with the classic contact events of
// classic_grid.rs and land clearing fused in).
//
//   dst = ((src[i-1] + src[i+1] + src[i-W] + src[i+W]) >> 1) - dst     (wrapped to i16)
//   dst -= dst >> k                                                      (k = shift; 0: none)
//
// Values are i16 stored in i32 lanes; `wrap16` reproduces C's store into a `short`. The new
// level goes to a third buffer; the host rotates old, current and new.

struct GridUniforms {
    width: u32,
    height: u32,
    boundary: u32,
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

@group(0) @binding(0) var<uniform> u: GridUniforms;
@group(0) @binding(1) var<storage, read> src: array<i32>;
@group(0) @binding(2) var<storage, read> old: array<i32>;
@group(0) @binding(3) var<storage, read_write> dst: array<i32>;
@group(0) @binding(4) var<storage, read> land: array<u32>;
@group(0) @binding(5) var<storage, read> contact_new: array<f32>;
@group(0) @binding(6) var<storage, read> contact_old: array<f32>;

fn wrap16(v: i32) -> i32 {
    return (v << 16u) >> 16u;
}

// Rust's f32::round: halves away from zero (WGSL's round() takes halves to even).
fn round_half_away(v: f32) -> f32 {
    return sign(v) * floor(abs(v) + 0.5);
}

fn classic_cell(i: u32) -> i32 {
    let w = u.width;
    let sum = src[i - 1u] + src[i + 1u] + src[i - w] + src[i + w];
    var v = wrap16((sum >> 1u) - old[i]);
    if (u.classic_shift != 0u) {
        v = wrap16(v - (v >> u.classic_shift));
    }
    return v;
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = id.x;
    let y = id.y;
    if (x >= u.width || y >= u.height) {
        return;
    }
    let i = y * u.width + x;
    if (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u) {
        dst[i] = 0;
        return;
    }
    var v = classic_cell(i);
    if (u.has_contacts != 0u) {
        let c_new = contact_new[i];
        let c_old = contact_old[i];
        var delta = 0.0;
        if (c_new > 0.0 && c_old == 0.0) {
            delta = u.contact_amplitude * c_new;
        } else if (c_new == 0.0 && c_old > 0.0) {
            delta = -(u.contact_amplitude * c_old);
        }
        // Saturating i16 add of the rounded amount, as the CPU's saturating_add.
        let amount = i32(clamp(round_half_away(delta), -32768.0, 32767.0));
        v = clamp(v + amount, -32768, 32767);
    }
    if (land[i] != 0u) {
        v = 0;
    }
    dst[i] = v;
}
