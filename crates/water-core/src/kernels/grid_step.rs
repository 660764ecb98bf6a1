//! `grid_step`: one step of the signed five-point wave stencil over a whole field, every
//! boundary. GPU twins: `shaders/grid_step.wgsl`, `shaders/grid_step_f16.wgsl` and
//! `shaders/grid_step_fragment.wgsl`, with the cell formula in `shaders/shared/wave_cell.wgsl`
//! and each boundary's rule (`step_row_slices`) in `shaders/shared/boundary_rules.wgsl`.
//!
//! Two-buffer scheme: `cur` holds `z^n`, `out` holds `z^(n-1)` on entry and `z^(n+1)` on exit;
//! the caller then swaps the buffers.

use super::absorbing_edges::{mur_coefficient, mur_columns, mur_rows};
use super::float_mode::FlushDenormals;
use super::rows::{wave_cell, wave_row_interior, RowKernel};
use super::{for_each_stepped_row, Parallelism};
use crate::boundary::Boundary;
use crate::params::StencilCoefficients;
use crate::size::GridSize;

/// Advances one field by one step. See the module docs for the buffer convention.
///
/// # Panics
/// If `cur` or `out` does not hold `size.cells()` values (the grid types check this).
pub fn grid_step(
    size: GridSize,
    k: StencilCoefficients,
    boundary: Boundary,
    cur: &[f32],
    out: &mut [f32],
    parallelism: Parallelism,
) {
    let mur_k = mur_coefficient(k.a);
    let kernel = RowKernel::detect();
    for_each_stepped_row(size, boundary, (cur, out), parallelism, |y, out_row| {
        step_row(kernel, size, k, boundary, mur_k, cur, y, out_row);
    });
    if boundary == Boundary::Absorbing {
        let _ftz = FlushDenormals::new();
        mur_rows(size, mur_k, cur, out);
    }
}

/// Rows north (y-1) and south (y+1) of row `y` under `boundary`. Fixed and absorbing
/// boundaries only ask for interior rows, whose neighbours both exist.
#[inline]
#[must_use]
pub fn row_neighbours(boundary: Boundary, y: usize, height: usize) -> (usize, usize) {
    match boundary {
        Boundary::Fixed | Boundary::Absorbing => (y - 1, y + 1),
        Boundary::Reflective => (y.saturating_sub(1), (y + 1).min(height - 1)),
        Boundary::Periodic => ((y + height - 1) % height, (y + 1) % height),
    }
}

/// Updates row `y` of the field into `out_row`.
#[inline]
#[allow(
    clippy::too_many_arguments,
    reason = "the row's whole context, passed down flat"
)]
fn step_row(
    kernel: RowKernel,
    size: GridSize,
    k: StencilCoefficients,
    boundary: Boundary,
    mur_k: f32,
    cur: &[f32],
    y: usize,
    out_row: &mut [f32],
) {
    let w = size.width();
    let (north, south) = row_neighbours(boundary, y, size.height());
    let row = |r: usize| &cur[r * w..(r + 1) * w];
    step_row_slices(
        kernel,
        k,
        boundary,
        mur_k,
        row(north),
        row(y),
        row(south),
        out_row,
    );
}

/// Updates one row from its three source rows: `out_row` holds `z_old` on entry, `z_new` on exit.
#[inline]
#[allow(
    clippy::too_many_arguments,
    reason = "the row's whole context, passed down flat"
)]
pub(crate) fn step_row_slices(
    kernel: RowKernel,
    k: StencilCoefficients,
    boundary: Boundary,
    mur_k: f32,
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    out_row: &mut [f32],
) {
    wave_row_interior(kernel, up, mid, down, out_row, k);
    let last = mid.len() - 1;
    match boundary {
        Boundary::Fixed => {}
        Boundary::Reflective => {
            out_row[0] = wave_cell(k, up[0], down[0], mid[1], mid[0], mid[0], out_row[0]);
            out_row[last] = wave_cell(
                k,
                up[last],
                down[last],
                mid[last],
                mid[last - 1],
                mid[last],
                out_row[last],
            );
        }
        Boundary::Periodic => {
            out_row[0] = wave_cell(k, up[0], down[0], mid[1], mid[last], mid[0], out_row[0]);
            out_row[last] = wave_cell(
                k,
                up[last],
                down[last],
                mid[0],
                mid[last - 1],
                mid[last],
                out_row[last],
            );
        }
        Boundary::Absorbing => mur_columns(mur_k, mid, out_row),
    }
}
