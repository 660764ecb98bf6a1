//! What signed and split grids share: size, parameters, boundary, land, threading, the step
//! count, and the [`GridWater`] accessors that only read or set them.

use crate::boundary::Boundary;
use crate::contact_masks::ContactMasks;
use crate::depth::Depth;
use crate::error::Result;
use crate::field::WaveField;
use crate::grid_water::GridWater;
use crate::impulse::Impulse;
use crate::kernels::depth_step::FaceCourants;
use crate::kernels::mean_level::{checkerboard_is_marginal, conserves_volume, MeanLevelKeeper};
use crate::kernels::temporal_blocking::TemporalBlocking;
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::params::{StencilCoefficients, WaveParams};
use crate::size::GridSize;

/// The [`GridWater`] methods signed and split grids share: those that only read or set the
/// [`GridSetup`] in their `setup` field (the land through the grid's own `land_changed`), and
/// the steps, taken through [`LevelKeptStepping`].
macro_rules! shared_grid_water_methods {
    ($mode:expr) => {
        fn size(&self) -> GridSize {
            self.setup.size
        }

        fn cell_size(&self) -> f64 {
            self.setup.params.cell_size()
        }

        fn mode(&self) -> GridMode {
            $mode
        }

        fn boundary(&self) -> Boundary {
            self.setup.boundary
        }

        fn steps_taken(&self) -> u64 {
            self.setup.steps
        }

        fn set_parallelism(&mut self, parallelism: Parallelism) {
            self.setup.parallelism = parallelism;
        }

        fn set_temporal_blocking(&mut self, blocking: TemporalBlocking) {
            self.setup.blocking = blocking;
        }

        fn blocks(&self, steps: u64) -> bool {
            self.setup.blocks(steps)
        }

        fn step(&mut self) {
            $crate::grid_setup::LevelKeptStepping::kept_step(self, None);
        }

        fn step_many(&mut self, steps: u64) {
            $crate::grid_setup::LevelKeptStepping::kept_step_many(self, steps);
        }

        fn set_land(&mut self, land: LandMask) -> Result<()> {
            self.setup.set_land(land)?;
            self.land_changed();
            Ok(())
        }

        fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<()> {
            self.setup.check_contacts(contacts)?;
            contacts.check_offered($mode)?;
            $crate::grid_setup::LevelKeptStepping::kept_step(self, Some(contacts));
            Ok(())
        }
    };
}
pub(crate) use shared_grid_water_methods;

/// What signed and split grids share: size, parameters, boundary, land, threading.
#[derive(Debug, Clone)]
pub(crate) struct GridSetup {
    pub size: GridSize,
    pub params: WaveParams,
    pub coefficients: StencilCoefficients,
    pub boundary: Boundary,
    pub land: Option<LandMask>,
    /// The depth's faces, when the water's depth (so its speed) varies: stepped by
    /// [`crate::kernels::depth_step`] instead of the five-point stencil.
    pub depth: Option<FaceCourants>,
    /// The depth's dry cells (at or below 0 m), always part of `land`.
    pub dry: Option<LandMask>,
    /// The land as the caller set it (then shifted with the window), without the dry cells.
    pub placed_land: Option<LandMask>,
    pub parallelism: Parallelism,
    pub blocking: TemporalBlocking,
    pub steps: u64,
    /// The caller was handed the levels to edit: before the next step their land and fixed rim
    /// are zeroed (DESIGN.md: edge cells of a fixed grid stay 0), as the GPU backends zero them
    /// on upload.
    pub edited: bool,
}

impl GridSetup {
    pub fn new(size: GridSize, params: WaveParams, boundary: Boundary) -> Self {
        Self {
            size,
            params,
            coefficients: params.coefficients(),
            boundary,
            land: None,
            depth: None,
            dry: None,
            placed_land: None,
            parallelism: Parallelism::Auto,
            blocking: TemporalBlocking::Auto,
            steps: 0,
            edited: false,
        }
    }

    /// Whether `steps` steps of one f32 field (both levels) run temporally blocked.
    pub fn blocks(&self, steps: u64) -> bool {
        if self.depth.is_some() {
            // Temporal blocking is written for the five-point stencil.
            return false;
        }
        let cells = self.size.cells();
        let threads = self.parallelism.threads(cells);
        self.blocking
            .applies(self.boundary, cells, size_of::<f32>(), steps, threads)
    }

    /// Whether the mean level is held to the exact recurrence (see
    /// [`crate::kernels::mean_level`]).
    pub fn keeps_level(&self) -> bool {
        // Over varying depth the checkerboard is no mode of the stencil, so the keeper (whose
        // rule at a marginal checkerboard assumes it is) is left out there.
        let checker_unlike_keeper = self.depth.is_some()
            && checkerboard_is_marginal(self.size, self.boundary, self.coefficients);
        conserves_volume(self.boundary, self.coefficients, self.land.is_some())
            && !checker_unlike_keeper
    }

    /// How many of `left` steps to run before `keeper`'s next correction is due: all of them
    /// when the grid keeps no level.
    pub fn segment(&self, keeper: &MeanLevelKeeper, left: u64) -> u64 {
        if self.keeps_level() {
            keeper.segment(self.steps, left)
        } else {
            left
        }
    }

    /// Whether `keeper` must anchor or correct now (see [`MeanLevelKeeper::wanted`]).
    pub fn level_wanted(&self, keeper: &MeanLevelKeeper, before_step: bool) -> bool {
        self.keeps_level() && keeper.wanted(self.steps, before_step)
    }

    /// Sets the land: `land` and the depth's dry cells.
    pub fn set_land(&mut self, land: LandMask) -> Result<()> {
        self.size.check_len("land mask", land.cells().len())?;
        self.placed_land = (!land.is_empty()).then(|| land.clone());
        let land = match &self.dry {
            Some(dry) => land.union(dry)?,
            None => land,
        };
        self.land = (!land.is_empty()).then_some(land);
        Ok(())
    }

    /// Sets the depth: its faces, and its dry cells added to the land.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<()> {
        self.size.check_len("depth map", depth.cells().len())?;
        let dry = depth.land();
        self.dry = (!dry.is_empty()).then_some(dry);
        self.depth = Some(FaceCourants::new(depth, self.coefficients.a, self.boundary));
        let placed = self
            .placed_land
            .take()
            .unwrap_or_else(|| LandMask::empty(self.size));
        self.set_land(placed)
    }

    pub fn check_contacts(&self, contacts: &ContactMasks) -> Result<()> {
        self.size
            .check_len("contact mask", contacts.new_mask().len())
    }

    /// One step of `field`'s stencil.
    pub fn step_field(&self, field: &mut WaveField) {
        if let Some(faces) = &self.depth {
            field.step_depth(faces, self.coefficients.d, self.parallelism);
            return;
        }
        field.step(
            self.size,
            self.coefficients,
            self.boundary,
            self.parallelism,
        );
    }

    /// `run` steps of `field`'s stencil with no contact events, temporally blocked if `blocked`.
    pub fn step_field_run(&self, field: &mut WaveField, run: u64, blocked: bool) {
        if let Some(faces) = &self.depth {
            for _ in 0..run {
                field.step_depth(faces, self.coefficients.d, self.parallelism);
                let (cur, _) = field.levels_mut();
                self.clear_land(cur);
            }
            return;
        }
        field.step_many(
            self.size,
            self.coefficients,
            self.boundary,
            self.land.as_ref(),
            self.parallelism,
            blocked,
            run,
        );
    }

    /// The discrete energy of levels `cur` and `old` (m^2): over the depth's faces when a depth
    /// is set, else the five-point stencil's.
    pub fn energy(&self, cur: &[f32], old: &[f32]) -> f64 {
        match &self.depth {
            Some(faces) => crate::diagnostics::discrete_energy_over_depth(faces, cur, old),
            None => crate::diagnostics::discrete_energy(
                self.size,
                self.boundary,
                f64::from(self.coefficients.a),
                cur,
                old,
            ),
        }
    }

    /// Zeroes the land cells of `field`.
    pub fn clear_land(&self, field: &mut [f32]) {
        if let Some(land) = &self.land {
            land.clear(field);
        }
    }

    /// After an edit of the levels, their land and fixed rim zeroed (once, before the next step).
    pub fn settle_edits<'a>(&mut self, levels: impl IntoIterator<Item = &'a mut [f32]>) {
        if std::mem::take(&mut self.edited) {
            for level in levels {
                self.clear_land_and_rim(level);
            }
        }
    }

    /// Land, then the fixed rim: both hold zero after every step.
    pub fn clear_land_and_rim(&self, field: &mut [f32]) {
        if let Some(land) = &self.land {
            land.clear(field);
        }
        if self.boundary == Boundary::Fixed {
            crate::field::zero_rim(field, self.size);
        }
    }

    /// Calls `add` with each wet cell `impulse` reaches and its amount: the interior only when
    /// the rim is fixed.
    pub fn for_each_impulse_cell(&self, impulse: &Impulse, add: impl FnMut(usize, f32)) {
        let interior_only = self.boundary == Boundary::Fixed;
        impulse.for_each_cell(self.size, interior_only, self.land.as_ref(), add);
    }

    /// Moves `fields` (the signed grid's one, the split grid's two channels) and the land by
    /// `(dx, dy)` cells, the fields with Mur's extrapolation at an absorbing grid's new edges.
    pub fn shift_window<const N: usize>(
        &mut self,
        fields: [&mut WaveField; N],
        dx: isize,
        dy: isize,
    ) {
        let mur_edges = self.boundary == Boundary::Absorbing;
        for field in fields {
            field.shift(self.size, dx, dy, mur_edges);
        }
        self.shift_land(dx, dy);
    }

    pub fn shift_land(&mut self, dx: isize, dy: isize) {
        if let Some(land) = &mut self.land {
            land.shift(dx, dy);
            if land.is_empty() {
                self.land = None;
            }
        }
        if let Some(placed) = &mut self.placed_land {
            placed.shift(dx, dy);
        }
        // The depth's dry cells are part of the land that moved: kept with it (as the GPU
        // backends keep their parts), until the caller sets the new place's depth.
        if let Some(dry) = &mut self.dry {
            dry.shift(dx, dy);
        }
    }
}

/// The stepping that signed and split grids share: edits settled and the mean level kept before
/// every step, and many steps run in segments that end where level corrections are due, so the
/// corrections fall on the same steps as single steps' do.
pub(crate) trait LevelKeptStepping: GridWater {
    /// Zeroes land and a fixed rim in every level after an edit, before a step.
    fn settle_edits(&mut self);

    /// The mean-level keeper's anchoring or correction, when one is wanted.
    fn keep_level(&mut self, before_step: bool);

    /// One step of the field(s) with `contacts`' events: counted, and its level kept.
    fn step_once(&mut self, contacts: Option<&ContactMasks>);

    /// How many of `left` steps to run before the next level correction is due (a grid's
    /// keepers are due together).
    fn next_run(&self, left: u64) -> u64;

    /// `run` steps of the field(s) with no contact events, temporally blocked if `blocked`:
    /// counted, and no level kept.
    fn step_run(&mut self, run: u64, blocked: bool);

    /// One step with `contacts`' events, edits settled and the level kept first.
    fn kept_step(&mut self, contacts: Option<&ContactMasks>) {
        self.settle_edits();
        self.keep_level(true);
        self.step_once(contacts);
    }

    /// `steps` steps with no contact events, in runs that end where corrections are due.
    fn kept_step_many(&mut self, steps: u64) {
        let blocked = self.blocks(steps);
        self.settle_edits();
        self.keep_level(true);
        let mut left = steps;
        while left > 0 {
            let run = self.next_run(left);
            self.step_run(run, blocked && run >= 2);
            self.keep_level(false);
            left -= run;
        }
    }
}
