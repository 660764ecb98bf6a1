//! [`SphereScene`]: sphere water on any backend with floating bodies coupled both ways, stepped
//! on a fixed clock: [`crate::Scene`]'s frame loop on a planet.
//!
//! Each step, in this order (as the grid's scene):
//! 1. clicks queued with [`SphereScene::add_impulse`] land on the current water;
//! 2. every body reads the current water (heights along the radius, [`water_sphere`]'s
//!    [`water_core::HeightSource`]) and moves one step under gravity toward the centre,
//!    buoyancy, drag and the force and torque its caller set; a kinematic body is only
//!    measured;
//! 3. the bodies' hulls are drawn into the per-vertex contact masks
//!    ([`water_buoyancy::rasterise_sphere_mask`]);
//! 4. the water steps, the masks' bow and stern events making the bodies' wakes
//!    ([`SphereContacts`]).
//!
//! Positions are the sphere's own frame: its centre at the origin, metres. On a GPU backend a
//! step with bodies reads the whole sphere's heights back (4 bytes a vertex) and waits for
//! them; the grid scene's patches and one-step-late reads are not on the sphere.

use glam::Vec3;
use rayon::prelude::*;
use water_buoyancy::{
    BodyState, BuoyancyError, FloatingBody, Gravity, SphereContacts, Wrench, STANDARD_GRAVITY,
};
use water_core::{FixedStepClock, FrameSteps, WaterError};
use water_gpu::GpuContext;
use water_sphere::{SphereImpulse, SphereStepper, SphereWater};

use crate::backend::Backend;
use crate::body::{check_force_torque, BodyId, BodySpec, BodyView, SceneBody};
use crate::body_set::BodySet;
use crate::error::SceneError;
use crate::scene::DEFAULT_CONTACT_AMPLITUDE;
use crate::trajectory::{TrajectoryRow, TrajectorySink};
use crate::up_axis::UpAxis;
use crate::water::{BackendSphere, Water};

/// How a sphere scene is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereSceneSettings {
    /// Where the water steps.
    pub backend: Backend,
    /// The step, seconds: the one the water's stepper was built for (its `c dt / h`; a
    /// Laplace-Beltrami stepper's own `dt`, checked), which the bodies take too.
    pub dt: f64,
    /// Gravity toward the sphere's centre, m/s^2.
    pub gravity: f32,
    /// The bow and stern wave amplitude, m per m/s of a body's speed along the surface.
    pub contact_amplitude: f32,
}

impl SphereSceneSettings {
    /// On the CPU, standard gravity, the grid scene's contact amplitude, and the step `dt`
    /// (seconds).
    #[must_use]
    pub fn new(dt: f64) -> Self {
        Self {
            backend: Backend::Cpu,
            dt,
            gravity: STANDARD_GRAVITY,
            contact_amplitude: DEFAULT_CONTACT_AMPLITUDE,
        }
    }
}

/// Sphere water and the bodies floating on it.
///
/// ```
/// use glam::{Quat, Vec3};
/// use water_buoyancy::{box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY};
/// use water_core::Damping;
/// use water_sphere::{Icosphere, SphereStepper, SphereWater};
/// use water_scene::{BodySpec, SphereScene, SphereSceneSettings};
///
/// // A planet of water 100 m in radius.
/// let stepper = SphereStepper::LaplaceBeltrami { wave_speed: 2.0, dt: 0.02 };
/// let water = SphereWater::new(Icosphere::new(5, 100.0)?, stepper, Damping::PerSecond(0.9))?;
/// let mut scene = SphereScene::new(water, SphereSceneSettings::new(0.02), None)?;
///
/// // A 40 kg crate, 0.6 m x 0.6 m x 0.3 m, dropped on the north pole from 5 cm above its draft.
/// let shape = Shape::cuboid(Vec3::new(0.3, 0.3, 0.15))?;
/// let draft = box_draft(40.0, FRESH_WATER_DENSITY, 0.36);
/// let pose = Pose::new(Vec3::new(0.0, 0.0, 100.0 + 0.15 - draft + 0.05), Quat::IDENTITY)?;
/// let body = RigidBody::from_shape(&shape, 40.0, BodyState::at_rest(pose))?;
/// let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
/// let crate_ = scene.add_body(BodySpec::new(
///     "crate",
///     FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)?,
/// ))?;
/// for _frame in 0..600 {
///     scene.advance(1.0 / 60.0)?; // as many fixed steps as the frame's time holds
/// }
/// let height = scene.body(crate_)?.position.length() - 100.0;
/// assert!((height - (0.15 - draft)).abs() < 1e-3, "settled at its draft");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SphereScene {
    water: BackendSphere,
    settings: SphereSceneSettings,
    gravity: Gravity,
    bodies: BodySet,
    contacts: SphereContacts,
    /// This step's mask, reused.
    mask: Vec<f32>,
    clock: FixedStepClock,
    step: u64,
    pending_clicks: Vec<SphereImpulse>,
    /// A body was removed since the masks were last drawn: the next step draws them (even with
    /// no bodies left) so that its cut leaves the water as stern events.
    masks_hold_removed: bool,
}

impl SphereScene {
    /// `water` (its mesh, stepper and state) on `settings.backend`, no bodies yet; GPU backends
    /// run on `gpu`.
    ///
    /// # Errors
    /// [`WaterError::OutOfRange`] naming a step, gravity or contact amplitude that is not
    /// finite and positive (the amplitude may be 0); [`SceneError::SphereStep`] for a step
    /// other than a Laplace-Beltrami stepper's own; [`SceneError::NoGpu`] for a GPU backend
    /// without a context; what the GPU backend refuses.
    pub fn new(
        water: SphereWater,
        settings: SphereSceneSettings,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        let out_of_range = |name, value: f32, range| WaterError::OutOfRange {
            name,
            value: f64::from(value),
            range,
        };
        let amplitude = settings.contact_amplitude;
        if !(0.0..=water_core::MAX_CONTACT_AMPLITUDE).contains(&amplitude) {
            return Err(out_of_range("contact amplitude", amplitude, "[0, 1e5] m per m/s").into());
        }
        let g = settings.gravity;
        if !(g.is_finite() && g > 0.0) {
            return Err(out_of_range("gravity", g, "above 0 and finite, m/s^2").into());
        }
        let clock = FixedStepClock::new(settings.dt)?;
        if let SphereStepper::LaplaceBeltrami { dt, .. } = water.stepper() {
            if dt != settings.dt {
                return Err(SceneError::SphereStep {
                    scene: settings.dt,
                    stepper: dt,
                });
            }
        }
        let vertices = water.heights().len();
        let contacts = SphereContacts::new(vertices, amplitude)
            .map_err(|_| out_of_range("contact amplitude", amplitude, "[0, 1e5] m per m/s"))?;
        Ok(Self {
            water: BackendSphere::new(water, settings.backend, gpu)?,
            settings,
            gravity: Gravity::Radial {
                centre: Vec3::ZERO,
                acceleration: g,
            },
            bodies: BodySet::default(),
            contacts,
            mask: vec![0.0; vertices],
            clock,
            step: 0,
            pending_clicks: Vec::new(),
            masks_hold_removed: false,
        })
    }

    /// How the scene was set up.
    #[must_use]
    pub fn settings(&self) -> &SphereSceneSettings {
        &self.settings
    }

    /// The water (its mesh, and the GPU water for the renderers).
    #[must_use]
    pub fn water(&self) -> &BackendSphere {
        &self.water
    }

    /// Current heights per vertex along the radius, m (a readback that waits on the GPU).
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn heights(&self) -> Result<Vec<f32>, SceneError> {
        self.water.heights()
    }

    /// Steps taken.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        self.step
    }

    /// Simulated time, seconds.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.step as f64 * self.settings.dt
    }

    /// Queues a click: it lands on the water just before the next step.
    pub fn add_impulse(&mut self, click: SphereImpulse) {
        self.pending_clicks.push(click);
    }

    /// Adds a floating body, posed in the sphere's frame. A body already resting in the water
    /// does not splash when the scene goes on: its mask is in both time levels. A body removed
    /// since the last step still leaves as stern events at the next one. Bodies are not
    /// collided with each other.
    ///
    /// # Errors
    /// [`SceneError::SphereTowPath`] for a body with a tow path; [`SceneError::NotFinite`] for
    /// a force or torque; [`SceneError::BodySetup`] for a body whose hulls cannot be drawn.
    pub fn add_body(&mut self, spec: BodySpec) -> Result<BodyId, SceneError> {
        if spec.path.is_some() {
            return Err(SceneError::SphereTowPath { name: spec.name });
        }
        check_force_torque(&spec.name, spec.force, spec.torque)?;
        spec.body
            .rasterise_sphere_mask(self.water.host().sphere(), &mut self.mask)
            .map_err(|source| SceneError::BodySetup {
                name: spec.name.clone(),
                source,
            })?;
        let id = self
            .bodies
            .insert(|id| SceneBody::new(id, spec.name, spec.body, spec.force, spec.torque))?;
        // Twice: the new body is in C_new and C_old alike, so no entry event fires. A body
        // removed since the last step stays in both (its cut is the current C_new's), so the
        // next step, which draws the masks without it, still sees it leave.
        let removed = self
            .masks_hold_removed
            .then(|| self.contacts.new_mask().to_vec());
        self.draw_masks()?;
        if let Some(removed) = removed {
            for (m, r) in self.mask.iter_mut().zip(removed) {
                *m = m.max(r);
            }
        }
        for _ in 0..2 {
            self.advance_masks()?;
        }
        Ok(id)
    }

    /// Takes a body out and gives it back. Its cut leaves the water as stern events at the next
    /// step; every other body keeps its id, and `id` is refused from now on.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn remove_body(&mut self, id: BodyId) -> Result<BodySpec, SceneError> {
        let (_, b) = self.bodies.remove(id)?;
        self.masks_hold_removed = true;
        Ok(BodySpec {
            name: b.name,
            body: b.body,
            path: None,
            force: b.force,
            torque: b.torque,
        })
    }

    /// Number of bodies.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    /// The ids of every body, in the order they were added (a copy).
    pub fn body_ids(&self) -> impl Iterator<Item = BodyId> + use<> {
        self.bodies.ids()
    }

    /// A body's state.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn body(&self, id: BodyId) -> Result<BodyView<'_>, SceneError> {
        // The sphere's frame is the water's: nothing to turn.
        Ok(self.bodies.get(id)?.view(UpAxis::Z))
    }

    /// The floating body itself (its hulls, model, mass and state).
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn floating_body(&self, id: BodyId) -> Result<&FloatingBody, SceneError> {
        Ok(&self.bodies.get(id)?.body)
    }

    /// Sets the force (N, at the centre of mass) and torque (N m) applied to a body at every
    /// step from now on.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`]; [`SceneError::NotFinite`].
    pub fn set_force(&mut self, id: BodyId, force: Vec3, torque: Vec3) -> Result<(), SceneError> {
        let b = self.bodies.get_mut(id)?;
        check_force_torque(&b.name, force, torque)?;
        (b.force, b.torque) = (force, torque);
        Ok(())
    }

    /// Puts a body in `state`, for a physics engine that integrates it
    /// ([`SphereScene::set_kinematic`]).
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`]; [`SceneError::BodySetup`] for
    /// a state that is not finite or whose orientation is not a unit quaternion.
    pub fn set_body_state(&mut self, id: BodyId, state: &BodyState) -> Result<(), SceneError> {
        let b = self.bodies.get_mut(id)?;
        state.validate().map_err(|source| SceneError::BodySetup {
            name: b.name.clone(),
            source,
        })?;
        b.body.body.state = *state;
        Ok(())
    }

    /// Makes a body kinematic (`true`: the scene measures the water's wrench on it where its
    /// engine put it and draws its wake, and does not move it) or dynamic again.
    ///
    /// # Errors
    /// [`SceneError::UnknownBody`], [`SceneError::RemovedBody`].
    pub fn set_kinematic(&mut self, id: BodyId, kinematic: bool) -> Result<(), SceneError> {
        self.bodies.get_mut(id)?.kinematic = kinematic;
        Ok(())
    }

    /// Runs as many fixed steps as `frame_seconds` of real time hold (the clock carries the
    /// remainder to the next frame, at most [`water_core::DEFAULT_MAX_STEPS_PER_FRAME`] steps
    /// a frame, the rest of a long frame's time dropped and reported).
    ///
    /// # Errors
    /// A bad frame time; as [`SphereScene::step`].
    pub fn advance(&mut self, frame_seconds: f64) -> Result<FrameSteps, SceneError> {
        let frame = self.clock.advance(frame_seconds)?;
        self.step_many(u64::from(frame.steps))?;
        Ok(frame)
    }

    /// One step (see the module docs for its order).
    ///
    /// # Errors
    /// [`SceneError::Body`] naming the body, the step and the cause; GPU failures.
    pub fn step(&mut self) -> Result<(), SceneError> {
        self.step_many(1)
    }

    /// `steps` steps; without bodies, one multi-step run.
    ///
    /// # Errors
    /// As [`SphereScene::step`].
    pub fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        if steps == 0 {
            return Ok(());
        }
        for click in std::mem::take(&mut self.pending_clicks) {
            self.water.add_impulse(&click)?;
        }
        let mut left = steps;
        while left > 0 && (!self.bodies.is_empty() || self.masks_hold_removed) {
            self.move_bodies()?;
            self.redraw_masks()?;
            self.masks_hold_removed = false;
            self.water.step_with_contacts(&self.contacts)?;
            self.step += 1;
            left -= 1;
        }
        if left > 0 {
            self.water.step_many(left)?;
            self.step += left;
        }
        Ok(())
    }

    /// Writes one row per body (its state now) into `sink`.
    ///
    /// # Errors
    /// The sink's failure.
    pub fn record(&self, sink: &mut dyn TrajectorySink) -> Result<(), SceneError> {
        for b in self.bodies.as_slice() {
            let s = &b.body.body.state;
            sink.record(&TrajectoryRow {
                step: self.step,
                time: self.time(),
                body: &b.name,
                position: s.pose.position,
                orientation: s.pose.orientation,
                velocity: s.linear_velocity,
                submerged_volume: b.last.map(|l| l.submerged_volume),
            })?;
        }
        Ok(())
    }

    /// Moves every body one step on the current water (in parallel; kinematic ones measured
    /// where they stand).
    fn move_bodies(&mut self) -> Result<(), SceneError> {
        if self.bodies.is_empty() {
            // A step that only draws a removed body out: nothing to read the water for.
            return Ok(());
        }
        let (dt, step, gravity) = (self.settings.dt as f32, self.step, self.gravity);
        let bodies = self.bodies.as_mut_slice();
        let outcomes: Vec<_> = self.water.with_heights(|water| {
            bodies
                .par_iter_mut()
                .map(|b| {
                    let extra = Wrench {
                        force: b.force,
                        torque: b.torque,
                    };
                    let outcome = if b.kinematic {
                        b.body.measure(water, &gravity)
                    } else {
                        b.body.step(water, &gravity, dt, extra)
                    };
                    outcome.map_err(|source| SceneError::body(&b.name, step, source))
                })
                .collect()
        })?;
        for (b, outcome) in self.bodies.as_mut_slice().iter_mut().zip(outcomes) {
            b.last = Some(outcome?);
            b.water_step = Some(step);
        }
        Ok(())
    }

    /// Draws every body's hulls into this step's mask and makes it the contacts' `C_new`.
    fn redraw_masks(&mut self) -> Result<(), SceneError> {
        self.draw_masks()?;
        self.advance_masks()
    }

    /// Draws every body's hulls into the mask.
    fn draw_masks(&mut self) -> Result<(), SceneError> {
        self.mask.fill(0.0);
        let sphere = self.water.host().sphere();
        for b in self.bodies.as_slice() {
            b.body
                .rasterise_sphere_mask(sphere, &mut self.mask)
                .map_err(|source| SceneError::body(&b.name, self.step, source))?;
        }
        Ok(())
    }

    /// Makes the mask the contacts' `C_new` (the old `C_new` their `C_old`).
    fn advance_masks(&mut self) -> Result<(), SceneError> {
        let expected = self.contacts.new_mask().len();
        self.contacts.advance(&self.mask).map_err(|e| match e {
            BuoyancyError::Water(e) => SceneError::Water(e),
            _ => SceneError::VertexCount {
                what: "contact masks",
                expected,
                actual: self.mask.len(),
            },
        })
    }
}
