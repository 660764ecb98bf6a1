// shared/wave_cell: the five-point stencil for one cell. CPU twin: `wave_cell` in
// crates/water-core/src/kernels/grid_step.rs (the stencil in its sum order ((N + S) + E) + W).
// Each boundary's rule around it is shared/boundary_rules.wgsl.
//
//   z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old),   b = 2 - 4a
//
// The kernel that imports this defines how cells are read, whatever its storage:
//   fn at(c: u32, x: u32, y: u32) -> f32       current level, channel c
//   fn old_at(c: u32, x: u32, y: u32) -> f32   previous level
// and imports grid_uniforms (the uniform is `u`).

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
