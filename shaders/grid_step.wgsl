// grid_step: one step of the signed five-point wave stencil, compute version.
// CPU twin: crates/water-core/src/kernels/grid_step.rs (with absorbing_edges.rs and the contact
// events of contact.rs, and the land clearing of land.rs, fused into one pass); with the
// pipeline constant `depth_enabled`, crates/water-core/src/kernels/depth_step.rs (water of
// varying depth, shared/depth_cell.wgsl, its faces in binding 7).
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// Buffers hold `channels` fields of width*height cells back to back (signed: 1, split: 2 with
// p then n). The new level goes to a third buffer (the host rotates old, current and new), so
// no invocation reads a cell another one writes: the absorbing edges recompute their inner
// neighbour's new value from `cur` and `old`.

#import grid_uniforms
#import depth_cell
#import contact_events
#import grid_step_bindings

// Per cell: the east face's and the south face's Courant numbers and Mur's coefficient (water
// of varying depth; a placeholder of one cell otherwise, never read).
@group(0) @binding(7) var<storage, read> faces: array<vec4<f32>>;

fn face_at(x: u32, y: u32) -> vec4<f32> {
    return faces[y * u.width + x];
}

// A storage word of the levels holds an f32 cell.
alias Word = f32;

fn cells() -> u32 {
    return u.width * u.height;
}

fn at(c: u32, x: u32, y: u32) -> f32 {
    return cur[c * cells() + y * u.width + x];
}

fn old_at(c: u32, x: u32, y: u32) -> f32 {
    return old[c * cells() + y * u.width + x];
}

@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.width || id.y >= u.height) { return; }
    let x = id.x;
    let y = id.y;
    let channels = select(1u, 2u, u.mode == SPLIT);
    let i = y * u.width + x;
    var v = vec2<f32>(0.0, 0.0);
    for (var c = 0u; c < channels; c++) {
        v[c] = stepped(c, x, y);
    }
    if (u.has_contacts != 0u) {
        v = contact_events(v, contact_new[i], contact_old[i]);
    }
    let dry = held_dry(land[i] != 0u, x, y);
    for (var c = 0u; c < channels; c++) {
        out[c * cells() + i] = select(v[c], 0.0, dry);
    }
}
