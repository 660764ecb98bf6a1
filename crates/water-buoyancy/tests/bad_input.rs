//! Bad input gets an error that names the value, never a panic or a NaN body.

mod common;

use common::box_corners_and_triangles;
use glam::{Mat3, Quat, Vec3};
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyError, ConvexMesh, Gravity, Hull, Pose, Probes, RigidBody,
    Shape, Wrench,
};

fn message(e: BuoyancyError) -> String {
    e.to_string()
}

#[test]
fn masses_must_be_positive_and_finite() {
    for mass in [0.0, -2.0, f32::NAN, f32::INFINITY] {
        let err = RigidBody::new(mass, Mat3::IDENTITY, BodyState::default()).unwrap_err();
        assert!(message(err).contains("mass"), "mass {mass}");
    }
    let shape = Shape::sphere(1.0).unwrap();
    assert!(RigidBody::from_shape(&shape, -1.0, BodyState::default()).is_err());
    let err = RigidBody::new(
        1.0,
        Mat3::from_diagonal(Vec3::new(1.0, -1.0, 1.0)),
        BodyState::default(),
    )
    .unwrap_err();
    assert!(matches!(err, BuoyancyError::BadInertia { .. }), "{err}");
    let asymmetric = Mat3::from_cols(Vec3::new(1.0, 0.5, 0.0), Vec3::new(0.0, 1.0, 0.0), Vec3::Z);
    assert!(RigidBody::new(1.0, asymmetric, BodyState::default()).is_err());
}

#[test]
fn poses_must_be_finite_with_unit_quaternions() {
    let err = Pose::new(Vec3::new(0.0, f32::NAN, 0.0), Quat::IDENTITY).unwrap_err();
    assert!(message(err).contains("pose position"));
    let err = Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).unwrap_err();
    assert_eq!(err, BuoyancyError::NotUnitQuaternion { length: 0.0 });
    let err = Pose::new(Vec3::ZERO, Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0)).unwrap_err();
    assert!(message(err).contains("orientation"));
    // A body whose state was assembled with a NaN is refused, not integrated.
    let mut state = BodyState::default();
    state.linear_velocity.x = f32::NAN;
    assert!(RigidBody::new(1.0, Mat3::IDENTITY, state).is_err());
    let mut probes = Probes::new(vec![Vec3::ZERO], 1.0, 0.0).unwrap();
    let nan_pose = BodyState {
        pose: Pose {
            position: Vec3::splat(f32::NAN),
            orientation: Quat::IDENTITY,
        },
        ..BodyState::default()
    };
    assert!(probes
        .wrench(
            &nan_pose,
            &water_core::FlatWater::default(),
            &Gravity::EARTH,
            water_buoyancy::ProbeVelocity::Body
        )
        .is_err());
}

#[test]
fn non_finite_forces_leave_the_body_unchanged() {
    let mut body = RigidBody::new(1.0, Mat3::IDENTITY, BodyState::default()).unwrap();
    let before = body.clone();
    let bad = Wrench {
        force: Vec3::new(f32::INFINITY, 0.0, 0.0),
        torque: Vec3::ZERO,
    };
    let err = body.integrate(bad, &Gravity::EARTH, 0.01).unwrap_err();
    assert!(message(err).contains("force"));
    assert_eq!(body, before);
    assert!(body.integrate(Wrench::ZERO, &Gravity::EARTH, 0.0).is_err());
    assert!(Gravity::Uniform(Vec3::ZERO).validate().is_err());
    assert!(Gravity::Radial {
        centre: Vec3::ZERO,
        acceleration: -1.0
    }
    .validate()
    .is_err());
}

fn mesh_error(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> String {
    match ConvexMesh::new(vertices, triangles) {
        Err(BuoyancyError::DegenerateMesh { reason }) => reason,
        other => panic!("expected a degenerate-mesh error, got {other:?}"),
    }
}

#[test]
fn degenerate_meshes_are_named() {
    let (v, t) = box_corners_and_triangles(Vec3::ONE);
    assert!(ConvexMesh::new(v.clone(), t.clone()).is_ok());
    // Too small.
    assert!(mesh_error(v[..3].to_vec(), t[..2].to_vec()).contains("at least 4"));
    // Open: one triangle missing.
    assert!(mesh_error(v.clone(), t[..11].to_vec()).contains("not closed"));
    // Inside out.
    let flipped: Vec<[u32; 3]> = t.iter().map(|&[a, b, c]| [a, c, b]).collect();
    assert!(mesh_error(v.clone(), flipped).contains("counter-clockwise"));
    // A vertex out of range.
    let mut out_of_range = t.clone();
    out_of_range[0][0] = 99;
    assert!(mesh_error(v.clone(), out_of_range).contains("vertex 99"));
    // A NaN vertex.
    let mut nan = v.clone();
    nan[3].y = f32::NAN;
    assert!(mesh_error(nan, t.clone()).contains("vertex 3 is not finite"));
    // Dented: one corner pushed inward makes the mesh non-convex.
    let mut dented = v.clone();
    dented[7] *= 0.2;
    assert!(mesh_error(dented, t.clone()).contains("not convex"));
    // Flat: all points in one plane have no volume (and zero-area triangles).
    let flat: Vec<Vec3> = v.iter().map(|p| Vec3::new(p.x, p.y, 0.0)).collect();
    let reason = mesh_error(flat, t);
    assert!(
        reason.contains("no area") || reason.contains("volume"),
        "{reason}"
    );
}

#[test]
fn shapes_and_hulls_refuse_bad_sizes() {
    assert!(Shape::sphere(0.0).is_err());
    assert!(Shape::sphere(f32::NAN).is_err());
    assert!(Shape::cuboid(Vec3::new(1.0, -1.0, 1.0)).is_err());
    assert!(Shape::capsule(0.5, -0.1).is_err());
    assert!(Shape::capsule(0.5, 0.0).is_ok());
    let ball = Shape::sphere(1.0).unwrap();
    assert!(Hull::with_max_edge(ball.clone(), Pose::IDENTITY, 0.0).is_err());
    assert!(Hull::with_max_edge(ball, Pose::IDENTITY, 1e-4).is_err());
    assert!(Archimedes::new(0.0).is_err());
    assert!(Archimedes::new(1000.0)
        .unwrap()
        .with_drag(-1.0, 0.0, 0.0)
        .is_err());
    assert!(Probes::new(Vec::new(), 1.0, 0.0).is_err());
    assert!(Probes::new(vec![Vec3::ZERO], -1.0, 0.0).is_err());
}

/// A shape too large to float on any grid is refused by its own size, not later by its mesh:
/// "box half extent ... at most 1e4 m", where a 1e30 m box used to fail as "hull max edge inf".
#[test]
fn absurd_shape_sizes_are_refused_naming_the_size() {
    use water_buoyancy::{Shape, MAX_SHAPE_LENGTH};
    let e = Shape::cuboid(Vec3::new(1.0, 1e30, 1.0)).expect_err("too large");
    assert!(
        e.to_string().contains("box half extent") && e.to_string().contains("1e4"),
        "{e}"
    );
    assert!(Shape::sphere(2.0 * MAX_SHAPE_LENGTH).is_err());
    assert!(Shape::capsule(1.0, 2.0 * MAX_SHAPE_LENGTH).is_err());
    assert!(Shape::sphere(MAX_SHAPE_LENGTH).is_ok());
}

/// Speeds, spins and drag rates past what any floating body has are refused by the library's
/// own constructors, naming the component and the limit, as the scenario parser does; the
/// limits themselves are accepted.
#[test]
fn absurd_speeds_spins_and_drag_are_refused_naming_the_value_and_limit() {
    use water_buoyancy::{DragRates, MAX_BODY_SPEED, MAX_BODY_SPIN, MAX_DRAG_RATE};
    let shape = Shape::cuboid(Vec3::splat(0.5)).expect("shape");
    let moving = |linear: Vec3, angular: Vec3| BodyState {
        linear_velocity: linear,
        angular_velocity: angular,
        ..BodyState::default()
    };
    let e = RigidBody::from_shape(&shape, 100.0, moving(Vec3::new(0.0, -2e4, 0.0), Vec3::ZERO))
        .expect_err("20 km/s");
    let text = e.to_string();
    assert!(
        text.contains("linear velocity component = -20000") && text.contains("1e4] m/s"),
        "{text}"
    );
    let e = RigidBody::from_shape(&shape, 100.0, moving(Vec3::ZERO, Vec3::new(0.0, 0.0, 3e5)))
        .expect_err("3e5 rad/s");
    let text = e.to_string();
    assert!(
        text.contains("angular velocity component = 300000") && text.contains("rad/s"),
        "{text}"
    );
    let edge = moving(Vec3::splat(-MAX_BODY_SPEED), Vec3::splat(MAX_BODY_SPIN));
    assert!(RigidBody::from_shape(&shape, 100.0, edge).is_ok());
    let e = DragRates::new(4.0, 0.5, 1e7).expect_err("1e7 /s");
    let text = e.to_string();
    assert!(
        text.contains("angular drag rate = 10000000") && text.contains("[0, 1e6]"),
        "{text}"
    );
    assert!(DragRates::new(MAX_DRAG_RATE, MAX_DRAG_RATE, MAX_DRAG_RATE).is_ok());
}

/// A body pushed (or spun), step after step, past the speed (or spin) its constructor takes is
/// stopped at the step that would pass it, naming the velocity and the limit, its state kept
/// from before: it is never flung on until it stops being finite; a state or a tow past the
/// limits is refused where it is set.
#[test]
fn a_body_pushed_past_the_speed_limit_is_stopped_at_that_step() {
    use water_buoyancy::{Divergence, MAX_BODY_SPEED};
    let mut body = RigidBody::new(1.0, Mat3::IDENTITY, BodyState::default()).unwrap();
    // 1e4 N on 1 kg: 100 m/s more each step of 0.01 s, so 100 steps reach the limit exactly
    // (nearly: gravity pulls down, not along x) and the 101st would pass it.
    let push = Wrench {
        force: Vec3::new(1e4, 0.0, 0.0),
        torque: Vec3::ZERO,
    };
    let mut steps = 0;
    let err = loop {
        let before = body.clone();
        match body.integrate(push, &Gravity::EARTH, 0.01) {
            Ok(()) => steps += 1,
            Err(e) => {
                assert_eq!(body, before, "the state is left as it was");
                break e;
            }
        }
        assert!(steps < 200, "never stopped: {:?}", body.state);
    };
    assert!(
        (99..=101).contains(&steps),
        "stopped after {steps} steps: {err}"
    );
    assert!(body.state.linear_velocity.x <= MAX_BODY_SPEED);
    assert!(
        matches!(err, BuoyancyError::Diverged { cause: Divergence::TooFast(v), .. } if v.x > MAX_BODY_SPEED),
        "{err:?}"
    );
    let text = message(err);
    assert!(text.contains("body speed limit, 1e4 m/s"), "{text}");
    // A tow or a state past the limit is refused where it is set.
    let tow = water_buoyancy::Tow::new(glam::Vec2::new(2e4, 0.0), 0.0).expect_err("2e4 m/s");
    assert!(message(tow).contains("tow velocity component = 20000"));
    let mut fast = BodyState::default();
    fast.linear_velocity.y = -1.5e4;
    assert!(message(fast.validate().expect_err("1.5e4 m/s")).contains("-15000"));
    let mut spun = BodyState::default();
    spun.angular_velocity.x = 1e9;
    assert!(message(spun.validate().expect_err("1e9 rad/s")).contains("1000000000"));

    // A torque that spins a body past the spin limit stops it the same way, before its steps
    // are cut into thousands of substeps.
    let mut spinner = RigidBody::new(1.0, Mat3::IDENTITY, BodyState::default()).unwrap();
    let twist = Wrench {
        force: Vec3::ZERO,
        torque: Vec3::new(0.0, 0.0, 1e4),
    };
    let mut steps = 0;
    let err = loop {
        match spinner.integrate(twist, &Gravity::EARTH, 0.01) {
            Ok(()) => steps += 1,
            Err(e) => break e,
        }
        assert!(steps < 200, "never stopped: {:?}", spinner.state);
    };
    assert!(
        (99..=101).contains(&steps),
        "stopped after {steps} steps: {err}"
    );
    assert!(spinner.state.angular_velocity.z <= water_buoyancy::MAX_BODY_SPIN);
    assert!(
        matches!(err, BuoyancyError::Diverged { cause: Divergence::TooMuchSpin(w), .. } if w.z > 1e4),
        "{err:?}"
    );
    assert!(message(err).contains("body spin limit, 1e4 rad/s"));
}
