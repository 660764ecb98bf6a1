//! `water run` of a scenario whose grid follows a `[focus]` through a choppy `[ocean]` with
//! `[foam]`: the summary gives where the grid's corner ended, `ocean.npy` is the sea at the
//! cells' world positions there and `foam.npy` the breaking crests' foam, as the library answers
//! for the same run.

use water_cli::npy;
use water_scene::scenario::{Scenario, ScenarioRun};
use water_scene::{cell_centres, Backend};

mod common;

use common::{assert_success, read_json, run_file, scratch, write_scenario};

const SAILING: &str = r#"steps = 60
[grid]
width = 48
height = 32
cell_size = 0.5
wave_speed = 3.0
dt = 0.05
boundary = "absorbing"
[ocean]
spectrum = "pierson-moskowitz"
wind_speed = 6.0
seed = 3
choppiness = 1.5
[foam]
half_life = 2.0
jacobian_threshold = 0.6
[focus]
path = [[12.0, 8.0], [112.0, 38.0]]
speed = 6.0
"#;

fn f32s(bytes: &[u8]) -> Vec<f32> {
    let (descr, _, payload) = npy::read_raw(bytes).expect("valid npy");
    assert_eq!(descr, "<f4");
    payload
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn a_followed_run_writes_where_the_grid_ended_and_the_sea_there() {
    let dir = scratch("focus-run");
    let out = dir.join("out");
    let res = run_file(&write_scenario(&dir, "sail.toml", SAILING), &out, &[]);
    assert_success(&res);

    let scenario = Scenario::parse("sail.toml", SAILING).expect("parses");
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, scenario.steps, None, |_| {})
        .expect("run");
    let origin = scene.window_origin();
    assert!(
        origin.x > 10.0 && origin.y > 2.0,
        "the grid sailed: {origin}"
    );

    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["origin"][0].as_f64(), Some(origin.x));
    assert_eq!(summary["origin"][1].as_f64(), Some(origin.y));
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(
        text.contains(&format!(
            "window     corner ends at ({:.3}, {:.3}) m",
            origin.x, origin.y
        )),
        "{text}"
    );

    let centres = cell_centres(scenario.size, 0.5, origin.as_vec2());
    let sea = scene.sea_frame().expect("a sea").heights(&centres);
    let written = f32s(&std::fs::read(out.join("ocean.npy")).expect("ocean.npy"));
    assert!(
        written
            .iter()
            .zip(&sea)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "ocean.npy is the sea at the cells where the grid ended"
    );
    let at_home = scene.sea_frame().expect("a sea").heights(&cell_centres(
        scenario.size,
        0.5,
        glam::Vec2::ZERO,
    ));
    assert_ne!(written, at_home, "not the sea where the grid started");

    let (_, shape, _) =
        npy::read_raw(&std::fs::read(out.join("foam.npy")).expect("foam.npy")).expect("valid npy");
    assert_eq!(shape, vec![32, 48]);
    let foam = f32s(&std::fs::read(out.join("foam.npy")).expect("foam.npy"));
    let expected = scene.foam_coverage().expect("foam");
    assert!(
        foam.iter()
            .zip(&expected)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "foam.npy is the scene's foam"
    );
    assert!(foam.iter().any(|&f| f > 0.0), "crests broke");
    assert!(foam.iter().all(|f| (0.0..=1.0).contains(f)));
}
