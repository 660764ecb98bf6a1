//! A body driven past the speed a body may have (`MAX_BODY_SPEED`, 1e4 m/s) stops the step
//! with an error naming it and the step, all or nothing: no body has moved and the water has
//! not stepped, so a game that removes it goes on exactly as if it had removed it before that
//! step (the same water and the same crate, to the bit).

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, BodyState, BuoyancyError, Divergence, DragRates, FloatingBody, Hull, Pose,
    RigidBody, Shape, FRESH_WATER_DENSITY,
};
use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_scene::Water as _;
use water_scene::{BodyId, BodySpec, GridSpec, Scene, SceneError, SceneSettings};

/// A 40 x 40 signed pond of 0.1 m cells at 100 steps per second, no land.
fn pond() -> Scene {
    let params = WaveParams::new(0.1, 1.0, 0.01, Damping::NONE).expect("stable");
    let size = GridSize::new(40, 40).expect("size");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    Scene::new(spec, LandMask::empty(size), SceneSettings::default(), None).expect("scene")
}

/// A 0.4 m crate of 20 kg at its draft, nudged along x so that it moves and makes waves.
fn crate_spec() -> BodySpec {
    let size = Vec3::splat(0.4);
    let draft = box_draft(20.0, FRESH_WATER_DENSITY, size.x * size.y);
    let at = Vec3::new(1.0, 2.0, size.z / 2.0 - draft);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    BodySpec {
        force: Vec3::new(20.0, 0.0, 0.0),
        ..BodySpec::new("crate", floating(shape, 20.0, at))
    }
}

/// A body of `shape` and `mass` kg at rest at `at`, floating by Archimedes with default drag.
fn floating(shape: Shape, mass: f32, at: Vec3) -> FloatingBody {
    let pose = Pose::new(at, Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT).expect("float")
}

/// A 1 kg ball pushed up by 9e5 N: 9,000 m/s more each step of 0.01 s, so its second step
/// passes 1e4 m/s.
fn rocket_spec() -> BodySpec {
    let shape = Shape::sphere(0.1).expect("shape");
    BodySpec {
        force: Vec3::new(0.0, 0.0, 9e5),
        ..BodySpec::new("rocket", floating(shape, 1.0, Vec3::new(3.0, 2.0, 0.0)))
    }
}

/// The pond with the crate and the rocket, stepped `steps` times: the scene and their ids.
fn with_rocket(steps: u64) -> (Scene, BodyId, BodyId) {
    let mut scene = pond();
    let crate_id = scene.add_body(crate_spec()).expect("crate");
    let rocket = scene.add_body(rocket_spec()).expect("rocket");
    scene
        .step_many(steps)
        .expect("steps before the rocket's second");
    (scene, crate_id, rocket)
}

#[test]
fn a_body_past_the_speed_limit_stops_the_step_whole_and_the_scene_goes_on_without_it() {
    let (mut stopped, crate_a, rocket_a) = with_rocket(1);
    let before = stopped.body(crate_a).expect("crate").position;
    let heights_before = stopped.water().heights().expect("heights");
    let e = stopped
        .step()
        .expect_err("the rocket passes 1e4 m/s in its second step");
    match &e {
        SceneError::Body {
            name,
            step,
            source:
                BuoyancyError::Diverged {
                    cause: Divergence::TooFast(v),
                    ..
                },
        } => {
            assert_eq!((name.as_str(), *step), ("rocket", 1), "{e}");
            assert!(v.z > 1e4, "{e}");
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("1e4 m/s"), "{e}");
    // Nothing moved: the crate where it was, the water as it was, the step count as it was.
    assert_eq!(stopped.steps_taken(), 1);
    assert_eq!(stopped.body(crate_a).expect("crate").position, before);
    assert_eq!(stopped.water().heights().expect("heights"), heights_before);
    stopped.remove_body(rocket_a).expect("remove the rocket");
    stopped.step_many(40).expect("the scene goes on without it");

    // The same pond whose rocket was removed before that step, with no error.
    let (mut removed, crate_b, rocket_b) = with_rocket(1);
    removed.remove_body(rocket_b).expect("remove the rocket");
    removed.step_many(40).expect("steps");
    assert_eq!(
        stopped.water().heights().expect("heights"),
        removed.water().heights().expect("heights")
    );
    let (a, b) = (
        stopped.body(crate_a).expect("crate"),
        removed.body(crate_b).expect("crate"),
    );
    assert_eq!((a.position, a.velocity), (b.position, b.velocity));
    assert_ne!(a.position, before, "the crate moved on");
    // A path faster than the limit is refused where it is made.
    let path = water_scene::TowPath::new(vec![glam::Vec2::ZERO, glam::Vec2::X], 2e4);
    assert!(path
        .expect_err("2e4 m/s")
        .to_string()
        .contains("at most 1e4 m/s, got 20000"));
    // Named as the f32 it was given, not the f64 it widens to (0.1 was 0.10000000149011612).
    let path = water_scene::TowPath::new(vec![glam::Vec2::ZERO, glam::Vec2::X], -0.1);
    assert!(path
        .expect_err("-0.1 m/s")
        .to_string()
        .ends_with("got -0.1"));
}

/// A body may move at up to 1e4 m/s in each component: across the water at 9,999 m/s in both
/// x and y (14,140 m/s, the speed factor its mask carries) it steps over the water like any
/// other, its mask taken (the masks hold speed factors up to `MAX_MASK_VALUE`, 1.5e4 m/s,
/// above `sqrt(2)` times the body speed limit).
#[test]
fn a_body_within_the_speed_limit_in_each_component_crosses_the_water() {
    let mut scene = pond();
    let shape = Shape::sphere(0.1).expect("shape");
    let pose = Pose::new(Vec3::new(2.0, 2.0, 0.0), Quat::IDENTITY).expect("pose");
    let state = BodyState {
        linear_velocity: Vec3::new(9_999.0, 9_999.0, 0.0),
        ..BodyState::at_rest(pose)
    };
    let body = RigidBody::from_shape(&shape, 1.0, state).expect("within the limit");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    // Without drag: at 14 km/s the water's drag alone would spin a half-wet ball past the spin
    // limit in its first substep (stopped by name, as it should be); this is about the masks.
    let still = DragRates {
        linear: 0.0,
        quadratic: 0.0,
        angular: 0.0,
    };
    let dart = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, still).expect("float");
    assert!(
        9_999.0f32.hypot(9_999.0) > 1.4e4 && 9_999.0f32.hypot(9_999.0) < water_core::MAX_MASK_VALUE
    );
    scene.add_body(BodySpec::new("dart", dart)).expect("dart");
    scene.step().expect("a body within the speed limit steps");
    scene.step().expect("and steps on, off the grid");
}
