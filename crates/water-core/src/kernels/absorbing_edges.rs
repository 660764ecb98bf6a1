//! `absorbing_edges`: Mur's first-order absorbing boundary, the discretised one-way wave
//! equation `dz/dt = c dz/dn` at each edge. GPU twin: `mur_cell` and
//! `absorbing_row_cell` in `shaders/shared/wave_cell.wgsl`.
//!
//! At the left edge, centred at the half-cell point between cells 0 and 1 and the half step
//! between `n` and `n+1`:
//!
//! ```text
//! z0_new = z1 + k * (z1_new - z0),   k = (s - 1) / (s + 1),   s = c*dt/h = sqrt(a)
//! ```
//!
//! The columns x = 0 and x = W-1 of a row are set from that row's new interior; the rows
//! y = 0 and y = H-1 (corners included) afterwards from the new rows 1 and H-2.

use crate::size::GridSize;

/// Mur's coefficient `k = (s - 1) / (s + 1)` with `s = sqrt(a)`, computed in f64, rounded once.
#[must_use]
pub fn mur_coefficient(a: f32) -> f32 {
    let s = f64::from(a).sqrt();
    ((s - 1.0) / (s + 1.0)) as f32
}

/// One edge cell: `inner` and `edge` are `z^n` of the first interior cell and the edge cell,
/// `inner_new` the interior cell's `z^(n+1)`.
#[inline(always)]
#[must_use]
pub fn mur_cell(k: f32, inner: f32, edge: f32, inner_new: f32) -> f32 {
    inner + k * (inner_new - edge)
}

/// Sets the first and last cell of a row whose interior cells are already new.
#[inline]
pub fn mur_columns(k: f32, cur_row: &[f32], out_row: &mut [f32]) {
    let last = cur_row.len() - 1;
    out_row[0] = mur_cell(k, cur_row[1], cur_row[0], out_row[1]);
    out_row[last] = mur_cell(k, cur_row[last - 1], cur_row[last], out_row[last - 1]);
}

/// Sets rows 0 and H-1 (all columns) once rows 1 and H-2 hold their new values.
pub fn mur_rows(size: GridSize, k: f32, cur: &[f32], out: &mut [f32]) {
    let (w, h) = (size.width(), size.height());
    for (edge, inner) in [(0, 1), (h - 1, h - 2)] {
        for x in 0..w {
            let (e, i) = (edge * w + x, inner * w + x);
            out[e] = mur_cell(k, cur[i], cur[e], out[i]);
        }
    }
}
