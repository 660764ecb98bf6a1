//! Kelvin across cascades: a hull towed on deep dispersive water inside three cascades that
//! follow it leaves a wake whose half-angle, measured in cascade 1 beyond the finest grid's
//! trailing edge (where only cascade 1 carries it), is Kelvin's 19.47 degrees within 1.5.
//! Cascade 1 draws the hull too, so this shows the angle the cascade carries, not that the
//! finest grid's wake was handed on (`tests/cascades.rs` in water-scene tests the hand-over;
//! docs/math.md section 17).

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{AiryDispersion, Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_scene::{BodySpec, GridSpec, Scene, SceneFocus, SceneSettings};

const G: f64 = 9.81;
/// The finest grid: 384 x 192 cells of 5 cm (19.2 m x 9.6 m), so its trailing edge is 9.6 m
/// behind the hull it follows; cascade 1 (10 cm cells) reaches 19.2 m behind, its sponge the
/// last 2.4 m of that.
const CELL: f64 = 0.05;
const WIDTH: usize = 384;
const HEIGHT: usize = 192;
const DT: f64 = 0.02;
/// Tow speed, m/s, and the hull's length, m: hull Froude number `U / sqrt(g L)` = 0.43.
const SPEED: f32 = 1.2;
const LENGTH: f32 = 0.8;
/// Kelvin's half-angle, `asin(1/3)`, degrees, and how far the measured one may be from it.
const KELVIN_DEGREES: f64 = 19.471_220_634;
const ANGLE_TOLERANCE: f64 = 1.5;

/// The least-squares slope of `y` against `x` through `points` `(x, y)`.
fn fitted_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    sxy / sxx
}

/// The wake's half-angle, degrees, in `z` (a grid `width` cells wide): for each cross-section
/// `from` to `to` cells behind the hull at column `x_hull` on row `track`, where the envelope of
/// |z| (the largest within `window` cells along the track), coming in from `reach` cells out,
/// first reaches half its largest value, on both sides; then the slope of a line fitted through
/// those points (as `water-core/tests/kelvin_wake.rs` measures the finest grid's).
fn wake_angle(
    z: &[f32],
    width: usize,
    (x_hull, track): (f64, usize),
    behind: (usize, usize),
    window: usize,
    reach: usize,
) -> f64 {
    let mut points = Vec::new();
    for back in behind.0..behind.1 {
        let x = (x_hull - back as f64).round() as usize;
        for side in [-1i64, 1] {
            let envelope: Vec<f64> = (0..reach)
                .map(|d| {
                    let y = (track as i64 + side * d as i64) as usize;
                    (x - window..=x + window)
                        .map(|xx| f64::from(z[y * width + xx].abs()))
                        .fold(0.0, f64::max)
                })
                .collect();
            let top = envelope[3..].iter().copied().fold(0.0, f64::max);
            let outer = (3..envelope.len() - 1)
                .rev()
                .find(|&d| envelope[d] >= 0.5 * top)
                .expect("the wake has a largest value");
            let (inside, outside) = (envelope[outer], envelope[outer + 1]);
            let edge = outer as f64 + (inside - 0.5 * top) / (inside - outside);
            points.push((back as f64, edge));
        }
    }
    fitted_slope(&points).atan().to_degrees()
}

#[test]
fn a_towed_hulls_wake_keeps_kelvins_angle_in_the_next_cascade() {
    let params = WaveParams::new(CELL, 1.0, DT, Damping::NONE).expect("params");
    let spec = GridSpec::new(
        GridSize::new(WIDTH, HEIGHT).expect("size"),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
    .with_dispersion(AiryDispersion::gravity_waves(G).expect("airy"));
    let mut scene = Scene::new(
        spec,
        LandMask::empty(spec.size),
        SceneSettings::default(),
        None,
    )
    .expect("scene");
    scene.set_cascades(3).expect("cascades");

    // A 0.8 m x 0.4 m x 0.3 m, 16 kg hull at its draft, towed along +x.
    let size = Vec3::new(LENGTH, 0.4, 0.3);
    let mass = 16.0;
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let start = Vec2::new(6.0, 4.8);
    let pose = Pose::new(start.extend(size.z / 2.0 - draft), Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let hull = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("float");
    let id = scene.add_body(BodySpec::new("hull", hull)).expect("add");
    // Moved by the test, as a physics engine would: straight along +x at its draft, upright
    // (a towed box left to itself yaws, and its wake with it).
    scene.set_kinematic(id, true).expect("kinematic");
    scene.set_focus(Some(SceneFocus::Body(id))).expect("focus");
    let draft_z = size.z / 2.0 - draft;
    // 50 m of tow: the wake 10 to 16 m behind was made 28 s and more after the start.
    for step in 1..=2100u32 {
        let x = start.x + SPEED * step as f32 * DT as f32;
        let pose = Pose::new(Vec3::new(x, start.y, draft_z), Quat::IDENTITY).expect("pose");
        let state = BodyState {
            pose,
            linear_velocity: Vec3::new(SPEED, 0.0, 0.0),
            angular_velocity: Vec3::ZERO,
        };
        scene.set_body_state(id, &state).expect("state");
        scene.step().expect("step");
    }
    let at = scene.body(id).expect("hull").position;
    let cell1 = 2.0 * CELL;
    let origin1 = scene.cascade_origin(1).expect("origin");
    let origin0 = scene.cascade_origin(0).expect("origin");
    let behind_edge = f64::from(at.x) - origin0.x;
    assert!(
        (9.0..10.0).contains(&behind_edge),
        "the finest grid's trailing edge is {behind_edge} m behind the hull"
    );
    let x_hull = (f64::from(at.x) - origin1.x) / cell1;
    let track = ((f64::from(at.y) - origin1.y) / cell1) as usize;
    let heights = scene.cascade_heights(1).expect("heights");
    // 10 to 16 m behind the hull: past the finest grid's edge, short of cascade 1's sponge.
    let behind = ((10.0 / cell1) as usize, (16.0 / cell1) as usize);
    // Half a transverse wavelength, pi U^2 / g, along the track.
    let window = (std::f64::consts::PI * f64::from(SPEED * SPEED) / G / cell1) as usize;
    let angle = wake_angle(&heights, WIDTH, (x_hull, track), behind, window, 70);
    eprintln!("wake half-angle in cascade 1, 10 to 16 m behind: {angle:.2} degrees");
    assert!(
        (angle - KELVIN_DEGREES).abs() < ANGLE_TOLERANCE,
        "{angle:.2} degrees against Kelvin's {KELVIN_DEGREES:.2}"
    );
}
