// shared/boundary_rules: each boundary's rule for one cell around a stencil: fixed edges stay 0,
// reflective and periodic edges step as the interior (the stencil reads clamped or wrapped
// neighbours), absorbing edges take Mur's one-way condition. CPU twins:
// crates/water-core/src/kernels/grid_step.rs (`step_row_slices`) with
// crates/water-core/src/kernels/absorbing_edges.rs, and crates/water-core/src/kernels/depth_step.rs
// for water of varying depth.
//
// The kernel that imports this defines, besides `at` and `old_at`:
//   fn interior_cell(c: u32, x: u32, y: u32) -> f32   the stencil's new value at (x, y)
//   fn mur_k_at(x: u32, y: u32) -> f32                  Mur's coefficient at edge cell (x, y)
// (shared/wave_cell.wgsl's five-point stencil with the grid's one coefficient, or
// shared/depth_cell.wgsl's variable-coefficient one with each cell's own), and imports
// grid_uniforms (the uniform is `u`).

fn mur_cell(k: f32, inner: f32, edge: f32, inner_new: f32) -> f32 {
    return inner + k * (inner_new - edge);
}

// New value of an absorbing grid's cell in a row 1..height-2: the stencil inside, Mur on the
// two edge columns from the recomputed new value of their inner neighbour.
fn absorbing_row_cell(c: u32, x: u32, y: u32) -> f32 {
    if (x == 0u) {
        return mur_cell(mur_k_at(x, y), at(c, 1u, y), at(c, 0u, y), interior_cell(c, 1u, y));
    }
    if (x == u.width - 1u) {
        return mur_cell(mur_k_at(x, y), at(c, x - 1u, y), at(c, x, y), interior_cell(c, x - 1u, y));
    }
    return interior_cell(c, x, y);
}

// New value of any cell of channel c before contacts and land.
fn stepped(c: u32, x: u32, y: u32) -> f32 {
    let edge_row = y == 0u || y == u.height - 1u;
    let edge = edge_row || x == 0u || x == u.width - 1u;
    if (u.boundary == FIXED) {
        if (edge) {
            return 0.0;
        }
        return interior_cell(c, x, y);
    }
    if (u.boundary == ABSORBING) {
        if (y == 0u) {
            let k = mur_k_at(x, y);
            return mur_cell(k, at(c, x, 1u), at(c, x, 0u), absorbing_row_cell(c, x, 1u));
        }
        if (y == u.height - 1u) {
            let k = mur_k_at(x, y);
            return mur_cell(k, at(c, x, y - 1u), at(c, x, y), absorbing_row_cell(c, x, y - 1u));
        }
        return absorbing_row_cell(c, x, y);
    }
    return interior_cell(c, x, y);
}

// Whether cell (x, y) is held dry after a step: land, or a fixed grid's rim.
fn held_dry(on_land: bool, x: u32, y: u32) -> bool {
    let on_fixed_rim = u.boundary == FIXED
        && (x == 0u || y == 0u || x == u.width - 1u || y == u.height - 1u);
    return on_land || on_fixed_rim;
}
