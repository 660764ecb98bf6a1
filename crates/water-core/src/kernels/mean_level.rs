//! `mean_level`: keeps the mean level of a volume-conserving grid where the exact recurrence
//! puts it. GPU twin: `shaders/mean_level.wgsl`.
//!
//! On reflective and periodic grids without damping or land, the sum `S = sum z` obeys
//! `S^(n+1) = 2 S^n - S^(n-1)` exactly in exact arithmetic (`docs/math.md`, section 9): the mean
//! level moves at a constant rate, zero for water that started at rest. In f32 every step's
//! rounding kicks that rate a little, and the kicks add up to a drift. Every
//! [`MEAN_LEVEL_PERIOD`] steps a [`MeanLevelKeeper`] measures the sums of both time levels (in
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

/// Steps between two corrections of the mean level (a multiple of the GPU's fused step count,
/// 4). Between corrections the rounding kicks move the mean level's rate by about
/// `sqrt(K) sqrt(cells) ulp(z)`, and a correction puts the rate back at once: 32 keeps that
/// jump under one step's own rounding bound on small grids (the per-step volume test in
/// `tests/conservation.rs`), while the pass over both levels adds about 1/32 of a step's
/// memory traffic per step (`docs/reliability.md`).
pub const MEAN_LEVEL_PERIOD: u64 = 32;

/// Largest move of the current level's sum per correction, as a fraction of one step's
/// rounding bound `cells * eps * max |z|` (`eps = 2^-23`).
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

/// Both sums of `level`: one f64 pair per row (rows in parallel when `parallelism` says so),
/// then the rows added in order.
///
/// # Panics
/// If `level` does not hold `size.cells()` values.
#[must_use]
pub fn level_sums(size: GridSize, level: &[f32], parallelism: Parallelism) -> LevelSums {
    assert_eq!(level.len(), size.cells(), "level size");
    let w = size.width();
    let row_sums = |(y, row): (usize, &[f32])| {
        let (mut even, mut odd, mut peak) = (0.0f64, 0.0f64, 0.0f32);
        for (x, &z) in row.iter().enumerate() {
            if (x + y) % 2 == 0 {
                even += f64::from(z);
            } else {
                odd += f64::from(z);
            }
            peak = peak.max(z.abs());
        }
        (even + odd, even - odd, f64::from(peak))
    };
    let rows: Vec<(f64, f64, f64)> = if parallelism.threads(size.cells()) > 1 {
        level.par_chunks(w).enumerate().map(row_sums).collect()
    } else {
        level.chunks(w).enumerate().map(row_sums).collect()
    };
    rows.iter()
        .fold(LevelSums::default(), |s, &(p, c, m)| LevelSums {
            plain: s.plain + p,
            checker: s.checker + c,
            peak: s.peak.max(m),
        })
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
    let cells = size.cells() as f64;
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
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeanLevelKeeper {
    reference: Option<Reference>,
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
    /// Forgets the reference: the levels were changed from outside (impulses, contact events,
    /// edits). The grid anchors a new one, from what is there, before its next step: measured
    /// then, the rate `S^n - S^(n-1)` is the exact one (zero for water at rest), where one
    /// measured at the next correction would carry up to [`MEAN_LEVEL_PERIOD`] steps of rounding
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
        !self.is_anchored() || (!before_step && Self::due(steps))
    }

    /// Whether a correction is due after the step that brought the count to `steps`.
    #[must_use]
    pub fn due(steps: u64) -> bool {
        steps.is_multiple_of(MEAN_LEVEL_PERIOD)
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
        let target = match self.reference {
            Some(r) => {
                let (cur, old) = r.predict(steps - r.at);
                // The level moves back by at most POSITION_STEP of one step's rounding bound
                // (so no step changes the volume by more than a step's own rounding could);
                // what is left drains through the rate over the next period, and the rate is
                // set to the prediction less that drain (only the previous level moves for it).
                let cap = POSITION_STEP
                    * size.cells() as f64
                    * f64::from(f32::EPSILON)
                    * now.0.peak.max(now.1.peak);
                let plain = now.0.plain - (now.0.plain - cur.plain).clamp(-cap, cap);
                let rate = (cur.plain - old.plain) - (plain - cur.plain) / MEAN_LEVEL_PERIOD as f64;
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
            cur: level_offsets(size, now.0, target.0, checker),
            old: level_offsets(size, now.1, target.1, checker),
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
