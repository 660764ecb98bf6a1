//! Split mode: the demo's two channels, `p` for bow (positive) and `n` for stern (negative)
//! waves, each stepped with the signed stencil; the height is `p - n`.

use crate::boundary::Boundary;
use crate::contact_masks::ContactMasks;
use crate::depth::Depth;
use crate::diagnostics::volume;
use crate::error::Result;
use crate::field::WaveField;
use crate::grid_setup::{shared_grid_water_methods, GridSetup, LevelKeptStepping};
use crate::grid_water::{GridMode, GridWater};
use crate::impulse::Impulse;
use crate::kernels::mean_level::{
    checkerboard_is_marginal, correct_channels, level_sums, shift_level_unless_zero,
    MeanLevelKeeper,
};
use crate::kernels::temporal_blocking::TemporalBlocking;
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::params::WaveParams;
use crate::size::GridSize;

/// Split-mode water: channels `p` and `n`, height `p - n`.
///
/// Bow events set `p = A*C_new` and stern events set `n = A*C_old` (see [`ContactMasks`]);
/// impulses add positive amounts to `p` and negative ones, as magnitudes, to `n`.
#[derive(Debug, Clone)]
pub struct SplitGrid {
    setup: GridSetup,
    positive: WaveField,
    negative: WaveField,
    /// Mean-level keepers of `p` and `n`.
    keepers: [MeanLevelKeeper; 2],
}

impl SplitGrid {
    /// Still water of the given size, parameters and boundary. Aborts, as a `Vec` does, if the
    /// allocator refuses the heights; [`SplitGrid::try_new`] reports that instead.
    #[must_use]
    pub fn new(size: GridSize, params: WaveParams, boundary: Boundary) -> Self {
        Self {
            setup: GridSetup::new(size, params, boundary),
            positive: WaveField::at_rest(size),
            negative: WaveField::at_rest(size),
            keepers: [MeanLevelKeeper::new(size), MeanLevelKeeper::new(size)],
        }
    }

    /// As [`SplitGrid::new`], with the heights allocated fallibly.
    ///
    /// # Errors
    /// [`crate::WaterError::OutOfMemory`] naming the bytes the allocator refused.
    pub fn try_new(size: GridSize, params: WaveParams, boundary: Boundary) -> Result<Self> {
        Ok(Self {
            setup: GridSetup::new(size, params, boundary),
            positive: WaveField::try_at_rest(size)?,
            negative: WaveField::try_at_rest(size)?,
            keepers: [MeanLevelKeeper::new(size), MeanLevelKeeper::new(size)],
        })
    }

    /// Sets the still-water depth of every cell, for both channels: as
    /// [`SignedGrid::set_depth`](crate::SignedGrid::set_depth).
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`](crate::WaterError::SizeMismatch) for a depth of another
    /// grid size.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<()> {
        self.setup.set_depth(depth)?;
        self.land_changed();
        Ok(())
    }

    /// After the land moved or changed: the keepers' references forgotten, land and a fixed rim
    /// zeroed in both levels of both channels.
    fn land_changed(&mut self) {
        self.invalidate_keepers();
        for channel in [&mut self.positive, &mut self.negative] {
            let (cur, old) = channel.levels_mut();
            self.setup.clear_land_and_rim(cur);
            self.setup.clear_land_and_rim(old);
        }
    }

    /// Parameters.
    #[must_use]
    pub fn params(&self) -> &WaveParams {
        &self.setup.params
    }

    /// The positive channel `p` (both time levels).
    #[must_use]
    pub fn positive(&self) -> &WaveField {
        &self.positive
    }

    /// The negative channel `n` (both time levels).
    #[must_use]
    pub fn negative(&self) -> &WaveField {
        &self.negative
    }

    /// Both channels, mutably, to set an initial condition: `(positive, negative)`.
    pub fn channels_mut(&mut self) -> (&mut WaveField, &mut WaveField) {
        self.invalidate_keepers();
        self.setup.edited = true;
        (&mut self.positive, &mut self.negative)
    }

    fn invalidate_keepers(&mut self) {
        self.keepers
            .iter_mut()
            .for_each(MeanLevelKeeper::invalidate);
    }

    fn difference(a: &[f32], b: &[f32]) -> Vec<f32> {
        a.iter().zip(b).map(|(p, n)| p - n).collect()
    }
}

impl LevelKeptStepping for SplitGrid {
    fn settle_edits(&mut self) {
        let (p, p_old) = self.positive.levels_mut();
        let (n, n_old) = self.negative.levels_mut();
        self.setup.settle_edits([p, p_old, n, n_old]);
    }

    fn step_once(&mut self, contacts: Option<&ContactMasks>) {
        let s = &self.setup;
        for channel in [&mut self.positive, &mut self.negative] {
            s.step_field(channel);
        }
        let (p, _) = self.positive.levels_mut();
        let (n, _) = self.negative.levels_mut();
        if let Some(contacts) = contacts {
            contacts.apply_split(p, n);
            s.clear_land_and_rim(p);
            s.clear_land_and_rim(n);
        } else {
            // The stencil never writes a fixed rim, so only land needs clearing.
            s.clear_land(p);
            s.clear_land(n);
        }
        self.setup.steps += 1;
        if contacts.is_some() {
            self.invalidate_keepers();
        }
        self.keep_level(false);
    }

    /// The mean-level correction, when one is due: each channel's sums back to its own
    /// prediction, and the channels' common mean (invisible in `p - n`, but it costs both
    /// channels precision as it grows) taken out of both channels and both levels.
    fn keep_level(&mut self, before_step: bool) {
        // Both keepers are invalidated and due together.
        if !self.setup.level_wanted(&self.keepers[0], before_step) {
            return;
        }
        let s = &self.setup;
        let checker = checkerboard_is_marginal(s.size, s.boundary, s.coefficients);
        let mut channels = [&mut self.positive, &mut self.negative];
        let now = [0, 1].map(|c| {
            (
                level_sums(s.size, channels[c].current(), s.parallelism),
                level_sums(s.size, channels[c].previous(), s.parallelism),
            )
        });
        let amounts = correct_channels(&mut self.keepers, s.size, s.steps, now, checker);
        for (channel, (cur_amount, old_amount)) in channels.iter_mut().zip(amounts) {
            let (cur, old) = channel.levels_mut();
            shift_level_unless_zero(s.size, cur, cur_amount, s.parallelism);
            shift_level_unless_zero(s.size, old, old_amount, s.parallelism);
        }
    }

    fn next_run(&self, left: u64) -> u64 {
        self.setup.segment(&self.keepers[0], left)
    }

    fn step_run(&mut self, run: u64, blocked: bool) {
        // Without contact events the channels evolve independently.
        for channel in [&mut self.positive, &mut self.negative] {
            self.setup.step_field_run(channel, run, blocked);
        }
        self.setup.steps += run;
    }
}

impl GridWater for SplitGrid {
    shared_grid_water_methods!(GridMode::Split);

    fn add_impulse(&mut self, impulse: &Impulse) {
        self.invalidate_keepers();
        let (p, p_old) = self.positive.levels_mut();
        let (n, n_old) = self.negative.levels_mut();
        // A displacement moves the previous level of the channel too, so its velocity is kept.
        let displacement = impulse.displacement();
        self.setup.for_each_impulse_cell(impulse, |i, v| {
            let (level, previous, amount) = if v >= 0.0 {
                (&mut *p, &mut *p_old, v)
            } else {
                (&mut *n, &mut *n_old, -v)
            };
            level[i] += amount;
            if displacement {
                previous[i] += amount;
            }
        });
    }

    fn shift_window(&mut self, dx: isize, dy: isize) {
        self.setup
            .shift_window([&mut self.positive, &mut self.negative], dx, dy);
        self.land_changed();
    }

    fn heights(&self) -> Vec<f32> {
        Self::difference(self.positive.current(), self.negative.current())
    }

    fn volume(&self) -> f64 {
        volume(&self.heights(), self.setup.params.cell_size())
    }

    fn energy(&self) -> f64 {
        let old = Self::difference(self.positive.previous(), self.negative.previous());
        self.setup.energy(&self.heights(), &old)
    }
}
