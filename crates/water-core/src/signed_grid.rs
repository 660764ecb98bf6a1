//! Signed mode: one f32 height per cell.

use crate::boundary::Boundary;
use crate::contact_masks::{ContactMasks, ContactSource};
use crate::depth::Depth;
use crate::diagnostics::volume;
use crate::error::Result;
use crate::field::WaveField;
use crate::grid_setup::{shared_grid_water_methods, GridSetup, LevelKeptStepping};
use crate::grid_water::{signed_field_methods, GridMode, GridWater};
use crate::impulse::Impulse;
use crate::kernels::mean_level::MeanLevelKeeper;
use crate::kernels::temporal_blocking::TemporalBlocking;
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::params::WaveParams;
use crate::sample::HeightView;
use crate::size::GridSize;

/// Signed-mode water: `z_new = d*(a*(zN + zS + zE + zW) + (2 - 4a)*z - z_old)`.
///
/// ```
/// use glam::Vec2;
/// use water_core::{Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, SignedGrid, WaveParams};
/// let params = WaveParams::new(0.1, 2.0, 1.0 / 60.0, Damping::PerStep(0.999))?;
/// let mut water = SignedGrid::new(GridSize::new(64, 64)?, params, Boundary::Reflective);
/// water.add_impulse(&Impulse::new(Vec2::new(32.0, 32.0), 4.0, 1.0, ImpulseShape::Cosine)?);
/// for _ in 0..10 {
///     water.step();
/// }
/// let height = water.view().bilinear(Vec2::new(3.2, 3.2));
/// assert!(height.is_some());
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct SignedGrid {
    setup: GridSetup,
    field: WaveField,
    keeper: MeanLevelKeeper,
}

impl SignedGrid {
    /// Still water of the given size, parameters and boundary. Aborts, as a `Vec` does, if the
    /// allocator refuses the heights; [`SignedGrid::try_new`] reports that instead.
    #[must_use]
    pub fn new(size: GridSize, params: WaveParams, boundary: Boundary) -> Self {
        Self {
            setup: GridSetup::new(size, params, boundary),
            field: WaveField::at_rest(size),
            keeper: MeanLevelKeeper::new(size),
        }
    }

    /// As [`SignedGrid::new`], with the heights allocated fallibly: a process short of memory
    /// (or under `ulimit -v`) gets an error naming the bytes instead of an abort.
    ///
    /// ```
    /// use water_core::{Boundary, Damping, GridSize, SignedGrid, WaveParams};
    /// let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE)?;
    /// let grid = SignedGrid::try_new(GridSize::new(256, 256)?, params, Boundary::Reflective)?;
    /// assert_eq!(grid.current().len(), 256 * 256);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::WaterError::OutOfMemory`].
    pub fn try_new(size: GridSize, params: WaveParams, boundary: Boundary) -> Result<Self> {
        Ok(Self {
            setup: GridSetup::new(size, params, boundary),
            field: WaveField::try_at_rest(size)?,
            keeper: MeanLevelKeeper::new(size),
        })
    }

    /// Parameters.
    #[must_use]
    pub fn params(&self) -> &WaveParams {
        &self.setup.params
    }

    /// Sets the still-water depth of every cell: each cell's waves then travel at
    /// `c = c_deepest sqrt(d / d_max)`, the shallow-water speed `sqrt(g d)` when the parameters
    /// come from [`WaveParams::shallow_water`] (whose `c` is the deepest cell's). Cells at or
    /// below 0 m become land (added to the land set with `set_land`), and their faces carry no
    /// flux, so the shore reflects. Steps then use the variable-coefficient stencil
    /// ([`crate::kernels::depth_step`]), never temporally blocked. The depth stays with the
    /// grid's cells when the window shifts; set it again for world-fixed ground.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`](crate::WaterError::SizeMismatch) for a depth of another
    /// grid size.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<()> {
        self.setup.set_depth(depth)?;
        self.land_changed();
        Ok(())
    }

    /// After the land moved or changed: the keeper's reference forgotten, land and a fixed rim
    /// zeroed in both levels.
    fn land_changed(&mut self) {
        self.keeper.invalidate();
        let (cur, old) = self.field.levels_mut();
        self.setup.clear_land_and_rim(cur);
        self.setup.clear_land_and_rim(old);
    }

    /// The two time levels.
    #[must_use]
    pub fn field(&self) -> &WaveField {
        &self.field
    }

    /// The two time levels, mutably, to set an initial condition (`(current, previous)`; equal
    /// levels mean the water starts at rest in that shape).
    pub fn field_mut(&mut self) -> &mut WaveField {
        self.keeper.invalidate();
        self.setup.edited = true;
        &mut self.field
    }

    /// Current heights, metres.
    #[must_use]
    pub fn current(&self) -> &[f32] {
        self.field.current()
    }

    /// A sampling view of the current heights.
    #[must_use]
    pub fn view(&self) -> HeightView<'_> {
        HeightView::from_validated(
            self.setup.size,
            self.setup.params.cell_size() as f32,
            self.field.current(),
        )
    }
}

impl LevelKeptStepping for SignedGrid {
    fn settle_edits(&mut self) {
        let (cur, old) = self.field.levels_mut();
        self.setup.settle_edits([cur, old]);
    }

    fn keep_level(&mut self, before_step: bool) {
        if self.setup.level_wanted(&self.keeper, before_step) {
            let s = &self.setup;
            let (cur, old) = self.field.levels_mut();
            self.keeper.keep(
                s.size,
                s.boundary,
                s.coefficients,
                s.steps,
                cur,
                old,
                s.parallelism,
            );
        }
    }

    fn step_once(&mut self, contacts: Option<&ContactMasks>) {
        self.setup.step_field(&mut self.field);
        let (cur, old) = self.field.levels_mut();
        match contacts {
            Some(contacts) => {
                contacts.apply_to_levels(cur, old);
                self.setup.clear_land_and_rim(cur);
                if contacts.source() == ContactSource::Displacement {
                    self.setup.clear_land_and_rim(old);
                }
            }
            // The stencil never writes a fixed rim, so only land needs clearing.
            None => self.setup.clear_land(cur),
        }
        self.setup.steps += 1;
        if contacts.is_some() {
            self.keeper.invalidate();
        }
        self.keep_level(false);
    }

    fn next_run(&self, left: u64) -> u64 {
        self.setup.segment(&self.keeper, left)
    }

    fn step_run(&mut self, run: u64, blocked: bool) {
        self.setup.step_field_run(&mut self.field, run, blocked);
        self.setup.steps += run;
    }
}

impl GridWater for SignedGrid {
    shared_grid_water_methods!(GridMode::Signed);

    fn add_impulse(&mut self, impulse: &Impulse) {
        self.keeper.invalidate();
        let (cur, old) = self.field.levels_mut();
        // A displacement moves the previous level too, so `z - z_old` (the velocity) is kept.
        let displacement = impulse.displacement();
        self.setup.for_each_impulse_cell(impulse, |i, v| {
            cur[i] += v;
            if displacement {
                old[i] += v;
            }
        });
    }

    fn shift_window(&mut self, dx: isize, dy: isize) {
        self.setup.shift_window([&mut self.field], dx, dy);
        self.land_changed();
    }

    signed_field_methods!();

    fn volume(&self) -> f64 {
        volume(self.field.current(), self.setup.params.cell_size())
    }

    fn energy(&self) -> f64 {
        self.setup
            .energy(self.field.current(), self.field.previous())
    }
}
