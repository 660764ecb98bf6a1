//! [`Scene`]: grid water on any backend with floating bodies coupled both ways, stepped on a
//! fixed clock. The frame loop a game drives, in one place.
//!
//! Each step, in this order (the order every backend and the scenario runner share):
//! 1. impulses queued with [`Scene::add_impulse`] land on the current water;
//! 2. every body reads the current water and moves one step under gravity, buoyancy, drag and
//!    the force and torque its caller set ([`Scene::set_force`]); towed bodies follow their path
//!    across the water; a kinematic body ([`Scene::set_kinematic`]) is only measured;
//! 3. the bodies' hulls are drawn into the contact masks (on the CPU, or on the GPU with
//!    [`MaskSource::Gpu`]);
//! 4. the water steps, the masks' bow and stern events making the bodies' wakes;
//! 5. the foam takes the step's sources ([`Scene::set_foam`]), and the cascades step
//!    ([`Scene::set_cascades`]), each drawing the hulls into its own masks and relaxing
//!    toward the grid inside it.
//!
//! With an ambient sea ([`Scene::set_ocean`]) the surface is the sea plus the grid's water
//! everywhere a body or a query looks ([`water_core::ocean::SeaWithWater`]): bodies float and
//! pitch on the swell, and beyond the grid on the sea alone. The sea at step `s` is the sea at
//! time `s * dt`; it does not feed the grid, whose water is the interactive part.
//!
//! With a focus ([`Scene::set_focus`]) the grid follows a body, a point or a path through the
//! world by whole cells, at the start of each step; bodies, impulses, queries and land stay in
//! the world.

use std::sync::Arc;

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::Gravity;
use water_core::ocean::{AmbientSea, SeaFrame};
use water_core::{
    ContactMasks, ContactSource, Depth, FixedStepClock, FollowingWindow, FrameSteps, Impulse,
    ImpulseShape, LandMask, PlacedWater, SurfaceSample,
};
use water_gpu::{ContactMaskRenderer, GpuContext, GridSpec};

use crate::backend::Backend;
use crate::backend_grid::BackendGrid;
use crate::body_set::BodySet;
use crate::body_water::BodyWater;
use crate::error::SceneError;
use crate::event::SceneEvent;
use crate::scene_ocean::SceneOcean;
use crate::step_times::StepTimes;
use crate::trajectory::{TrajectoryRow, TrajectorySink};
use crate::up_axis::UpAxis;
use crate::water::{Water, WaterGrid};

mod bodies;
mod body_patches;
mod body_steps;
mod cascade_land;
mod cascades;
mod foam;
mod focus;
mod impulse_landing;
mod masks;
mod nested_water;
mod surface_queries;

#[cfg(feature = "scenario")]
pub(crate) use cascades::cascades_refused_on;
pub use cascades::{cascade_weight, CASCADE_BLEND_CELLS, CASCADE_IMPULSE_MIN_CELLS, MAX_CASCADES};
pub use foam::FoamSettings;
pub use focus::SceneFocus;
use impulse_landing::impulse_in_metres;
use masks::Masks;
pub use surface_queries::SurfaceQuery;

/// Bow and stern wave amplitude unless set otherwise, m per m/s of body speed.
pub const DEFAULT_CONTACT_AMPLITUDE: f32 = 0.01;

/// Where the bodies' contact masks are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MaskSource {
    /// Rasterised on the CPU ([`water_buoyancy::rasterise_grid_mask`]) and, on a GPU backend,
    /// uploaded each step. The same masks on every backend, so trajectories agree across them.
    #[default]
    Cpu,
    /// Drawn on the GPU from the hulls' meshes ([`ContactMaskRenderer`]): the masks never leave
    /// the GPU. GPU backends only.
    Gpu,
}

/// How a scene is set up; [`SceneSettings::default`] is a z-up scene on the CPU.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneSettings {
    /// Where the water steps.
    pub backend: Backend,
    /// The caller's up axis.
    pub up: UpAxis,
    /// The contact source's amplitude `A`: for [`ContactSource::Events`] the bow and stern
    /// wave amplitude, m per m/s of body speed; for [`ContactSource::Displacement`] a scale of
    /// the bodies' weight heads (1: each presses with its weight,
    /// [`water_buoyancy::FloatingBody::weight_heads`]).
    pub contact_amplitude: f32,
    /// How the bodies' masks make waves: the classic bow and stern events (the default), or
    /// the pressure patch of each body's weight, whose wake does not grow as the step shrinks
    /// (on dispersive water the same across steps within 5%, tested; signed
    /// mode, masks drawn on the CPU: [`SceneError::ContactSourceWithGpuMasks`] otherwise).
    pub contact_source: ContactSource,
    /// Where contact masks are drawn.
    pub masks: MaskSource,
    /// Gravity, in the water's z-up frame.
    pub gravity: Gravity,
    /// Which step's water the bodies read: the step's own, or one step older so that a GPU
    /// never makes the host wait ([`BodyWater`]).
    pub body_water: BodyWater,
}

impl Default for SceneSettings {
    fn default() -> Self {
        Self {
            backend: Backend::Cpu,
            up: UpAxis::Z,
            contact_amplitude: DEFAULT_CONTACT_AMPLITUDE,
            contact_source: ContactSource::Events,
            masks: MaskSource::Cpu,
            gravity: Gravity::EARTH,
            body_water: BodyWater::Current,
        }
    }
}

/// Grid water and the bodies floating on it.
///
/// ```
/// use glam::{Vec2, Vec3};
/// use water_buoyancy::{BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY};
/// use water_core::{Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaveParams};
/// use water_scene::{BodySpec, GridSpec, Scene, SceneSettings};
///
/// let params = WaveParams::new(0.1, 1.0, 0.02, Damping::PerSecond(0.9))?;
/// let spec = GridSpec::new(GridSize::new(64, 64)?, params, Boundary::Absorbing, GridMode::Signed);
/// let mut scene = Scene::new(spec, LandMask::empty(spec.size), SceneSettings::default(), None)?;
///
/// // A 40 kg crate, 0.6 m x 0.6 m x 0.3 m, dropped in the middle.
/// let shape = Shape::cuboid(Vec3::new(0.3, 0.3, 0.15))?;
/// let state = BodyState::at_rest(Pose::from_position(Vec3::new(3.2, 3.2, 0.1))?);
/// let body = RigidBody::from_shape(&shape, 40.0, state)?;
/// let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
/// let crate_ = scene.add_body(BodySpec::new(
///     "crate",
///     FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)?,
/// ))?;
/// scene.add_impulse(Impulse::new(Vec2::new(16.0, 16.0), 4.0, 0.05, ImpulseShape::Cosine)?);
/// for _frame in 0..60 {
///     scene.advance(1.0 / 60.0)?; // as many fixed steps as the frame's time holds
///     scene.set_force(crate_, Vec3::new(20.0, 0.0, 0.0), Vec3::ZERO)?; // a push, N
/// }
/// let view = scene.body(crate_)?;
/// assert!(view.position.x > 3.2, "pushed along +x");
/// assert!(view.position.z.abs() < 0.2, "floating");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Scene {
    water: BackendGrid,
    spec: GridSpec,
    settings: SceneSettings,
    bodies: BodySet,
    masks: Masks,
    clock: FixedStepClock,
    step: u64,
    pending: Vec<Impulse>,
    /// Impulses that landed on no cell of any grid ([`Scene::impulses_missed`]), and those of
    /// the last step that did ([`Scene::impulses_missed_last`]).
    impulses_missed: u64,
    missed_last: Vec<Impulse>,
    events: Vec<SceneEvent>,
    /// Split and classic heights as one f32 field, reused every step.
    heights: Vec<f32>,
    /// Wall time per phase of the steps so far.
    times: StepTimes,
    /// A body was removed since the masks were last drawn: the next step must draw them (even
    /// with no bodies left) so its cut leaves the water as stern events.
    masks_hold_removed: bool,
    /// The ambient sea around the grid, if any.
    ocean: Option<SceneOcean>,
    /// The patches of water the bodies read on a GPU backend or one step late.
    patches: body_patches::BodyPatches,
    /// Where the grid is in the world and what it follows.
    following: focus::Following,
    /// Foam on the grid, if any.
    foam: Option<foam::SceneFoam>,
    /// Coarser grids around the grid ([`Scene::set_cascades`]), if any.
    cascades: Option<cascades::SceneCascades>,
    /// The grid's still-water depth ([`Scene::set_depth`]), if given: the surf reads it.
    depth: Option<Depth>,
}

impl Scene {
    /// Still water of `spec` with `land`, no bodies yet. GPU backends and GPU masks run on
    /// `gpu`.
    ///
    /// # Errors
    /// [`SceneError::NoGpu`] for a GPU backend or GPU masks without a context; what the backend
    /// refuses.
    pub fn new(
        spec: GridSpec,
        land: LandMask,
        settings: SceneSettings,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        let amplitude = settings.contact_amplitude;
        if !(0.0..=water_core::MAX_CONTACT_AMPLITUDE).contains(&amplitude) {
            return Err(water_core::WaterError::OutOfRange {
                name: "contact amplitude",
                value: f64::from(amplitude),
                range: "[0, 1e5] m per m/s",
            }
            .into());
        }
        settings
            .gravity
            .validate()
            .map_err(|source| SceneError::BodySetup {
                name: "(gravity)".into(),
                source,
            })?;
        settings.contact_source.check_offered(spec.mode)?;
        if settings.contact_source != ContactSource::Events && settings.masks == MaskSource::Gpu {
            return Err(SceneError::ContactSourceWithGpuMasks {
                source_name: settings.contact_source.name(),
            });
        }
        let window = FollowingWindow::new(spec.size, spec.params.cell_size())?;
        let following = focus::Following::new(window, land.clone());
        let water = BackendGrid::new(spec, land, settings.backend, gpu)?;
        let cell_size = spec.params.cell_size() as f32;
        let masks = match (settings.masks, settings.backend.gpu()) {
            (MaskSource::Cpu, _) => Masks::Cpu {
                contacts: ContactMasks::new(spec.size, amplitude)?
                    .with_source(settings.contact_source),
                scratch: vec![0.0; spec.size.cells()],
            },
            (MaskSource::Gpu, Some(kind)) => {
                let gpu = gpu.ok_or(SceneError::NoGpu {
                    backend: settings.backend,
                })?;
                Masks::Gpu {
                    renderer: Box::new(ContactMaskRenderer::new(
                        &gpu.device,
                        &gpu.queue,
                        spec.size,
                        cell_size,
                        kind,
                    )?),
                    meshes: Vec::new(),
                    device: gpu.device.clone(),
                }
            }
            (MaskSource::Gpu, None) => {
                return Err(SceneError::NoGpu {
                    backend: settings.backend,
                })
            }
        };
        Ok(Self {
            water,
            spec,
            settings,
            bodies: BodySet::default(),
            masks,
            clock: FixedStepClock::new(spec.params.dt())?,
            step: 0,
            pending: Vec::new(),
            impulses_missed: 0,
            missed_last: Vec::new(),
            events: Vec::new(),
            heights: Vec::new(),
            times: StepTimes::default(),
            masks_hold_removed: false,
            ocean: None,
            patches: body_patches::BodyPatches::new(
                gpu.filter(|_| settings.backend.gpu().is_some()),
            ),
            following,
            foam: None,
            cascades: None,
            depth: None,
        })
    }

    /// Puts the grid inside an ambient sea (`None`: a tank again). From the next query or step
    /// on, bodies and [`Scene::surface_at`] see the sea plus the grid's water, and beyond the
    /// grid the sea alone. The sea's coordinates are the water's (z-up) world metres, its
    /// time `s * dt` at step `s`.
    pub fn set_ocean(&mut self, sea: Option<AmbientSea>) {
        self.ocean = sea.map(SceneOcean::new);
    }

    /// The ambient sea, if any.
    #[must_use]
    pub fn ocean(&self) -> Option<&AmbientSea> {
        self.ocean.as_ref().map(SceneOcean::sea)
    }

    /// The ambient sea at the current step (made once a step), if any.
    pub fn sea_frame(&mut self) -> Option<&SeaFrame> {
        let (step, dt) = (self.step, self.spec.params.dt());
        self.ocean.as_mut().map(|o| o.frame_at(step, dt).as_ref())
    }

    /// The ambient sea at water step `step` (time `step * dt`), shared, if any: for a renderer
    /// or a game's queries that keep the frame they drew from while the scene steps on. The
    /// frames of the last few steps asked for are made once and kept.
    pub fn sea_frame_at(&mut self, step: u64) -> Option<Arc<SeaFrame>> {
        let dt = self.spec.params.dt();
        self.ocean
            .as_mut()
            .map(|o| Arc::clone(o.frame_at(step, dt)))
    }

    /// What the water simulates.
    #[must_use]
    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// How the scene was set up.
    #[must_use]
    pub fn settings(&self) -> &SceneSettings {
        &self.settings
    }

    /// Changes which step's water the bodies read from the next step on ([`BodyWater`]); the
    /// first step after the change reads the water it starts from.
    pub fn set_body_water(&mut self, body_water: BodyWater) {
        if body_water != self.settings.body_water {
            self.settings.body_water = body_water;
            self.patches.clear();
        }
    }

    /// The water.
    #[must_use]
    pub fn water(&self) -> &BackendGrid {
        &self.water
    }

    /// The water, mutable: for what the scene does not wrap (uploads, the GPU surface texture,
    /// recording into the caller's encoder). A depth set here is the waves' alone: the foam's
    /// surf reads the depth given to [`Scene::set_depth`]. The bodies' next step reads the water as it is
    /// then, whatever [`SceneSettings::body_water`] says: what was gathered before may no longer
    /// be what the water holds.
    pub fn water_mut(&mut self) -> &mut BackendGrid {
        self.patches.clear();
        &mut self.water
    }

    /// Sets the grid's still-water depth ([`WaterGrid::set_depth`]): the waves' speeds, and
    /// the shores the foam's surf reads ([`FoamSettings::shore_depth`]). A grid that follows a
    /// focus keeps the depth per cell of the grid, not of the world.
    ///
    /// # Errors
    /// What [`WaterGrid::set_depth`] refuses.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError> {
        self.patches.clear();
        self.water.set_depth(depth)?;
        self.depth = Some(depth.clone());
        // The surf's shore cells are found again from the new depth.
        if let Some(foam) = &mut self.foam {
            foam.forget_shores();
        }
        Ok(())
    }

    /// The GPU grid (`None` on the CPU), for work that reads the water without changing it:
    /// the surface texture's update, drawing, readbacks. Unlike [`Scene::water_mut`] it keeps
    /// the patches gathered for the bodies' next steps, so a frame that draws the water still
    /// waits for nothing.
    pub fn gpu_water_to_read(&mut self) -> Option<&mut water_gpu::GpuGrid> {
        self.water.gpu_mut()
    }

    /// Steps taken.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        self.step
    }

    /// Simulated time, seconds.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.step as f64 * self.spec.params.dt()
    }

    /// Caps the steps one [`Scene::advance`] runs (the rest of a long frame's time is dropped
    /// and reported in [`FrameSteps::dropped_seconds`]), so a stalled frame cannot make the next
    /// one slower still. The default is [`water_core::DEFAULT_MAX_STEPS_PER_FRAME`].
    ///
    /// # Errors
    /// A cap of 0.
    pub fn set_max_steps_per_frame(&mut self, max: u32) -> Result<(), SceneError> {
        self.clock = self.clock.clone().with_max_steps_per_frame(max)?;
        Ok(())
    }

    /// An impulse centred on the vertical through `position` (the caller's frame and metres;
    /// its height along the up axis is ignored), reaching `radius` metres, with peak
    /// `amplitude` metres: [`Impulse::new`], whose centre and radius are in cells, with the
    /// conversion done here (cell `(x, y)` is centred at `((x + 1/2) h, (y + 1/2) h)` in the
    /// water's frame, `h` the cell size). Queue it with [`Scene::add_impulse`]; make it a
    /// displacement with [`Impulse::with_displacement`].
    ///
    /// ```
    /// # use glam::Vec3;
    /// # use water_core::{Boundary, Damping, GridMode, GridSize, ImpulseShape, LandMask, WaveParams};
    /// # use water_scene::{GridSpec, Scene, SceneSettings, UpAxis};
    /// # let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE)?;
    /// # let spec = GridSpec::new(GridSize::new(64, 64)?, params, Boundary::Absorbing, GridMode::Signed);
    /// let settings = SceneSettings { up: UpAxis::Y, ..SceneSettings::default() };
    /// let mut scene = Scene::new(spec, LandMask::empty(spec.size), settings, None)?;
    /// // A drop 0.5 m across at x = 3.2 m, z = -3.2 m of the y-up scene: the cell (31.5, 31.5).
    /// let drop = scene.impulse_at(Vec3::new(3.2, 0.0, -3.2), 0.25, 0.05, ImpulseShape::Cosine)?;
    /// assert_eq!((drop.centre().x, drop.centre().y, drop.radius()), (31.5, 31.5, 2.5));
    /// scene.add_impulse(drop);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// What [`Impulse::new`] refuses, each named in the units given here: a position that is
    /// not finite or that passes f32 in cells, a radius that is not finite, not above 0 (but
    /// for [`ImpulseShape::Point`]) or past [`water_core::MAX_IMPULSE_RADIUS`] cells, all in
    /// metres; an amplitude too large or too small for f32 to hold.
    pub fn impulse_at(
        &self,
        position: Vec3,
        radius: f32,
        amplitude: f32,
        shape: ImpulseShape,
    ) -> Result<Impulse, SceneError> {
        let h = self.cell_size();
        let water = self.settings.up.to_water(position);
        let centre = Vec2::new(water.x, water.y) / h - Vec2::splat(0.5);
        impulse_in_metres(position, centre, (radius, h), shape)?;
        Ok(Impulse::new(centre, radius / h, amplitude, shape)?)
    }

    /// Queues an impulse: it lands on the water just before the next step. Its centre is in
    /// world cells (the grid's own while its corner is at the world's origin): where the grid
    /// has moved ([`Scene::set_focus`]), it lands on the cells of the grid it covers then. One
    /// that covers no cell of the grid or of a cascade then makes no wave and is counted by
    /// [`Scene::impulses_missed`].
    pub fn add_impulse(&mut self, impulse: Impulse) {
        self.pending.push(impulse);
    }

    /// Events since the last call, oldest first.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, SceneEvent> {
        self.events.drain(..)
    }

    /// The surface on the vertical through `position` (caller's frame) on the water as it is
    /// now (after [`Scene::steps_taken`] steps): its point, normal and up vector in the
    /// caller's frame, or `None` beyond the water's edge (with cascades, the coarsest's, the
    /// cascades blended as the bodies read them; with an ambient sea, nowhere) and at a
    /// position whose horizontal coordinates are not finite. On a GPU backend this reads back the 5 x 5
    /// cells around the point and waits for them: a game asks [`Scene::query_surfaces`]
    /// instead, which waits for nothing.
    ///
    /// # Errors
    /// A failed GPU readback.
    pub fn surface_at(&mut self, position: Vec3) -> Result<Option<SurfaceSample>, SceneError> {
        if self.water.gpu().is_some() {
            let mut query = self.query(&[position], true)?;
            let answers = self.surfaces(&mut query)?;
            return Ok(answers.and_then(|a| a.into_iter().next()).flatten());
        }
        let up = self.settings.up;
        let water_point = up.to_water(position);
        let cell_size = self.cell_size();
        let (step, dt) = (self.step, self.spec.params.dt());
        let sea = self.ocean.as_mut().map(|o| o.frame_at(step, dt));
        let origin = self.following.window.origin().as_vec2();
        let sea = sea.map(|s| s.as_ref());
        if let Some(cascades) = &self.cascades {
            let heights =
                nested_water::CascadeHeights::read((&self.water, &self.spec, origin), cascades)?;
            return Ok(surface_queries::answer(
                up,
                sea,
                &heights.nested()?,
                water_point,
            ));
        }
        let view = self.water.heights_view(cell_size, &mut self.heights)?;
        Ok(surface_queries::answer(
            up,
            sea,
            &PlacedWater::new(&view, origin),
            water_point,
        ))
    }

    /// Runs as many fixed steps as `frame_seconds` of real time hold (the clock carries the
    /// remainder to the next frame, at most [`water_core::DEFAULT_MAX_STEPS_PER_FRAME`]
    /// steps a frame). On a GPU backend a frame without bodies is one submission that never
    /// waits (one a step, none waiting, where the grid follows a path), also where the
    /// mean-level keeper holds the level (its correction lands a frame
    /// later: [`water_gpu::GpuGridWater::step_frame`]); [`Scene::step_many`] keeps the CPU's
    /// schedule of corrections instead, waiting for the keeper's sums.
    ///
    /// # Errors
    /// A bad frame time; as [`Scene::step`]. The frame's time is spent on the clock when the
    /// frame starts: after an error, the steps before the failed one stand
    /// ([`Scene::steps_taken`] counts them) and the rest of the frame's steps are not run.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<FrameSteps, SceneError> {
        let frame = self.clock.advance(frame_seconds)?;
        self.run_steps(u64::from(frame.steps), true)?;
        Ok(frame)
    }

    /// One step (see the module docs for its order).
    ///
    /// # Errors
    /// [`SceneError::Body`] naming the body, the step and the cause (its motion stopped being
    /// finite, or passed [`water_buoyancy::MAX_BODY_SPEED`]): no body has moved and the water
    /// has not stepped, so removing that body (or setting its state) goes on from that step;
    /// GPU failures.
    pub fn step(&mut self) -> Result<(), SceneError> {
        self.step_many(1)
    }

    /// `steps` steps. Without bodies they run as one multi-step run (fused and temporally
    /// blocked where the backend can), after one step with the masks if a body was just removed;
    /// a grid that follows a path ([`SceneFocus::Path`]) steps one at a time, moving between
    /// them.
    ///
    /// # Errors
    /// As [`Scene::step`].
    pub fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        self.run_steps(steps, false)
    }

    /// `steps` steps; `frame`: the body-free ones as one frame ([`Water::step_frame`]).
    fn run_steps(&mut self, steps: u64, frame: bool) -> Result<(), SceneError> {
        if steps == 0 {
            return Ok(());
        }
        self.follow_focus()?;
        let mut landed = self.land_impulses()?;
        let mut left = steps;
        while left > 0 && (!self.bodies.is_empty() || self.masks_hold_removed) {
            let start = std::time::Instant::now();
            self.follow_focus()?;
            landed |= self.land_impulses()?;
            self.move_bodies(landed)?;
            landed = false;
            let moved = std::time::Instant::now();
            self.redraw_masks()?;
            self.masks_hold_removed = false;
            let drawn = std::time::Instant::now();
            self.step_water_with_contacts()?;
            let stepped = std::time::Instant::now();
            self.times.bodies += moved - start;
            self.times.masks += drawn - moved;
            self.times.water += stepped - drawn;
            self.times.steps += 1;
            self.step += 1;
            left -= 1;
            self.gather_body_patches()?;
            self.foam_and_cascades(true)?;
        }
        // A focus that moves by itself (a path), foam and cascades are followed step by step.
        while left > 0 && (self.focus_moves() || self.foam.is_some() || self.cascades.is_some()) {
            let start = std::time::Instant::now();
            self.follow_focus()?;
            if frame {
                self.water.step_frame(1)?;
            } else {
                self.water.step_many(1)?;
            }
            self.times.water += start.elapsed();
            self.times.steps += 1;
            self.step += 1;
            left -= 1;
            self.patches.clear();
            self.foam_and_cascades(false)?;
        }
        if left > 0 {
            let start = std::time::Instant::now();
            if frame {
                self.water.step_frame(left)?;
            } else {
                self.water.step_many(left)?;
            }
            self.times.water += start.elapsed();
            self.times.steps += left;
            self.step += left;
            self.patches.clear();
        }
        Ok(())
    }

    /// After the grid's step: the foam's sources and decay, then the cascades' steps, each
    /// timed. `masks_advanced`: the step drew the bodies into the masks (else the masks hold an
    /// older step's edges, which are no wake now).
    fn foam_and_cascades(&mut self, masks_advanced: bool) -> Result<(), SceneError> {
        let start = std::time::Instant::now();
        self.raise_foam(masks_advanced)?;
        let foamed = std::time::Instant::now();
        self.step_cascades()?;
        self.times.foam += foamed - start;
        self.times.cascades += foamed.elapsed();
        Ok(())
    }

    /// Wall time the steps spent per phase (bodies, masks, water) since the scene was made or
    /// the last [`Scene::reset_step_times`]. A GPU backend's water phase counts only the
    /// submission unless something waits for it, such as the next step's height readback,
    /// which the bodies' phase then counts.
    #[must_use]
    pub fn step_times(&self) -> StepTimes {
        self.times
    }

    /// Starts [`Scene::step_times`] again from zero (after a warm-up, say).
    pub fn reset_step_times(&mut self) {
        self.times = StepTimes::default();
    }

    /// Writes one row per body (its state now, in the caller's frame) into `sink`.
    ///
    /// # Errors
    /// The sink's failure.
    pub fn record(&self, sink: &mut dyn TrajectorySink) -> Result<(), SceneError> {
        for id in self.body_ids() {
            let b = self.body(id)?;
            sink.record(&TrajectoryRow {
                step: self.step,
                time: self.time(),
                body: b.name,
                position: b.position,
                orientation: b.orientation,
                velocity: b.velocity,
                submerged_volume: b.submerged_volume,
            })?;
        }
        Ok(())
    }

    fn cell_size(&self) -> f32 {
        self.spec.params.cell_size() as f32
    }

    /// Measures every kinematic body ([`Scene::set_kinematic`]) on the current water where it
    /// stands now, without stepping: for a frame that ran no water step but whose engine moved
    /// the bodies and wants the water's wrench there ([`crate::BodyView::water_force`]). One height
    /// readback on a GPU backend, for all of them.
    ///
    /// # Errors
    /// [`SceneError::Body`] naming the body; a failed GPU readback.
    pub fn measure_kinematic_bodies(&mut self) -> Result<(), SceneError> {
        if !self.bodies.as_slice().iter().any(|b| b.kinematic) {
            return Ok(());
        }
        let outcomes = self.body_outcomes(true, false)?;
        for (b, outcome) in self.bodies.as_mut_slice().iter_mut().zip(outcomes) {
            if let Some((outcome, water_step)) = outcome? {
                b.last = Some(outcome);
                b.water_step = Some(water_step);
            }
        }
        Ok(())
    }

    /// The water's horizontal extent in its own frame, metres: `(W h, H h)`.
    #[must_use]
    pub fn extent(&self) -> Vec2 {
        let h = self.cell_size();
        Vec2::new(
            self.spec.size.width() as f32 * h,
            self.spec.size.height() as f32 * h,
        )
    }

    /// The orientation the caller's frame has in the water's frame.
    #[must_use]
    pub fn frame(&self) -> Quat {
        self.settings.up.rotation()
    }
}
