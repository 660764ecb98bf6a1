//! The mean-level keeper of the fragment backend: every period the two time levels are read
//! back, measured and shifted on the host by the CPU's own keeper
//! (`water_core::kernels::mean_level`), and written back. The compute backend measures and
//! shifts on the device (`device_sums.rs`); a render pass has no workgroup sums, and
//! a readback every few hundred steps costs less than a reduction chain of passes would. The
//! record-only `encode_step_many` records the levels' copies instead, plans when they come back
//! and adds the correction, carried forward, as a delta texture (`FragmentGrid`'s
//! `record_keep_level`).

use water_core::kernels::mean_level::{level_sums, shift_level_unless_zero, LevelAmounts};
use water_core::kernels::Parallelism;

use super::KeeperPlan;
use crate::spec::GridSpec;

/// The keeper of one grid's mean level, summed on the host.
#[derive(Debug, Clone)]
pub(crate) struct HostKeeper {
    plan: KeeperPlan,
}

impl HostKeeper {
    /// A keeper for `spec`, when its water conserves volume: reflective or periodic, undamped,
    /// signed or split (the fragment backend stores f32).
    pub(crate) fn new(spec: &GridSpec) -> Option<Self> {
        if spec.dispersion.is_some() {
            return None;
        }
        KeeperPlan::for_spec(spec, false).map(|plan| Self { plan })
    }

    /// The schedule and plan this keeper shares with the compute grid's.
    pub(crate) fn plan(&self) -> &KeeperPlan {
        &self.plan
    }

    /// Forgets the reference: the levels were changed from outside.
    pub(crate) fn invalidate(&mut self) {
        self.plan.invalidate();
    }

    /// The channels' planes of a level as texels hold it (split: `p, n` interleaved).
    fn planes(&self, texels: &[f32]) -> Vec<Vec<f32>> {
        let channels = self.plan.channels();
        (0..channels)
            .map(|c| texels.iter().skip(c).step_by(channels).copied().collect())
            .collect()
    }

    /// Plans (and settles) the correction of the levels `cur` and `old`, as texels hold them,
    /// after `steps` steps: per channel the amounts for `(cur, old)`, each `(plain, checker)`.
    pub(crate) fn plan_texels(
        &mut self,
        steps: u64,
        cur: &[f32],
        old: &[f32],
    ) -> Vec<LevelAmounts> {
        self.plan_planes(steps, &self.planes(cur), &self.planes(old))
    }

    fn plan_planes(
        &mut self,
        steps: u64,
        cur_planes: &[Vec<f32>],
        old_planes: &[Vec<f32>],
    ) -> Vec<LevelAmounts> {
        let size = self.plan.size();
        let sums = |planes: &[Vec<f32>]| -> Vec<_> {
            let plane_sums = |plane: &Vec<f32>| level_sums(size, plane, Parallelism::Auto);
            planes.iter().map(plane_sums).collect()
        };
        let (cur_sums, old_sums) = (sums(cur_planes), sums(old_planes));
        self.plan.plan(steps, &cur_sums, &old_sums)
    }

    /// Corrects both levels in place, as texels hold them (split: `p, n` interleaved), after
    /// `steps` steps.
    pub(crate) fn correct(&mut self, steps: u64, cur: &mut [f32], old: &mut [f32]) {
        let (mut cur_planes, mut old_planes) = (self.planes(cur), self.planes(old));
        let amounts = self.plan_planes(steps, &cur_planes, &old_planes);
        let (size, channels) = (self.plan.size(), self.plan.channels());
        for (c, (cur_amounts, old_amounts)) in amounts.into_iter().enumerate() {
            shift_level_unless_zero(size, &mut cur_planes[c], cur_amounts, Parallelism::Auto);
            shift_level_unless_zero(size, &mut old_planes[c], old_amounts, Parallelism::Auto);
        }
        for (texels, planes) in [(cur, &cur_planes), (old, &old_planes)] {
            for (i, v) in texels.iter_mut().enumerate() {
                *v = planes[i % channels][i / channels];
            }
        }
    }
}
