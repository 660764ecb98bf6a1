//! Bodies in a scene: what the caller adds ([`BodySpec`]), the handle it gets back ([`BodyId`])
//! and what it reads ([`BodyView`]).

use glam::{Quat, Vec3};
use water_buoyancy::{BodyStep, FloatingBody};

use crate::error::SceneError;
use crate::tow_path::TowPath;
use crate::up_axis::UpAxis;

/// A floating body to add to a scene.
#[derive(Debug, Clone)]
pub struct BodySpec {
    /// Its name, in errors, events and trajectories.
    pub name: String,
    /// The body, its hulls and its buoyancy model, posed in the scene's frame (the caller's up
    /// axis).
    pub body: FloatingBody,
    /// A route it is towed along (horizontal position and velocity set, height and tilt free),
    /// in the scene's horizontal plane (`(x, z)` in a y-up scene: [`TowPath`]).
    pub path: Option<TowPath>,
    /// Force applied at the centre of mass every step, N, in the scene's frame (a motor); change
    /// it later with [`crate::Scene::set_force`].
    pub force: Vec3,
    /// Torque applied every step, N m, in the scene's frame.
    pub torque: Vec3,
}

impl BodySpec {
    /// A free body (no tow path).
    #[must_use]
    pub fn new(name: impl Into<String>, body: FloatingBody) -> Self {
        Self {
            name: name.into(),
            body,
            path: None,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
        }
    }

    /// The same body towed along `path`.
    #[must_use]
    pub fn towed(mut self, path: TowPath) -> Self {
        self.path = Some(path);
        self
    }
}

/// A body's handle in its scene: a slot and the generation of the body in it. Removing a body
/// never changes another's id; a removed body's slot may hold a later body, under a newer
/// generation, so an old id is refused ([`crate::SceneError::RemovedBody`]) instead of finding
/// the newcomer. An id holds no mark of its scene: given to another scene, it names whatever
/// body holds that slot and generation there, so a game with two scenes keeps each scene's ids
/// apart.
///
/// ```
/// # use water_scene::BodyId;
/// fn describe(id: BodyId) -> String {
///     format!("{id}: slot {} generation {}", id.slot(), id.generation())
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId {
    pub(crate) slot: u32,
    pub(crate) generation: u32,
}

impl BodyId {
    /// Its slot: small, reused after its body is removed.
    #[must_use]
    pub fn slot(self) -> u32 {
        self.slot
    }

    /// How many bodies held its slot before it.
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation
    }
}

impl std::fmt::Display for BodyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.slot, self.generation)
    }
}

/// A body's state, in the caller's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyView<'a> {
    /// Its name.
    pub name: &'a str,
    /// Centre of mass, metres.
    pub position: Vec3,
    /// Orientation, body to world.
    pub orientation: Quat,
    /// Velocity of the centre of mass, m/s.
    pub velocity: Vec3,
    /// Angular velocity, rad/s.
    pub angular_velocity: Vec3,
    /// Submerged volume at the last step, m^3 (`None` before the first step): the one the
    /// step's forces came from, averaged over its substeps, each measured at the pose the
    /// substep started from (so it lags [`BodyView::position`](Self::position) by up to a step).
    pub submerged_volume: Option<f32>,
    /// Whether some of the body was beyond the water's edge at the last step (it then floats
    /// on still water at rest level there).
    pub off_water: bool,
    /// The water's force on the body at the last step (buoyancy and drag, N, averaged over
    /// its substeps; `None` before the first step). For a kinematic body
    /// ([`crate::Scene::set_kinematic`]) the force its engine should apply.
    pub water_force: Option<Vec3>,
    /// The water's torque about the centre of mass at the last step, N m.
    pub water_torque: Option<Vec3>,
    /// Whether a physics engine integrates the body ([`crate::Scene::set_kinematic`]).
    pub kinematic: bool,
    /// The water the last step's force came from: the grid's water after this many steps
    /// (the step's own with [`crate::BodyWater::Current`], one older with
    /// [`crate::BodyWater::OneStepLate`]), the ambient sea at the same step. `None` before the
    /// first step.
    pub water_step: Option<u64>,
}

/// A body as the scene keeps it: in the water's z-up frame.
#[derive(Debug, Clone)]
pub(crate) struct SceneBody {
    /// Its id, for its events.
    pub(crate) id: BodyId,
    pub(crate) name: String,
    pub(crate) body: FloatingBody,
    pub(crate) path: Option<TowPath>,
    /// How its heading was turned against its path's when it was put on it, rad: the tow keeps
    /// it so.
    pub(crate) heading_offset: f32,
    /// Force the caller applies every step, N, water frame.
    pub(crate) force: Vec3,
    /// Torque about the centre of mass the caller applies every step, N m, water frame.
    pub(crate) torque: Vec3,
    pub(crate) last: Option<BodyStep>,
    /// Steps the water had taken that `last` was computed on.
    pub(crate) water_step: Option<u64>,
    /// A physics engine integrates it: the scene measures the water's wrench on it and moves
    /// it not.
    pub(crate) kinematic: bool,
}

impl SceneBody {
    /// A free, dynamic body not yet stepped, `force` and `torque` in the water's frame.
    pub(crate) fn new(
        id: BodyId,
        name: String,
        body: FloatingBody,
        force: Vec3,
        torque: Vec3,
    ) -> Self {
        Self {
            id,
            name,
            body,
            path: None,
            heading_offset: 0.0,
            force,
            torque,
            last: None,
            water_step: None,
            kinematic: false,
        }
    }

    /// Its state as a caller with `up` reads it.
    pub(crate) fn view(&self, up: UpAxis) -> BodyView<'_> {
        let s = &self.body.body.state;
        BodyView {
            name: &self.name,
            position: up.from_water(s.pose.position),
            orientation: up.orientation_from_water(s.pose.orientation),
            velocity: up.from_water(s.linear_velocity),
            angular_velocity: up.from_water(s.angular_velocity),
            submerged_volume: self.last.map(|l| l.submerged_volume),
            off_water: self.last.is_some_and(|l| l.off_water),
            water_force: self.last.map(|l| up.from_water(l.wrench.force)),
            water_torque: self.last.map(|l| up.from_water(l.wrench.torque)),
            kinematic: self.kinematic,
            water_step: self.water_step,
        }
    }
}

/// Refuses a force or torque that is not finite, naming the body `name`.
pub(crate) fn check_force_torque(name: &str, force: Vec3, torque: Vec3) -> Result<(), SceneError> {
    for (what, value) in [("force", force), ("torque", torque)] {
        if !value.is_finite() {
            return Err(SceneError::NotFinite {
                name: name.to_owned(),
                what,
                value,
            });
        }
    }
    Ok(())
}
