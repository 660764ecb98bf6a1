//! `grid_steps_blocked`: several signed-stencil steps per pass over memory, bit for bit the
//! same as that many calls of [`super::grid_step::grid_step`]. GPU twins of the idea (several steps
//! per pass, in workgroup memory): `shaders/grid_step_fused.wgsl` and
//! `shaders/grid_step_fused_f16.wgsl`, their tile in `shaders/shared/fused_tile.wgsl`.
//!
//! # Why
//! One plain step reads `z` and `z_old` and writes `z_new`: 12 bytes of memory traffic per cell,
//! so grids larger than the caches run at the speed of memory, not of the arithmetic. Here a
//! pass carries several steps through the grid at once while their rows are still in cache.
//!
//! # How: a wavefront over rows
//! With the two-buffer scheme, step `g` writes `z^g` over `z^(g-2)`. Step `g` may compute row `r`
//! as soon as step `g-1` has finished rows `r-1`, `r` and `r+1`, and overwriting `z^(g-2)` at
//! row `r` is then safe too: its only readers, step `g-1` at rows `r-1..=r+1` (and step `g` at row
//! `r` itself), are done. So a stage that runs steps `g0+1 ..= g0+m` walks the rows in "ticks":
//! in tick `t` step `g0+1+j` computes row `t - j`, for `j = 0..m`. Each step trails the one before
//! it by one row, and the `m + 2` rows in flight per buffer stay in cache.
//!
//! # Threads: a pipeline
//! With `T` threads the steps of a sweep are split into `T` consecutive stages, one per thread,
//! each running its own wavefront. A stage's first step waits, row by row, until the previous
//! stage's last step has finished the rows it reads (an atomic counter per stage, published
//! with release ordering after every tick and read with acquire ordering). Stage 0 of the next
//! sweep waits on the last stage of the previous sweep in the same way, so the threads stream
//! through the grid one behind the other without a barrier. Waits spin briefly and then yield.
//!
//! Rows, not cells, are the unit of work, so every row runs the same row kernel as the plain
//! step, and the results do not depend on the number of threads.
//!
//! Only the fixed and reflective boundaries are blocked: a periodic row 0 needs row `H-1` of the
//! previous step, and the absorbing edge rows need the new rows next to them, which breaks the
//! one-row-behind order. Callers fall back to single steps for those.

use std::sync::atomic::{AtomicU64, Ordering};

use super::float_mode::FlushDenormals;
use super::grid_step::{row_neighbours, step_row_slices};
use super::rows::{classic_row, RowKernel};
use crate::boundary::Boundary;
use crate::land::LandMask;
use crate::params::StencilCoefficients;
use crate::size::GridSize;

/// Budget, in bytes, for the rows one stage keeps in flight (both buffers): half of a typical
/// 512 KiB L2, leaving room for the rows streaming in and for the other stage's rows.
const ROWS_IN_FLIGHT_BYTES: usize = 256 * 1024;
/// Most steps one stage runs per sweep. More cuts memory traffic further only once the
/// arithmetic is already the limit.
const MAX_STEPS_PER_STAGE: usize = 16;

/// When a multi-step run uses temporal blocking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TemporalBlocking {
    /// When the boundary allows it, the run has at least two steps, and blocking is measured to
    /// pay (see `docs/benchmarks.md`):
    /// - on one thread, when the two levels together take at least [`AUTO_MIN_BYTES`]: a grid
    ///   that fits in the core's L2 cache steps as fast one step at a time, larger ones wait on
    ///   the L3 or memory, which blocking saves;
    /// - on several threads, when the levels take at least [`AUTO_MIN_BYTES_THREADED`] (they
    ///   stream from memory, and blocking cuts that traffic even in short runs), or when the run
    ///   has at least [`AUTO_MIN_THREADED_UPDATES`] cell updates: the pipeline replaces a fork
    ///   and join per step with row-by-row hand-offs, which pays once the run is long enough to
    ///   hide starting its threads.
    #[default]
    Auto,
    /// Whenever the boundary allows it.
    Always,
    /// Never: multi-step runs are single steps in a loop.
    Never,
}

/// Smallest pair of levels (bytes) that [`TemporalBlocking::Auto`] blocks on one thread: 2 MiB,
/// twice a 1 MiB L2 cache.
pub const AUTO_MIN_BYTES: usize = 2 << 20;

/// Smallest pair of levels (bytes) that [`TemporalBlocking::Auto`] blocks on several threads
/// whatever the run's length: 16 MiB, half a typical L3, where single steps wait on memory.
pub const AUTO_MIN_BYTES_THREADED: usize = 16 << 20;

/// Cell updates (cells times steps) from which [`TemporalBlocking::Auto`] blocks a run on
/// several threads at any grid size: 2^26, several milliseconds of work, so the tens of
/// microseconds it takes to start the pipeline's threads cost under 1%.
pub const AUTO_MIN_THREADED_UPDATES: u64 = 1 << 26;

impl TemporalBlocking {
    /// Whether a run of `steps` steps on `threads` threads, on a grid of `cells` cells of
    /// `bytes_per_cell` bytes (4 for f32, 2 for the classic i16) with `boundary`, is blocked.
    #[must_use]
    pub fn applies(
        self,
        boundary: Boundary,
        cells: usize,
        bytes_per_cell: usize,
        steps: u64,
        threads: usize,
    ) -> bool {
        let level_bytes = 2 * cells * bytes_per_cell;
        let wanted = match self {
            Self::Auto if threads > 1 => {
                level_bytes >= AUTO_MIN_BYTES_THREADED
                    || (cells as u64).saturating_mul(steps) >= AUTO_MIN_THREADED_UPDATES
            }
            Self::Auto => level_bytes >= AUTO_MIN_BYTES,
            Self::Always => true,
            Self::Never => false,
        };
        wanted && steps >= 2 && supports(boundary)
    }
}

/// True when [`grid_steps_blocked`] supports the boundary.
#[must_use]
pub fn supports(boundary: Boundary) -> bool {
    matches!(boundary, Boundary::Fixed | Boundary::Reflective)
}

/// Steps each stage runs per sweep for rows of `width` f32 cells.
#[must_use]
pub fn steps_per_stage(width: usize) -> usize {
    steps_per_stage_for(width * size_of::<f32>())
}

fn steps_per_stage_for(row_bytes: usize) -> usize {
    let rows = ROWS_IN_FLIGHT_BYTES / (2 * row_bytes);
    rows.saturating_sub(2).clamp(1, MAX_STEPS_PER_STAGE)
}

/// What one step does to one row, for the wavefront to call: the signed stencil or the classic
/// ripple, with land cleared after the row.
trait RowStep<T>: Sync {
    /// Row `r` of the new level into `out` (which holds the level before the current one).
    fn step_row(&self, r: usize, up: &[T], mid: &[T], down: &[T], out: &mut [T]);
}

struct SignedRows<'a> {
    kernel: RowKernel,
    k: StencilCoefficients,
    boundary: Boundary,
    land: Option<&'a LandMask>,
}

impl RowStep<f32> for SignedRows<'_> {
    fn step_row(&self, r: usize, up: &[f32], mid: &[f32], down: &[f32], out: &mut [f32]) {
        step_row_slices(self.kernel, self.k, self.boundary, 0.0, up, mid, down, out);
        if let Some(land) = self.land {
            land.clear_row(r, out);
        }
    }
}

struct ClassicRows<'a> {
    shift: Option<u32>,
    land: Option<&'a LandMask>,
}

impl RowStep<i16> for ClassicRows<'_> {
    fn step_row(&self, r: usize, up: &[i16], mid: &[i16], down: &[i16], out: &mut [i16]) {
        classic_row(up, mid, down, out, self.shift);
        if let Some(land) = self.land {
            land.clear_row(r, out);
        }
    }
}

/// Classic (i16) ripple steps, blocked like [`grid_steps_blocked`] (fixed boundary, land
/// zeroed per row), bit for bit the same as that many `classic_step` calls. Returns `true` when
/// the newest level ended in `old`.
///
/// # Panics
/// If the buffers do not match `size` or `threads` is 0.
pub fn classic_steps_blocked(
    size: GridSize,
    shift: Option<u32>,
    land: Option<&LandMask>,
    cur: &mut [i16],
    old: &mut [i16],
    steps: usize,
    threads: usize,
) -> bool {
    run_wavefront(
        size,
        Boundary::Fixed,
        &ClassicRows { shift, land },
        cur,
        old,
        steps,
        threads,
    )
}

/// Advances a field by `steps` steps. `cur` holds `z^n` and `old` holds `z^(n-1)` on entry;
/// on exit the newest level is in `cur` if this returns `false` and in `old` if it returns
/// `true` (the caller then swaps the buffers), the level before it in the other buffer.
/// Land cells of `land` are zeroed after each row is stepped, as the single step does after
/// each step.
///
/// # Panics
/// If the buffers do not match `size`, `threads` is 0, or the boundary is not supported
/// (see [`supports`]).
#[allow(
    clippy::too_many_arguments,
    reason = "mirrors grid_step's inputs plus the plan"
)]
pub fn grid_steps_blocked(
    size: GridSize,
    k: StencilCoefficients,
    boundary: Boundary,
    land: Option<&LandMask>,
    cur: &mut [f32],
    old: &mut [f32],
    steps: usize,
    threads: usize,
) -> bool {
    assert!(supports(boundary), "boundary {boundary} is not blocked");
    let rows = SignedRows {
        kernel: RowKernel::detect(),
        k,
        boundary,
        land,
    };
    run_wavefront(size, boundary, &rows, cur, old, steps, threads)
}

fn run_wavefront<T: Send + Sync, S: RowStep<T>>(
    size: GridSize,
    boundary: Boundary,
    step: &S,
    cur: &mut [T],
    old: &mut [T],
    steps: usize,
    threads: usize,
) -> bool {
    assert_eq!(cur.len(), size.cells(), "cur buffer size");
    assert_eq!(old.len(), size.cells(), "old buffer size");
    assert!(threads > 0, "at least one thread");
    if steps == 0 {
        return false;
    }
    let rows = match boundary {
        Boundary::Fixed => 1..size.height() - 1,
        _ => 0..size.height(),
    };
    let per_stage = steps_per_stage_for(size.width() * size_of::<T>());
    let plan = Plan::new(steps, threads.min(steps), per_stage);
    let shared = SharedLevels {
        // Level z^g lives in buffer g & 1: z^0 in `cur`, z^-1 (and z^1) in `old`.
        buffers: [cur.as_mut_ptr(), old.as_mut_ptr()],
        width: size.width(),
    };
    let job = Job {
        step,
        size,
        boundary,
        rows,
        plan: &plan,
        levels: &shared,
        progress: (0..plan.stages).map(|_| AtomicU64::new(0)).collect(),
        cell: std::marker::PhantomData,
    };
    if plan.stages == 1 {
        job.run_stage(0);
    } else {
        std::thread::scope(|scope| {
            for stage in 1..plan.stages {
                let job = &job;
                scope.spawn(move || job.run_stage(stage));
            }
            job.run_stage(0);
        });
    }
    steps % 2 == 1
}

/// Which steps each stage runs in each sweep.
struct Plan {
    stages: usize,
    /// Per sweep, per stage: `(first step, number of steps)`, steps counted from 1.
    sweeps: Vec<Vec<(usize, usize)>>,
}

impl Plan {
    fn new(steps: usize, stages: usize, per_stage: usize) -> Self {
        let mut sweeps = Vec::new();
        let mut done = 0;
        while done < steps {
            let in_sweep = (stages * per_stage).min(steps - done);
            let mut first = done + 1;
            let sweep = (0..stages)
                .map(|s| {
                    let count = in_sweep / stages + usize::from(s < in_sweep % stages);
                    let range = (first, count);
                    first += count;
                    range
                })
                .collect();
            sweeps.push(sweep);
            done += in_sweep;
        }
        Self { stages, sweeps }
    }
}

/// The two level buffers, shared between the stages' threads.
struct SharedLevels<T> {
    buffers: [*mut T; 2],
    width: usize,
}

// SAFETY: the pointers come from two live, distinct `&mut [f32]` that outlive the threads
// (`std::thread::scope`), and the wavefront protocol (module docs) guarantees that no row is
// written by one stage while another stage reads or writes it.
#[allow(
    unsafe_code,
    reason = "rows of one buffer are shared by the pipeline's threads"
)]
unsafe impl<T: Send> Sync for SharedLevels<T> {}

#[allow(
    unsafe_code,
    reason = "rows of one buffer are shared by the pipeline's threads"
)]
impl<T> SharedLevels<T> {
    /// Row `r` of the buffer holding level `g`.
    ///
    /// # Safety
    /// No other thread may write this row while the slice lives.
    unsafe fn row(&self, level: usize, r: usize) -> &[T] {
        // SAFETY: r < height, so the row is inside the buffer; exclusivity is the caller's.
        unsafe {
            std::slice::from_raw_parts(self.buffers[level & 1].add(r * self.width), self.width)
        }
    }

    /// Row `r` of the buffer holding level `g`, mutably.
    ///
    /// # Safety
    /// No other thread may read or write this row, and no other slice of it may exist, while
    /// the slice lives.
    #[allow(
        clippy::mut_from_ref,
        reason = "exclusivity is the wavefront's invariant"
    )]
    unsafe fn row_mut(&self, level: usize, r: usize) -> &mut [T] {
        // SAFETY: as for `row`, with exclusive access guaranteed by the caller.
        unsafe {
            std::slice::from_raw_parts_mut(self.buffers[level & 1].add(r * self.width), self.width)
        }
    }
}

struct Job<'a, T, S> {
    step: &'a S,
    size: GridSize,
    boundary: Boundary,
    rows: std::ops::Range<usize>,
    plan: &'a Plan,
    levels: &'a SharedLevels<T>,
    /// Per stage: `sweep * (rows + 1) + rows finished by the stage's last step`.
    progress: Vec<AtomicU64>,
    cell: std::marker::PhantomData<T>,
}

impl<T: Send + Sync, S: RowStep<T>> Job<'_, T, S> {
    fn stamp(&self, sweep: usize, rows_done: usize) -> u64 {
        (sweep * (self.rows.len() + 1) + rows_done) as u64
    }

    fn wait_for(&self, stage: usize, value: u64) {
        let counter = &self.progress[stage];
        let mut spins = 0u32;
        while counter.load(Ordering::Acquire) < value {
            if spins < 256 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// The stage a stage's first step waits on: the previous stage in this sweep, or the last
    /// stage of the previous sweep.
    fn dependency(&self, stage: usize, sweep: usize) -> Option<(usize, usize)> {
        if stage > 0 {
            Some((stage - 1, sweep))
        } else if sweep > 0 {
            Some((self.plan.stages - 1, sweep - 1))
        } else {
            None
        }
    }

    fn run_stage(&self, stage: usize) {
        let _ftz = FlushDenormals::new();
        let n_rows = self.rows.len();
        for (sweep, stages) in self.plan.sweeps.iter().enumerate() {
            let (first, count) = stages[stage];
            let dependency = self.dependency(stage, sweep);
            if count == 0 {
                // Nothing to do in this sweep: pass the previous stage's progress on.
                if let Some((dep, dep_sweep)) = dependency {
                    self.wait_for(dep, self.stamp(dep_sweep, n_rows));
                }
                self.progress[stage].store(self.stamp(sweep, n_rows), Ordering::Release);
                continue;
            }
            for tick in 0..n_rows + count - 1 {
                for j in 0..count {
                    let Some(i) = tick.checked_sub(j).filter(|&i| i < n_rows) else {
                        continue;
                    };
                    if j == 0 {
                        if let Some((dep, dep_sweep)) = dependency {
                            self.wait_for(dep, self.stamp(dep_sweep, (i + 2).min(n_rows)));
                        }
                    }
                    self.step_row(first + j, self.rows.start + i);
                }
                let done = (tick + 2).saturating_sub(count).min(n_rows);
                self.progress[stage].store(self.stamp(sweep, done), Ordering::Release);
            }
        }
    }

    /// Step `g` at row `r`: reads level `g-1`, overwrites level `g-2` with level `g`.
    #[allow(
        unsafe_code,
        reason = "rows of one buffer are shared by the pipeline's threads"
    )]
    fn step_row(&self, g: usize, r: usize) {
        let (north, south) = row_neighbours(self.boundary, r, self.size.height());
        // SAFETY: level g-1 at rows north..=south is final and nobody writes it until step g+1
        // reaches those rows, which waits for this one; level g-2 at row r is read by no one any
        // more and written only here (module docs). The two levels are different buffers.
        unsafe {
            let src = g + 1; // g - 1, taken mod 2
            let (up, mid, down) = (
                self.levels.row(src, north),
                self.levels.row(src, r),
                self.levels.row(src, south),
            );
            let out = self.levels.row_mut(g, r);
            self.step.step_row(r, up, mid, down, out);
        }
    }
}
