// classic_step: Hugo Elias's i16 ripple in i32 arithmetic, bit for bit.
// CPU twin: crates/water-core/src/kernels/classic_step.rs (with the classic contact events of
// classic_grid.rs and land clearing fused in).
//
//   dst = ((src[i-1] + src[i+1] + src[i-W] + src[i+W]) >> 1) - dst     (wrapped to i16)
//   dst -= dst >> k                                                      (k = shift; 0: none)
//
// Values are i16 stored in i32 lanes; `wrap16` reproduces C's store into a `short`. The new
// level goes to a third buffer; the host rotates old, current and new.

#import grid_uniforms
#import classic_cell
#import grid_step_bindings

// A storage word of the levels holds a classic i16 cell in an i32.
alias Word = i32;

fn src_at(x: u32, y: u32) -> i32 {
    return cur[y * u.width + x];
}

fn old_at(x: u32, y: u32) -> i32 {
    return old[y * u.width + x];
}

@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= u.width || id.y >= u.height) { return; }
    let x = id.x;
    let y = id.y;
    let i = y * u.width + x;
    if (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u) {
        out[i] = 0;
        return;
    }
    var v = classic_cell(x, y);
    if (u.has_contacts != 0u) {
        v = classic_contact_events(v, contact_new[i], contact_old[i]);
    }
    if (land[i] != 0u) {
        v = 0;
    }
    out[i] = v;
}
