// classic_step (fragment): Hugo Elias's i16 ripple as a full-screen render pass, bit for bit.
// CPU twin: crates/water-core/src/kernels/classic_step.rs; compute twin: classic_step.wgsl.
// Heights are R32Sint textures holding i16 values; three textures rotate (old, current, new).

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
@group(0) @binding(1) var cur_tex: texture_2d<i32>;
@group(0) @binding(2) var old_tex: texture_2d<i32>;
@group(0) @binding(3) var land_tex: texture_2d<u32>;
@group(0) @binding(4) var contact_new_tex: texture_2d<f32>;
@group(0) @binding(5) var contact_old_tex: texture_2d<f32>;

fn src_at(x: u32, y: u32) -> i32 {
    return textureLoad(cur_tex, vec2<u32>(x, y), 0).r;
}

fn wrap16(v: i32) -> i32 {
    return (v << 16u) >> 16u;
}

// Rust's f32::round: halves away from zero (WGSL's round() takes halves to even).
fn round_half_away(v: f32) -> f32 {
    return sign(v) * floor(abs(v) + 0.5);
}

fn classic_cell(x: u32, y: u32) -> i32 {
    let sum = src_at(x - 1u, y) + src_at(x + 1u, y) + src_at(x, y - 1u) + src_at(x, y + 1u);
    var v = wrap16((sum >> 1u) - textureLoad(old_tex, vec2<u32>(x, y), 0).r);
    if (u.classic_shift != 0u) {
        v = wrap16(v - (v >> u.classic_shift));
    }
    return v;
}

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOutput {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOutput;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<i32> {
    let x = u32(position.x);
    let y = u32(position.y);
    if (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u) {
        return vec4<i32>(0);
    }
    var v = classic_cell(x, y);
    if (u.has_contacts != 0u) {
        let c_new = textureLoad(contact_new_tex, vec2<u32>(x, y), 0).r;
        let c_old = textureLoad(contact_old_tex, vec2<u32>(x, y), 0).r;
        var delta = 0.0;
        if (c_new > 0.0 && c_old == 0.0) {
            delta = u.contact_amplitude * c_new;
        } else if (c_new == 0.0 && c_old > 0.0) {
            delta = -(u.contact_amplitude * c_old);
        }
        let amount = i32(clamp(round_half_away(delta), -32768.0, 32767.0));
        v = clamp(v + amount, -32768, 32767);
    }
    if (textureLoad(land_tex, vec2<u32>(x, y), 0).r != 0u) {
        v = 0;
    }
    return vec4<i32>(v, 0, 0, 0);
}
