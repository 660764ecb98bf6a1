//! Adding bodies in one call: the same scene, to the bit, as adding them one by one (each at
//! rest in both time levels, so none splashes, also after a body was removed just before
//! them), a refused body left out and the others added; and a batch the masks cannot draw
//! taken out again whole.

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_scene::Water as _;
use water_scene::{BodySpec, GridSpec, Scene, SceneSettings};

/// A 40 x 40 signed pond of 0.1 m cells at 60 steps per second, no land.
fn pond() -> Scene {
    let params = WaveParams::new(0.1, 1.0, 1.0 / 60.0, Damping::PerSecond(0.5)).expect("stable");
    let size = GridSize::new(40, 40).expect("size");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    Scene::new(spec, LandMask::empty(size), SceneSettings::default(), None).expect("scene")
}

/// The `i`th of a row of 0.4 m crates of 20 kg, floating at their draft, the odd ones pushed.
fn crate_spec(i: usize) -> BodySpec {
    let size = Vec3::splat(0.4);
    let draft = box_draft(20.0, FRESH_WATER_DENSITY, size.x * size.y);
    let at = Vec3::new(0.6 + 0.7 * i as f32, 2.0, size.z / 2.0 - draft);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let pose = Pose::new(at, Quat::IDENTITY).expect("pose");
    let body = RigidBody::from_shape(&shape, 20.0, BodyState::at_rest(pose)).expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let floating = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("float");
    BodySpec {
        force: Vec3::new(if i % 2 == 1 { 3.0 } else { 0.0 }, 0.0, 0.0),
        ..BodySpec::new(format!("crate {i}"), floating)
    }
}

/// Heights and every body's position after `steps` steps.
fn state(scene: &mut Scene, steps: u64) -> (Vec<f32>, Vec<Vec3>) {
    scene.step_many(steps).expect("steps");
    let heights = scene.water().heights().expect("heights");
    let positions = scene
        .body_ids()
        .map(|id| scene.body(id).expect("body").position)
        .collect();
    (heights, positions)
}

/// Five crates added at once make the same water and the same motion, bit for bit, as five
/// added one at a time, also after a body was removed just before them; and five crates added
/// at rest at their draft raise no wave at the first step (no entry event).
#[test]
fn adding_bodies_at_once_is_adding_them_one_by_one() {
    let mut by_one = pond();
    let mut at_once = pond();
    for scene in [&mut by_one, &mut at_once] {
        let lifted = scene.add_body(crate_spec(9)).expect("add");
        scene.step_many(20).expect("steps");
        scene.remove_body(lifted).expect("remove");
    }
    for i in 0..5 {
        by_one.add_body(crate_spec(i)).expect("add");
    }
    let ids = at_once.add_bodies((0..5).map(crate_spec)).expect("masks");
    assert_eq!(ids.len(), 5);
    for (i, id) in ids.into_iter().enumerate() {
        let id = id.expect("added");
        assert_eq!(at_once.body(id).expect("body").name, format!("crate {i}"));
    }
    for steps in [1, 60] {
        assert_eq!(state(&mut by_one, steps), state(&mut at_once, steps));
    }

    // At rest, unpushed: the first step draws no entry event.
    let mut still = pond();
    let resting = (0..5).map(|i| BodySpec {
        force: Vec3::ZERO,
        ..crate_spec(i)
    });
    for added in still.add_bodies(resting).expect("masks") {
        added.expect("added");
    }
    let (heights, _) = state(&mut still, 1);
    let peak = heights.iter().fold(0.0_f32, |m, h| m.max(h.abs()));
    assert!(peak < 1e-3, "settled crates splashed {peak} m");
}

/// A body refused in the middle of a batch (a force that is not finite) is named and left
/// out, and the others are added: the scene steps, to the bit, as one given only those.
#[test]
fn a_refused_body_is_left_out_and_the_others_added() {
    let mut scene = pond();
    let bad = BodySpec {
        force: Vec3::new(f32::NAN, 0.0, 0.0),
        ..crate_spec(2)
    };
    let specs = vec![crate_spec(0), crate_spec(1), bad, crate_spec(3)];
    let added = scene.add_bodies(specs).expect("masks");
    assert_eq!(
        added.iter().map(Result::is_ok).collect::<Vec<_>>(),
        [true, true, false, true]
    );
    let e = added[2].as_ref().expect_err("a NaN force").to_string();
    assert!(e.contains("crate 2"), "{e}");
    assert_eq!(scene.body_count(), 3);
    let mut twin = pond();
    for i in [0, 1, 3] {
        twin.add_body(crate_spec(i)).expect("add");
    }
    assert_eq!(state(&mut scene, 30), state(&mut twin, 30));
}

/// A batch whose masks cannot be drawn (with displacement contacts, a 40 km tower of two 20 km
/// hulls, its top out of the water, reaches 39 km below still water: a weight head past the
/// masks' 2e4 m) is refused whole, naming the body, and leaves the
/// scene as it was: no body added, and a crate added after it floats and steps as in a scene
/// that never saw the batch.
#[test]
fn a_batch_the_masks_cannot_draw_is_taken_out_whole() {
    let displacement = || {
        let params =
            WaveParams::new(0.1, 1.0, 1.0 / 60.0, Damping::PerSecond(0.5)).expect("stable");
        let size = GridSize::new(40, 40).expect("size");
        let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
        let settings = SceneSettings {
            contact_source: water_core::ContactSource::Displacement,
            ..SceneSettings::default()
        };
        Scene::new(spec, LandMask::empty(size), settings, None).expect("scene")
    };
    let tower = {
        let shape = Shape::cuboid(Vec3::new(0.5, 0.5, 1e4)).expect("shape");
        let pose = Pose::new(Vec3::new(3.0, 2.0, -9e3), Quat::IDENTITY).expect("pose");
        let body = RigidBody::from_shape(&shape, 1e12, BodyState::at_rest(pose)).expect("body");
        let below = Pose::new(Vec3::new(0.0, 0.0, -2e4), Quat::IDENTITY).expect("pose");
        let hulls = vec![
            Hull::new(shape.clone(), Pose::IDENTITY).expect("hull"),
            Hull::new(shape, below).expect("hull"),
        ];
        let floating =
            FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
                .expect("float");
        BodySpec::new("tower", floating)
    };
    let mut scene = displacement();
    let e = scene
        .add_bodies([crate_spec(0), tower])
        .expect_err("a weight head past the masks");
    assert!(e.to_string().contains("tower"), "{e}");
    assert_eq!(scene.body_count(), 0);
    let id = scene.add_body(crate_spec(0)).expect("a crate after it");
    assert_eq!(scene.body(id).expect("body").name, "crate 0");
    let mut twin = displacement();
    twin.add_body(crate_spec(0)).expect("add");
    assert_eq!(state(&mut scene, 30), state(&mut twin, 30));
}
