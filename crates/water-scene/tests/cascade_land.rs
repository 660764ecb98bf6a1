//! Land in the cascades: every cascade sees the scene's land at its own cell size (a coarse
//! cell dry where any finest cell under it is), keeps it dry, carries it as it follows, and a
//! wave that leaves the finest grid stops at a wall the coarser cascade holds.

use glam::{DVec2, Vec3};
use water_core::{
    Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaveParams,
};
use water_scene::{GridSpec, Scene, SceneFocus, SceneSettings};

/// The finest grid: 64 x 64 cells of 0.5 m (32 m), the wave model at 2 m/s, absorbing edges.
fn spec() -> GridSpec {
    let params = WaveParams::new(0.5, 2.0, 0.05, Damping::NONE).expect("params");
    GridSpec::new(
        GridSize::new(64, 64).expect("size"),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
}

/// The world's land: a wall from x = 28 m to 30 m (finest cells 56..60), y = 0 to 32 m.
fn wall(spec: &GridSpec) -> LandMask {
    let mut land = LandMask::empty(spec.size);
    land.add_rect(56, 0, 60, 64).expect("wall");
    land
}

/// Two cascades over `land`, the finest grid moved to x in [-8, 24) m so that the wall lies
/// beyond it, inside cascade 1 (x in [-24, 40) m, cells of 1 m); a pulse of 3 m radius at
/// (20, 16) m, 8 m before the wall.
fn scene(land: LandMask) -> Scene {
    let spec = spec();
    let mut scene = Scene::new(spec, land, SceneSettings::default(), None).expect("scene");
    scene
        .set_focus(Some(SceneFocus::Point(Vec3::new(8.0, 16.0, 0.0))))
        .expect("focus");
    scene.set_cascades(2).expect("cascades over land");
    assert_eq!(
        scene.cascade_origin(0).expect("origin"),
        DVec2::new(-8.0, 0.0)
    );
    assert_eq!(
        scene.cascade_origin(1).expect("origin"),
        DVec2::new(-24.0, -16.0)
    );
    // World cells of the finest grid: (40, 32) is (20, 16) m.
    scene.add_impulse(
        Impulse::new(glam::Vec2::new(40.0, 32.0), 6.0, 0.1, ImpulseShape::Cosine).expect("pulse"),
    );
    scene
}

/// Cascade 1's largest |height| over its cells whose centres lie in `xs` x `ys` (world m).
fn largest_in(scene: &Scene, xs: (f32, f32), ys: (f32, f32)) -> f32 {
    let heights = scene.cascade_heights(1).expect("heights");
    let origin = scene.cascade_origin(1).expect("origin").as_vec2();
    (0..64 * 64)
        .filter(|i| {
            let (x, y) = (
                origin.x + (i % 64) as f32 + 0.5,
                origin.y + (i / 64) as f32 + 0.5,
            );
            (xs.0..xs.1).contains(&x) && (ys.0..ys.1).contains(&y)
        })
        .map(|i| heights[i].abs())
        .fold(0.0, f32::max)
}

#[test]
fn a_coarse_cascade_holds_the_wall_the_finest_grid_has_left_behind() {
    let spec = spec();
    let mut walled = scene(wall(&spec));
    let mut open = scene(LandMask::empty(spec.size));
    // Cascade 1's land: the wall's cells of 1 m, x = 28 and 29 m (cells 52 and 53 from its
    // corner at -24 m), y = 0 to 32 m (cells 16 to 47), and nothing else.
    let land = walled.cascade_land(1).expect("land").clone();
    let dry: Vec<usize> = (0..64 * 64).filter(|&i| land.cells()[i]).collect();
    let expected: Vec<usize> = (16..48)
        .flat_map(|y| [52, 53].map(move |x| y * 64 + x))
        .collect();
    assert_eq!(dry, expected, "the wall at cascade 1's cell size");
    assert!(
        walled.cascade_land(0).expect("land").is_empty(),
        "the finest grid left it"
    );
    // 120 steps (6 s): the pulse's front, 3 m in radius and 8 m before the wall at 2 m/s, has passed
    // where the wall is; it has not reached around the wall's end at y = 32 m (18 m away).
    for step in 0..120 {
        walled.step().expect("step");
        open.step().expect("step");
        let heights = walled.cascade_heights(1).expect("heights");
        for &i in &dry {
            assert_eq!(
                heights[i], 0.0,
                "step {step}: the wall's cell {i} stays dry"
            );
        }
    }
    let behind_open = largest_in(&open, (31.0, 36.0), (8.0, 24.0));
    let behind_wall = largest_in(&walled, (31.0, 36.0), (8.0, 24.0));
    let before_wall = largest_in(&walled, (20.0, 27.0), (8.0, 24.0));
    eprintln!(
        "behind the wall: {behind_wall:.2e} m (open water: {behind_open:.2e} m); before it \
         {before_wall:.2e} m"
    );
    assert!(
        behind_open > 5e-3,
        "without the wall the pulse gets there: {behind_open} m"
    );
    assert!(
        behind_wall < 0.01 * behind_open,
        "the wall stops it: {behind_wall} m against {behind_open} m in open water"
    );
    assert!(
        before_wall > 1e-3,
        "and the water before the wall moves: {before_wall} m"
    );
}

/// As the cascade follows the focus, the land it sees comes with it: moved back over the wall,
/// the finest grid holds it again, and cascade 1 still does where it lies.
#[test]
fn the_cascades_land_follows_them() {
    let spec = spec();
    let mut scene = scene(wall(&spec));
    scene
        .set_focus(Some(SceneFocus::Point(Vec3::new(24.0, 16.0, 0.0))))
        .expect("focus");
    scene.step().expect("step");
    assert_eq!(
        scene.cascade_origin(0).expect("origin"),
        DVec2::new(8.0, 0.0)
    );
    assert_eq!(
        scene.cascade_origin(1).expect("origin"),
        DVec2::new(-8.0, -16.0)
    );
    let finest = scene.cascade_land(0).expect("land");
    // The wall's finest cells 56..60 are cells 40..44 of the grid whose corner is at cell 16.
    assert!(finest.is_land(40, 10) && finest.is_land(43, 63) && !finest.is_land(44, 10));
    let coarse = scene.cascade_land(1).expect("land");
    // x = 28, 29 m are cells 36, 37 of cascade 1 from -8 m; y = 0..32 m its cells 16..48.
    assert!(coarse.is_land(36, 16) && coarse.is_land(37, 47));
    assert!(!coarse.is_land(35, 20) && !coarse.is_land(38, 20) && !coarse.is_land(36, 48));
}
