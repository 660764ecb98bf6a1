//! Building what the tests run: GPU grids on either backend (still, with land, or rippled by
//! impulses), the CPU reference of the same spec, and sphere water at rest.

use glam::Vec2;
use water_core::{Damping, GridWater, Impulse, ImpulseShape, LandMask};
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec, StorageFormat};
use water_scene::{Backend, BackendGrid, CpuGrid};
use water_sphere::{Icosphere, SphereStepper, SphereWater};

/// Both GPU backends, the order every test runs them in.
pub const GPU_BACKENDS: [GpuBackend; 2] = [GpuBackend::Compute, GpuBackend::Fragment];

/// Still water of `spec` on `backend`.
///
/// # Panics
/// When the backend refuses the spec.
#[must_use]
pub fn gpu_grid(gpu: &GpuContext, backend: GpuBackend, spec: GridSpec) -> GpuGrid {
    GpuGrid::new(backend, &gpu.device, &gpu.queue, spec).expect("grid")
}

/// Still water of `spec` on `backend` stored as `storage`, dry where `land` is.
///
/// # Panics
/// When the backend refuses the spec, the storage or the land.
#[must_use]
pub fn gpu_grid_stored_with_land(
    gpu: &GpuContext,
    backend: GpuBackend,
    spec: GridSpec,
    storage: StorageFormat,
    land: LandMask,
) -> GpuGrid {
    let mut grid =
        GpuGrid::with_storage(backend, &gpu.device, &gpu.queue, spec, storage).expect("grid");
    grid.set_land(land).expect("land");
    grid
}

/// Still water of `spec` on `backend`, dry where `land` is.
///
/// # Panics
/// When the backend refuses the spec or the land.
#[must_use]
pub fn gpu_grid_with_land(
    gpu: &GpuContext,
    backend: GpuBackend,
    spec: GridSpec,
    land: LandMask,
) -> GpuGrid {
    let mut grid = gpu_grid(gpu, backend, spec);
    grid.set_land(land).expect("land");
    grid
}

/// Water of `spec` on `backend` after `impulses` and then `steps` steps.
///
/// # Panics
/// When the backend refuses the spec, an impulse or the steps.
#[must_use]
pub fn rippled_gpu_grid(
    gpu: &GpuContext,
    backend: GpuBackend,
    spec: GridSpec,
    impulses: &[Impulse],
    steps: u64,
) -> GpuGrid {
    let mut grid = gpu_grid(gpu, backend, spec);
    for impulse in impulses {
        grid.add_impulse(impulse).expect("impulse");
    }
    grid.step_many(steps).expect("steps");
    grid
}

/// A cosine bump of `radius` cells and height `amplitude` centred on cell `(x, y)`.
///
/// # Panics
/// For a negative or non-finite radius or amplitude.
#[must_use]
pub fn cosine_impulse(x: f32, y: f32, radius: f32, amplitude: f32) -> Impulse {
    Impulse::new(Vec2::new(x, y), radius, amplitude, ImpulseShape::Cosine).expect("impulse")
}

/// The CPU reference of `spec` (its mode's own stepper), dry where `land` is: the grid every
/// GPU result is checked against.
///
/// # Panics
/// When the CPU refuses the spec or the land.
#[must_use]
pub fn cpu_reference(spec: GridSpec, land: LandMask) -> Box<dyn GridWater> {
    match BackendGrid::new(spec, land, Backend::Cpu, None).expect("CPU reference") {
        BackendGrid::Cpu(CpuGrid::Signed(grid)) => Box::new(grid),
        BackendGrid::Cpu(CpuGrid::Split(grid)) => Box::new(grid),
        BackendGrid::Cpu(CpuGrid::Classic(grid)) => Box::new(grid),
        BackendGrid::Cpu(CpuGrid::Dispersive(grid)) => grid,
        BackendGrid::Gpu(_) => unreachable!("the CPU backend builds CPU grids"),
    }
}

/// Takes `steps` steps on `grid`: in one `step_many` call when `fused` (the compute backend
/// then fuses whole groups of steps into one dispatch), else one `step` call, and so one
/// dispatch, at a time.
///
/// # Panics
/// When a step fails.
pub fn step_fused_or_singly(grid: &mut impl GpuGridWater, steps: u64, fused: bool) {
    if fused {
        grid.step_many(steps).expect("steps");
    } else {
        for _ in 0..steps {
            grid.step().expect("step");
        }
    }
}

/// Still sphere water on an icosphere of `level` subdivisions and `radius`.
///
/// # Panics
/// When the icosphere or the stepper is refused.
#[must_use]
pub fn sphere_water(
    level: u32,
    radius: f32,
    stepper: SphereStepper,
    damping: Damping,
) -> SphereWater {
    let sphere = Icosphere::new(level, radius).expect("sphere");
    SphereWater::new(sphere, stepper, damping).expect("sphere water")
}

/// A 1.0 m x 0.5 m x 0.4 m, 40 kg boat named "boat", floating at its draft at `at` (m),
/// towed along +x at `speed` m/s (for 100 m).
///
/// # Panics
/// For a position or speed the body or its path refuses.
#[must_use]
pub fn towed_boat(at: Vec2, speed: f32) -> water_scene::BodySpec {
    use glam::{Quat, Vec3};
    use water_scene::water_buoyancy::{
        box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
        FRESH_WATER_DENSITY,
    };
    let size = Vec3::new(1.0, 0.5, 0.4);
    let mass = 40.0;
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let pose = Pose::new(at.extend(size.z / 2.0 - draft), Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let boat = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("float");
    let path =
        water_scene::TowPath::new(vec![at, at + Vec2::new(100.0, 0.0)], speed).expect("path");
    water_scene::BodySpec::new("boat", boat).towed(path)
}
