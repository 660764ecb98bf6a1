// grid_step (fragment): one step of the signed five-point wave stencil as a full-screen render
// pass into a third texture, as a game engine steps a simulation viewport (render-to-texture
// ping-pong). CPU twin: crates/water-core/src/kernels/grid_step.rs; compute twin:
// grid_step.wgsl, whose per-cell functions this file repeats with texture loads.
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Signed fields are R32Float textures, split fields Rg32Float (p in r, n in g). A render pass
// cannot read the texture it writes, so three textures rotate: old, current and new.

#import grid_uniforms
#import full_screen
#import depth_cell
#import contact_events
#import fragment_step_bindings

// Per cell: the east face's and the south face's Courant numbers and Mur's coefficient (water
// of varying depth; a placeholder texel otherwise, never read).
@group(0) @binding(6) var faces_tex: texture_2d<f32>;

fn face_at(x: u32, y: u32) -> vec4<f32> {
    return textureLoad(faces_tex, vec2<u32>(x, y), 0);
}

// A texel of the levels holds an f32 cell.
alias Texel = f32;

fn at(c: u32, x: u32, y: u32) -> f32 {
    return textureLoad(cur_tex, vec2<u32>(x, y), 0)[c];
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return textureLoad(old_tex, vec2<u32>(x, y), 0)[c];
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
        let events = contact_events(v.xy, c_new, c_old);
        v = vec4<f32>(events, v.zw);
    }
    let dry = held_dry(textureLoad(land_tex, vec2<u32>(x, y), 0).r != 0u, x, y);
    return select(v, vec4<f32>(0.0), dry);
}
