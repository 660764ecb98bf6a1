//! One scene, three backends: a boat pushed across the water by a force and two free crates
//! give the same trajectories on the CPU and on both GPU backends, and on each the boat raises
//! water ahead of its bow and lowers it behind its stern. With masks drawn on the GPU, a body
//! refused as it is added leaves no meshes for the next one.

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{Boundary, Damping, GridMode, GridSize, HeightView, LandMask, WaveParams};
use water_scene::Water as _;
use water_scene::{
    Backend, BodyId, BodySpec, BodyWater, GridSpec, MaskSource, OwnedRow, Scene, SceneSettings,
};
use water_testkit::gpu_or_return;

/// How far a body's path may drift between the CPU and a GPU backend over the run, metres. The
/// bodies read heights that agree to `F32_TOLERANCE` (2e-4) of the largest wave height (about
/// 0.05 m here: 1e-5 m), and a floating body follows the surface it reads, so its position
/// errs by about as much. Seen: 9e-8 m. A wrong coupling (a lost impulse, a mask a step late) moves
/// bodies by millimetres.
const TRAJECTORY_TOLERANCE: f32 = 1e-5;

/// Steps in the run.
const STEPS: u64 = 240;

/// A floating box of full size `size` and `mass`, resting at its draft at `at` (x, y).
fn floating_box(size: Vec3, mass: f32, x: f32, y: f32) -> FloatingBody {
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let pose = Pose::new(Vec3::new(x, y, size.z * 0.5 - draft), Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT).expect("float")
}

/// The scene on `backend`: 128 x 80 cells of 0.05 m, a 0.8 m boat pushed along +x at the
/// left, two crates in its way. Returns the scene and the boat's id.
fn harbour(
    backend: Backend,
    body_water: BodyWater,
    gpu: Option<&water_gpu::GpuContext>,
) -> (Scene, BodyId) {
    let size = GridSize::new(128, 80).expect("size");
    let params = WaveParams::new(0.05, 0.8, 1.0 / 60.0, Damping::PerSecond(0.95)).expect("stable");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    let settings = SceneSettings {
        backend,
        contact_amplitude: 0.02,
        body_water,
        ..SceneSettings::default()
    };
    let mut scene = Scene::new(spec, LandMask::empty(size), settings, gpu).expect("scene");
    let boat = scene
        .add_body(BodySpec {
            force: Vec3::new(8.0, 0.0, 0.0),
            ..BodySpec::new(
                "boat",
                floating_box(Vec3::new(0.8, 0.3, 0.2), 12.0, 1.0, 2.0),
            )
        })
        .expect("boat");
    for (k, (x, y)) in [(2.6, 2.45), (3.4, 1.55)].into_iter().enumerate() {
        scene
            .add_body(BodySpec::new(
                format!("crate-{k}"),
                floating_box(Vec3::new(0.3, 0.3, 0.2), 6.0, x, y),
            ))
            .expect("crate");
    }
    (scene, boat)
}

/// Mean height over the cells `[x0, x1) x [y0, y1)`.
fn mean_height(view: &HeightView<'_>, x0: usize, x1: usize, y0: usize, y1: usize) -> f32 {
    let h = view.cell_size();
    let mut sum = 0.0;
    for y in y0..y1 {
        for x in x0..x1 {
            let centre = glam::Vec2::new((x as f32 + 0.5) * h, (y as f32 + 0.5) * h);
            sum += view.nearest(centre).expect("inside the grid");
        }
    }
    sum / ((x1 - x0) * (y1 - y0)) as f32
}

/// The boat and crates on every backend, their rows a step each (the boat's, then the
/// crates'), after checking the boat's bow and stern waves.
fn runs(gpu: &water_gpu::GpuContext, body_water: BodyWater) -> Vec<(Backend, Vec<OwnedRow>)> {
    let mut runs: Vec<(Backend, Vec<OwnedRow>)> = Vec::new();
    for backend in Backend::ALL {
        let context = (backend != Backend::Cpu).then_some(gpu);
        let (mut scene, boat) = harbour(backend, body_water, context);
        let mut rows = Vec::new();
        for step in 0..STEPS {
            scene.step().expect("step");
            scene.record(&mut rows).expect("record");
            // Which water the bodies read: the step's own, or one older after the first step.
            let expected = match body_water {
                BodyWater::Current => step,
                BodyWater::OneStepLate => step.saturating_sub(1),
            };
            assert_eq!(scene.body(boat).expect("boat").water_step, Some(expected));
        }
        // The boat's bow and stern, in cells along its centre line.
        let b = scene.body(boat).expect("boat");
        assert!(
            b.velocity.x > 0.2,
            "{backend}: the push moves the boat: {}",
            b.velocity
        );
        let h = scene.spec().params.cell_size() as f32;
        let bow = ((b.position.x + 0.4) / h) as usize;
        let stern = ((b.position.x - 0.4) / h) as usize;
        let row = (b.position.y / h) as usize;
        let heights = scene.water().heights().expect("heights");
        let view = HeightView::new(scene.spec().size, h, &heights).expect("view");
        let ahead = mean_height(&view, bow + 1, bow + 4, row - 2, row + 3);
        let behind = mean_height(&view, stern - 3, stern, row - 2, row + 3);
        assert!(
            ahead > 0.0,
            "{backend}: water ahead of the bow rises: {ahead} m"
        );
        assert!(
            behind < 0.0,
            "{backend}: water behind the stern falls: {behind} m"
        );
        eprintln!("{backend}: ahead of the bow {ahead:+.5} m, behind the stern {behind:+.5} m");
        runs.push((backend, rows));
    }
    runs
}

/// The largest distance between the same body's positions at the same step in two runs, m.
fn largest_difference(a: &[OwnedRow], b: &[OwnedRow]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(a, b)| a.position.distance(b.position))
        .fold(0.0f32, f32::max)
}

/// On a GPU backend the bodies read patches of the water gathered on the device
/// ([`water_gpu::PatchReader`]), never the whole field; reading the step's own water they
/// follow the CPU's bodies as closely as the heights agree, and reading it one step late they
/// follow the CPU's bodies that read it one step late just as closely. The lag itself moves
/// the bodies by under 2 mm in the first two seconds (a 0.8 m boat reaching 0.55 m/s through
/// its own bow wave), and by more than the backends differ.
#[test]
fn a_pushed_boat_and_crates_move_alike_on_every_backend() {
    let gpu = gpu_or_return!("a_pushed_boat_and_crates_move_alike_on_every_backend");
    let mut references = Vec::new();
    for body_water in [BodyWater::Current, BodyWater::OneStepLate] {
        let runs = runs(&gpu, body_water);
        let (_, reference) = &runs[0];
        let n = reference.len();
        let moved = (1..3)
            .map(|k| {
                reference[k]
                    .position
                    .distance(reference[n - 3 + k].position)
            })
            .fold(0.0f32, f32::max);
        eprintln!("{body_water:?}: the crates move up to {moved} m");
        assert!(moved > 0.005, "the crates move: {moved} m");
        for (backend, rows) in &runs[1..] {
            let worst = largest_difference(reference, rows);
            eprintln!(
                "{body_water:?} {backend}: largest trajectory difference from the CPU {worst:.2e} m"
            );
            assert!(
                worst <= TRAJECTORY_TOLERANCE,
                "{body_water:?} {backend}: trajectories differ from the CPU by {worst} m, over \
                 {TRAJECTORY_TOLERANCE} m"
            );
        }
        references.push(runs.into_iter().next().expect("the CPU's run").1);
    }
    // Over the first two seconds, while the boat runs free; then its heave against the
    // crate ahead is unstable (it bounces at up to 1 m/s on either setting), and the lag's
    // difference grows with it.
    let calm = 3 * STEPS as usize / 2;
    let lag = largest_difference(&references[0][..calm], &references[1][..calm]);
    let whole = largest_difference(&references[0], &references[1]);
    eprintln!(
        "reading the water one step late moves the bodies by up to {lag:.2e} m in the first \
         two seconds, {whole:.2e} m over the run"
    );
    assert!(
        (10.0 * TRAJECTORY_TOLERANCE..2e-3).contains(&lag),
        "one step late: {lag} m"
    );
}

/// With masks drawn on the GPU from the hulls' meshes, a body refused as it is added (a force
/// that is not finite) leaves no meshes behind: the crate added after it, alone or in the same
/// batch, is drawn with its own hull, the masks bit for bit those of a scene given the crate
/// alone (a 1 m hull's meshes left in the list would be drawn at the crate's pose).
#[test]
fn a_refused_body_leaves_no_meshes_for_the_next_one() {
    let gpu = gpu_or_return!("a_refused_body_leaves_no_meshes_for_the_next_one");
    let scene = || {
        let size = GridSize::new(64, 64).expect("size");
        let params =
            WaveParams::new(0.05, 0.8, 1.0 / 60.0, Damping::PerSecond(0.95)).expect("stable");
        let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
        let settings = SceneSettings {
            backend: Backend::Gpu,
            masks: MaskSource::Gpu,
            ..SceneSettings::default()
        };
        Scene::new(spec, LandMask::empty(size), settings, Some(&gpu)).expect("scene")
    };
    let refused = || BodySpec {
        force: Vec3::new(f32::NAN, 0.0, 0.0),
        ..BodySpec::new(
            "refused",
            floating_box(Vec3::new(1.0, 1.0, 0.4), 100.0, 2.4, 1.6),
        )
    };
    let small = || {
        BodySpec::new(
            "crate",
            floating_box(Vec3::new(0.3, 0.3, 0.2), 6.0, 1.6, 1.6),
        )
    };
    let mut alone = scene();
    alone.add_body(small()).expect("crate");
    let mut one_by_one = scene();
    one_by_one.add_body(refused()).expect_err("a NaN force");
    one_by_one.add_body(small()).expect("crate");
    let mut batch = scene();
    let added = batch.add_bodies([refused(), small()]).expect("masks");
    assert!(added[0].is_err() && added[1].is_ok());
    let (want, _) = alone.contact_masks().expect("masks");
    assert!(want.iter().any(|&m| m > 0.0), "the crate is drawn");
    for (how, scene) in [("one by one", &mut one_by_one), ("in a batch", &mut batch)] {
        let (got, _) = scene.contact_masks().expect("masks");
        assert!(
            got == want,
            "{how}: the crate's mask differs from its own hull's"
        );
        scene.step().expect("step");
    }
}
