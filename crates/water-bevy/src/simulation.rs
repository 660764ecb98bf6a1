//! [`WaterSimulation`]: the `water_scene::Scene` behind a [`Water`] entity, and the systems that
//! build it, add and remove floating bodies, push them, step it on the fixed clock and write the
//! bodies' transforms back.

use std::sync::Arc;

use bevy::prelude::*;
use water_scene::water_buoyancy::Pose;
use water_scene::water_core::ocean::{AmbientSea, SeaFrame};
use water_scene::water_core::HeightView;
use water_scene::{
    BackendGrid, BodyId, Scene, SceneError, SceneSettings, UpAxis, Water as _, WaterGrid as _,
};

use crate::error::WaterBevyError;
use crate::floating::{Floating, FloatingForce, FloatingMotion, IntegratedElsewhere};
use crate::gpu::{bevy_gpu, GpuHeights};
use crate::placement::WaterPlacement;
use crate::water::Water;
use bevy::render::renderer::{RenderAdapter, RenderDevice, RenderQueue};
use water_scene::water_gpu::{GpuContext, GpuError};

/// The simulation of a [`Water`] entity, inserted on it by the plugin: the scene (y-up) and
/// where it lies in the world.
#[derive(Component, Debug)]
pub struct WaterSimulation {
    scene: Scene,
    placement: WaterPlacement,
    /// Each floating entity's body id in the scene.
    bodies: bevy::platform::collections::HashMap<Entity, BodyId>,
    /// Gameplay heights read back from a GPU backend; `None` on the CPU.
    gpu_heights: Option<GpuHeights>,
    /// Water steps the last fixed tick ran.
    last_tick_steps: u32,
    /// With an ambient sea: the sea at the step gameplay sees ([`WaterSimulation::gameplay_step`]),
    /// refreshed after the frame's fixed steps.
    gameplay_sea: Option<Arc<SeaFrame>>,
}

impl WaterSimulation {
    /// The simulation of `water` centred at `centre`; GPU backends run on `gpu` (the plugin
    /// passes Bevy's render device and queue).
    ///
    /// # Errors
    /// [`WaterBevyError`] naming the refused setting; [`WaterBevyError::NoGpu`] for a GPU
    /// backend without `gpu`.
    pub fn new(
        entity: Entity,
        water: &Water,
        centre: Vec3,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, WaterBevyError> {
        let settings_error = |source| WaterBevyError::Settings { entity, source };
        let spec = water.grid_spec().map_err(settings_error)?;
        let land = water.land_mask(spec.size).map_err(settings_error)?;
        let gpu = match (water.backend.gpu(), gpu) {
            (None, _) => None,
            (Some(_), Some(gpu)) => Some(gpu),
            (Some(_), None) => {
                return Err(WaterBevyError::NoGpu {
                    backend: water.backend,
                })
            }
        };
        let settings = SceneSettings {
            backend: water.backend,
            up: UpAxis::Y,
            contact_amplitude: water.effective_contact_amplitude(),
            contact_source: water.contact_source,
            body_water: water.body_water,
            ..SceneSettings::default()
        };
        let sea = water
            .ocean
            .map(|ocean| AmbientSea::new(&ocean, f64::from(water.cell_size)))
            .transpose()
            .map_err(settings_error)?;
        let mut scene = Scene::new(spec, land, settings, gpu)
            .map_err(|source| WaterBevyError::Scene { entity, source })?;
        scene.set_ocean(sea);
        scene
            .set_foam(water.foam)
            .map_err(|source| WaterBevyError::Scene { entity, source })?;
        let mut simulation = Self {
            scene,
            placement: WaterPlacement::centred(centre, water.cell_size, water.width, water.height),
            bodies: Default::default(),
            gpu_heights: gpu.map(|gpu| {
                let (device, queue) = (gpu.device.clone(), gpu.queue.clone());
                GpuHeights::new(device, queue, spec.size, spec.params.cell_size() as f32)
            }),
            last_tick_steps: 0,
            gameplay_sea: None,
        };
        simulation.refresh_gameplay_sea();
        Ok(simulation)
    }

    /// The scene (y-up, its grid's corner at the origin: see [`WaterPlacement`]).
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene, mutable: for what the plugin does not wrap.
    pub fn scene_mut(&mut self) -> &mut Scene {
        &mut self.scene
    }

    /// Where the water lay in the world when it was made: the frame of its scene (world points
    /// go in and out of the scene through it), and of its land.
    #[must_use]
    pub fn placement(&self) -> WaterPlacement {
        self.placement
    }

    /// Where the grid lies in the world now: [`WaterSimulation::placement`] moved by the grid's
    /// whole-cell shifts ([`crate::WaterFocus`]).
    #[must_use]
    pub fn window_placement(&self) -> WaterPlacement {
        WaterPlacement {
            corner: self.placement.corner + self.window_offset(self.scene.window_origin()),
            ..self.placement
        }
    }

    /// The world offset of a grid whose corner is at `origin` (the water's z-up frame, m):
    /// along x, and along -z for the rows.
    fn window_offset(&self, origin: bevy::math::DVec2) -> Vec3 {
        let o = origin.as_vec2();
        Vec3::new(o.x, 0.0, -o.y)
    }

    /// Where the grid's corner was (the water's z-up frame, metres: x, and y along the rows)
    /// in the heights [`WaterSimulation::with_gameplay_heights`] shows, or `None` before a GPU
    /// backend's first readback.
    #[must_use]
    pub fn gameplay_origin(&self) -> Option<Vec2> {
        match &self.gpu_heights {
            Some(gpu) => gpu.origin(),
            None => Some(self.scene.window_origin().as_vec2()),
        }
    }

    /// Water steps the last fixed tick ran (0 when the water's step is longer than the tick
    /// and this tick fell between two).
    #[must_use]
    pub fn last_tick_steps(&self) -> u32 {
        self.last_tick_steps
    }

    /// The scene's id of a floating entity's body.
    #[must_use]
    pub fn body_of(&self, entity: Entity) -> Option<BodyId> {
        self.bodies.get(&entity).copied()
    }

    /// Runs `f` on the current heights (metres above still water, the grid's rows along -z).
    /// On a GPU backend this waits for a readback: gameplay should use
    /// [`WaterSimulation::with_gameplay_heights`] (or [`crate::WaterQuery`]) instead.
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn with_heights<R>(&self, f: impl FnOnce(&HeightView<'_>) -> R) -> Result<R, SceneError> {
        let cell_size = self.placement.cell_size;
        // Signed CPU water lends its own buffer: the scratch stays empty.
        let mut scratch = Vec::new();
        let view = self.scene.water().heights_view(cell_size, &mut scratch)?;
        Ok(f(&view))
    }

    /// Runs `f` on the heights gameplay sees around `at` (the water's z-up frame, metres: x,
    /// and y along the rows; the view is the grid's own, its corner at
    /// [`WaterSimulation::gameplay_origin`]): on the CPU backend the current heights of the
    /// whole grid; on a GPU backend the patch around `at` of the last asynchronous readback
    /// that arrived, from the water step [`WaterSimulation::gameplay_step`] (a frame or more
    /// behind). `None` on a GPU backend before the first readback, and the first time a point
    /// is asked about: the next readback gathers the patch around every point asked since the
    /// last one, so a point asked every frame (or one that moved less than a few cells since)
    /// is answered from then on. Never waits for the GPU; never reads the whole field back
    /// unless the points' patches would hold more cells than it.
    pub fn with_gameplay_heights<R>(
        &self,
        at: Vec2,
        f: impl FnOnce(&HeightView<'_>) -> R,
    ) -> Option<R> {
        match &self.gpu_heights {
            Some(gpu) => gpu.with_patch_at(at, f),
            None => self
                .with_heights(f)
                .map_err(|e| error!("water heights: {e}"))
                .ok(),
        }
    }

    /// With an ambient sea, the sea gameplay sees: at [`WaterSimulation::gameplay_step`] (the
    /// step of the grid's heights it is added to), or the current step before a GPU backend's
    /// first readback. `None` without a sea.
    #[must_use]
    pub fn gameplay_sea(&self) -> Option<&SeaFrame> {
        self.gameplay_sea.as_deref()
    }

    /// Makes the sea of the gameplay step (once a step; the scene keeps the last few).
    pub(crate) fn refresh_gameplay_sea(&mut self) {
        let step = self
            .gameplay_step()
            .unwrap_or_else(|| self.scene.steps_taken());
        let time = step as f64 * self.scene.spec().params.dt();
        if self.gameplay_sea.as_ref().map(|f| f.time()) != Some(time) {
            self.gameplay_sea = self.scene.sea_frame_at(step);
        }
    }

    /// The water step whose heights gameplay sees: the current one on the CPU backend, the
    /// last one read back on a GPU backend (`None` before the first readback arrives).
    #[must_use]
    pub fn gameplay_step(&self) -> Option<u64> {
        match &self.gpu_heights {
            Some(gpu) => gpu.step(),
            None => Some(self.scene.steps_taken()),
        }
    }

    /// On a GPU backend: takes a readback that arrived and starts the next, and updates the
    /// normal-and-height texture the surface draws. Nothing on the CPU.
    pub(crate) fn refresh_gpu_heights(&mut self) -> Result<(), GpuError> {
        let origin = self.scene.window_origin().as_vec2();
        match (&mut self.gpu_heights, self.scene.gpu_water_to_read()) {
            (Some(heights), Some(grid)) => heights.refresh(grid, origin),
            _ => Ok(()),
        }
    }

    /// Runs `f` on the current heights as one slice (row-major, metres): signed or dispersive
    /// CPU water lends its buffer, other backends copy (a GPU readback).
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn heights_into<R>(&self, f: impl FnOnce(&[f32]) -> R) -> Result<R, SceneError> {
        if let BackendGrid::Cpu(grid) = self.scene.water() {
            if let Some(heights) = grid.held_heights() {
                return Ok(f(heights));
            }
        }
        Ok(f(&self.scene.water().heights()?))
    }

    /// Adds the bodies of `entities` in one batch (the masks settled once); each entity's own
    /// refusal comes back in its place (`Some` of it; `None` is kept for a batch that failed
    /// as a whole).
    fn add_all(
        &mut self,
        entities: &[Entity],
        bodies: Vec<water_scene::BodySpec>,
    ) -> Result<Vec<Result<(), Option<SceneError>>>, SceneError> {
        let added = self.scene.add_bodies(bodies)?;
        Ok(entities
            .iter()
            .zip(added)
            .map(|(&entity, added)| {
                self.bodies.insert(entity, added.map_err(Some)?);
                Ok(())
            })
            .collect())
    }

    fn remove(&mut self, entity: Entity) -> Result<(), SceneError> {
        if let Some(id) = self.bodies.remove(&entity) {
            self.scene.remove_body(id)?;
        }
        Ok(())
    }
}

/// Marks a [`Water`] entity whose settings were refused (the error was logged once), so it is
/// not retried every frame. Remove it after fixing the settings to try again.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaterRefused;

/// Builds the simulation of each new [`Water`] (one per app; a second is refused and logged).
/// GPU backends run on Bevy's render device and queue.
pub(crate) fn build_simulations(
    mut commands: Commands,
    new: Query<(Entity, &Water, &Transform), (Without<WaterSimulation>, Without<WaterRefused>)>,
    existing: Query<Entity, With<WaterSimulation>>,
    device: Option<Res<RenderDevice>>,
    queue: Option<Res<RenderQueue>>,
    adapter: Option<Res<RenderAdapter>>,
) {
    let mut first = existing.iter().next();
    for (entity, water, transform) in &new {
        let gpu = water
            .backend
            .gpu()
            .and_then(|_| bevy_gpu(device.as_deref(), queue.as_deref(), adapter.as_deref()));
        let built = match first {
            Some(first) => Err(WaterBevyError::SecondWater { entity, first }),
            None => WaterSimulation::new(entity, water, transform.translation, gpu.as_ref()),
        };
        match built {
            Ok(simulation) => {
                commands.entity(entity).insert(simulation);
                first = Some(entity);
            }
            Err(e) => {
                error!("{e}");
                commands.entity(entity).insert(WaterRefused);
            }
        }
    }
}

/// Marks a [`Floating`] entity that the water has taken in (or refused, so it is not retried
/// every tick).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnWater {
    /// Whether the water refused it, or took it off after its step failed (its error was
    /// logged).
    pub refused: bool,
}

/// Adds new floating entities to the water, posed from their transforms.
pub(crate) fn add_floating_bodies(
    mut commands: Commands,
    mut water: Query<&mut WaterSimulation>,
    new: Query<(Entity, &Floating, &Transform, &FloatingMotion), Without<OnWater>>,
) {
    let Some(mut simulation) = water.iter_mut().next() else {
        return;
    };
    let placement = simulation.placement();
    // The bodies whose hulls were built, added in one batch: a level that spawns many at once
    // settles the masks once, not once a body.
    let (mut entities, mut specs) = (Vec::new(), Vec::new());
    for (entity, floating, transform, motion) in &new {
        let built = Pose::new(
            placement.to_scene(transform.translation),
            transform.rotation,
        )
        .and_then(|pose| floating.floating_body(pose, motion, placement.cell_size));
        match built {
            Ok(body) => {
                entities.push(entity);
                specs.push(water_scene::BodySpec::new(format!("{entity}"), body));
            }
            Err(source) => {
                error!("{}", WaterBevyError::Hull { entity, source });
                commands.entity(entity).insert(OnWater { refused: true });
            }
        }
    }
    if entities.is_empty() {
        return;
    }
    let added = match simulation.add_all(&entities, specs) {
        Ok(added) => added,
        Err(source) => {
            // The masks could not draw the batch (a GPU failure, too many hulls): the scene
            // took every body out again, so none floats; logged once for the batch.
            error!(
                "{}",
                WaterBevyError::Scene {
                    entity: entities[0],
                    source
                }
            );
            entities.iter().map(|_| Err(None)).collect()
        }
    };
    for (entity, added) in entities.into_iter().zip(added) {
        commands.entity(entity).insert(OnWater {
            refused: added.is_err(),
        });
        if let Err(Some(source)) = added {
            error!("{}", WaterBevyError::Scene { entity, source });
        }
    }
}

/// Takes bodies whose [`Floating`] went away (despawned or removed) out of the water.
pub(crate) fn remove_floating_bodies(
    mut removed: RemovedComponents<Floating>,
    mut water: Query<&mut WaterSimulation>,
) {
    let Some(mut simulation) = water.iter_mut().next() else {
        removed.clear();
        return;
    };
    for entity in removed.read() {
        if let Err(source) = simulation.remove(entity) {
            error!("{}", WaterBevyError::Scene { entity, source });
        }
    }
}

/// Hands each body's [`FloatingForce`] to the scene.
pub(crate) fn apply_floating_forces(
    mut water: Query<&mut WaterSimulation>,
    forces: Query<(Entity, &FloatingForce), With<OnWater>>,
) {
    let Some(mut simulation) = water.iter_mut().next() else {
        return;
    };
    for (entity, push) in &forces {
        let Some(id) = simulation.body_of(entity) else {
            continue;
        };
        if let Err(source) = simulation.scene.set_force(id, push.force, push.torque) {
            error!("{}", WaterBevyError::Scene { entity, source });
        }
    }
}

/// Steps the water by one fixed tick: as many water steps as the tick's time holds (the
/// scene's clock carries the remainder to the next tick), so the water is the same at any
/// frame rate. A floating body whose step failed (its motion stopped being finite, or passed
/// 1e4 m/s) is taken off the water, its error logged and its entity marked
/// `OnWater { refused: true }`: the scene undid that step for every body, so the water goes
/// on from it at the next tick without that body, not stalled on it.
pub(crate) fn step_water(
    mut commands: Commands,
    time: Res<Time>,
    mut water: Query<(Entity, &mut WaterSimulation)>,
) {
    for (entity, mut simulation) in &mut water {
        match simulation.scene.advance(time.delta_secs_f64()) {
            Ok(frame) => simulation.last_tick_steps = frame.steps,
            Err(source) => {
                simulation.last_tick_steps = 0;
                let failed = match &source {
                    SceneError::Body { name, .. } => simulation
                        .bodies
                        .keys()
                        .find(|body| format!("{body}") == *name)
                        .copied(),
                    _ => None,
                };
                error!("{}", WaterBevyError::Scene { entity, source });
                if let Some(body) = failed {
                    if let Err(source) = simulation.remove(body) {
                        error!(
                            "{}",
                            WaterBevyError::Scene {
                                entity: body,
                                source
                            }
                        );
                    }
                    if let Ok(mut body) = commands.get_entity(body) {
                        body.try_insert(OnWater { refused: true });
                    }
                }
            }
        }
        // Gameplay later in the tick sees the sea of the step it sees the grid's water at.
        simulation.refresh_gameplay_sea();
    }
}

/// Writes each floating body's pose and motion back to its entity.
pub(crate) fn write_floating_transforms(
    water: Query<&WaterSimulation>,
    mut bodies: Query<
        (&mut Transform, &mut FloatingMotion),
        (With<Floating>, Without<IntegratedElsewhere>),
    >,
) {
    let Some(simulation) = water.iter().next() else {
        return;
    };
    let placement = simulation.placement();
    for (&entity, &id) in &simulation.bodies {
        let (Ok((mut transform, mut motion)), Ok(view)) =
            (bodies.get_mut(entity), simulation.scene.body(id))
        else {
            // A body a physics engine moves, or one despawned this tick.
            trace!("body {id} ({entity}) is not written");
            continue;
        };
        transform.translation = placement.to_world(view.position);
        transform.rotation = view.orientation;
        *motion = FloatingMotion {
            velocity: view.velocity,
            angular_velocity: view.angular_velocity,
            submerged_volume: view.submerged_volume,
            off_water: view.off_water,
        };
    }
}
