// shared/wave_cell: the five-point stencil, Mur's absorbing edges and each boundary's rule for
// one cell. CPU twins: `wave_cell` in crates/water-core/src/kernels/grid_step.rs (the stencil
// in its sum order ((N + S) + E) + W) and crates/water-core/src/kernels/absorbing_edges.rs.
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

// Whether cell (x, y) is held dry after a step: land, or a fixed grid's rim.
fn held_dry(on_land: bool, x: u32, y: u32) -> bool {
    let on_fixed_rim = u.boundary == FIXED
        && (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u);
    return on_land || on_fixed_rim;
}
