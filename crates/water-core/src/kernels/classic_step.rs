//! `classic_step`: Hugo Elias's i16 ripple, bit for bit. GPU twins: `shaders/classic_step.wgsl`
//! and `shaders/classic_step_fragment.wgsl`, with the cell in `shaders/shared/classic_cell.wgsl`.
//!
//! Per interior cell, in i32 arithmetic with each store wrapping to i16 as C's `short` does:
//!
//! ```text
//! dst[i] = ((src[i-1] + src[i+1] + src[i-W] + src[i+W]) >> 1) - dst[i]
//! dst[i] -= dst[i] >> k          (skipped without damping)
//! ```
//!
//! Edge cells never change (fixed boundary).

use super::rows::classic_row;
use super::{for_each_band, Parallelism};
use crate::size::GridSize;

/// Advances the ripple by one step: `src` is the current frame, `dst` the previous one on entry
/// and the next one on exit; the caller swaps them.
///
/// # Panics
/// If `src` or `dst` does not hold `size.cells()` values (the grid types check this).
pub fn classic_step(
    size: GridSize,
    src: &[i16],
    dst: &mut [i16],
    shift: Option<u32>,
    parallelism: Parallelism,
) {
    assert_eq!(src.len(), size.cells(), "src buffer size");
    assert_eq!(dst.len(), size.cells(), "dst buffer size");
    let (w, h) = (size.width(), size.height());
    let interior_rows = h - 2;
    let band_rows = interior_rows.div_ceil(parallelism.bands(size.cells(), interior_rows));
    let updated = &mut dst[w..(h - 1) * w];
    for_each_band(updated, w, 1, band_rows, |y0, rows| {
        for (dy, out_row) in rows.chunks_exact_mut(w).enumerate() {
            let y = y0 + dy;
            let row = |r: usize| &src[r * w..(r + 1) * w];
            classic_row(row(y - 1), row(y), row(y + 1), out_row, shift);
        }
    });
}
