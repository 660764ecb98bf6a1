//! A towed hull's wake is a property of the hull and the water, not of the step.
//!
//! With the pressure-patch source ([`ContactSource::Displacement`], masks carrying the hull's
//! draft):
//! - a 1.0 m x 0.4 m footprint pressing 5 cm into deep dispersive water, towed at 0.8 m/s for
//!   15 s, leaves a wake whose RMS height 1.5 to 8 m behind it (within 4 m of the track) is the
//!   same at `dt`, `dt/2` and `dt/4` within 5% and on cells of `h` and `h/2` within 10%;
//! - in a scene, a floating 60 kg box (1.2 m x 0.5 m x 0.3 m, at its Archimedes draft of 0.1 m)
//!   towed at 0.8 m/s for 12 s leaves the same wake at dt = 1/60, 1/120 and 1/240 s within 5%.
//!
//! The classic events, a height set once a step, inject a vertical speed of `A C / dt`: their
//! wake grows as the step shrinks, which the events' tests show (the failure the pressure patch
//! replaces). docs/math.md, section 6.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{
    AiryDispersion, Boundary, ContactMasks, ContactSource, Damping, DispersiveGrid, GridMode,
    GridSize, GridWater, LandMask, WaveParams,
};
use water_gpu::GpuContext;
use water_gpu::GridSpec;
use water_scene::Water as _;
use water_scene::{Backend, BodySpec, MaskSource, Scene, SceneError, SceneSettings, TowPath};
use water_testkit::{assert_f32_within, gpu_or_return, F32_TOLERANCE};

/// The water, metres along and across the tow.
const LENGTH: f64 = 32.0;
const WIDTH: f64 = 16.0;
/// Where the tow starts, metres from the left edge (clear of the 24-cell sponge at any cell
/// size here).
const START: f64 = 4.0;
const SPEED: f64 = 0.8;

/// The wake's RMS height, m: over the cells (of `cell` m, `width` a row) 1.5 to 8 m behind
/// `x_hull` and within 4 m of the track at `y = WIDTH / 2`.
fn wake_rms(heights: &[f32], width: usize, cell: f64, x_hull: f64) -> f64 {
    let (mut sum, mut count) = (0.0_f64, 0_u32);
    for (i, &v) in heights.iter().enumerate() {
        let (x, y) = (
            ((i % width) as f64 + 0.5) * cell,
            ((i / width) as f64 + 0.5) * cell,
        );
        if (1.5..=8.0).contains(&(x_hull - x)) && (y - WIDTH / 2.0).abs() <= 4.0 {
            assert!(v.is_finite(), "a finite wake");
            sum += f64::from(v) * f64::from(v);
            count += 1;
        }
    }
    (sum / f64::from(count)).sqrt()
}

/// The relative spread of `values`: (largest - smallest) / smallest.
fn spread(values: &[f64]) -> f64 {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(0.0, f64::max);
    (hi - lo) / lo
}

fn grid_size(cell: f64) -> GridSize {
    GridSize::new(
        (LENGTH / cell).round() as usize,
        (WIDTH / cell).round() as usize,
    )
    .expect("size")
}

fn airy() -> AiryDispersion {
    AiryDispersion::gravity_waves(9.81).expect("airy")
}

// A footprint towed through the water's own masks.

/// The footprint's length and beam on the still water, metres, and its draft.
const HULL_LENGTH: f64 = 1.0;
const HULL_BEAM: f64 = 0.4;
const DRAFT: f32 = 0.05;
const TOW_SECONDS: f64 = 15.0;

/// Tows the footprint along the middle of dispersive deep water of `cell` m cells at `dt` s a
/// step, its masks feeding `source` with amplitude `amplitude`; gives [`wake_rms`].
fn towed_footprint_wake_rms(cell: f64, dt: f64, source: ContactSource, amplitude: f32) -> f64 {
    let size = grid_size(cell);
    let w = size.width();
    let mut sea = DispersiveGrid::new(size, cell, dt, Damping::NONE, airy(), Boundary::Absorbing)
        .expect("a stable step");
    let mut contacts = ContactMasks::new(size, amplitude)
        .expect("contacts")
        .with_source(source);
    let value = match source {
        ContactSource::Displacement => DRAFT,
        // The events' speed factor: the hull's speed.
        ContactSource::Events => SPEED as f32,
    };
    let steps = (TOW_SECONDS / dt).round() as u64;
    let mut mask = vec![0.0_f32; size.cells()];
    let mut x_hull = START;
    for step in 1..=steps {
        x_hull = START + SPEED * dt * step as f64;
        // A cell is under the hull when its centre is inside the footprint.
        for (i, m) in mask.iter_mut().enumerate() {
            let (x, y) = (((i % w) as f64 + 0.5) * cell, ((i / w) as f64 + 0.5) * cell);
            let inside =
                (x - x_hull).abs() < HULL_LENGTH / 2.0 && (y - WIDTH / 2.0).abs() < HULL_BEAM / 2.0;
            *m = if inside { value } else { 0.0 };
        }
        contacts.advance(&mask).expect("a valid mask");
        sea.step_with_contacts(&contacts).expect("a step");
    }
    wake_rms(sea.field().current(), w, cell, x_hull)
}

#[test]
fn a_towed_footprints_wake_is_the_same_at_dt_dt_over_2_and_dt_over_4() {
    let rms: Vec<f64> = [0.02, 0.01, 0.005]
        .iter()
        .map(|&dt| towed_footprint_wake_rms(0.1, dt, ContactSource::Displacement, 1.0))
        .collect();
    eprintln!("wake RMS at dt = 0.02, 0.01, 0.005 s: {rms:?} m");
    // A wake there, of the size a 5 cm draft makes (not a vanishing one that agrees trivially).
    assert!(rms[0] > 0.1 * f64::from(DRAFT), "{rms:?}");
    assert!(
        spread(&rms) < 0.05,
        "{rms:?}: {:.1}% apart",
        100.0 * spread(&rms)
    );
}

#[test]
fn a_towed_footprints_wake_is_the_same_on_cells_of_h_and_h_over_2() {
    let rms: Vec<f64> = [0.1, 0.05]
        .iter()
        .map(|&cell| towed_footprint_wake_rms(cell, 0.01, ContactSource::Displacement, 1.0))
        .collect();
    eprintln!("wake RMS on cells of 0.1 and 0.05 m: {rms:?} m");
    assert!(rms[0] > 0.1 * f64::from(DRAFT), "{rms:?}");
    assert!(
        spread(&rms) < 0.10,
        "{rms:?}: {:.1}% apart",
        100.0 * spread(&rms)
    );
}

#[test]
fn the_classic_events_wake_grows_as_the_step_shrinks() {
    let rms: Vec<f64> = [0.02, 0.005]
        .iter()
        .map(|&dt| towed_footprint_wake_rms(0.1, dt, ContactSource::Events, 0.02))
        .collect();
    eprintln!("events' wake RMS at dt = 0.02 and 0.005 s: {rms:?} m");
    assert!(rms[1] > 2.0 * rms[0], "{rms:?}");
}

// A floating boat towed through a scene.

const BOAT_CELL: f64 = 0.1;
const BOAT_TOW_SECONDS: f64 = 12.0;
const BOAT_SIZE: Vec3 = Vec3::new(1.2, 0.5, 0.3);
const BOAT_MASS: f32 = 60.0;

fn dispersive_spec(dt: f64) -> GridSpec {
    let params = WaveParams::new(BOAT_CELL, 1.0, dt, Damping::NONE).expect("params");
    GridSpec::new(
        grid_size(BOAT_CELL),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
    .with_dispersion(airy())
}

fn settings(source: ContactSource, amplitude: f32) -> SceneSettings {
    SceneSettings {
        contact_source: source,
        contact_amplitude: amplitude,
        ..SceneSettings::default()
    }
}

/// Tows the boat from `START` along the middle of `spec`'s water for `steps` steps with
/// `settings` (on `gpu` for a GPU backend); gives the heights and the boat's final x, m.
fn tow_boat(
    spec: GridSpec,
    settings: SceneSettings,
    gpu: Option<&GpuContext>,
    steps: u64,
) -> (Vec<f32>, f64) {
    tow_boat_by_land(spec, LandMask::empty(spec.size), settings, gpu, steps)
}

/// [`tow_boat`] with `land`.
fn tow_boat_by_land(
    spec: GridSpec,
    land: LandMask,
    settings: SceneSettings,
    gpu: Option<&GpuContext>,
    steps: u64,
) -> (Vec<f32>, f64) {
    let mut scene = Scene::new(spec, land, settings, gpu).expect("scene");
    let draft = box_draft(BOAT_MASS, FRESH_WATER_DENSITY, BOAT_SIZE.x * BOAT_SIZE.y);
    let cell = spec.params.cell_size();
    let (start, track) = (
        START as f32,
        (spec.size.height() as f64 * cell / 2.0) as f32,
    );
    let shape = Shape::cuboid(BOAT_SIZE * 0.5).expect("shape");
    let pose = Pose::new(
        Vec3::new(start, track, BOAT_SIZE.z / 2.0 - draft),
        Quat::IDENTITY,
    )
    .expect("pose");
    let body = RigidBody::from_shape(&shape, BOAT_MASS, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let boat = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("boat");
    let end = (spec.size.width() as f64 * cell) as f32 - 2.0;
    let path = TowPath::new(
        vec![Vec2::new(start, track), Vec2::new(end, track)],
        SPEED as f32,
    )
    .expect("path");
    let id = scene
        .add_body(BodySpec::new("boat", boat).towed(path))
        .expect("boat added");
    scene.step_many(steps).expect("steps");
    let x_boat = f64::from(scene.body(id).expect("boat").position.x);
    (scene.water().heights().expect("heights"), x_boat)
}

/// Tows the boat at `dt` with `settings`; gives [`wake_rms`].
fn towed_boat_wake_rms(dt: f64, settings: SceneSettings) -> f64 {
    let spec = dispersive_spec(dt);
    let steps = (BOAT_TOW_SECONDS / dt).round() as u64;
    let (heights, x_boat) = tow_boat(spec, settings, None, steps);
    wake_rms(&heights, spec.size.width(), BOAT_CELL, x_boat)
}

#[test]
fn a_towed_boats_wake_is_the_same_at_dt_dt_over_2_and_dt_over_4() {
    let rms: Vec<f64> = [1.0 / 60.0, 1.0 / 120.0, 1.0 / 240.0]
        .iter()
        .map(|&dt| towed_boat_wake_rms(dt, settings(ContactSource::Displacement, 1.0)))
        .collect();
    eprintln!("boat's wake RMS at dt = 1/60, 1/120, 1/240 s: {rms:?} m");
    assert!(
        rms[0] > 5e-3,
        "a wake of the size a 10 cm draft makes: {rms:?}"
    );
    assert!(
        spread(&rms) < 0.05,
        "{rms:?}: {:.1}% apart",
        100.0 * spread(&rms)
    );
}

/// On the wave model (`c` = 1.5 m/s, the Bevy plugin's default; the boat slower than `c`, so
/// the continuum leaves no wake and what is behind it is the start's transient and the grid's
/// own dispersion) the pressure patch's wake does not grow as the step shrinks: at dt/4 it is
/// within 25% of dt, where the events' grows more than 2x.
#[test]
fn on_the_wave_model_the_boats_wake_does_not_grow_as_the_step_shrinks() {
    let wake = |dt: f64, source, amplitude| {
        let params = WaveParams::new(BOAT_CELL, 1.5, dt, Damping::NONE).expect("params");
        let spec = GridSpec::new(
            grid_size(BOAT_CELL),
            params,
            Boundary::Absorbing,
            GridMode::Signed,
        );
        let steps = (BOAT_TOW_SECONDS / dt).round() as u64;
        let (heights, x_boat) = tow_boat(spec, settings(source, amplitude), None, steps);
        wake_rms(&heights, spec.size.width(), BOAT_CELL, x_boat)
    };
    let patch = [1.0 / 60.0, 1.0 / 240.0].map(|dt| wake(dt, ContactSource::Displacement, 1.0));
    let events = [1.0 / 60.0, 1.0 / 240.0].map(|dt| wake(dt, ContactSource::Events, 0.01));
    eprintln!("wave model, dt = 1/60 and 1/240 s: pressure patch {patch:?} m, events {events:?} m");
    assert!(patch[0] > 1e-3, "a wake: {patch:?}");
    assert!(patch[1] < 1.25 * patch[0], "{patch:?}");
    assert!(events[1] > 2.0 * events[0], "{events:?}");
}

#[test]
fn with_the_classic_events_the_same_boats_wake_grows_as_the_step_shrinks() {
    let rms: Vec<f64> = [1.0 / 60.0, 1.0 / 240.0]
        .iter()
        .map(|&dt| towed_boat_wake_rms(dt, settings(ContactSource::Events, 0.01)))
        .collect();
    eprintln!("events' wake RMS at dt = 1/60 and 1/240 s: {rms:?} m");
    assert!(rms[1] > 2.0 * rms[0], "{rms:?}");
}

/// The pressure patch is the same on every backend: the boat towed for 4 s with masks drawn on
/// the CPU leaves heights within the project's CPU/GPU tolerance (`F32_TOLERANCE` of the
/// largest) of the CPU's on the wave model (compute and fragment backends; absorbing edges,
/// and fixed edges with land under the track) and on dispersive water (compute; with and
/// without land), and the boat ends where it does on the CPU within 1e-5 m. A backend that
/// stepped the events instead, or moved only the new level, would differ by the whole wake.
#[test]
fn the_pressure_patch_is_the_same_on_every_backend() {
    let gpu = gpu_or_return!("the_pressure_patch_is_the_same_on_every_backend");
    let size = GridSize::new(128, 64).expect("size");
    let dt = 1.0 / 60.0;
    let params = WaveParams::new(BOAT_CELL, 1.0, dt, Damping::NONE).expect("params");
    let wave = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    let dispersive = wave.with_dispersion(airy());
    let fixed = GridSpec::new(size, params, Boundary::Fixed, GridMode::Signed);
    // A strip of land across the track from x = 6 to 7 m, which the boat crosses: the patch
    // must leave its cells dry on every backend.
    let mut shoal = LandMask::empty(size);
    shoal.add_rect(60, 30, 70, 33).expect("land");
    let none = LandMask::empty(size);
    let both = &[Backend::Gpu, Backend::GpuFragment][..];
    let cases = [
        ("wave model", wave, none.clone(), both),
        (
            "wave model, fixed edges, land under the track",
            fixed,
            shoal.clone(),
            both,
        ),
        ("dispersive", dispersive, none, &[Backend::Gpu][..]),
        (
            "dispersive, land under the track",
            dispersive,
            shoal,
            &[Backend::Gpu][..],
        ),
    ];
    for (model, spec, land, backends) in cases {
        let settings = |backend| SceneSettings {
            backend,
            ..settings(ContactSource::Displacement, 1.0)
        };
        let tow = |backend, gpu| tow_boat_by_land(spec, land.clone(), settings(backend), gpu, 240);
        let (reference, x_cpu) = tow(Backend::Cpu, None);
        assert!(
            reference.iter().any(|&v| v.abs() > 1e-3),
            "{model}: a wake to compare"
        );
        for &backend in backends {
            let (heights, x_gpu) = tow(backend, Some(&gpu));
            let name = format!("pressure patch, {model}, {backend}");
            let c = assert_f32_within(&name, size.width(), &reference, &heights, F32_TOLERANCE);
            eprintln!("{name}: max |diff| {:.2e} of {:.2e}", c.max_abs, c.scale);
            assert!(
                (x_gpu - x_cpu).abs() < 1e-5,
                "{name}: the boat at {x_gpu} m against {x_cpu} m"
            );
        }
    }
    // f16 storage would round the shift on each level on its own: refused by name.
    let mut grid = water_gpu::ComputeGrid::with_storage(
        &gpu.device,
        &gpu.queue,
        wave,
        water_gpu::StorageFormat::F16,
    )
    .expect("grid");
    let contacts = ContactMasks::new(size, 1.0)
        .expect("masks")
        .with_source(ContactSource::Displacement);
    let err = water_gpu::GpuGridWater::step_with_contacts(&mut grid, &contacts).expect_err("f16");
    assert!(
        matches!(err, water_gpu::GpuError::StorageNotOffered { .. }),
        "{err:?}"
    );
    assert_eq!(water_gpu::GpuGridWater::steps_taken(&grid), 0);
}

/// Masks drawn on the GPU feed the bow and stern events only: the pressure patch with them is
/// refused by name rather than run as the events.
#[test]
fn the_pressure_patch_with_gpu_masks_is_refused_naming_it() {
    let spec = dispersive_spec(1.0 / 60.0);
    let settings = SceneSettings {
        backend: Backend::Gpu,
        masks: MaskSource::Gpu,
        ..settings(ContactSource::Displacement, 1.0)
    };
    let err = Scene::new(spec, LandMask::empty(spec.size), settings, None).expect_err("refused");
    assert!(
        matches!(err, SceneError::ContactSourceWithGpuMasks { .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("displacement") && text.contains("gpu"),
        "{text}"
    );
}
