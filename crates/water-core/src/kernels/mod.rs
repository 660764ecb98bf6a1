//! The per-step kernels. Each has a WGSL twin of the same name in `shaders/` (GPU backends) and
//! is written to be read beside it: same loop order, same sum order, same edge rules.

pub mod absorbing_edges;
#[cfg(target_arch = "x86_64")]
mod classic_rows_x86;
pub mod classic_step;
mod depth_nodes;
pub mod depth_step;
pub mod float_mode;
pub mod grid_step;
pub mod mean_level;
pub(crate) mod rows;
#[cfg(target_arch = "x86_64")]
mod rows_x86;
pub mod spectral_depth;
pub mod spectral_step;
pub mod temporal_blocking;

/// How a step may use threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Parallelism {
    /// Rows in parallel on the current rayon pool when the grid has at least
    /// [`PARALLEL_THRESHOLD_CELLS`] cells and the pool has more than one thread.
    #[default]
    Auto,
    /// Always on the calling thread.
    Serial,
    /// Always split rows over the current rayon pool, whatever the grid size.
    Parallel,
}

/// Grids smaller than this many cells (128 x 128) step on one thread under
/// [`Parallelism::Auto`]: below it the cost of waking a second thread (a few microseconds)
/// exceeds the work of the step.
pub const PARALLEL_THRESHOLD_CELLS: usize = 128 * 128;

impl Parallelism {
    /// Threads a step of a grid with `cells` cells uses on the current rayon pool.
    #[must_use]
    pub fn threads(self, cells: usize) -> usize {
        let pool = rayon::current_num_threads();
        match self {
            Self::Serial => 1,
            Self::Parallel => pool,
            Self::Auto if cells >= PARALLEL_THRESHOLD_CELLS => pool,
            Self::Auto => 1,
        }
    }

    /// Number of row bands to split a grid of `cells` cells with `rows` rows into (1 = serial).
    /// One contiguous band per thread keeps each core's rows in its own cache, like a static
    /// OpenMP schedule; more bands than threads only adds hand-offs.
    pub(crate) fn bands(self, cells: usize, rows: usize) -> usize {
        self.threads(cells).min(rows).max(1)
    }
}

/// Runs `step_row(y, out_row)` over the rows one step of a stencil updates under `boundary`
/// (every row, or for fixed and absorbing edges the interior rows: fixed edges never change and
/// absorbing edge rows follow from the new interior), in bands over threads, with denormals
/// flushed; `out` is the whole field, `cur` the level the rows are stepped from.
///
/// # Panics
/// If `cur` or `out` does not hold `size.cells()` values.
pub(crate) fn for_each_stepped_row(
    size: crate::size::GridSize,
    boundary: crate::boundary::Boundary,
    (cur, out): (&[f32], &mut [f32]),
    parallelism: Parallelism,
    step_row: impl Fn(usize, &mut [f32]) + Sync,
) {
    use crate::boundary::Boundary;
    assert_eq!(cur.len(), size.cells(), "cur buffer size");
    assert_eq!(out.len(), size.cells(), "out buffer size");
    let (w, h) = (size.width(), size.height());
    let rows = match boundary {
        Boundary::Fixed | Boundary::Absorbing => 1..h - 1,
        Boundary::Reflective | Boundary::Periodic => 0..h,
    };
    let band_rows = rows
        .len()
        .div_ceil(parallelism.bands(size.cells(), rows.len()));
    let updated = &mut out[rows.start * w..rows.end * w];
    for_each_band(updated, w, rows.start, band_rows, |y0, band| {
        let _ftz = float_mode::FlushDenormals::new();
        for (dy, out_row) in band.chunks_exact_mut(w).enumerate() {
            step_row(y0 + dy, out_row);
        }
    });
}

/// Runs `step_band(first_row, rows)` over the rows of `updated` (whole rows of `width` cells,
/// the first of them grid row `first_row`), split into bands of `band_rows` rows, in parallel on
/// the current rayon pool when there is more than one band.
pub(crate) fn for_each_band<T: Send>(
    updated: &mut [T],
    width: usize,
    first_row: usize,
    band_rows: usize,
    step_band: impl Fn(usize, &mut [T]) + Sync,
) {
    use rayon::prelude::*;
    if band_rows * width >= updated.len() {
        step_band(first_row, updated);
    } else {
        updated
            .par_chunks_mut(band_rows * width)
            .enumerate()
            .for_each(|(band, rows)| step_band(first_row + band * band_rows, rows));
    }
}
