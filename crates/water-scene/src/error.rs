//! [`SceneError`]: why a scene could not be built or stepped, naming the body, the step and the
//! cause.

use water_buoyancy::BuoyancyError;
use water_core::WaterError;
use water_gpu::GpuError;

/// Why a scene could not be built or stepped.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// A floating body failed during a step: which body, at which step, and why.
    #[error("body {name:?} at step {step}: {source}")]
    Body {
        /// The body's name.
        name: String,
        /// The step that was running (step `s` turns the water's level `s` into `s + 1`).
        step: u64,
        /// The cause.
        source: BuoyancyError,
    },
    /// A body could not be added (a bad hull, mass or pose).
    #[error("body {name:?}: {source}")]
    BodySetup {
        /// The body's name.
        name: String,
        /// The cause.
        source: BuoyancyError,
    },
    /// A GPU backend failed (no adapter, limits, a lost device).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// The water refused a value.
    #[error(transparent)]
    Water(#[from] WaterError),
    /// A GPU backend was asked for without a GPU context to run it on.
    #[error("backend {backend} needs a GPU context; pass one, or choose backend cpu")]
    NoGpu {
        /// The backend asked for.
        backend: crate::Backend,
    },
    /// A following window with contact masks drawn on the GPU, whose masks cannot move with
    /// the grid yet.
    #[error(
        "a focus needs contact masks drawn on the CPU (MaskSource::Cpu): masks drawn on the GPU \
         do not move with the grid"
    )]
    FocusWithGpuMasks,
    /// Foam with contact masks drawn on the GPU, whose events the foam does not read yet.
    #[error(
        "foam needs contact masks drawn on the CPU (MaskSource::Cpu): it reads their bow and \
         stern events"
    )]
    FoamWithGpuMasks,
    /// Surf asked for on a grid with no depth to find its shores in.
    #[error(
        "foam shore_depth {shore_depth} m needs the grid's still-water depth \
         (Scene::set_depth first): shores are where the water grows shallow"
    )]
    ShoreWithoutDepth {
        /// The shore depth asked for, m.
        shore_depth: f32,
    },
    /// A cascade the scene does not have.
    #[error("no cascade {k}: the scene has {count} (0 to {last})", last = count - 1)]
    NoCascade {
        /// The cascade asked for.
        k: usize,
        /// Cascades the scene has, its grid counted.
        count: usize,
    },
    /// Cascades where they are not offered yet: what was asked and what they take.
    #[error("cascades = {count}: {reason}")]
    Cascades {
        /// The cascades asked for.
        count: usize,
        /// Why not, with the limit or what they take instead.
        reason: String,
    },
    /// A body id that this scene never handed out.
    #[error("no body with id {id} in this scene (it has {bodies})")]
    UnknownBody {
        /// The id given.
        id: crate::BodyId,
        /// Bodies in the scene.
        bodies: usize,
    },
    /// The id of a body that was removed from the scene (ids are never reused for another body).
    #[error("body {id}{} was removed from this scene", named(name))]
    RemovedBody {
        /// The id given.
        id: crate::BodyId,
        /// The removed body's name (empty once its slot holds a later body).
        name: String,
    },
    /// Every body id a scene can number is taken.
    #[error("no body id left to hand out (the scene has {bodies} bodies)")]
    TooManyBodies {
        /// Bodies in the scene.
        bodies: usize,
    },
    /// A bad tow path.
    #[error("{0}")]
    TowPath(String),
    /// A force or torque set on a body that is not finite.
    #[error("body {name:?}: {what} must be finite, got {value:?}")]
    NotFinite {
        /// The body's name.
        name: String,
        /// `force` or `torque`.
        what: &'static str,
        /// The value given.
        value: glam::Vec3,
    },
    /// A contact source the GPU masks do not feed: the pressure patch
    /// ([`water_core::ContactSource::Displacement`]) is added from masks drawn on the CPU
    /// ([`crate::MaskSource::Cpu`]), on every backend.
    #[error("the {source_name} contact source takes masks drawn on the cpu, not the gpu")]
    ContactSourceWithGpuMasks {
        /// The source asked for.
        source_name: &'static str,
    },
    /// Bodies need heights in metres; classic grids hold integer units.
    #[error("floating bodies need heights in metres; classic mode's are integer units")]
    ClassicBodies,
    /// Per-vertex values of another length than the sphere water's vertex count.
    #[error("{what}: {actual} values for sphere water of {expected} vertices")]
    VertexCount {
        /// What the values are.
        what: &'static str,
        /// The water's vertex count.
        expected: usize,
        /// How many were given.
        actual: usize,
    },
    /// A sphere scene's step that is not its water's stepper's own.
    #[error(
        "the sphere scene steps {scene} s but its Laplace-Beltrami stepper was built for \
         {stepper} s; give the scene the stepper's dt"
    )]
    SphereStep {
        /// The scene's step, s.
        scene: f64,
        /// The stepper's, s.
        stepper: f64,
    },
    /// A tow path given to a body on sphere water, whose paths would have to run over the
    /// sphere, not in a plane.
    #[error("body {name:?}: sphere water tows no body; push it with a force instead")]
    SphereTowPath {
        /// The body.
        name: String,
    },
    /// A scenario's impulse landed on no cell: by its step the grid that follows the
    /// scenario's `[focus]` (and every cascade) had moved away from it.
    #[error(
        "the impulse at cell ({x}, {y}) of the world, radius {radius} cells, timed for step \
         {step}{}, landed on no cell: the grid following [focus] then had its corner at cell \
         ({corner_x}, {corner_y}) and spans {width} x {height} cells; time the impulse for a \
         step when the grid lies over it",
        one_of(*.landed)
    )]
    ImpulseMissed {
        /// The step it was timed for.
        step: u64,
        /// How many impulses landed in that step (the one named is the first of them that
        /// reached no cell of the grid or of a cascade).
        landed: usize,
        /// Its centre, world cells of the finest grid.
        x: f32,
        /// Its centre, world cells of the finest grid.
        y: f32,
        /// Its radius, cells of the finest grid.
        radius: f32,
        /// The grid's corner when it landed, world cells.
        corner_x: i64,
        /// The grid's corner when it landed, world cells.
        corner_y: i64,
        /// The grid's width, cells.
        width: usize,
        /// The grid's height, cells.
        height: usize,
    },
    /// A trajectory sink failed to take a row.
    #[error("recording trajectories: {0}")]
    Record(#[from] std::io::Error),
}

impl SceneError {
    /// The body named `name` failed during `step` (its step, or drawing its contact mask).
    pub(crate) fn body(name: &str, step: u64, source: BuoyancyError) -> Self {
        Self::Body {
            name: name.to_owned(),
            step,
            source,
        }
    }
}

/// ` (one of N that landed in it)` after a step where more than one impulse landed.
fn one_of(landed: usize) -> String {
    if landed > 1 {
        format!(" (one of {landed} that landed in it)")
    } else {
        String::new()
    }
}

/// ` ("NAME")` after a body's id, or nothing where the name is not known (empty).
fn named(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        format!(" ({name:?})")
    }
}
