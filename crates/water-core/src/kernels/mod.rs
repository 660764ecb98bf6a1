//! The per-step kernels. Each has a WGSL twin of the same name in `shaders/` (GPU backends) and
//! is written to be read beside it: same loop order, same sum order, same edge rules.

pub mod absorbing_edges;
pub mod classic_step;
pub mod float_mode;
pub mod grid_step;
pub(crate) mod rows;

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
    /// Number of row bands to split a grid of `cells` cells with `rows` rows into (1 = serial).
    pub(crate) fn bands(self, cells: usize, rows: usize) -> usize {
        let threads = rayon::current_num_threads();
        let parallel = match self {
            Self::Serial => false,
            Self::Parallel => true,
            Self::Auto => threads > 1 && cells >= PARALLEL_THRESHOLD_CELLS,
        };
        if parallel {
            // One contiguous band per thread keeps each core's rows in its own cache, like a
            // static OpenMP schedule; more bands than threads only adds hand-offs.
            threads.min(rows).max(1)
        } else {
            1
        }
    }
}
