//! `water run` of a scenario whose grid follows a `[focus]` through a choppy `[ocean]` with
//! `[foam]`: the summary gives where the grid's corner ended, `ocean.npy` is the sea at the
//! cells' world positions there and `foam.npy` the breaking crests' foam, as the library answers
//! for the same run.

use std::path::Path;

use water_cli::npy;
use water_scene::cell_centres;

mod common;

use common::{library_run, read_json, run_ok};

const SAILING: &str = include_str!("scenarios/sailing.toml");

/// The `[32, 48]` f32 array `water run` wrote as `out/name`.
fn grid_array(out: &Path, name: &str) -> Vec<f32> {
    npy::read_f32_grid_file(&out.join(name), name, 48, 32).expect("32 x 48 f32")
}

#[test]
fn a_followed_run_writes_where_the_grid_ended_and_the_sea_there() {
    let (res, out) = run_ok("focus-run", "sail.toml", SAILING);
    let (scenario, mut scene) = library_run("sail.toml", SAILING);
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
    let written = grid_array(&out, "ocean.npy");
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

    let foam = grid_array(&out, "foam.npy");
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
