// shared/classic_cell: Hugo Elias's i16 ripple for one interior cell, and its contact events,
// bit for bit. CPU twins: `classic_step` in crates/water-core/src/kernels/classic_step.rs and
// the classic events of crates/water-core/src/classic_grid.rs.
//
//   dst = ((src[i-1] + src[i+1] + src[i-W] + src[i+W]) >> 1) - dst     (wrapped to i16)
//   dst -= dst >> k                                                      (k = shift; 0: none)
//
// The kernel that imports this defines how cells are read, whatever its storage:
//   fn src_at(x: u32, y: u32) -> i32     current level
//   fn old_at(x: u32, y: u32) -> i32     previous level
// and imports grid_uniforms (the uniform is `u`).

// C's store into a `short`: the low 16 bits, sign-extended.
fn wrap16(v: i32) -> i32 {
    return (v << 16u) >> 16u;
}

// Rust's f32::round: halves away from zero (WGSL's round() takes halves to even).
fn round_half_away(v: f32) -> f32 {
    return sign(v) * floor(abs(v) + 0.5);
}

fn classic_cell(x: u32, y: u32) -> i32 {
    let sum = src_at(x - 1u, y) + src_at(x + 1u, y) + src_at(x, y - 1u) + src_at(x, y + 1u);
    var v = wrap16((sum >> 1u) - old_at(x, y));
    if (u.classic_shift != 0u) {
        v = wrap16(v - (v >> u.classic_shift));
    }
    return v;
}

// Bow and stern events on a classic cell: the rounded amount added with i16 saturation, as the
// CPU's saturating_add.
fn classic_contact_events(v: i32, c_new: f32, c_old: f32) -> i32 {
    var delta = 0.0;
    if (c_new > 0.0 && c_old == 0.0) {
        delta = u.contact_amplitude * c_new;
    } else if (c_new == 0.0 && c_old > 0.0) {
        delta = -(u.contact_amplitude * c_old);
    }
    let amount = i32(clamp(round_half_away(delta), -32768.0, 32767.0));
    return clamp(v + amount, -32768, 32767);
}
