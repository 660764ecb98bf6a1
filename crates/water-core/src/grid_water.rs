//! The operations every grid mode (signed, split, classic) offers, for code that drives any
//! of them, such as the `water` command.

use crate::boundary::Boundary;
use crate::contact_masks::ContactMasks;
use crate::error::Result;
use crate::field::WaveField;
use crate::impulse::Impulse;
use crate::kernels::temporal_blocking::TemporalBlocking;
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::named::display_and_parse_by_name;
use crate::size::GridSize;

/// Which grid stepper a simulation uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GridMode {
    /// One signed f32 height per cell.
    #[default]
    Signed,
    /// Two f32 channels `p` and `n`, height `p - n` (bow waves in `p`, stern waves in `n`).
    Split,
    /// Hugo Elias's i16 ripple, bit for bit: fixed boundary, `a = 1/2`, damping by shift.
    Classic,
}

impl GridMode {
    /// All modes.
    pub const ALL: [Self; 3] = [Self::Signed, Self::Split, Self::Classic];

    /// Name used in scenario files.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Signed => "signed",
            Self::Split => "split",
            Self::Classic => "classic",
        }
    }
}

display_and_parse_by_name!(GridMode);

/// A grid water simulation of any mode.
pub trait GridWater: Send {
    /// Grid size.
    fn size(&self) -> GridSize;
    /// Cell size `h`, metres.
    fn cell_size(&self) -> f64;
    /// The stepper.
    fn mode(&self) -> GridMode;
    /// Edge treatment.
    fn boundary(&self) -> Boundary;
    /// Steps taken so far.
    fn steps_taken(&self) -> u64;
    /// How steps use threads.
    fn set_parallelism(&mut self, parallelism: Parallelism);
    /// When multi-step runs use temporal blocking.
    fn set_temporal_blocking(&mut self, blocking: TemporalBlocking) {
        let _ = blocking;
    }
    /// Whether [`GridWater::step_many`] with `steps` steps, called on the current rayon pool,
    /// runs temporally blocked.
    fn blocks(&self, steps: u64) -> bool {
        let _ = steps;
        false
    }
    /// One step without contact sources.
    fn step(&mut self);
    /// `steps` steps without contact sources, as one multi-step run: grids with fixed or
    /// reflective boundaries (classic grids included) use temporal blocking (several steps per pass over
    /// memory) when [`TemporalBlocking`] says so, with the same result, bit for bit, as calling
    /// [`GridWater::step`] that often.
    fn step_many(&mut self, steps: u64) {
        for _ in 0..steps {
            self.step();
        }
    }
    /// One step with bow and stern events from `contacts` (applied after the stencil).
    ///
    /// # Errors
    /// [`crate::WaterError::SizeMismatch`] if the masks belong to a grid of another size.
    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<()>;
    /// Adds an impulse to the current heights (before the next step).
    fn add_impulse(&mut self, impulse: &Impulse);
    /// Replaces the land; land cells are zeroed at once and after every step.
    ///
    /// # Errors
    /// [`crate::WaterError::SizeMismatch`] if the mask belongs to a grid of another size.
    fn set_land(&mut self, land: LandMask) -> Result<()>;
    /// Moves the window: new cell `(x, y)` takes old cell `(x + dx, y + dy)`; entering cells are
    /// still water at rest. Land moves with the water (a varying depth's dry cells with it); the
    /// depth's wave speeds do not: set the depth of the new place after a shift. [`crate::FollowingWindow`] says how far to
    /// move.
    fn shift_window(&mut self, dx: isize, dy: isize);
    /// Both time levels of a grid that stores signed heights (the wave model's signed mode,
    /// the dispersive model): what a cascade restricts to the next coarser one. `None` for
    /// split and classic grids.
    fn signed_field(&self) -> Option<&WaveField> {
        None
    }
    /// The same, to edit (as `field_mut` of [`crate::SignedGrid`] and
    /// [`crate::DispersiveGrid`]: the mean-level keeper starts again from what it finds).
    fn signed_field_mut(&mut self) -> Option<&mut WaveField> {
        None
    }
    /// Current heights as f32 metres (classic mode: its integer units), row-major.
    fn heights(&self) -> Vec<f32>;
    /// Total volume above rest, m^3 (`h^2 * sum z`).
    fn volume(&self) -> f64;
    /// Discrete energy (m^2), see [`crate::diagnostics::discrete_energy`].
    fn energy(&self) -> f64;
}

/// The [`GridWater`] methods of a grid whose levels are one signed [`WaveField`] in its `field`
/// field (signed and dispersive grids): the field offered through the grid's own `field` and
/// `field_mut` (so an edit through the trait resets what an edit through the grid resets), and
/// the heights copied from its current level.
macro_rules! signed_field_methods {
    () => {
        fn signed_field(&self) -> Option<&WaveField> {
            Some(self.field())
        }

        fn signed_field_mut(&mut self) -> Option<&mut WaveField> {
            Some(self.field_mut())
        }

        fn heights(&self) -> Vec<f32> {
            self.field.current().to_vec()
        }
    };
}
pub(crate) use signed_field_methods;
