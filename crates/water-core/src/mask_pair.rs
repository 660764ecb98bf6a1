//! The current and previous contact masks with their amplitude, kept the same way for every
//! layout of points: a grid's cells ([`crate::ContactMasks`]) and a sphere's vertices
//! (`water_buoyancy::SphereContacts`), so both refuse the same amplitudes and mask values.

use crate::contact_masks::{first_bad_mask_value, MAX_CONTACT_AMPLITUDE};
use crate::error::{finite, Result, WaterError};

/// `C_new`, `C_old` (one value per point: a body's speed factor, m/s, or its head, m) and the
/// amplitude `A` they are applied with.
///
/// ```
/// use water_core::MaskPair;
/// let mut masks = MaskPair::new(4, 0.1)?;
/// masks.advance(&[0.0, 1.0, 0.0, 0.0], "contact mask", 4)?;
/// masks.advance(&[0.0, 0.0, 1.0, 0.0], "contact mask", 4)?;
/// assert_eq!((masks.new_mask()[2], masks.old_mask()[1]), (1.0, 1.0));
/// assert!(masks.advance(&[0.0, -1.0, 0.0, 0.0], "contact mask", 4).is_err());
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct MaskPair {
    amplitude: f32,
    old: Vec<f32>,
    new: Vec<f32>,
    /// Both masks are known to hold only zeros (made so, or found so by
    /// [`MaskPair::move_cells`] since the last advance): moving them changes nothing, so a
    /// grid that follows its focus with no hull in it copies no mask.
    known_still: bool,
}

/// The masks' values and amplitude; whether they are known to be still is not a value.
impl PartialEq for MaskPair {
    fn eq(&self, other: &Self) -> bool {
        self.amplitude == other.amplitude && self.old == other.old && self.new == other.new
    }
}

impl MaskPair {
    /// Empty masks of `points` values each (nothing in the water) with amplitude `A`.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] if `amplitude` is NaN or infinite, [`WaterError::OutOfRange`]
    /// beyond +-[`MAX_CONTACT_AMPLITUDE`] (heights would overflow f32).
    pub fn new(points: usize, amplitude: f32) -> Result<Self> {
        let a = finite("contact amplitude", f64::from(amplitude))?;
        if a.abs() > f64::from(MAX_CONTACT_AMPLITUDE) {
            return Err(WaterError::OutOfRange {
                name: "contact amplitude",
                value: a,
                range: "[-1e5, 1e5] m per m/s",
            });
        }
        Ok(Self {
            amplitude,
            old: vec![0.0; points],
            new: vec![0.0; points],
            known_still: true,
        })
    }

    /// Starts a step: the current mask becomes `C_old` and `mask` becomes `C_new`. `what`
    /// names the mask in errors and `width` is its layout's row length, which places a bad
    /// value at `(x, y)` (a sphere's vertex count: `x` is then the vertex).
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for a mask of another length; [`WaterError::BadMaskValue`]
    /// for a negative or non-finite value or one above [`crate::MAX_MASK_VALUE`]. The masks
    /// are left unchanged then.
    pub fn advance(&mut self, mask: &[f32], what: &'static str, width: usize) -> Result<()> {
        let width = width.max(1);
        if mask.len() != self.new.len() {
            return Err(WaterError::SizeMismatch {
                what,
                width,
                height: self.new.len() / width,
                expected: self.new.len(),
                actual: mask.len(),
            });
        }
        if let Some((i, value)) = first_bad_mask_value(mask) {
            return Err(WaterError::BadMaskValue {
                what,
                x: i % width,
                y: i / width,
                value,
            });
        }
        std::mem::swap(&mut self.old, &mut self.new);
        self.new.copy_from_slice(mask);
        self.known_still = false;
        Ok(())
    }

    /// The amplitude `A`: m per unit of speed factor for bow and stern events, a scale for a
    /// pressure patch.
    #[must_use]
    pub fn amplitude(&self) -> f32 {
        self.amplitude
    }

    /// `C_new`.
    #[must_use]
    pub fn new_mask(&self) -> &[f32] {
        &self.new
    }

    /// `C_old`.
    #[must_use]
    pub fn old_mask(&self) -> &[f32] {
        &self.old
    }

    /// Moves both masks' values with `move_cells` (the new mask's first), unless both hold
    /// only `+0.0`, which a move by whole cells with zeros coming in leaves as they are: found
    /// once after each advance, a still pair is not copied again.
    pub(crate) fn move_cells(&mut self, mut move_cells: impl FnMut(&mut [f32])) {
        if !self.known_still {
            // `+0.0` to the bit, what comes in: a move changes no bit of such a mask. In
            // chunks, whose OR vectorises, stopping at the first chunk with a hull in it.
            let zero = |mask: &[f32]| {
                mask.chunks(64)
                    .all(|chunk| chunk.iter().fold(0, |bits, v| bits | v.to_bits()) == 0)
            };
            self.known_still = zero(&self.new) && zero(&self.old);
        }
        if !self.known_still {
            move_cells(&mut self.new);
            move_cells(&mut self.old);
        }
    }
}

/// The read accessors of a type that keeps its contact masks in a [`MaskPair`] field named
/// `masks`: `amplitude`, `new_mask` and `old_mask`, answered by the pair, so a grid's masks
/// ([`crate::ContactMasks`]) and a sphere's (`water_buoyancy::SphereContacts`) read alike.
/// Called inside the type's `impl` block.
#[doc(hidden)]
#[macro_export]
macro_rules! mask_pair_accessors {
    () => {
        /// The amplitude `A`: m per unit of speed factor for bow and stern events, a scale for
        /// a pressure patch.
        #[must_use]
        pub fn amplitude(&self) -> f32 {
            self.masks.amplitude()
        }

        /// `C_new`.
        #[must_use]
        pub fn new_mask(&self) -> &[f32] {
            self.masks.new_mask()
        }

        /// `C_old`.
        #[must_use]
        pub fn old_mask(&self) -> &[f32] {
            self.masks.old_mask()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::MaskPair;
    use crate::WaterError;

    #[test]
    fn a_refused_mask_leaves_both_masks_as_they_were() {
        let mut masks = MaskPair::new(6, 0.5).unwrap();
        masks
            .advance(&[0.0, 2.0, 0.0, 0.0, 0.0, 0.0], "mask", 3)
            .unwrap();
        let before = masks.clone();
        let bad = masks.advance(&[0.0, 0.0, 0.0, 0.0, f32::NAN, 0.0], "mask", 3);
        assert!(
            matches!(bad, Err(WaterError::BadMaskValue { x: 1, y: 1, .. })),
            "{bad:?}"
        );
        let short = masks.advance(&[0.0; 5], "mask", 3);
        assert!(
            matches!(
                short,
                Err(WaterError::SizeMismatch {
                    expected: 6,
                    actual: 5,
                    ..
                })
            ),
            "{short:?}"
        );
        assert_eq!(masks, before);
    }

    #[test]
    fn masks_are_moved_while_a_hull_is_in_either_and_never_while_both_are_still() {
        let mut masks = MaskPair::new(4, 0.5).unwrap();
        let moves = std::cell::Cell::new(0);
        let count = |_: &mut [f32]| moves.set(moves.get() + 1);
        masks.move_cells(count);
        assert_eq!(moves.get(), 0, "new masks are still");
        masks.advance(&[0.0, 1.0, 0.0, 0.0], "mask", 2).unwrap();
        masks.move_cells(count);
        assert_eq!(moves.get(), 2, "a hull in the new mask");
        masks.advance(&[0.0; 4], "mask", 2).unwrap();
        masks.move_cells(count);
        assert_eq!(moves.get(), 4, "the hull still in the old mask");
        masks.advance(&[-0.0, 0.0, 0.0, 0.0], "mask", 2).unwrap();
        masks.move_cells(count);
        assert_eq!(
            moves.get(),
            6,
            "-0.0 is not what comes in: moved to keep its bits"
        );
        masks.advance(&[0.0; 4], "mask", 2).unwrap();
        masks.advance(&[0.0; 4], "mask", 2).unwrap();
        masks.move_cells(count);
        masks.move_cells(count);
        assert_eq!(moves.get(), 6, "both still: not moved");
        assert_eq!(masks, MaskPair::new(4, 0.5).unwrap());
    }

    #[test]
    fn amplitudes_past_the_limit_are_refused() {
        assert!(MaskPair::new(1, 1e5).is_ok());
        assert!(matches!(
            MaskPair::new(1, 2e5),
            Err(WaterError::OutOfRange { .. })
        ));
        assert!(matches!(
            MaskPair::new(1, f32::INFINITY),
            Err(WaterError::NotFinite { .. })
        ));
    }
}
