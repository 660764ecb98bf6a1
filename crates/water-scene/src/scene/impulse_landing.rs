//! The queued impulses landing on the grid and its cascades, and a count of those that found no
//! cell to land on.

use water_core::Impulse;

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
