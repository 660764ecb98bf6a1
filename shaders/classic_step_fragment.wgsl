// classic_step (fragment): Hugo Elias's i16 ripple as a full-screen render pass, bit for bit.
// CPU twin: crates/water-core/src/kernels/classic_step.rs; compute twin: classic_step.wgsl.
// Heights are R32Sint textures holding i16 values; three textures rotate (old, current, new).

#import grid_uniforms
#import full_screen
#import classic_cell
#import fragment_step_bindings

// A texel of the levels holds a classic i16 cell in an i32.
alias Texel = i32;

fn src_at(x: u32, y: u32) -> i32 {
    return textureLoad(cur_tex, vec2<u32>(x, y), 0).r;
}

fn old_at(x: u32, y: u32) -> i32 {
    return textureLoad(old_tex, vec2<u32>(x, y), 0).r;
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
        v = classic_contact_events(v, c_new, c_old);
    }
    if (textureLoad(land_tex, vec2<u32>(x, y), 0).r != 0u) {
        v = 0;
    }
    return vec4<i32>(v, 0, 0, 0);
}
