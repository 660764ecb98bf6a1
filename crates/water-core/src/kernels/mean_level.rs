//! `mean_level`: keeps the mean level of a volume-conserving grid where the exact recurrence
//! puts it. GPU twin: `shaders/mean_level.wgsl`.
//!
//! On reflective and periodic grids without damping or land, the sum `S = sum z` obeys
//! `S^(n+1) = 2 S^n - S^(n-1)` exactly in exact arithmetic (`docs/math.md`, section 9): the mean
//! level moves at a constant rate, zero for water that started at rest. In f32 every step's
//! rounding kicks that rate a little, and the kicks add up to a drift. Every
//! [`mean_level_period`] steps (32 on small grids) a [`MeanLevelKeeper`] measures the sums of
//! both time levels (in
//! f64, rows in a fixed order, so the result does not depend on threads) and adds to each level
//! the uniform amount that puts its sum back where the recurrence predicts. A uniform amount is
//! invisible to the stencil (its Laplacian is exactly zero with clamp-to-edge or wrap), so the
//! waves are untouched, and both levels move to their own predictions, so no velocity is added.
//!
//! On a periodic grid of even width and height at `a = 1/2` the checkerboard `(-1)^(x+y)` is
//! the other mode with a double root (`g = -1`); its sum `C` obeys `C^(n+1) = -2 C^n - C^(n-1)`,
//! so `(-1)^n C^n` moves at a constant rate that rounding kicks as it kicks `S`. That mode is the
//! grid's Nyquist mode, not a wave of the continuous equation, so the keeper holds its rate at
//! zero (the least change that keeps it bounded) and its amplitude where it was.

use rayon::prelude::*;

use super::Parallelism;
use crate::boundary::Boundary;
use crate::params::StencilCoefficients;
use crate::size::GridSize;

/// Steps between two corrections of the mean level on grids of fewer than 2,048 cells, and the
/// shortest period of any grid (a multiple of the GPU's fused step count, 4). Between
/// corrections the rounding kicks move the mean level's rate by about `sqrt(K) sqrt(N) ulp(z)`,
/// and a correction puts the rate back at once: 32 keeps that jump under one step's own
/// rounding bound `N eps max |z|` on small grids (the per-step volume test in
/// `tests/conservation.rs`). Larger grids correct less often: [`mean_level_period`].
pub const MEAN_LEVEL_PERIOD: u64 = 32;

/// Steps between two corrections on a grid of `cells` cells `N`: the largest power of two
/// `K` with `K <= N / 32` and `K^(3/2) <= 64 sqrt(N)` (`K <= 16 N^(1/3)`), and at least
/// [`MEAN_LEVEL_PERIOD`] (`docs/math.md`, section 9):
///
/// - the rate's jump at a correction, about `sqrt(K N) ulp(z)`, against a step's rounding bound
///   `N eps max |z|`, goes as `sqrt(K / N)`: `K = N / 32` keeps the margin 32 has at 1,024
///   cells (the per-step volume test in `tests/conservation.rs`);
/// - the mean level wanders within a period by about `eps K^(3/2) / sqrt(N)` of max |z|:
///   `K^(3/2) <= 64 sqrt(N)` keeps that within 11x of its value at 32 x 32 with `K = 32`, under
///   `1e-5` of max |z|.
///
/// 1,024 cells and fewer: 32; 64 x 64: 128; 128 x 128: 256; 256 x 256: 512; 1024 x 1024: 1,024.
/// A power of two, so a multiple of the GPU's fused step count (4). The passes over both
/// levels then cost `1/K` of their traffic per step (`docs/reliability.md`).
#[must_use]
pub fn mean_level_period(cells: usize) -> u64 {
    let n = cells as f64;
    let most = (n / 32.0).min(16.0 * n.cbrt());
    let mut k = MEAN_LEVEL_PERIOD;
    while (2 * k) as f64 <= most {
        k *= 2;
    }
    k
}

/// Steps between two corrections of a grid of `cells` cells whose levels are stored as IEEE
/// binary16 (a GPU storage format): the largest power of two `K` with `K^(3/2) <= sqrt(N) / 4`,
/// at least 4 (the GPU's fused step count) and at most [`mean_level_period`].
///
/// Each step rounds every cell to 11 significant bits, so the rounding kicks to the mean
/// level's rate are `2^13` times an f32 grid's, and the level wanders within a period by about
/// `3.3e-5 K^(3/2) / sqrt(N)` of max |z| (from undamped 64 x 64 and 256 x 256 grids without a
/// keeper: `5.2e-7 n^(3/2)` and `0.8e-7 n^(3/2)` of max |z| after `n` steps). The rule keeps
/// that under about `8e-6` of max |z| on every size, well under the `1e-4` the level is held
/// to: 64 x 64: 4; 256 x 256: 16; 1024 x 1024: 32 (`docs/math.md`, section 9).
#[must_use]
pub fn f16_mean_level_period(cells: usize) -> u64 {
    let most = (cells as f64).sqrt() / 4.0;
    let mut k = 4;
    while ((2 * k) as f64).powf(1.5) <= most {
        k *= 2;
    }
    k.min(mean_level_period(cells))
}

/// Largest move of the current level's sum per correction, as a fraction of one step's
/// rounding bound `cells * eps * max |z|` (`eps` the storage's machine epsilon: `2^-23` for
/// f32, `2^-10` for f16).
pub const POSITION_STEP: f64 = 0.25;

/// The sums of one time level: plain, and against the checkerboard `(-1)^(x+y)` (metres,
/// summed over cells).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LevelSums {
    /// `sum z`.
    pub plain: f64,
    /// `sum (-1)^(x+y) z`.
    pub checker: f64,
    /// `max |z|` (measured levels only; a target's is 0).
    pub peak: f64,
}

/// Whether the exact recurrence conserves the mean level of a grid: reflective or periodic
/// edges, no damping, no land. Fixed and absorbing edges, damping and land take or give water
/// by design, and the keeper leaves them alone.
#[must_use]
pub fn conserves_volume(boundary: Boundary, k: StencilCoefficients, has_land: bool) -> bool {
    matches!(boundary, Boundary::Reflective | Boundary::Periodic) && k.d == 1.0 && !has_land
}

/// Whether the checkerboard is a marginal mode too: a periodic grid of even width and height
/// stepped at exactly `a = 1/2` (the f32 coefficient the stencil uses).
#[must_use]
pub fn checkerboard_is_marginal(
    size: GridSize,
    boundary: Boundary,
    k: StencilCoefficients,
) -> bool {
    boundary == Boundary::Periodic
        && k.a == 0.5
        && size.width().is_multiple_of(2)
        && size.height().is_multiple_of(2)
}

/// Lanes of [`row_sums`]: 16 f64 accumulators, four AVX2 registers (or eight SSE2 ones), so
/// the sums vectorise while their order stays fixed (lane `j` takes the cells `x = 16 i + j`).
const LANES: usize = 16;

/// `(sum z, sum (-1)^(x+y) z, max |z|)` of row `y`, in a fixed order: lanes of f64 partial
/// sums (one per cell `x mod 16`), the tail after them, then the lanes added in order. The
/// lanes of even `j` hold the cells whose `x` is even, so the checkerboard sum is the even
/// lanes less the odd ones (sign flipped on odd rows).
fn row_sums(y: usize, row: &[f32]) -> (f64, f64, f64) {
    let mut acc = [0.0f64; LANES];
    let mut peak = [0.0f32; LANES];
    let mut chunks = row.chunks_exact(LANES);
    for chunk in &mut chunks {
        for j in 0..LANES {
            acc[j] += f64::from(chunk[j]);
            peak[j] = peak[j].max(chunk[j].abs());
        }
    }
    for (j, &z) in chunks.remainder().iter().enumerate() {
        acc[j] += f64::from(z);
        peak[j] = peak[j].max(z.abs());
    }
    let (mut even, mut odd) = (0.0f64, 0.0f64);
    for pair in acc.chunks_exact(2) {
        even += pair[0];
        odd += pair[1];
    }
    let checker = if y.is_multiple_of(2) {
        even - odd
    } else {
        odd - even
    };
    let peak = peak.iter().fold(0.0f32, |m, &p| m.max(p));
    (even + odd, checker, f64::from(peak))
}

/// Row sums `(plain, checker, peak)` added in row order (the GPU's rows too).
#[must_use]
pub fn add_rows(rows: &[(f64, f64, f64)]) -> LevelSums {
    rows.iter()
        .fold(LevelSums::default(), |s, &(p, c, m)| LevelSums {
            plain: s.plain + p,
            checker: s.checker + c,
            peak: s.peak.max(m),
        })
}

/// Both sums of `level`: one f64 pair per row (`row_sums`, vectorised; rows in parallel
/// when `parallelism` says so), then the rows added in order, so the result does not depend on
/// the threads.
///
/// # Panics
/// If `level` does not hold `size.cells()` values.
#[must_use]
pub fn level_sums(size: GridSize, level: &[f32], parallelism: Parallelism) -> LevelSums {
    assert_eq!(level.len(), size.cells(), "level size");
    let w = size.width();
    let rows: Vec<(f64, f64, f64)> = if parallelism.threads(size.cells()) > 1 {
        level
            .par_chunks(w)
            .enumerate()
            .map(|(y, row)| row_sums(y, row))
            .collect()
    } else {
        level
            .chunks(w)
            .enumerate()
            .map(|(y, row)| row_sums(y, row))
            .collect()
    };
    add_rows(&rows)
}

/// Adds `plain + checker * (-1)^(x+y)` to every cell of `level`.
///
/// # Panics
/// If `level` does not hold `size.cells()` values.
pub fn shift_level(
    size: GridSize,
    level: &mut [f32],
    plain: f32,
    checker: f32,
    parallelism: Parallelism,
) {
    assert_eq!(level.len(), size.cells(), "level size");
    let w = size.width();
    let (even, odd) = (plain + checker, plain - checker);
    let shift_row = |(y, row): (usize, &mut [f32])| {
        let first = if y % 2 == 0 { even } else { odd };
        let second = if y % 2 == 0 { odd } else { even };
        for pair in row.chunks_mut(2) {
            pair[0] += first;
            if let Some(z) = pair.get_mut(1) {
                *z += second;
            }
        }
    };
    if parallelism.threads(size.cells()) > 1 {
        level.par_chunks_mut(w).enumerate().for_each(shift_row);
    } else {
        level.chunks_mut(w).enumerate().for_each(shift_row);
    }
}

/// Amounts a correction adds to a field's two levels: `(cur, old)`, each `(plain, checker)`
/// (metres).
pub type LevelAmounts = ((f32, f32), (f32, f32));

/// One correction of a split grid's channels `p` and `n` (their keepers, the sums of their
/// `(cur, old)` levels at step count `steps`): each channel's sums back to its own prediction,
/// and the channels' common mean (invisible in `p - n`, but it costs both channels precision as
/// it grows) taken out of both channels and both levels, and out of both references.
#[must_use]
pub fn correct_channels(
    keepers: &mut [MeanLevelKeeper; 2],
    size: GridSize,
    steps: u64,
    now: [(LevelSums, LevelSums); 2],
    checker: bool,
) -> [LevelAmounts; 2] {
    let plans = [0, 1].map(|c| keepers[c].plan(size, steps, now[c], checker));
    let cells = size.cells() as f64;
    let common = ((plans[0].target.0.plain + plans[1].target.0.plain) / (2.0 * cells)) as f32;
    [0, 1].map(|c| {
        keepers[c].settle(steps, &plans[c]);
        keepers[c].shift_reference(-f64::from(common) * cells);
        let p = &plans[c];
        ((p.cur.0 - common, p.cur.1), (p.old.0 - common, p.old.1))
    })
}

/// [`shift_level`], skipped when both amounts are zero.
pub fn shift_level_unless_zero(
    size: GridSize,
    level: &mut [f32],
    (plain, checker): (f32, f32),
    parallelism: Parallelism,
) {
    if plain != 0.0 || checker != 0.0 {
        shift_level(size, level, plain, checker, parallelism);
    }
}

/// The sums the exact recurrence predicts, from the last measured ones.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reference {
    /// Step count at which `cur` and `old` were measured.
    at: u64,
    cur: LevelSums,
    old: LevelSums,
}

impl Reference {
    /// Predicted sums of the current and previous level `k` steps after the reference.
    fn predict(&self, k: u64) -> (LevelSums, LevelSums) {
        let rate = self.cur.plain - self.old.plain;
        // (-1)^n C^n moves at a constant rate; the reference's own sign is +1.
        let d0 = self.cur.checker;
        let d_rate = self.cur.checker + self.old.checker;
        let sign = |j: u64| if j.is_multiple_of(2) { 1.0 } else { -1.0 };
        let kf = k as f64;
        let cur = LevelSums {
            plain: self.cur.plain + kf * rate,
            checker: sign(k) * (d0 + kf * d_rate),
            peak: 0.0,
        };
        let old = LevelSums {
            plain: self.cur.plain + (kf - 1.0) * rate,
            checker: -sign(k) * (d0 + (kf - 1.0) * d_rate),
            peak: 0.0,
        };
        (cur, old)
    }
}

/// Uniform (and checkerboard) amounts to add to a level to move its sums from `now` to
/// `target`: f32 as every backend adds them.
#[must_use]
pub fn level_offsets(
    size: GridSize,
    now: LevelSums,
    target: LevelSums,
    checker: bool,
) -> (f32, f32) {
    weighted_offsets(size.cells() as f64, now, target, checker)
}

/// [`level_offsets`] for sums weighted by per-cell weights of total `cells` (a sphere's vertex
/// degrees or lumped areas; 1 per cell on a grid): a uniform `c` moves the sum by `c * cells`.
fn weighted_offsets(cells: f64, now: LevelSums, target: LevelSums, checker: bool) -> (f32, f32) {
    let plain = ((target.plain - now.plain) / cells) as f32;
    let checker = if checker {
        ((target.checker - now.checker) / cells) as f32
    } else {
        0.0
    };
    (plain, checker)
}

/// Holds the sums of one field's two levels to the exact recurrence's prediction. See the
/// module docs.
#[derive(Debug, Clone, PartialEq)]
pub struct MeanLevelKeeper {
    reference: Option<Reference>,
    /// Steps between corrections ([`mean_level_period`] of the grid's cells).
    period: u64,
    /// Machine epsilon of the levels' storage (f32's, or f16's on an f16 GPU grid): sets the
    /// rounding bound a correction may move the level by.
    epsilon: f64,
}

/// What [`MeanLevelKeeper::plan`] decided for one correction: the amounts to add to the current
/// and previous level (`(plain, checker)` each), after which the caller reports the sums it
/// ends with through [`MeanLevelKeeper::settle`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Correction {
    /// Amounts for the current level.
    pub cur: (f32, f32),
    /// Amounts for the previous level.
    pub old: (f32, f32),
    /// Sums the levels are meant to have afterwards.
    pub target: (LevelSums, LevelSums),
}

impl MeanLevelKeeper {
    /// A keeper, not yet anchored, for a grid of `size` (period [`mean_level_period`]).
    #[must_use]
    pub fn new(size: GridSize) -> Self {
        Self::with_cells(size.cells())
    }

    /// A keeper for `cells` cells (a sphere's vertices, a grid's cells).
    #[must_use]
    pub fn with_cells(cells: usize) -> Self {
        Self {
            reference: None,
            period: mean_level_period(cells),
            epsilon: f64::from(f32::EPSILON),
        }
    }

    /// A keeper for a grid of `size` whose levels are stored as binary16: corrections every
    /// [`f16_mean_level_period`] steps, and f16's rounding bound (`eps = 2^-10`) for how far a
    /// correction may move the level.
    #[must_use]
    pub fn for_f16_storage(size: GridSize) -> Self {
        Self {
            reference: None,
            period: f16_mean_level_period(size.cells()),
            epsilon: 1.0 / 1024.0,
        }
    }

    /// Steps between corrections.
    #[must_use]
    pub fn period(&self) -> u64 {
        self.period
    }

    /// How many of `left` steps to run, from step count `steps`, before the next correction
    /// is due.
    #[must_use]
    pub fn segment(&self, steps: u64, left: u64) -> u64 {
        left.min(self.period - steps % self.period)
    }

    /// Forgets the reference: the levels were changed from outside (impulses, contact events,
    /// edits). The grid anchors a new one, from what is there, before its next step: measured
    /// then, the rate `S^n - S^(n-1)` is the exact one (zero for water at rest), where one
    /// measured at the next correction would carry up to a period's rounding
    /// kicks into every later prediction.
    pub fn invalidate(&mut self) {
        self.reference = None;
    }

    /// Whether the keeper has a reference to predict from.
    #[must_use]
    pub fn is_anchored(&self) -> bool {
        self.reference.is_some()
    }

    /// Whether the grid must call [`MeanLevelKeeper::keep`] (or plan and settle) at step count
    /// `steps`: to anchor, or when a correction is due. Before a step, pass `before_step`: only
    /// anchoring is done then (a correction due at this count was done after the last step).
    #[must_use]
    pub fn wanted(&self, steps: u64, before_step: bool) -> bool {
        !self.is_anchored() || (!before_step && self.due(steps))
    }

    /// Whether a correction is due after the step that brought the count to `steps`.
    #[must_use]
    pub fn due(&self, steps: u64) -> bool {
        steps.is_multiple_of(self.period)
    }

    /// The correction for levels whose sums are `now = (cur, old)` at step count `steps`.
    /// Without a reference, the levels become it: their plain sums stay, and with a marginal
    /// checkerboard its rate is set to zero (its amplitude, the mean of the two levels', kept).
    #[must_use]
    pub fn plan(
        &self,
        size: GridSize,
        steps: u64,
        now: (LevelSums, LevelSums),
        checker: bool,
    ) -> Correction {
        self.plan_weighted(size.cells() as f64, steps, now, checker)
    }

    /// [`MeanLevelKeeper::plan`] for sums weighted by per-cell weights `w_i` of total `total`
    /// (`sum w_i z_i`, a sphere stepper's conserved sum): the rounding bound of a step is then
    /// `total * eps * max |z|`, and a uniform `c` moves the sum by `c * total`.
    #[must_use]
    pub fn plan_weighted(
        &self,
        total: f64,
        steps: u64,
        now: (LevelSums, LevelSums),
        checker: bool,
    ) -> Correction {
        let target = match self.reference {
            Some(r) => {
                let (cur, old) = r.predict(steps - r.at);
                // The level moves back by at most POSITION_STEP of one step's rounding bound
                // (so no step changes the volume by more than a step's own rounding could);
                // what is left drains through the rate over the next period, and the rate is
                // set to the prediction less that drain (only the previous level moves for it).
                let cap = POSITION_STEP * total * self.epsilon * now.0.peak.max(now.1.peak);
                let plain = now.0.plain - (now.0.plain - cur.plain).clamp(-cap, cap);
                let rate = (cur.plain - old.plain) - (plain - cur.plain) / self.period as f64;
                (
                    LevelSums { plain, ..cur },
                    LevelSums {
                        plain: plain - rate,
                        ..old
                    },
                )
            }
            None => {
                let d = 0.5 * (now.0.checker - now.1.checker);
                (
                    LevelSums {
                        plain: now.0.plain,
                        checker: d,
                        peak: 0.0,
                    },
                    LevelSums {
                        plain: now.1.plain,
                        checker: -d,
                        peak: 0.0,
                    },
                )
            }
        };
        Correction {
            cur: weighted_offsets(total, now.0, target.0, checker),
            old: weighted_offsets(total, now.1, target.1, checker),
            target,
        }
    }

    /// Records the reference after a correction: the target sums at `steps`, so later
    /// predictions do not inherit the correction's own rounding.
    pub fn settle(&mut self, steps: u64, correction: &Correction) {
        let (cur, old) = correction.target;
        self.reference = Some(match self.reference {
            Some(r) => r,
            None => Reference {
                at: steps,
                cur,
                old,
            },
        });
    }

    /// Moves the reference's plain sums by `delta` on both levels (split mode's common part,
    /// removed from both channels).
    pub fn shift_reference(&mut self, delta: f64) {
        if let Some(r) = &mut self.reference {
            r.cur.plain += delta;
            r.old.plain += delta;
        }
    }

    /// Plans and settles one correction of a field whose levels' sums are `now = (cur, old)`
    /// at step count `steps`: the amounts to add, `(cur, old)`, each `(plain, checker)`. The
    /// backends measure and shift their own levels (the GPU's `shaders/mean_level.wgsl`) and
    /// share this plan, so they correct alike.
    #[must_use]
    pub fn correct(
        &mut self,
        size: GridSize,
        steps: u64,
        now: (LevelSums, LevelSums),
        checker: bool,
    ) -> LevelAmounts {
        let plan = self.plan(size, steps, now, checker);
        self.settle(steps, &plan);
        (plan.cur, plan.old)
    }

    /// [`MeanLevelKeeper::correct`] for weighted sums of total weight `total` (no checkerboard:
    /// the sphere's meshes have no bipartite Nyquist mode).
    #[must_use]
    pub fn correct_weighted(
        &mut self,
        total: f64,
        steps: u64,
        now: (LevelSums, LevelSums),
    ) -> LevelAmounts {
        let plan = self.plan_weighted(total, steps, now, false);
        self.settle(steps, &plan);
        (plan.cur, plan.old)
    }

    /// One correction of a single field (signed mode): measure, plan, shift, settle.
    #[allow(
        clippy::too_many_arguments,
        reason = "the field's whole context, passed down flat"
    )]
    pub fn keep(
        &mut self,
        size: GridSize,
        boundary: Boundary,
        k: StencilCoefficients,
        steps: u64,
        cur: &mut [f32],
        old: &mut [f32],
        parallelism: Parallelism,
    ) {
        let checker = checkerboard_is_marginal(size, boundary, k);
        self.keep_with(size, steps, (cur, old), checker, parallelism);
    }

    /// [`MeanLevelKeeper::keep`] for a field whose checkerboard is no marginal mode: the
    /// dispersive model's spectral step turns every mode but the mean by `omega dt < pi` a
    /// step, so only the mean level's rate is held (`crate::DispersiveGrid`).
    pub fn keep_mean_only(
        &mut self,
        size: GridSize,
        steps: u64,
        (cur, old): (&mut [f32], &mut [f32]),
        parallelism: Parallelism,
    ) {
        self.keep_with(size, steps, (cur, old), false, parallelism);
    }

    fn keep_with(
        &mut self,
        size: GridSize,
        steps: u64,
        (cur, old): (&mut [f32], &mut [f32]),
        checker: bool,
        parallelism: Parallelism,
    ) {
        let now = (
            level_sums(size, cur, parallelism),
            level_sums(size, old, parallelism),
        );
        let plan = self.plan(size, steps, now, checker);
        shift_level_unless_zero(size, cur, plan.cur, parallelism);
        shift_level_unless_zero(size, old, plan.old, parallelism);
        self.settle(steps, &plan);
    }
}
