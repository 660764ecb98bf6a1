//! The scene's bodies: adding and removing them under generational ids, reading their state in
//! the caller's frame, and the forces and states a caller or a physics engine sets.

use glam::Vec3;
use water_buoyancy::{BodyState, BuoyancyError, FloatingBody};
use water_core::GridMode;
use water_gpu::HullMesh;

use super::{Masks, Scene};
use crate::body::{check_force_torque, BodyId, BodySpec, BodyView, SceneBody};
use crate::error::SceneError;

impl Scene {
    /// Adds a floating body, posed in the caller's frame. A body already resting in the water
    /// does not splash when the scene goes on: its mask is in both time levels.
    ///
    /// The scene does not collide bodies with each other or with land: hulls may pass through
    /// one another, each floating on the water as if alone (their cuts drawn into the same
    /// masks); a physics engine that owns the poses ([`Scene::set_body_state`]) keeps them apart.
    ///
    /// # Errors
    /// [`SceneError::ClassicBodies`] on a classic grid; [`SceneError::BodySetup`] for a body
    /// whose pose or hulls cannot be drawn; GPU failures uploading its meshes; a failure
    /// drawing the masks with it (it is not added then: [`Scene::add_bodies`]).
    pub fn add_body(&mut self, spec: BodySpec) -> Result<BodyId, SceneError> {
        let mut added = self.add_bodies([spec])?;
        added.pop().expect("one answer for one body")
    }

    /// Adds several bodies as [`Scene::add_body`] adds each, settling the masks once for all of
    /// them: adding N bodies one by one redraws every body's mask at each (N² draws), this
    /// draws them once. Each spec is added or refused on its own, as [`Scene::add_body`] would
    /// (a refused one is left out, the others added): its id or its refusal comes back in the
    /// specs' order.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_buoyancy::{BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY};
    /// use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
    /// use water_scene::{BodySpec, GridSpec, Scene, SceneSettings};
    ///
    /// let params = WaveParams::new(0.1, 1.0, 0.02, Damping::PerSecond(0.9))?;
    /// let spec = GridSpec::new(GridSize::new(64, 64)?, params, Boundary::Absorbing, GridMode::Signed);
    /// let mut scene = Scene::new(spec, LandMask::empty(spec.size), SceneSettings::default(), None)?;
    ///
    /// // A row of ten 40 kg crates, 0.6 m x 0.6 m x 0.3 m.
    /// let shape = Shape::cuboid(Vec3::new(0.3, 0.3, 0.15))?;
    /// let crates = (0..10)
    ///     .map(|i| {
    ///         let at = Vec3::new(0.6 + 0.6 * i as f32, 3.2, 0.1);
    ///         let body = RigidBody::from_shape(&shape, 40.0, BodyState::at_rest(Pose::from_position(at)?))?;
    ///         let hulls = vec![Hull::new(shape.clone(), Pose::IDENTITY)?];
    ///         let floating = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)?;
    ///         Ok(BodySpec::new(format!("crate {i}"), floating))
    ///     })
    ///     .collect::<Result<Vec<_>, water_buoyancy::BuoyancyError>>()?;
    /// // The ids, or the first crate refused (the others are added all the same).
    /// let ids = scene.add_bodies(crates)?.into_iter().collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(scene.body(ids[9])?.name, "crate 9");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Each body's own, in its place: as [`Scene::add_body`]. The outer error is the masks'
    /// drawing, which takes the new bodies together: a GPU failure, more hulls than masks drawn
    /// on the GPU hold, a body the CPU's drawing refuses. Then none of them is added (those
    /// taken are taken out again, their ids never used), and the masks are settled on the
    /// bodies the scene held.
    pub fn add_bodies(
        &mut self,
        specs: impl IntoIterator<Item = BodySpec>,
    ) -> Result<Vec<Result<BodyId, SceneError>>, SceneError> {
        let added: Vec<_> = specs
            .into_iter()
            .map(|spec| self.insert_body(spec))
            .collect();
        if !added.iter().any(Result::is_ok) {
            return Ok(added);
        }
        if let Err(e) = self.settle_after_adding() {
            // Last in, first out: each is the last body, so no other moves.
            for id in added.iter().rev().filter_map(|a| a.as_ref().ok()) {
                let (index, _) = self.bodies.remove(*id)?;
                if let Masks::Gpu { meshes, .. } = &mut self.masks {
                    meshes.remove(index);
                }
            }
            // What the scene held drew before; the first failure is the one to report.
            let _ = self.settle_after_adding();
            return Err(e);
        }
        Ok(added)
    }

    /// The new bodies are in C_new and C_old alike, so no entry event fires; the cascades do
    /// the same when they next draw.
    fn settle_after_adding(&mut self) -> Result<(), SceneError> {
        self.settle_masks()?;
        if let Some(cascades) = &mut self.cascades {
            for level in &mut cascades.levels {
                level.settle = true;
            }
        }
        Ok(())
    }

    /// Adds a body to the scene's list (and its meshes to the GPU) without settling the masks.
    /// Everything that can refuse it runs before anything is kept: a refused body leaves no
    /// meshes behind (they would be drawn for the next body added).
    fn insert_body(&mut self, spec: BodySpec) -> Result<BodyId, SceneError> {
        if self.spec.mode == GridMode::Classic {
            return Err(SceneError::ClassicBodies);
        }
        let up = self.settings.up;
        let body = with_state_converted(spec.body, &spec.name, |s| up.state_to_water(s))?;
        check_force_torque(&spec.name, spec.force, spec.torque)?;
        let hull_meshes = match &self.masks {
            Masks::Gpu { device, .. } => Some(
                body.hulls
                    .iter()
                    .map(|h| {
                        let surface = h.surface();
                        HullMesh::new(device, &surface.vertices, &surface.triangles)
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Masks::Cpu { .. } => None,
        };
        let path = spec.path.map(|p| p.mapped(|v| up.horizontal_to_water(v)));
        // How it is turned against the leg its path is on now (0 for a body whose x axis
        // stands vertical: it has no heading).
        let x = body.body.state.pose.orientation * Vec3::X;
        let heading_offset = match &path {
            Some(p) if x.truncate().length_squared() > 1e-6 => {
                x.y.atan2(x.x) - p.heading_at(self.time())
            }
            _ => 0.0,
        };
        let (force, torque) = (up.to_water(spec.force), up.to_water(spec.torque));
        let id = self.bodies.insert(|id| SceneBody {
            path,
            heading_offset,
            ..SceneBody::new(id, spec.name, body, force, torque)
        })?;
        if let (Some(hull_meshes), Masks::Gpu { meshes, .. }) = (hull_meshes, &mut self.masks) {
            meshes.push(hull_meshes);
        }
        Ok(id)
    }

    /// Takes a body out of the scene and gives it back (in the caller's frame), with its tow
    /// path and forces. Its mask leaves with it, so the water where it floated sees it go (a
    /// stern event over its cut at the next step, as when a body is lifted out; with masks
    /// drawn on the CPU also when another body is added before that step, while masks drawn on
    /// the GPU then lose it). Every other body keeps its id;
    /// `id` is refused from now on ([`SceneError::RemovedBody`]), even once a later body
    /// reuses its slot.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn remove_body(&mut self, id: BodyId) -> Result<BodySpec, SceneError> {
        let (index, b) = self.bodies.remove(id)?;
        if let Masks::Gpu { meshes, .. } = &mut self.masks {
            meshes.remove(index);
        }
        // The next step draws the masks without it: its cut is then in C_old alone.
        self.masks_hold_removed = true;
        let up = self.settings.up;
        let body = with_state_converted(b.body, &b.name, |s| up.state_from_water(s))?;
        Ok(BodySpec {
            name: b.name,
            body,
            path: b.path.map(|p| p.mapped(|v| up.horizontal_from_water(v))),
            force: up.from_water(b.force),
            torque: up.from_water(b.torque),
        })
    }

    /// Number of bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// The ids of every body, in the order they were added: a copy, so the scene can be changed
    /// while going through them (`for id in scene.body_ids() { scene.set_force(id, ..)?; }`).
    pub fn body_ids(&self) -> impl Iterator<Item = BodyId> + use<> {
        self.bodies.ids()
    }

    fn get_mut(&mut self, id: BodyId) -> Result<&mut SceneBody, SceneError> {
        self.bodies.get_mut(id)
    }

    fn get(&self, id: BodyId) -> Result<&SceneBody, SceneError> {
        self.bodies.get(id)
    }

    /// A body's state in the caller's frame.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn body(&self, id: BodyId) -> Result<BodyView<'_>, SceneError> {
        Ok(self.get(id)?.view(self.settings.up))
    }

    /// The floating body itself, in the water's z-up frame (its hulls, model, mass).
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn floating_body(&self, id: BodyId) -> Result<&FloatingBody, SceneError> {
        Ok(&self.get(id)?.body)
    }

    /// Sets the force (N, at the centre of mass) and torque (N m) applied to a body at every step
    /// from now on, in the caller's frame: a motor, a rudder, a player's push. Gravity, buoyancy
    /// and drag come on top. Zero both to stop.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`]; [`SceneError::NotFinite`] for a non-finite vector.
    pub fn set_force(&mut self, id: BodyId, force: Vec3, torque: Vec3) -> Result<(), SceneError> {
        let up = self.settings.up;
        let b = self.get_mut(id)?;
        check_force_torque(&b.name, force, torque)?;
        b.force = up.to_water(force);
        b.torque = up.to_water(torque);
        Ok(())
    }

    /// Puts a body in `state` (pose and velocities in the caller's frame), for a physics engine
    /// that integrates the body itself: the scene then draws its hull into the contact masks
    /// where the engine put it (its wake), and the engine applies the water's force.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`]; [`SceneError::BodySetup`] for a state that is not finite or
    /// whose orientation is not a unit quaternion.
    pub fn set_body_state(&mut self, id: BodyId, state: &BodyState) -> Result<(), SceneError> {
        let up = self.settings.up;
        let b = self.get_mut(id)?;
        b.body.body.state = up
            .state_to_water(state)
            .and_then(|s| s.validate().map(|()| s))
            .map_err(|source| SceneError::BodySetup {
                name: b.name.clone(),
                source,
            })?;
        Ok(())
    }

    /// Makes a body kinematic (`true`) or dynamic again (`false`). A kinematic body's pose
    /// belongs to a physics engine: each step the scene measures the water's force and torque
    /// on it where the engine put it ([`Scene::set_body_state`]) and reports them in
    /// [`BodyView::water_force`] and [`BodyView::water_torque`] for the engine to apply, draws
    /// its wake, and neither moves it nor tows it (so its motion is integrated once, by the
    /// engine). The force and torque set with [`Scene::set_force`] are the engine's to apply.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn set_kinematic(&mut self, id: BodyId, kinematic: bool) -> Result<(), SceneError> {
        self.get_mut(id)?.kinematic = kinematic;
        Ok(())
    }
}

/// `body` with its state carried between the caller's frame and the water's by `convert`, a
/// failure named after the body.
fn with_state_converted(
    mut body: FloatingBody,
    name: &str,
    convert: impl FnOnce(&BodyState) -> Result<BodyState, BuoyancyError>,
) -> Result<FloatingBody, SceneError> {
    body.body.state = convert(&body.body.state).map_err(|source| SceneError::BodySetup {
        name: name.to_owned(),
        source,
    })?;
    Ok(body)
}
