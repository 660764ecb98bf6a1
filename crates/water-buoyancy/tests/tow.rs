//! A towed hull: the tow holds its horizontal velocity and heading inside the step (a
//! constraint), so the drag pulled through the water at speed meets the hull's righting moment
//! and the body trims to a steady angle, as a boat towed from its centre of mass does.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    BodyState, BodyStep, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Tow,
    Wrench,
};
use water_core::FlatWater;

/// A 4 x 1.6 x 1 m box of 2,560 kg: it floats 0.4 m deep.
const HALF: Vec3 = Vec3::new(2.0, 0.8, 0.5);
const MASS: f32 = 2560.0;
const RHO: f32 = 1000.0;
const DRAFT: f32 = MASS / (RHO * 4.0 * HALF.x * HALF.y);
const DT: f32 = 0.05;
const SPEED: f32 = 10.0;

/// Drag a boat's size might meet at 10 m/s (about 10 kN): the default rates, made for bodies
/// bobbing in place, would hold back 66 kN at that speed, more than twice the boat's weight.
fn rates() -> DragRates {
    DragRates::new(0.5, 0.05, 4.0).unwrap()
}

fn boat(orientation: Quat) -> FloatingBody {
    let shape = Shape::cuboid(HALF).unwrap();
    let pose = Pose::new(Vec3::new(0.0, 0.0, HALF.z - DRAFT), orientation).unwrap();
    let body = RigidBody::from_shape(&shape, MASS, BodyState::at_rest(pose)).unwrap();
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).unwrap()];
    FloatingBody::archimedes(body, hulls, RHO, rates()).unwrap()
}

/// Bow-down trim, degrees: the body's x axis below the horizontal.
fn trim_degrees(b: &FloatingBody) -> f32 {
    let x = b.body.state.pose.orientation * Vec3::X;
    (-x.z).atan2(Vec2::new(x.x, x.y).length()).to_degrees()
}

/// The heading of the body's x axis seen from above, degrees.
fn heading_degrees(b: &FloatingBody) -> f32 {
    let x = b.body.state.pose.orientation * Vec3::X;
    x.y.atan2(x.x).to_degrees()
}

/// Its horizontal velocity is the tow's, to rounding.
fn assert_at_tow_speed(b: &FloatingBody) {
    let v = b.body.state.linear_velocity.truncate();
    assert!((v - Vec2::new(SPEED, 0.0)).length() < 1e-5, "velocity {v}");
}

/// Tows `b` for `steps` steps of [`DT`] at [`SPEED`] along x; the steps' outcomes.
fn tow_along_x(b: &mut FloatingBody, steps: usize) -> Vec<BodyStep> {
    tow_by(b, Tow::new(Vec2::new(SPEED, 0.0), 0.0).unwrap(), steps)
}

/// Steps `b` on `tow` `steps` times.
fn tow_by(b: &mut FloatingBody, tow: Tow, steps: usize) -> Vec<BodyStep> {
    (0..steps)
        .map(|_| {
            b.step_towed(
                &FlatWater::default(),
                &Gravity::EARTH,
                DT,
                Wrench::ZERO,
                tow,
            )
            .unwrap()
        })
        .collect()
}

#[test]
fn a_towed_box_trims_until_its_righting_moment_meets_the_drags_pitching_moment() {
    // Hydrostatics of a box at small trim: the righting moment is rho g V GM_L theta with
    // GM_L = KB + BM_L - KG = T/2 + L^2 / (12 T) - H/2. The tow pulls at the centre of mass;
    // the drag D acts at the submerged centroid, T/2 below the water and so H/2 - T/2 below
    // the centre of mass: theta = D (H/2 - T/2) / (rho g V GM_L).
    let mut b = boat(Quat::IDENTITY);
    let outcomes = tow_along_x(&mut b, 1200);
    let mut trims = Vec::new();
    for _ in 0..400 {
        tow_along_x(&mut b, 1);
        trims.push(trim_degrees(&b));
    }
    let trim = trims.iter().sum::<f32>() / trims.len() as f32;
    let last = outcomes.last().unwrap();
    let drag = last.tow.force.x;
    // The reaction is the force the constraint applied: at a held, steady speed it balances
    // what the water holds back (a reaction scaled or signed wrongly would not).
    assert!(
        (drag + last.wrench.force.x).abs() <= 1e-3 * drag,
        "tow {:?} against the water's {:?}",
        last.tow,
        last.wrench
    );
    let (length, height, volume) = (2.0 * HALF.x, 2.0 * HALF.z, MASS / RHO);
    let gm = DRAFT / 2.0 + length * length / (12.0 * DRAFT) - height / 2.0;
    let expected = (drag * (height / 2.0 - DRAFT / 2.0) / (RHO * 9.81 * volume * gm)).to_degrees();
    assert!(
        (trim - expected).abs() <= 0.05 * expected,
        "trim {trim} degrees, hydrostatics {expected} (drag {drag} N, GM_L {gm} m)"
    );
    let spread = trims.iter().fold(0.0_f32, |m, t| m.max((t - trim).abs()));
    assert!(
        spread < 0.1 * expected,
        "still rocking by {spread} degrees about {trim}"
    );
    assert_at_tow_speed(&b);
}

#[test]
fn a_towed_box_keeps_its_heading_and_its_speed_where_its_drag_would_turn_it() {
    // Yawed 30 degrees off the tow, the box is dragged partly sideways. Set free after each
    // step (its velocity overwritten, the heading left to the water), it turned to 35.8
    // degrees (tried by hand). The tow holds its heading: it stays at 30 degrees, at the tow's
    // speed, heeled by its sideways drag (about 15 degrees seen) and upright.
    let yawed = Quat::from_rotation_z(30_f32.to_radians());
    // Held at a heading rate of zero, the heading creeps only to second order in the heel.
    let mut b = boat(yawed);
    for _ in 0..600 {
        tow_along_x(&mut b, 1);
        let heading = heading_degrees(&b);
        assert!((heading - 30.0).abs() < 0.05, "heading {heading} degrees");
    }
    // Turned to 30 degrees by each step's end, it is there after every step, but for the last
    // substep's own second-order turn (0.001 degrees seen).
    let mut b = boat(yawed);
    let tow = Tow::to_heading(Vec2::new(SPEED, 0.0), 30_f32.to_radians()).unwrap();
    for _ in 0..600 {
        tow_by(&mut b, tow, 1);
        let heading = heading_degrees(&b);
        assert!((heading - 30.0).abs() < 5e-3, "heading {heading} degrees");
    }
    assert_at_tow_speed(&b);
    let s = b.body.state;
    assert!((s.pose.position.x - SPEED * DT * 600.0).abs() < 1e-2);
    let up = s.pose.orientation * Vec3::Z;
    assert!(up.z > 0.95, "up axis {up}");
}

#[test]
fn a_tow_to_a_heading_turns_no_faster_than_its_cap_and_gets_there() {
    // A quarter turn asked for at once: the heading moves at most MAX_TOW_TURN_RATE dt a step
    // (to first order: the substeps' turns are exact to first order in the tilt) and is there
    // within a step of a second.
    let mut b = boat(Quat::IDENTITY);
    let tow = Tow::to_heading(Vec2::ZERO, 90_f32.to_radians()).unwrap();
    let cap = water_buoyancy::MAX_TOW_TURN_RATE.to_degrees() * DT;
    let mut before = heading_degrees(&b);
    let mut steps = 0;
    while (heading_degrees(&b) - 90.0).abs() > 1e-3 {
        tow_by(&mut b, tow, 1);
        steps += 1;
        let now = heading_degrees(&b);
        assert!(
            now - before <= cap * 1.01 && now >= before - 1e-3,
            "{before} to {now}"
        );
        before = now;
        assert!(steps <= 21, "still at {now} degrees after {steps} steps");
    }
    assert!(steps >= 20, "turned a quarter in {steps} steps of {DT} s");
}
