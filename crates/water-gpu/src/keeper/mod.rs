//! The mean-level keepers of GPU water, in one place: what every keeper shares (the schedule,
//! the reference and the plan, [`KeeperPlan`], all water-core's own [`MeanLevelKeeper`]) and
//! the two ways a grid's sums are taken:
//!
//! - [`GpuKeeper`] (`device_sums.rs`): the compute grid's, sums and shift on the device
//!   (`shaders/mean_level.wgsl`);
//! - [`HostKeeper`] (`host.rs`): the fragment grid's, both levels read back and summed on the
//!   host (a render pass has no workgroup sums).
//!
//! Both plan the same correction from the same sums by the CPU's rule, so the GPU corrects at
//! the same steps as the CPU. The record-only `encode_*` methods cannot wait for sums; what
//! they record comes back later, and its correction is carried forward to the step count it
//! lands at (`carried.rs`). Sphere water keeps one [`MeanLevelKeeper`] of its own and the same
//! carried corrections.

pub(crate) mod carried;
mod device_sums;
mod host;

pub(crate) use device_sums::GpuKeeper;
pub(crate) use host::HostKeeper;

use water_core::kernels::mean_level::{
    checkerboard_is_marginal, conserves_volume, correct_channels, LevelAmounts, LevelSums,
    MeanLevelKeeper,
};
use water_core::{GridMode, GridSize};

use crate::spec::GridSpec;

/// What a grid's keeper holds whichever way its sums are taken: one [`MeanLevelKeeper`] per
/// channel (split mode keeps `p` and `n`; signed grids use the first), their common schedule,
/// and whether the checkerboard is a marginal mode of the stencil.
#[derive(Debug, Clone)]
pub(crate) struct KeeperPlan {
    size: GridSize,
    channels: usize,
    checker: bool,
    keepers: [MeanLevelKeeper; 2],
}

impl KeeperPlan {
    /// A plan when `spec` conserves volume (reflective or periodic, undamped, signed or split),
    /// else `None`. `f16` storage keeps the level on its own, coarser schedule
    /// ([`MeanLevelKeeper::for_f16_storage`]).
    pub(crate) fn for_spec(spec: &GridSpec, f16: bool) -> Option<Self> {
        let k = spec.coefficients();
        if spec.mode == GridMode::Classic || !conserves_volume(spec.boundary, k, false) {
            return None;
        }
        let size = spec.size;
        let keeper = || {
            if f16 {
                MeanLevelKeeper::for_f16_storage(size)
            } else {
                MeanLevelKeeper::new(size)
            }
        };
        Some(Self {
            size,
            channels: if spec.mode == GridMode::Split { 2 } else { 1 },
            checker: checkerboard_is_marginal(size, spec.boundary, k),
            keepers: [keeper(), keeper()],
        })
    }

    /// The grid's size.
    pub(crate) fn size(&self) -> GridSize {
        self.size
    }

    /// Channels kept: 2 in split mode, else 1.
    pub(crate) fn channels(&self) -> usize {
        self.channels
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

    /// Whether a correction (or the first anchoring) is wanted at step count `steps`
    /// ([`MeanLevelKeeper::wanted`]).
    pub(crate) fn wanted(&self, steps: u64, before_step: bool) -> bool {
        self.keepers[0].wanted(steps, before_step)
    }

    /// Steps of `left` to run from step count `steps` before the next correction is due.
    pub(crate) fn segment(&self, steps: u64, left: u64) -> u64 {
        self.keepers[0].segment(steps, left)
    }

    /// Plans (and settles) the correction of levels whose per-channel sums are `cur_sums` and
    /// `old_sums` at step count `steps`, by the CPU's rule: per channel the amounts for
    /// `(cur, old)`, each `(plain, checker)`.
    pub(crate) fn plan(
        &mut self,
        steps: u64,
        cur_sums: &[LevelSums],
        old_sums: &[LevelSums],
    ) -> Vec<LevelAmounts> {
        if self.channels == 2 {
            let now = [0, 1].map(|c| (cur_sums[c], old_sums[c]));
            correct_channels(&mut self.keepers, self.size, steps, now, self.checker).to_vec()
        } else {
            let now = (cur_sums[0], old_sums[0]);
            vec![self.keepers[0].correct(self.size, steps, now, self.checker)]
        }
    }
}
