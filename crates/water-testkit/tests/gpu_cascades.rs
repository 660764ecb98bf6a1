//! Cascades on the compute backend ([`Scene::set_cascades`] with [`Backend::Gpu`]): a towed
//! boat that the grid follows and a wide drop, in 3 cascades of the wave and of the dispersive
//! model (and of the wave model with the bodies reading the water one step late). Every
//! cascade's heights agree with the CPU reference's within `F32_TOLERANCE` after 200 steps of
//! stepping, following, drawing the boat's hulls and handing over (`shaders/relax_toward.wgsl`
//! against its CPU twin); the fragment backend is refused by name.

use glam::Vec2;
use water_core::{
    AiryDispersion, Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask,
    WaveParams,
};
use water_scene::{Backend, BodyWater, GridSpec, Scene, SceneError, SceneFocus, SceneSettings};
use water_testkit::setup::towed_boat;
use water_testkit::{assert_f32_within, gpu_or_return, F32_TOLERANCE};

/// Finest cell, m; cells a side; steps run.
const CELL: f64 = 0.25;
const SIDE: usize = 128;
const STEPS: u64 = 200;
const CASCADES: usize = 3;

/// An absorbing signed grid of [`SIDE`]² cells of [`CELL`] m: the wave model at 2 m/s, or deep
/// dispersive water.
fn spec(dispersive: bool) -> GridSpec {
    let size = GridSize::new(SIDE, SIDE).expect("size");
    let params = WaveParams::new(CELL, 2.0, 0.05, Damping::NONE).expect("stable");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    if dispersive {
        spec.with_dispersion(AiryDispersion::gravity_waves(9.81).expect("airy"))
    } else {
        spec
    }
}

/// The run on `backend`: the boat from the grid's centre, a drop of 8 finest cells' radius
/// (4 cells of cascade 1, 2 of cascade 2: it lands in all three) behind it, 200 steps. Gives
/// every cascade's heights, finest first.
fn run(
    spec: GridSpec,
    (backend, body_water): (Backend, BodyWater),
    gpu: Option<&water_gpu::GpuContext>,
) -> Result<Vec<Vec<f32>>, SceneError> {
    let settings = SceneSettings {
        backend,
        body_water,
        ..SceneSettings::default()
    };
    let mut scene = Scene::new(spec, LandMask::empty(spec.size), settings, gpu)?;
    scene.set_cascades(CASCADES)?;
    // A 40 kg boat from the grid's centre, towed along +x at 2 m/s (10 m, 40 finest cells,
    // over the run), which the grid follows.
    let centre = SIDE as f32 * CELL as f32 / 2.0;
    let boat = scene.add_body(towed_boat(Vec2::splat(centre), 2.0))?;
    scene.set_focus(Some(SceneFocus::Body(boat)))?;
    let drop = Impulse::new(Vec2::new(40.0, 64.0), 8.0, 0.05, ImpulseShape::Cosine)?;
    scene.add_impulse(drop);
    scene.step_many(STEPS)?;
    assert!(
        scene.window_origin_cells().x >= 30,
        "{backend:?}: the grid followed the boat ({})",
        scene.window_origin_cells()
    );
    (0..CASCADES).map(|k| scene.cascade_heights(k)).collect()
}

#[test]
fn cascades_on_the_compute_backend_agree_with_the_cpu_reference() {
    let gpu = gpu_or_return!("cascades_on_the_compute_backend_agree_with_the_cpu_reference");
    // The bodies read every cascade, or (one step late) the grid's patches alone.
    let runs = [
        (false, BodyWater::Current),
        (true, BodyWater::Current),
        (false, BodyWater::OneStepLate),
    ];
    for (dispersive, body_water) in runs {
        let model = if dispersive { "dispersive" } else { "wave" };
        let model = format!("{model}, {body_water}");
        let spec = spec(dispersive);
        let cpu = run(spec, (Backend::Cpu, body_water), None).expect("cpu run");
        let on_gpu = run(spec, (Backend::Gpu, body_water), Some(&gpu)).expect("gpu run");
        for (k, (reference, candidate)) in cpu.iter().zip(&on_gpu).enumerate() {
            // Water in every cascade: the drop and the boat's wake, and in the coarser ones
            // what the hand-over brought them.
            let peak = reference.iter().fold(0.0f32, |m, h| m.max(h.abs()));
            assert!(
                peak > 1e-3,
                "{model}, cascade {k}: water to compare ({peak})"
            );
            assert_f32_within(
                &format!("{model} model, cascade {k}, gpu vs cpu"),
                SIDE,
                reference,
                candidate,
                F32_TOLERANCE,
            );
        }
    }
}

#[test]
fn cascades_are_refused_on_the_fragment_backend() {
    let gpu = gpu_or_return!("cascades_are_refused_on_the_fragment_backend");
    let settings = SceneSettings {
        backend: Backend::GpuFragment,
        ..SceneSettings::default()
    };
    let spec = spec(false);
    let mut scene =
        Scene::new(spec, LandMask::empty(spec.size), settings, Some(&gpu)).expect("scene");
    let err = scene.set_cascades(2).expect_err("fragment");
    assert!(
        matches!(err, SceneError::Cascades { .. }) && err.to_string().contains("gpu-fragment"),
        "{err}"
    );
    assert_eq!(scene.cascade_count(), 1);
}
