//! One sphere scene, three backends: a boat pushed along a 5 m planet and a crate beside it
//! give the same trajectories and the same wakes on the CPU and on both GPU backends (the bow
//! and stern events worked out on the host and added on the device), on damped water and on
//! undamped water whose mean level the keeper holds, with a click. The crate's draft against
//! Archimedes' is `water-scene`'s `tests/sphere_scene.rs` (on a planet large enough that the
//! surface's curvature under it is 0.14% of it); here it only has to follow the CPU's crate.

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::Damping;
use water_scene::{Backend, BodySpec, OwnedRow, SphereScene, SphereSceneSettings};
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};
use water_testkit::{assert_f32_within, gpu_or_return, F32_TOLERANCE};

/// How far a body's path may drift between the CPU and a GPU backend over the run, metres. The
/// bodies read heights that agree to `F32_TOLERANCE` (2e-4) of the largest wave height (about
/// 0.05 m here: 1e-5 m), and a floating body follows the surface it reads, so its position
/// errs by about as much.
const TRAJECTORY_TOLERANCE: f32 = 1e-5;

const RADIUS: f32 = 5.0;
const STEPS: u64 = 100;

/// A box of full size `size` and `mass` with its centre at `centre`, upright along the radius.
fn upright_box(size: Vec3, mass: f32, centre: Vec3) -> FloatingBody {
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let orientation = Quat::from_rotation_arc(Vec3::Z, centre.normalize());
    let pose = Pose::new(centre, orientation).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("floating body")
}

/// Damped water on a fine mesh (a wake that stands out), or undamped water on a coarse one,
/// where the mean-level keeper works: its period at level 4 (64 steps) falls three times in
/// the run, and each step with bodies edits the heights, which it must take as the caller's
/// on every backend alike.
#[derive(Debug, Clone, Copy)]
enum Case {
    Damped,
    Undamped,
}

/// The run on `backend`: its trajectories and its final heights.
fn run(backend: Backend, case: Case, gpu: &water_gpu::GpuContext) -> (Vec<OwnedRow>, Vec<f32>) {
    let stepper = SphereStepper::LaplaceBeltrami {
        wave_speed: 0.5,
        dt: 0.02,
    };
    let (level, damping, steps) = match case {
        Case::Damped => (6, Damping::PerSecond(0.9), STEPS),
        Case::Undamped => (4, Damping::PerStep(1.0), 2 * STEPS),
    };
    let sphere = Icosphere::new(level, RADIUS).expect("icosphere");
    let water = SphereWater::new(sphere, stepper, damping).expect("water");
    let settings = SphereSceneSettings {
        backend,
        ..SphereSceneSettings::new(0.02)
    };
    let context = (backend != Backend::Cpu).then_some(gpu);
    let mut scene = SphereScene::new(water, settings, context).expect("scene");
    let half = Vec3::new(0.4, 0.15, 0.1);
    let boat_mass = 0.5 * FRESH_WATER_DENSITY * 8.0 * half.x * half.y * half.z;
    let boat = scene
        .add_body(BodySpec::new(
            "boat",
            upright_box(half * 2.0, boat_mass, Vec3::Z * RADIUS),
        ))
        .expect("boat");
    let (crate_size, crate_mass) = (Vec3::new(0.4, 0.4, 0.3), 10.0);
    let draft = box_draft(crate_mass, FRESH_WATER_DENSITY, crate_size.x * crate_size.y);
    let crate_at = Vec3::new(0.0, 0.8, RADIUS).normalize() * (RADIUS + 0.15 - draft + 0.02);
    scene
        .add_body(BodySpec::new(
            "crate",
            upright_box(crate_size, crate_mass, crate_at),
        ))
        .expect("crate");
    // A click on the far side, its waves on their way as the bodies move.
    scene.add_impulse(SphereImpulse::new(Vec3::new(0.3, 0.2, -1.0), 0.5, 0.02).expect("click"));
    let mut rows = Vec::new();
    for _ in 0..steps {
        let b = scene.body(boat).expect("boat");
        let bow = b.orientation * Vec3::X;
        let normal = b.position.normalize();
        let push = (bow - bow.dot(normal) * normal).normalize() * 30.0;
        scene.set_force(boat, push, Vec3::ZERO).expect("push");
        scene.step().expect("step");
        scene.record(&mut rows).expect("record");
    }
    (rows, scene.heights().expect("heights"))
}

#[test]
fn a_pushed_boat_and_a_crate_on_sphere_water_move_alike_on_every_backend() {
    let gpu =
        gpu_or_return!("a_pushed_boat_and_a_crate_on_sphere_water_move_alike_on_every_backend");
    for case in [Case::Damped, Case::Undamped] {
        eprintln!("{case:?}:");
        compare_backends(&gpu, case);
    }
}

fn compare_backends(gpu: &water_gpu::GpuContext, case: Case) {
    let runs: Vec<_> = Backend::ALL
        .into_iter()
        .map(|b| (b, run(b, case, gpu)))
        .collect();
    let (_, (reference, heights)) = &runs[0];
    let wave = heights.iter().fold(0.0f32, |m, h| m.max(h.abs()));
    assert!(wave > 1e-3, "the boat made a wake: {wave} m");
    let mut crate_rows = reference.iter().filter(|r| r.body == "crate");
    let first = crate_rows.next().expect("the crate's rows").position;
    let crate_path = crate_rows
        .map(|r| r.position.distance(first))
        .fold(0.0f32, f32::max);
    assert!(crate_path > 1e-3, "the crate heaves: {crate_path} m");
    for (backend, (rows, gpu_heights)) in &runs[1..] {
        let worst = reference
            .iter()
            .zip(rows)
            .map(|(a, b)| a.position.distance(b.position))
            .fold(0.0f32, f32::max);
        eprintln!("{backend}: largest trajectory difference from the CPU {worst:.2e} m");
        assert_eq!(rows.len(), reference.len());
        assert!(
            worst <= TRAJECTORY_TOLERANCE,
            "{backend}: trajectories differ from the CPU by {worst} m, over {TRAJECTORY_TOLERANCE} m"
        );
        let c = assert_f32_within(
            &format!("sphere-scene-{backend}"),
            heights.len(),
            heights,
            gpu_heights,
            F32_TOLERANCE,
        );
        eprintln!(
            "{backend}: heights max |diff| {:.2e} of {:.2e}",
            c.max_abs, c.scale
        );
    }
}

/// Heights added on the device are checked first: another count than the mesh's vertices, or a
/// NaN or infinite value, is refused by name on both backends and leaves the water as it was.
#[test]
fn added_heights_of_the_wrong_length_or_not_finite_are_refused() {
    use water_gpu::{GpuBackend, GpuError, GpuSphere, GpuSphereWater};
    let gpu = gpu_or_return!("added_heights_of_the_wrong_length_or_not_finite_are_refused");
    let stepper = SphereStepper::Mean { a: 0.5 };
    let sphere = Icosphere::new(2, 1.0).expect("icosphere");
    let cpu = SphereWater::new(sphere, stepper, Damping::PerStep(1.0)).expect("water");
    let n = cpu.heights().len();
    for backend in [GpuBackend::Compute, GpuBackend::Fragment] {
        let mut water = GpuSphere::new(backend, &gpu.device, &gpu.queue, &cpu).expect("gpu");
        let err = water.add_heights(&vec![0.1; n - 1]).expect_err("short");
        assert!(
            matches!(err, GpuError::HeightsLengthMismatch { expected, actual } if expected == n && actual == n - 1),
            "{err:?}"
        );
        let mut bad = vec![0.1; n];
        bad[7] = f32::NAN;
        let err = water.add_heights(&bad).expect_err("NaN");
        assert!(err.to_string().contains("vertex 7"), "{err}");
        bad[7] = f32::INFINITY;
        assert!(water.add_heights(&bad).is_err(), "infinite");
        assert!(
            water.heights().expect("heights").iter().all(|&h| h == 0.0),
            "{backend:?}: nothing was added"
        );
        water.add_heights(&vec![0.25; n]).expect("good heights");
        assert!(
            water.heights().expect("heights").iter().all(|&h| h == 0.25),
            "{backend:?}: each vertex takes its height"
        );
    }
}
