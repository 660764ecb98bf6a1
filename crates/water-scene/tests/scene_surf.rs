//! Surf: a long pulse running from 2 m of water up a slope grows as it shoals (Green's law) and
//! breaks where its crest passes McCowan's limit, 0.78 of the depth: foam appears on the shallow
//! cells and nowhere deeper than the shore depth; a pulse a tenth as high reaches the same shore
//! without breaking and leaves no foam.

use water_core::{
    Boundary, Damping, Depth, GridMode, GridSize, LandMask, WaveParams, STANDARD_GRAVITY,
};
use water_scene::{FoamSettings, GridSpec, Scene, SceneError, SceneSettings};

const WIDTH: usize = 160;
const CELL: f64 = 0.25;
const SHORE_DEPTH: f32 = 0.6;

/// Depth along x: 2 m for the first 40 cells, then a straight slope to 0.1 m at the far end.
fn depth_at(x: usize) -> f32 {
    let slope_start = 40.0;
    let t = ((x as f32 - slope_start) / (WIDTH as f32 - 1.0 - slope_start)).clamp(0.0, 1.0);
    2.0 + (0.1 - 2.0) * t
}

/// A scene over the slope with surf foam, and a right-going pulse of `amplitude` m (a
/// half-sine 24 cells long, both time levels set so it travels toward the shore).
fn beach(amplitude: f32) -> Scene {
    let size = GridSize::new(WIDTH, 4).expect("size");
    let depth = Depth::from_cells(
        size,
        (0..size.cells()).map(|i| depth_at(i % WIDTH)).collect(),
    )
    .expect("depth");
    let c = (STANDARD_GRAVITY * 2.0f64).sqrt();
    let dt = 0.5 * CELL / c;
    let params =
        WaveParams::shallow_water(CELL, &depth, STANDARD_GRAVITY, dt, Damping::NONE).expect("ok");
    let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
    let mut scene =
        Scene::new(spec, LandMask::empty(size), SceneSettings::default(), None).expect("scene");
    scene.set_depth(&depth).expect("depth");
    let pulse = |x: f64| -> f32 {
        let (start, length) = (4.0, 24.0);
        let s = (x - start) / length;
        if (0.0..=1.0).contains(&s) {
            amplitude * (std::f64::consts::PI * s).sin() as f32
        } else {
            0.0
        }
    };
    // One step back the pulse stood c dt further toward the deep side.
    let shift_cells = c * dt / CELL;
    let water = scene.water_mut().cpu_mut().expect("CPU water");
    let field = water.signed_field_mut().expect("signed");
    let (cur, old) = field.levels_mut();
    for i in 0..size.cells() {
        let x = (i % WIDTH) as f64;
        cur[i] = pulse(x);
        old[i] = pulse(x + shift_cells);
    }
    scene
        .set_foam(Some(FoamSettings {
            half_life: 30.0,
            wake: 0.0,
            jacobian_threshold: None,
            shore_depth: Some(SHORE_DEPTH),
        }))
        .expect("foam");
    scene
}

/// Runs the pulse to the shore and back; gives the cells that ever foamed.
fn foamed_columns(amplitude: f32) -> Vec<usize> {
    let mut scene = beach(amplitude);
    let mut foamed = [false; WIDTH];
    for _ in 0..400 {
        scene.step().expect("step");
        let foam = scene.foam_coverage().expect("foam");
        for (i, f) in foam.iter().enumerate() {
            if *f > 0.0 {
                foamed[i % WIDTH] = true;
            }
        }
    }
    (0..WIDTH).filter(|&x| foamed[x]).collect()
}

#[test]
fn surf_breaks_on_the_shallow_cells_where_the_pulse_shoals_past_mccowans_limit() {
    let high = foamed_columns(0.12);
    eprintln!(
        "0.12 m pulse: foam on columns {:?} (depths {:.2} to {:.2} m)",
        (high.first(), high.last()),
        high.first().map_or(0.0, |&x| depth_at(x)),
        high.last().map_or(0.0, |&x| depth_at(x)),
    );
    assert!(high.len() >= 3, "the shoaling pulse broke: {high:?}");
    for &x in &high {
        assert!(
            depth_at(x) < SHORE_DEPTH,
            "column {x} at {} m is deeper than the shore",
            depth_at(x)
        );
    }
    let low = foamed_columns(0.012);
    assert!(low.is_empty(), "a pulse a tenth as high broke at {low:?}");
}

#[test]
fn surf_without_a_depth_is_refused_by_name() {
    let size = GridSize::new(16, 16).expect("size");
    let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE).expect("params");
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    let mut scene =
        Scene::new(spec, LandMask::empty(size), SceneSettings::default(), None).expect("scene");
    let surf = FoamSettings {
        half_life: 2.0,
        wake: 0.5,
        jacobian_threshold: None,
        shore_depth: Some(0.5),
    };
    let err = scene.set_foam(Some(surf)).expect_err("no depth");
    assert!(
        matches!(err, SceneError::ShoreWithoutDepth { shore_depth } if shore_depth == 0.5),
        "{err}"
    );
    assert!(err.to_string().contains("shore_depth 0.5 m"), "{err}");
    for bad in [0.0, -1.0, f32::NAN] {
        let err = scene
            .set_foam(Some(FoamSettings {
                shore_depth: Some(bad),
                ..surf
            }))
            .expect_err("bad depth");
        assert!(err.to_string().contains("foam shore_depth"), "{err}");
    }
}

/// The shores are found again when the depth changes: over deep water (2 m everywhere) the
/// pulse breaks nowhere; given the slope after a few steps, it breaks on the shallow cells.
#[test]
fn surf_follows_a_depth_set_after_the_start() {
    let size = GridSize::new(WIDTH, 4).expect("size");
    let mut scene = beach(0.12);
    let deep = Depth::uniform(size, 2.0).expect("deep");
    scene.set_depth(&deep).expect("deep");
    for _ in 0..5 {
        scene.step().expect("step");
    }
    assert!(
        scene
            .foam_coverage()
            .expect("foam")
            .iter()
            .all(|&f| f == 0.0),
        "deep water made surf"
    );
    let slope = Depth::from_cells(
        size,
        (0..size.cells()).map(|i| depth_at(i % WIDTH)).collect(),
    )
    .expect("slope");
    scene.set_depth(&slope).expect("slope");
    let mut foamed = 0;
    for _ in 0..400 {
        scene.step().expect("step");
        foamed += scene
            .foam_coverage()
            .expect("foam")
            .iter()
            .filter(|&&f| f == 1.0)
            .count();
    }
    assert!(foamed > 0, "the slope set later made no surf");
}
