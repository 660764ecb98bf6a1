//! Foam in the cascades: a boat towed beyond the finest grid leaves its foam trail in the
//! cascade whose water it sails on; each cascade's foam decays by the half-life and stays where
//! it is in the world while the cascades follow a moving focus; a body added makes no foam
//! where it lies still and a body removed leaves one stern's worth, which fades; cascade k
//! samples the sea's breaking every 2^k steps, never where the finer grid shows alone.

use glam::{Vec2, Vec3};
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};
use water_core::{Damping, WaveParams};
use water_scene::{BodySpec, FoamSettings, Scene, SceneError, SceneFocus, TowPath};

mod support;

const HALF_LIFE: f64 = 1.5;

/// The wave model, 96 x 64 cells of 0.25 m (x from 0 to 24 m), three cascades (cascade 1's
/// 0.5 m cells span x from -12 to 36 m) and foam from wakes.
fn scene() -> Scene {
    let params = WaveParams::new(0.25, 2.0, 0.05, Damping::PerSecond(0.9)).expect("params");
    let mut scene = support::open_absorbing_scene(96, 64, params);
    scene
        .set_foam(Some(FoamSettings {
            half_life: HALF_LIFE,
            wake: 0.5,
            jacobian_threshold: None,
            shore_depth: None,
        }))
        .expect("foam");
    scene.set_cascades(3).expect("cascades");
    scene
}

/// A 1.2 m x 0.6 m x 0.4 m, 60 kg box at its draft, towed along `path` at 2 m/s.
fn boat(path: Vec<Vec2>) -> BodySpec {
    let size = Vec3::new(1.2, 0.6, 0.4);
    let mass = 60.0;
    let draft = box_draft(mass, FRESH_WATER_DENSITY, size.x * size.y);
    let shape = Shape::cuboid(size * 0.5).expect("shape");
    let start = path[0].extend(size.z / 2.0 - draft);
    let body = RigidBody::from_shape(
        &shape,
        mass,
        BodyState::at_rest(Pose::from_position(start).expect("pose")),
    )
    .expect("body");
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
    let float = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
        .expect("float");
    BodySpec::new("boat", float).towed(TowPath::new(path, 2.0).expect("path"))
}

/// Cascade `k`'s foam at world point `p` (m), from its coverage and origin.
fn foam_at(scene: &Scene, k: usize, p: Vec2) -> f32 {
    let spec = scene.cascade_spec(k).expect("spec");
    let cell = spec.params.cell_size() as f32;
    let local = (p - scene.cascade_origin(k).expect("origin").as_vec2()) / cell;
    let inside = local.cmpge(Vec2::ZERO).all()
        && local.x < spec.size.width() as f32
        && local.y < spec.size.height() as f32;
    assert!(inside, "{p} lies outside cascade {k}");
    let (x, y) = (local.x as usize, local.y as usize);
    let foam = scene.cascade_foam(k).expect("cascade").expect("foam");
    foam[y * spec.size.width() + x]
}

#[test]
fn a_boat_beyond_the_finest_grid_leaves_foam_in_the_cascade_it_sails_on() {
    let mut scene = scene();
    // From x = -10 m to -4 m along y = 8.5 m (on cell centres of cascades 1 and 2): cascade
    // 1's water, outside the finest grid.
    scene
        .add_body(boat(vec![Vec2::new(-10.0, 8.5), Vec2::new(-4.0, 8.5)]))
        .expect("boat");
    for _ in 0..60 {
        scene.step().expect("step");
    }
    // The boat passed x = -8 to -6 m; its trail is white in cascade 1 and in cascade 2 (which
    // draws it too); nothing foams far off its path.
    let trail = (0..8)
        .map(|i| foam_at(&scene, 1, Vec2::new(-8.0 + 0.25 * i as f32, 8.5)))
        .fold(0.0f32, f32::max);
    assert!(trail > 0.1, "cascade 1's trail {trail}");
    let coarse = (0..4)
        .map(|i| foam_at(&scene, 2, Vec2::new(-8.0 + 0.5 * i as f32, 8.5)))
        .fold(0.0f32, f32::max);
    assert!(coarse > 0.1, "cascade 2's trail {coarse}");
    assert_eq!(
        foam_at(&scene, 1, Vec2::new(-8.0, 20.0)),
        0.0,
        "far off the path"
    );
    let finest = scene.foam_coverage().expect("foam");
    assert!(
        finest.iter().all(|&f| f == 0.0),
        "the finest grid never held the boat"
    );
    // Without foam, none anywhere; a cascade past the last is refused.
    assert!(matches!(
        scene.cascade_foam(3),
        Err(SceneError::NoCascade { k: 3, count: 3 })
    ));
    scene.set_foam(None).expect("no foam");
    assert_eq!(scene.cascade_foam(2).expect("cascade 2"), None);
}

#[test]
fn cascade_foam_decays_by_its_half_life_and_stays_put_while_the_cascades_move() {
    let mut scene = scene();
    // A boat crosses cascade 1's water and stops: its trail is then fed no more.
    scene
        .add_body(boat(vec![Vec2::new(-9.0, 6.0), Vec2::new(-7.0, 6.0)]))
        .expect("boat");
    for _ in 0..40 {
        scene.step().expect("step");
    }
    // The trail's cells, in the world, while the boat lies still (its masks no longer change).
    for _ in 0..20 {
        scene.step().expect("step");
    }
    let at = |scene: &Scene| {
        (0..8)
            .map(|i| foam_at(scene, 1, Vec2::new(-9.0 + 0.25 * i as f32, 6.0)))
            .collect::<Vec<_>>()
    };
    let before = at(&scene);
    assert!(before.iter().any(|&f| f > 0.05), "a trail: {before:?}");
    let t0 = scene.time();
    // The focus runs +x at 1 m/s (a path timed from the scene's start, at the grid's centre
    // now): the cascades follow it by whole cells of their own.
    let origin0 = scene.cascade_origin(1).expect("origin");
    scene
        .set_focus(Some(SceneFocus::Path(
            TowPath::new(vec![Vec2::new(9.0, 8.0), Vec2::new(60.0, 8.0)], 1.0).expect("path"),
        )))
        .expect("focus");
    for _ in 0..40 {
        scene.step().expect("step");
    }
    let moved = scene.cascade_origin(1).expect("origin") - origin0;
    assert!(moved.x >= 1.5, "cascade 1 moved {moved}");
    let decay = (-(scene.time() - t0) / HALF_LIFE).exp2();
    for (i, (b, a)) in before.iter().zip(at(&scene)).enumerate() {
        let expected = f64::from(*b) * decay;
        assert!(
            (f64::from(a) - expected).abs() <= 1e-6,
            "cell {i}: {a} after the move, {expected} expected"
        );
    }
}

/// A box added in cascade 1's water lying still makes no foam (no entry patch over its hull);
/// removed, it leaves one stern event's worth, which fades by the half-life to nothing (its
/// old mask is no wake step after step).
#[test]
fn a_body_added_makes_no_foam_and_one_removed_leaves_foam_that_fades() {
    let mut scene = scene();
    // A path of one point, repeated: the box stays at (-8, 8.5) m.
    let id = scene
        .add_body(boat(vec![Vec2::new(-8.0, 8.5), Vec2::new(-8.0, 8.5)]))
        .expect("box");
    let largest = |scene: &Scene| {
        (0..3)
            .flat_map(|k| scene.cascade_foam(k).expect("cascade").expect("foam"))
            .fold(0.0f32, f32::max)
    };
    for _ in 0..10 {
        scene.step().expect("step");
    }
    assert_eq!(largest(&scene), 0.0, "a box lying still made foam");
    scene.remove_body(id).expect("removed");
    scene.step().expect("step");
    let stern = largest(&scene);
    assert!(stern > 0.1, "the box's leaving made {stern}");
    // Twenty half-lives on: 2^-20 of it, had nothing raised it again.
    let steps = (20.0 * HALF_LIFE / 0.05).round() as u64;
    scene.step_many(steps).expect("steps");
    let left = largest(&scene);
    assert!(left <= stern * 2e-6, "{left} left of {stern}");
}

/// On a choppy sea with a threshold of 1 (every compressed cell breaks), cascade k samples the
/// breaking every 2^k steps: after a step count that is a multiple of 2^k some of its cells
/// are fully white, after one that is not none is (they decay from the last sample); and a
/// cascade-1 cell wholly where the finest grid shows alone never foams, while its cells beyond
/// the finest grid do.
#[test]
fn cascades_sample_breaking_every_2_to_the_k_steps_outside_where_the_finer_grid_shows() {
    use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};
    let mut scene = scene();
    let sea = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 10.0,
        fetch: 30_000.0,
        peak_enhancement: 3.3,
    })
    .with_choppiness(1.0)
    .with_seed(4);
    scene.set_ocean(Some(AmbientSea::new(&sea, 0.25).expect("sea")));
    scene
        .set_foam(Some(FoamSettings {
            half_life: HALF_LIFE,
            wake: 0.5,
            jacobian_threshold: Some(1.0),
            shore_depth: None,
        }))
        .expect("foam");
    let white = |scene: &Scene, k: usize| {
        let foam = scene.cascade_foam(k).expect("cascade").expect("foam");
        foam.iter().filter(|&&f| f == 1.0).count()
    };
    for n in 1..=8u64 {
        scene.step().expect("step");
        for k in 1..3 {
            let sampled = n % (1 << k) == 0;
            let w = white(&scene, k);
            assert_eq!(
                w > 0,
                sampled,
                "after {n} steps cascade {k} has {w} white cells"
            );
        }
    }
    // The finest grid spans x 0 to 24 m, y 0 to 16 m; it shows alone 2 + 16 of its cells inside
    // its rim (the wave model's edge band, then the blend): x 4.5 to 19.5 m, y 4.5 to 11.5 m.
    assert_eq!(
        foam_at(&scene, 1, Vec2::new(12.1, 8.1)),
        0.0,
        "inside the finest grid"
    );
    let beyond = (0..40)
        .map(|i| foam_at(&scene, 1, Vec2::new(-10.0 + 0.5 * i as f32, -5.0)))
        .fold(0.0f32, f32::max);
    assert!(beyond > 0.0, "cascade 1 beyond the finest grid never broke");
}
