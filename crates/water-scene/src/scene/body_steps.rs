//! Each step's bodies: every body moved on the water it reads, in parallel, all or nothing.

use rayon::prelude::*;
use water_buoyancy::{BodyStep, Wrench};
use water_core::ocean::SeaWithWater;
use water_core::HeightSource;

use super::{nested_water, PlacedWater, Scene};
use crate::error::SceneError;
use crate::event::SceneEvent;
use crate::water::WaterGrid;

impl Scene {
    /// Moves every body one step on the current water (in parallel), towed bodies held to
    /// their paths inside the step, and raises the edge events.
    /// All or nothing: where one body fails, every body is put back as it was ([`Scene::step`]).
    pub(super) fn move_bodies(&mut self, impulses_landed: bool) -> Result<(), SceneError> {
        let step = self.step;
        let before: Vec<_> = self
            .bodies
            .as_slice()
            .iter()
            .map(|b| b.body.body.state)
            .collect();
        let mut outcomes = self.body_outcomes(false, impulses_landed)?;
        if let Some(failed) = outcomes.iter().position(Result::is_err) {
            for (b, state) in self.bodies.as_mut_slice().iter_mut().zip(before) {
                b.body.body.state = state;
            }
            return outcomes.swap_remove(failed).map(|_| ());
        }
        for (b, outcome) in self.bodies.as_mut_slice().iter_mut().zip(outcomes) {
            let Some((outcome, water_step)) = outcome? else {
                continue;
            };
            b.water_step = Some(water_step);
            let was_off = b.last.is_some_and(|l| l.off_water);
            if outcome.off_water != was_off {
                self.events.push(if outcome.off_water {
                    SceneEvent::LeftWater { body: b.id, step }
                } else {
                    SceneEvent::ReturnedToWater { body: b.id, step }
                });
            }
            b.last = Some(outcome);
        }
        Ok(())
    }

    /// Each body's step (in parallel) on the water [`SceneSettings::body_water`] names, with
    /// the step count of that water: dynamic bodies move, kinematic ones are measured where
    /// they stand. With `kinematic_only`, dynamic bodies are left alone (`None`) and nothing
    /// is taken off the queue of patches.
    #[allow(clippy::type_complexity)]
    pub(super) fn body_outcomes(
        &mut self,
        kinematic_only: bool,
        impulses_landed: bool,
    ) -> Result<Vec<Result<Option<(BodyStep, u64)>, SceneError>>, SceneError> {
        if self.bodies.is_empty() {
            return Ok(Vec::new());
        }
        let patches = self.patches_for_bodies(!kinematic_only, impulses_landed)?;
        let water_step = patches.as_ref().map_or(self.step, |p| p.patches.step());
        let origin = self.grid_origin();
        let dt = self.spec.params.dt() as f32;
        let step = self.step;
        let gravity = self.settings.gravity;
        let cell_size = self.cell_size();
        let bodies = self.bodies.as_mut_slice();
        let sea_dt = self.spec.params.dt();
        // The sea at the step of the water the bodies read, so both parts are of one moment.
        let sea = self.ocean.as_mut().map(|o| o.frame_at(water_step, sea_dt));
        let one = |b: &mut crate::body::SceneBody, view: &(dyn HeightSource + Sync)| {
            let extra = Wrench {
                force: b.force,
                torque: b.torque,
            };
            if kinematic_only && !b.kinematic {
                return Ok(None);
            }
            // A towed body's path holds its horizontal motion and heading inside the step (a
            // constraint of the step; heave, roll and pitch stay free), landing it where the
            // path is at the step's end. One off its path (added late, moved by the caller) is
            // put on it first, not pulled there at whatever speed that takes.
            let tow = match (&b.path, b.kinematic) {
                (Some(path), false) => {
                    let (on_path, tow) = path.tow(b.heading_offset, step as f64 * sea_dt, dt)?;
                    let position = &mut b.body.body.state.pose.position;
                    (position.x, position.y) = (on_path.x, on_path.y);
                    Some(tow)
                }
                _ => None,
            };
            let moved = match (sea, b.kinematic) {
                (Some(sea), false) => {
                    let water = SeaWithWater::new(sea, view);
                    match tow {
                        Some(tow) => b.body.step_towed(&water, &gravity, dt, extra, tow),
                        None => b.body.step(&water, &gravity, dt, extra),
                    }
                }
                (None, false) => match tow {
                    Some(tow) => b.body.step_towed(view, &gravity, dt, extra, tow),
                    None => b.body.step(view, &gravity, dt, extra),
                },
                // A physics engine integrates it: measured where it stands.
                (Some(sea), true) => b.body.measure(&SeaWithWater::new(sea, view), &gravity),
                (None, true) => b.body.measure(view, &gravity),
            };
            moved
                .map(|m| Some((m, water_step)))
                .map_err(|source| SceneError::body(&b.name, step, source))
        };
        let outcomes = match &patches {
            Some(p) => bodies
                .par_iter_mut()
                .enumerate()
                .map(|(i, b)| one(b, &PlacedWater::new(&p.patches.view(i), p.origin)))
                .collect(),
            // With cascades, the bodies read them all (CPU signed grids read in place, GPU
            // grids read back).
            None if self.cascades.is_some() => {
                let cascades = self.cascades.as_ref().expect("matched");
                let heights = nested_water::CascadeHeights::read(
                    (&self.water, &self.spec, origin),
                    cascades,
                )?;
                let nested = heights.nested()?;
                bodies.par_iter_mut().map(|b| one(b, &nested)).collect()
            }
            None => {
                let view = self.water.heights_view(cell_size, &mut self.heights)?;
                let placed = PlacedWater::new(&view, origin);
                bodies.par_iter_mut().map(|b| one(b, &placed)).collect()
            }
        };
        if let Some(p) = patches {
            self.return_patches(p);
        }
        Ok(outcomes)
    }
}
