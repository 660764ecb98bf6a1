//! Bodies on the ambient sea: they float on the sea plus the grid's water, heave with a long
//! swell (the water's own amplitude and phase), and a long hull pitches less than a short one
//! because it averages the slope along its length; beyond the grid the sea alone carries them.

use std::f64::consts::TAU;

use glam::Vec3;
use water_buoyancy::{
    BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
};
use water_core::ocean::AmbientSea;
use water_core::{Damping, WaveParams};
use water_scene::{BodyId, BodySpec, Scene};

mod support;

const G: f64 = 9.81;
const DT: f64 = 0.02;

fn scene_on(sea: AmbientSea) -> Scene {
    let params = WaveParams::new(0.25, 1.0, DT, Damping::PerSecond(0.9)).expect("params");
    let mut scene = support::open_absorbing_scene(128, 128, params);
    scene.set_ocean(Some(sea));
    scene
}

/// A body of `shape` and `mass` at `at`, at rest.
fn add(scene: &mut Scene, name: &str, shape: Shape, mass: f32, at: Vec3) -> BodyId {
    let state = BodyState::at_rest(Pose::from_position(at).expect("pose"));
    let body = RigidBody::from_shape(&shape, mass, state).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let floating = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("floating");
    scene
        .add_body(BodySpec::new(name, floating))
        .expect("added")
}

/// Amplitude and phase (rad) of `samples` (one every `DT`) at angular frequency `omega`, over
/// whole periods from the end.
fn harmonic(samples: &[f64], omega: f64) -> (f64, f64) {
    let period_steps = (TAU / omega / DT).round() as usize;
    let n = period_steps * (samples.len() / period_steps).min(3);
    let tail = &samples[samples.len() - n..];
    let first = samples.len() - n;
    let mean = tail.iter().sum::<f64>() / n as f64;
    let (mut c, mut s) = (0.0, 0.0);
    for (i, v) in tail.iter().enumerate() {
        let t = (first + i) as f64 * DT;
        c += (v - mean) * (omega * t).cos();
        s += (v - mean) * (omega * t).sin();
    }
    let (c, s) = (2.0 * c / n as f64, 2.0 * s / n as f64);
    (c.hypot(s), s.atan2(c))
}

#[test]
fn a_small_buoy_heaves_with_a_long_swell() {
    // 60 m waves, 0.3 m amplitude: a 6.2 s period, far below the buoy's own heave frequency.
    let (amplitude, wavelength) = (0.3, 60.0);
    let omega = (G * TAU / wavelength).sqrt();
    let mut scene =
        scene_on(AmbientSea::regular_wave(amplitude, wavelength, G, None, 0.0).expect("sea"));
    let buoy = add(
        &mut scene,
        "buoy",
        Shape::sphere(0.2).expect("sphere"),
        16.0,
        Vec3::new(16.0, 16.0, 0.0),
    );
    let (mut body_z, mut water_z) = (Vec::new(), Vec::new());
    for _ in 0..1600 {
        scene.step().expect("step");
        let p = scene.body(buoy).expect("buoy").position;
        let surface = scene
            .surface_at(p)
            .expect("query")
            .expect("the sea is everywhere");
        body_z.push(f64::from(p.z));
        water_z.push(f64::from(surface.point.z));
    }
    let (body_amp, body_phase) = harmonic(&body_z, omega);
    let (water_amp, water_phase) = harmonic(&water_z, omega);
    let ratio = body_amp / water_amp;
    let lag = (body_phase - water_phase + TAU / 2.0).rem_euclid(TAU) - TAU / 2.0;
    eprintln!(
        "heave ratio {ratio:.4}, phase {:.2} degrees",
        lag.to_degrees()
    );
    assert!(
        (water_amp / amplitude - 1.0).abs() < 0.05,
        "the water heaves {water_amp} m"
    );
    assert!(
        (ratio - 1.0).abs() < 0.05,
        "the buoy heaves {ratio} times the water"
    );
    assert!(
        lag.to_degrees().abs() < 10.0,
        "phase {} degrees",
        lag.to_degrees()
    );
}

/// The largest pitch (radians, about y) over the last `steps` of a run.
fn pitch_amplitude(length: f32) -> f64 {
    let (amplitude, wavelength) = (0.3, 20.0);
    let mut scene =
        scene_on(AmbientSea::regular_wave(amplitude, wavelength, G, None, 0.0).expect("sea"));
    let half = Vec3::new(length / 2.0, 0.5, 0.25);
    // Half the box's volume of water: it floats at half its height.
    let mass = 0.5 * 8.0 * half.x * half.y * half.z * 1000.0;
    let id = add(
        &mut scene,
        "box",
        Shape::cuboid(half).expect("box"),
        mass,
        Vec3::new(16.0, 16.0, 0.0),
    );
    let mut worst = 0.0f64;
    for step in 0..1500 {
        scene.step().expect("step");
        if step >= 750 {
            let forward = scene.body(id).expect("box").orientation * Vec3::X;
            worst = worst.max(f64::from(forward.z).asin().abs());
        }
    }
    worst
}

#[test]
fn a_long_hull_pitches_less_than_a_short_one_on_the_same_swell() {
    let slope = 0.3 * TAU / 20.0;
    let short = pitch_amplitude(1.0);
    let long = pitch_amplitude(16.0);
    eprintln!("pitch: short {short:.4} rad, long {long:.4} rad, wave slope {slope:.4}");
    assert!(
        short > 0.6 * slope,
        "the short box follows the slope: {short} rad"
    );
    assert!(
        long < 0.5 * short,
        "the long box averages it: {long} against {short} rad"
    );
}

#[test]
fn a_body_beyond_the_grid_floats_on_the_sea_alone() {
    let mut scene = scene_on(AmbientSea::regular_wave(0.2, 30.0, G, None, 0.0).expect("sea"));
    // 60 m past the grid's 32 m edge.
    let id = add(
        &mut scene,
        "drifter",
        Shape::sphere(0.3).expect("sphere"),
        40.0,
        Vec3::new(92.0, 10.0, 0.0),
    );
    let mut lowest = f32::MAX;
    for _ in 0..500 {
        scene.step().expect("step");
        let b = scene.body(id).expect("drifter");
        assert!(!b.off_water, "the sea has no edge");
        lowest = lowest.min(b.position.z);
    }
    assert!(lowest > -0.6, "it floats: lowest {lowest} m");
}

/// A grid that follows a focus 1 km away leaves a box floating on the sea alone: it is never
/// off the water, and over the last 20 s its submerged volume averages its Archimedes volume
/// `m / rho` within 2% (on a 60 m swell 5 cm high the heave's acceleration is 0.5% of g).
#[test]
fn a_body_a_kilometre_from_the_focus_floats_at_its_archimedes_draft() {
    let mut scene = scene_on(AmbientSea::regular_wave(0.05, 60.0, G, None, 0.0).expect("sea"));
    scene
        .set_focus(Some(water_scene::SceneFocus::Point(Vec3::new(
            1000.0, 16.0, 0.0,
        ))))
        .expect("focus");
    assert!(scene.window_origin().x > 960.0, "the grid is 1 km away");
    let (mass, half) = (200.0, Vec3::new(0.5, 0.5, 0.25));
    let id = add(
        &mut scene,
        "buoy",
        Shape::cuboid(half).expect("box"),
        mass,
        Vec3::new(0.0, 16.0, 0.0),
    );
    let (mut sum, mut count) = (0.0, 0);
    for step in 0..3000 {
        scene.step().expect("step");
        let b = scene.body(id).expect("buoy");
        assert!(!b.off_water, "step {step}: the sea has no edge");
        if step >= 2000 {
            sum += f64::from(b.submerged_volume.expect("an Archimedes hull"));
            count += 1;
        }
    }
    let archimedes = f64::from(mass / FRESH_WATER_DENSITY);
    let mean = sum / f64::from(count);
    assert!(
        (mean / archimedes - 1.0).abs() < 0.02,
        "mean submerged volume {mean} m^3, Archimedes {archimedes} m^3"
    );
}

/// On a sea without end every finite point has a surface; a point that is not finite has none
/// (the sea's reads give NaN there): `None` from `surface_at` and from a batch query, never a
/// surface point of NaN.
#[test]
fn a_point_that_is_not_finite_has_no_surface_on_the_sea() {
    let mut scene = scene_on(AmbientSea::regular_wave(0.2, 30.0, G, None, 0.0).expect("sea"));
    scene.step().expect("step");
    let points = [
        Vec3::new(f32::NAN, 1.0, 0.0),
        Vec3::new(1.0, f32::INFINITY, 0.0),
        Vec3::new(92.0, 10.0, 0.0),
        Vec3::new(2.0, 3.0, 0.0),
    ];
    for p in &points[..2] {
        assert_eq!(scene.surface_at(*p).expect("CPU"), None, "at {p}");
    }
    let mut query = scene.query_surfaces(&points).expect("query");
    let answers = scene.surfaces(&mut query).expect("CPU").expect("at once");
    assert_eq!(answers[..2], [None, None]);
    for (p, a) in points[2..].iter().zip(&answers[2..]) {
        let s = a.expect("the sea is everywhere");
        assert!(s.point.is_finite() && s.normal.is_finite(), "at {p}: {s:?}");
    }
}
