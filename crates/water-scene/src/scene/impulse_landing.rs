//! The queued impulses landing on the grid and its cascades, and a count of those that found no
//! cell to land on.

use glam::{Vec2, Vec3};
use water_core::{Impulse, ImpulseShape, WaterError};

use super::Scene;
use crate::error::SceneError;
use crate::water::Water as _;

impl Scene {
    /// How many impulses have landed on no cell so far: queued ([`Scene::add_impulse`]) where
    /// neither the grid nor a cascade that takes them lay when they landed (a grid that follows
    /// a focus may have moved away). They make no wave; a caller that must not lose one checks
    /// this count after the step it queued it for.
    #[must_use]
    pub fn impulses_missed(&self) -> u64 {
        self.impulses_missed
    }

    /// The impulses that landed on no cell in the last step that landed any (as queued, world
    /// cells), oldest first: which of them [`Scene::impulses_missed`] counted then.
    #[must_use]
    pub fn impulses_missed_last(&self) -> &[Impulse] {
        &self.missed_last
    }

    /// Lands the queued impulses on the water; whether there were any.
    pub(super) fn land_impulses(&mut self) -> Result<bool, SceneError> {
        let pending = std::mem::take(&mut self.pending);
        // Queued in world cells; the grid's cells are offset by its origin.
        let origin = -self.following.window.origin_cells().as_vec2();
        let mut reached = Vec::with_capacity(pending.len());
        for impulse in &pending {
            let moved = impulse.moved_by(origin)?;
            reached.push(moved.reaches(self.spec.size));
            self.water.add_impulse(&moved)?;
        }
        if let Some(cascades) = &mut self.cascades {
            cascades.land(&pending, &mut reached)?;
        }
        if !pending.is_empty() {
            self.missed_last.clear();
            let missed = pending.iter().zip(&reached).filter(|(_, r)| !**r);
            self.missed_last.extend(missed.map(|(impulse, _)| *impulse));
            self.impulses_missed += self.missed_last.len() as u64;
        }
        Ok(!pending.is_empty())
    }
}

/// What [`Scene::impulse_at`] refuses, named in its caller's metres before [`Impulse::new`]
/// would name the same values in cells: a `position` (caller's frame, m) that is not finite or
/// whose `centre` in cells is not, and a radius (m, of `(radius, cell)`) that is not finite, not
/// above 0 (but for a point) or past [`water_core::MAX_IMPULSE_RADIUS`] cells.
pub(super) fn impulse_in_metres(
    position: Vec3,
    centre: Vec2,
    (radius, cell): (f32, f32),
    shape: ImpulseShape,
) -> Result<(), WaterError> {
    if let Some(&bad) = position.to_array().iter().find(|v| !v.is_finite()) {
        return Err(WaterError::NotFinite {
            name: "impulse position (m)",
            value: as_written(bad),
        });
    }
    if !centre.is_finite() {
        return Err(WaterError::OutOfRange {
            name: "impulse position (m)",
            value: as_written(position.abs().max_element()),
            range: "within what f32 holds in cells (position / cell_size)",
        });
    }
    if !radius.is_finite() {
        return Err(WaterError::NotFinite {
            name: "impulse radius (m)",
            value: as_written(radius),
        });
    }
    if shape != ImpulseShape::Point && radius <= 0.0 {
        return Err(WaterError::NotPositive {
            name: "impulse radius (m)",
            value: as_written(radius),
        });
    }
    if f64::from(radius) / f64::from(cell) > water_core::MAX_IMPULSE_RADIUS {
        return Err(WaterError::OutOfRange {
            name: "impulse radius (m)",
            value: as_written(radius),
            range: "at most 1e6 cells (1e6 times cell_size)",
        });
    }
    Ok(())
}

/// `x` as the f64 its shortest decimal is (1e38, not the 9.999999680285692e37 `f64::from`
/// gives): the number the caller wrote, in a message.
fn as_written(x: f32) -> f64 {
    x.to_string().parse().unwrap_or(f64::from(x))
}
