//! Contact sources: bow and stern waves from where objects cut the water surface.
//! GPU twin: `shaders/shared/contact_events.wgsl` (and `classic_contact_events` in
//! `shaders/shared/classic_cell.wgsl`).
//!
//! Each step a caller supplies the contact mask `C_new` (per cell: the object's speed factor,
//! 0 where nothing touches the water); the previous step's mask is `C_old`. After the stencil:
//!
//! * a cell an object has just entered (`C_new > 0`, `C_old == 0`) is a bow event: split mode
//!   sets `p = A * C_new`, signed mode adds `+A * C_new`;
//! * a cell an object has just left (`C_new == 0`, `C_old > 0`) is a stern event: split mode
//!   sets `n = A * C_old`, signed mode adds `-A * C_old`.
//!
//! Those events are [`ContactSource::Events`], the classic source. Its height is set once a step,
//! so in the three-level scheme it is a vertical speed of `A * C / dt` that stays: the same hull
//! makes a larger wake at a smaller step. [`ContactSource::Displacement`] is the physical one,
//! a moving pressure patch (see its docs and `docs/math.md`), whose wake on dispersive water is
//! the same across `dt` and cell sizes (tested: `crates/water-testkit/tests/towed_wake.rs`).

use crate::error::{Result, WaterError};
use crate::mask_pair::MaskPair;
use crate::size::GridSize;

/// Largest contact amplitude `A` the masks take, metres (classic mode: integer height units)
/// per unit of speed factor: classic scenes use thousands of units, and a metre-scale grid
/// nothing near it, while `A * MAX_MASK_VALUE` (2e9) and the stencil's sums of it stay finite
/// in f32 (classic events saturate to i16 anyway).
pub const MAX_CONTACT_AMPLITUDE: f32 = 1e5;

/// Largest value a contact mask cell may hold: a speed factor of 2e4 m/s (or, with
/// displacement contacts, a weight head of 2e4 m). A body may move at up to 1e4 m/s in each
/// component (`water_buoyancy::MAX_BODY_SPEED`), so its speed across the water, the factor its
/// mask carries, reaches `sqrt(2)` times that over a grid (1.4142e4 m/s) and `sqrt(3)` times
/// that over a sphere, whose "across" turns with the radial up (1.7321e4 m/s).
pub const MAX_MASK_VALUE: f32 = 2e4;

/// How contact masks make waves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactSource {
    /// Bow and stern events (the classic source, every mode): masks carry the body's speed
    /// factor (m/s) and `A` is metres (classic: units) per m/s. A cell entered gets `+A * C_new`
    /// on its new level, a cell left `-A * C_old`. The wake depends on the time step.
    #[default]
    Events,
    /// A pressure patch (signed and dispersive water, in metres): masks carry the head `D` a
    /// hull presses the water with where it cuts the still surface (m: a floating body's
    /// weight over its waterplane, its draft at rest) and `A` is a dimensionless scale (1: as
    /// the mask says). After each step both levels get
    /// `A * (D_new - D_old)`, a displacement that keeps the water's velocity, so the stepped
    /// field is `w = eta + A * D` with `eta_tt = L(eta + A * D)`: the hull's weight as a
    /// surface pressure `rho * g * A * D` (the term shallow-water and Airy waves take a pressure
    /// in). Outside the hull `w` is the surface `eta`; under it `w` is the level the water would
    /// have without the hull's own dent (the dent is hidden by the hull), which is also what its
    /// buoyancy should read. On dispersive water a towed hull's wake is the same across `dt`
    /// and cell sizes (`crates/water-testkit/tests/towed_wake.rs`).
    Displacement,
}

impl ContactSource {
    /// The name scenarios use: `"events"` or `"displacement"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Events => "events",
            Self::Displacement => "displacement",
        }
    }

    /// Refuses a source that a grid in `mode` does not take: the pressure patch in split or
    /// classic mode (split's two channels and classic's integer units have no single height in
    /// metres to press).
    ///
    /// # Errors
    /// [`WaterError::ContactSourceNotOffered`] naming the source, the mode and what it takes.
    pub fn check_offered(self, mode: crate::GridMode) -> Result<()> {
        match (self, mode) {
            (Self::Events, _) | (Self::Displacement, crate::GridMode::Signed) => Ok(()),
            (source, mode) => Err(WaterError::ContactSourceNotOffered {
                source_name: source.name(),
                mode: mode.name(),
                offered: "events",
            }),
        }
    }
}

/// The current and previous contact masks, the wave amplitude `A` (metres per unit of speed
/// factor for [`ContactSource::Events`], a scale for [`ContactSource::Displacement`]) and the
/// source they feed.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactMasks {
    size: GridSize,
    source: ContactSource,
    masks: MaskPair,
}

impl ContactMasks {
    /// Empty masks (nothing in the water) with amplitude `A`.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] if `amplitude` is NaN or infinite, [`WaterError::OutOfRange`]
    /// beyond +-[`MAX_CONTACT_AMPLITUDE`] (heights would overflow f32).
    pub fn new(size: GridSize, amplitude: f32) -> Result<Self> {
        Ok(Self {
            size,
            source: ContactSource::Events,
            masks: MaskPair::new(size.cells(), amplitude)?,
        })
    }

    /// Starts a new step: the current mask becomes `C_old` and `mask` becomes `C_new`.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] if `mask` has the wrong length, [`WaterError::BadMaskValue`]
    /// for a negative or non-finite value or one above [`MAX_MASK_VALUE`] (the masks are left
    /// unchanged then).
    ///
    /// ```
    /// use water_core::{ContactMasks, GridSize};
    /// let size = GridSize::new(8, 8)?;
    /// let mut contacts = ContactMasks::new(size, 0.1)?;
    /// let mut hull = vec![0.0; 64];
    /// hull[3 * 8 + 3] = 1.0; // an object moving at speed factor 1 over cell (3, 3)
    /// contacts.advance(&hull)?;
    /// assert_eq!(contacts.new_mask()[27], 1.0);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn advance(&mut self, mask: &[f32]) -> Result<()> {
        self.size.check_len("contact mask", mask.len())?;
        self.masks.advance(mask, "contact mask", self.size.width())
    }

    /// The same masks feeding `source` (the masks are kept).
    ///
    /// ```
    /// use water_core::{ContactMasks, ContactSource, GridSize};
    /// let contacts = ContactMasks::new(GridSize::new(8, 8)?, 1.0)?
    ///     .with_source(ContactSource::Displacement);
    /// assert_eq!(contacts.source(), ContactSource::Displacement);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    #[must_use]
    pub fn with_source(mut self, source: ContactSource) -> Self {
        self.source = source;
        self
    }

    /// The source the masks feed.
    #[must_use]
    pub fn source(&self) -> ContactSource {
        self.source
    }

    /// Refuses the masks' source where a grid in `mode` does not take it
    /// ([`ContactSource::check_offered`]). Every backend asks this before a step with the masks.
    ///
    /// # Errors
    /// [`WaterError::ContactSourceNotOffered`] naming the source, the mode and what it takes.
    pub fn check_offered(&self, mode: crate::GridMode) -> Result<()> {
        self.source.check_offered(mode)
    }

    /// Grid the masks belong to.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    crate::mask_pair_accessors!();

    /// Moves both masks with a window that moved by `(dx, dy)` cells
    /// ([`crate::GridWater::shift_window`]: new cell `(x, y)` holds old cell `(x + dx, y + dy)`),
    /// cells coming in empty. Without it a body at rest would seem to jump by the shift and
    /// make bow and stern waves at the next step.
    ///
    /// ```
    /// use water_core::{ContactMasks, GridSize};
    /// let mut contacts = ContactMasks::new(GridSize::new(8, 8)?, 0.1)?;
    /// let mut hull = vec![0.0; 64];
    /// hull[3 * 8 + 3] = 1.0;
    /// contacts.advance(&hull)?;
    /// contacts.shift(1, 0); // the window moved one cell along +x
    /// assert_eq!(contacts.new_mask()[3 * 8 + 2], 1.0);
    /// assert_eq!(contacts.new_mask()[3 * 8 + 3], 0.0);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn shift(&mut self, dx: isize, dy: isize) {
        let size = self.size;
        self.masks
            .move_cells(|mask| crate::window::shift_cells(mask, size, dx, dy, 0.0));
    }

    /// Applies bow and stern events to a signed field's new heights (whatever
    /// [`ContactMasks::source`] says: classic mode's events go through here).
    pub fn apply_signed(&self, z_new: &mut [f32]) {
        apply_signed_events(self.amplitude(), self.new_mask(), self.old_mask(), z_new);
    }

    /// The cells the pressure patch moves this step and by how much, metres
    /// ([`displacement_at`]): what a GPU backend adds to both of its levels, as
    /// [`ContactMasks::apply_to_levels`] does on the CPU.
    pub fn displacements(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        let a = self.amplitude();
        self.new_mask()
            .iter()
            .zip(self.old_mask())
            .enumerate()
            .filter_map(move |(i, (&d_new, &d_old))| {
                displacement_at(a, d_new, d_old).map(|s| (i, s))
            })
    }

    /// Applies the masks' source to a signed field just stepped: `z_new` the level the step
    /// wrote, `z_old` the one before it. Events change `z_new` only; a displacement adds
    /// `A * (C_new - C_old)` to both (see [`ContactSource::Displacement`]).
    ///
    /// ```
    /// use water_core::{ContactMasks, ContactSource, GridSize};
    /// let mut contacts = ContactMasks::new(GridSize::new(3, 3)?, 1.0)?
    ///     .with_source(ContactSource::Displacement);
    /// let mut hull = [0.0; 9];
    /// hull[4] = 0.05; // a hull 5 cm deep arrives over the middle cell
    /// contacts.advance(&hull)?;
    /// let (mut z, mut z_old) = ([0.0_f32; 9], [0.0_f32; 9]);
    /// contacts.apply_to_levels(&mut z, &mut z_old);
    /// assert_eq!((z[4], z_old[4]), (0.05, 0.05)); // moved, not set moving
    /// assert_eq!(z_old[4] - z[4], 0.0);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn apply_to_levels(&self, z_new: &mut [f32], z_old: &mut [f32]) {
        match self.source {
            ContactSource::Events => self.apply_signed(z_new),
            ContactSource::Displacement => {
                let (a, new, old) = (self.amplitude(), self.new_mask(), self.old_mask());
                apply_displacement(a, new, old, z_new, z_old);
            }
        }
    }

    /// Applies bow and stern events to split mode's new channels.
    pub fn apply_split(&self, p_new: &mut [f32], n_new: &mut [f32]) {
        let a = self.amplitude();
        for (i, (&c_new, &c_old)) in self.new_mask().iter().zip(self.old_mask()).enumerate() {
            if c_new > 0.0 && c_old == 0.0 {
                p_new[i] = a * c_new;
            } else if c_new == 0.0 && c_old > 0.0 {
                n_new[i] = a * c_old;
            }
        }
    }
}

/// Bow and stern events on any signed field (a grid's cells, a sphere's vertices): where
/// `c_new > 0 && c_old == 0` adds `amplitude * c_new`, where `c_new == 0 && c_old > 0`
/// subtracts `amplitude * c_old`. The three slices have one value per point.
///
/// ```
/// let (c_new, c_old) = ([1.0, 0.0, 2.0], [0.0, 3.0, 2.0]);
/// let mut z = [0.0_f32; 3];
/// water_core::apply_signed_events(0.5, &c_new, &c_old, &mut z);
/// assert_eq!(z, [0.5, -1.5, 0.0]); // bow, stern, still inside
/// ```
pub fn apply_signed_events(amplitude: f32, c_new: &[f32], c_old: &[f32], z_new: &mut [f32]) {
    for ((z, &c_new), &c_old) in z_new.iter_mut().zip(c_new).zip(c_old) {
        if c_new > 0.0 && c_old == 0.0 {
            *z += amplitude * c_new;
        } else if c_new == 0.0 && c_old > 0.0 {
            *z -= amplitude * c_old;
        }
    }
}

/// The pressure patch's step on any signed field: `amplitude * (d_new - d_old)` added to both
/// levels, the new (`z_new`) and the one before it (`z_old`), so the displacement keeps the
/// water's velocity `z_new - z_old`. The four slices have one value per point.
pub fn apply_displacement(
    amplitude: f32,
    d_new: &[f32],
    d_old: &[f32],
    z_new: &mut [f32],
    z_old: &mut [f32],
) {
    for (((z, z_old), &d_new), &d_old) in z_new.iter_mut().zip(z_old).zip(d_new).zip(d_old) {
        if let Some(shift) = displacement_at(amplitude, d_new, d_old) {
            *z += shift;
            *z_old += shift;
        }
    }
}

/// How far the pressure patch moves a point's water this step, `amplitude * (d_new - d_old)`
/// metres; `None` where the head did not change (the common case: those points are left
/// alone, bit for bit). Every backend's displacement is this number.
#[must_use]
pub fn displacement_at(amplitude: f32, d_new: f32, d_old: f32) -> Option<f32> {
    (d_new != d_old).then_some(amplitude * (d_new - d_old))
}

/// The first value of a contact mask that is negative, not finite or above [`MAX_MASK_VALUE`],
/// with its index: what a mask of any layout (grid cells, sphere vertices) must refuse.
#[must_use]
pub fn first_bad_mask_value(mask: &[f32]) -> Option<(usize, f32)> {
    // Every scene step checks a whole grid's mask: a search that stops at the first bad value
    // runs a branch per cell, while a branch-free test of a block vectorises (a 512² mask: about
    // 0.3 ms down to a few tens of us). Only a block that fails is searched.
    const BLOCK: usize = 1024;
    // False for NaN, negative values (but not -0), infinities and speeds above the limit.
    let good = |v: f32| (0.0..=MAX_MASK_VALUE).contains(&v);
    mask.chunks(BLOCK).enumerate().find_map(|(b, block)| {
        if block.iter().fold(true, |all, &v| all & good(v)) {
            return None;
        }
        block
            .iter()
            .position(|&v| !good(v))
            .map(|i| (b * BLOCK + i, block[i]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bad_value_is_found_in_any_block() {
        let mut mask = vec![0.5_f32; 3000];
        mask[7] = -0.0; // negative zero is no contact, not a bad value
        mask[9] = f32::MIN_POSITIVE / 4.0; // subnormal but positive
        assert_eq!(first_bad_mask_value(&mask), None);
        mask[2500] = f32::NAN;
        let (i, v) = first_bad_mask_value(&mask).expect("a NaN");
        assert!(i == 2500 && v.is_nan());
        // An earlier bad value in an earlier block wins, and within a block the first.
        mask[1500] = -1.0;
        mask[1900] = f32::INFINITY;
        assert_eq!(first_bad_mask_value(&mask), Some((1500, -1.0)));
        mask[1024] = f32::NEG_INFINITY;
        assert_eq!(first_bad_mask_value(&mask), Some((1024, f32::NEG_INFINITY)));
        mask[1023] = f32::INFINITY;
        assert_eq!(first_bad_mask_value(&mask), Some((1023, f32::INFINITY)));
        mask[12] = MAX_MASK_VALUE;
        assert_eq!(
            first_bad_mask_value(&mask[..100]),
            None,
            "the limit itself is allowed"
        );
        mask[13] = MAX_MASK_VALUE * 1.01;
        assert_eq!(
            first_bad_mask_value(&mask),
            Some((13, MAX_MASK_VALUE * 1.01))
        );
        assert_eq!(first_bad_mask_value(&[]), None);
    }
}
