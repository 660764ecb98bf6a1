//! The mean-level keeper of the fragment backend: every period the two time levels are read
//! back, measured and shifted on the host by the CPU's own keeper
//! (`water_core::kernels::mean_level`), and written back. The compute backend measures and
//! shifts on the device (`compute_grid/mean_level.rs`); a render pass has no workgroup sums, and
//! a readback every few hundred steps costs less than a reduction chain of passes would. The
//! record-only `encode_step_many` records the levels' copies instead, plans when they come back
//! and adds the correction, carried forward, as a delta texture (`FragmentGrid`'s
//! `record_keep_level`).

use water_core::kernels::mean_level::{
    checkerboard_is_marginal, conserves_volume, correct_channels, level_sums,
    shift_level_unless_zero, LevelAmounts, MeanLevelKeeper,
};
use water_core::kernels::Parallelism;
use water_core::{GridMode, GridSize};

use crate::spec::GridSpec;

/// The keeper of one grid's mean level (one per channel: split mode keeps `p` and `n`).
#[derive(Debug, Clone)]
pub(crate) struct HostKeeper {
    size: GridSize,
    channels: usize,
    checker: bool,
    keepers: [MeanLevelKeeper; 2],
}

impl HostKeeper {
    /// A keeper for `spec`, when its water conserves volume: reflective or periodic, undamped,
    /// signed or split (the fragment backend stores f32).
    pub(crate) fn new(spec: &GridSpec) -> Option<Self> {
        let k = spec.coefficients();
        if spec.mode == GridMode::Classic
            || spec.dispersion.is_some()
            || !conserves_volume(spec.boundary, k, false)
        {
            return None;
        }
        let size = spec.size;
        Some(Self {
            size,
            channels: if spec.mode == GridMode::Split { 2 } else { 1 },
            checker: checkerboard_is_marginal(size, spec.boundary, k),
            keepers: [MeanLevelKeeper::new(size), MeanLevelKeeper::new(size)],
        })
    }

    /// Whether the checkerboard is a marginal mode of the stencil (see
    /// [`checkerboard_is_marginal`]).
    pub(crate) fn checker(&self) -> bool {
        self.checker
    }

    /// Forgets the reference: the levels were changed from outside.
    pub(crate) fn invalidate(&mut self) {
        self.keepers
            .iter_mut()
            .for_each(MeanLevelKeeper::invalidate);
    }

    /// Whether a correction (or the first anchoring) is wanted after `steps` steps.
    pub(crate) fn wanted(&self, steps: u64, before_step: bool) -> bool {
        self.keepers[0].wanted(steps, before_step)
    }

    /// How many of `left` steps run before the next correction is due.
    pub(crate) fn segment(&self, steps: u64, left: u64) -> u64 {
        self.keepers[0].segment(steps, left)
    }

    /// The channels' planes of a level as texels hold it (split: `p, n` interleaved).
    fn planes(&self, texels: &[f32]) -> Vec<Vec<f32>> {
        (0..self.channels)
            .map(|c| {
                texels
                    .iter()
                    .skip(c)
                    .step_by(self.channels)
                    .copied()
                    .collect()
            })
            .collect()
    }

    /// Plans (and settles) the correction of the levels `cur` and `old`, as texels hold them,
    /// after `steps` steps: per channel the amounts for `(cur, old)`, each `(plain, checker)`.
    pub(crate) fn plan(&mut self, steps: u64, cur: &[f32], old: &[f32]) -> Vec<LevelAmounts> {
        self.plan_planes(steps, &self.planes(cur), &self.planes(old))
    }

    fn plan_planes(
        &mut self,
        steps: u64,
        cur_planes: &[Vec<f32>],
        old_planes: &[Vec<f32>],
    ) -> Vec<LevelAmounts> {
        let sums = |plane: &[f32]| level_sums(self.size, plane, Parallelism::Auto);
        if self.channels == 2 {
            let now = [0, 1].map(|c| (sums(&cur_planes[c]), sums(&old_planes[c])));
            correct_channels(&mut self.keepers, self.size, steps, now, self.checker).to_vec()
        } else {
            let now = (sums(&cur_planes[0]), sums(&old_planes[0]));
            vec![self.keepers[0].correct(self.size, steps, now, self.checker)]
        }
    }

    /// Corrects both levels in place, as texels hold them (split: `p, n` interleaved), after
    /// `steps` steps.
    pub(crate) fn correct(&mut self, steps: u64, cur: &mut [f32], old: &mut [f32]) {
        let (mut cur_planes, mut old_planes) = (self.planes(cur), self.planes(old));
        let amounts = self.plan_planes(steps, &cur_planes, &old_planes);
        for (c, (cur_amounts, old_amounts)) in amounts.into_iter().enumerate() {
            shift_level_unless_zero(
                self.size,
                &mut cur_planes[c],
                cur_amounts,
                Parallelism::Auto,
            );
            shift_level_unless_zero(
                self.size,
                &mut old_planes[c],
                old_amounts,
                Parallelism::Auto,
            );
        }
        for (texels, planes) in [(cur, &cur_planes), (old, &old_planes)] {
            for (i, v) in texels.iter_mut().enumerate() {
                *v = planes[i % self.channels][i / self.channels];
            }
        }
    }
}
