//! `[grid] cascades`: builds the scene's cascades, and every value or set-up they do not take
//! is refused at its line with the limit or what they take.

use water_scene::scenario::{Scenario, ScenarioRun};
use water_scene::Backend;

/// `[grid]` with `cascades` on line 9; `extra` inside `[grid]` after it.
fn grid(cascades: &str, extra: &str) -> String {
    format!(
        "steps = 40\n[grid]\nwidth = 64\nheight = 48\ncell_size = 0.25\nwave_speed = 2.0\n\
         dt = 0.05\nboundary = \"absorbing\"\ncascades = {cascades}\n{extra}"
    )
}

#[test]
fn cascades_build_the_scenes_coarser_grids_and_take_the_impulses() {
    let text = grid(
        "3",
        "[[impulse]]\nx = 32.0\ny = 24.0\nradius = 8.0\namplitude = 0.1\n",
    );
    let scenario = Scenario::parse("c.toml", &text).expect("parses");
    assert_eq!(scenario.cascades, 3);
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    assert_eq!(scene.cascade_count(), 3);
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, scenario.steps, None, |_| {})
        .expect("run");
    for k in 0..3 {
        let spec = scene.cascade_spec(k).expect("spec");
        assert_eq!(spec.params.cell_size(), 0.25 * f64::from(1u32 << k));
        let peak = scene
            .cascade_heights(k)
            .expect("heights")
            .iter()
            .fold(0.0f32, |m, z| m.max(z.abs()));
        assert!(peak > 1e-3 && peak.is_finite(), "cascade {k}: {peak}");
    }
    let absent = Scenario::parse("c.toml", &grid("1", "")).expect("parses");
    assert_eq!(absent.cascades, 1);
}

#[test]
fn every_mistake_is_refused_at_its_line() {
    for (cascades, extra, needle) in [
        ("0", "", "cascades = 0: must be 1 to 8"),
        ("9", "", "cascades = 9: must be 1 to 8"),
        ("-3", "", "must be 1 to 8"),
        ("2", "mode = \"split\"\n", "cascades take signed mode"),
    ] {
        let err = Scenario::parse("c.toml", &grid(cascades, extra))
            .expect_err("refused")
            .to_string();
        assert!(err.starts_with("c.toml:9:"), "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let huge = grid("8", "").replace("cell_size = 0.25", "cell_size = 20000.0");
    let err = Scenario::parse("c.toml", &huge)
        .expect_err("refused")
        .to_string();
    assert!(
        err.starts_with("c.toml:9:") && err.contains("cascade 7's cells of 2560000 m"),
        "{err}"
    );
    let reflective = grid("2", "").replace("\"absorbing\"", "\"reflective\"");
    let err = Scenario::parse("c.toml", &reflective)
        .expect_err("refused")
        .to_string();
    assert!(
        err.starts_with("c.toml:9:") && err.contains("boundary = \"absorbing\""),
        "{err}"
    );
}

/// An impulse beyond the finest grid but inside a cascade that resolves it (its radius spanning
/// 2 of that cascade's cells) reaches water: it is taken, and lands there alone; one too narrow
/// for the cascade over it, or beyond the coarsest, reaches none and is refused at its entry.
#[test]
fn an_impulse_only_a_cascade_resolves_is_taken_and_lands_there() {
    let beyond = |x: f64, radius: f64| {
        format!("[[impulse]]\nx = {x}\ny = 24.0\nradius = {radius}\namplitude = 0.1\n")
    };
    // Cascade 1 (cells of 0.5 m) spans the finest cells -32 to 96 along x; 8 finest cells are
    // 4 of its cells.
    let scenario = Scenario::parse("c.toml", &grid("2", &beyond(80.0, 8.0))).expect("taken");
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, 2, None, |_| {})
        .expect("run");
    let finest = scene.cascade_heights(0).expect("heights");
    assert!(
        finest.iter().all(|&z| z == 0.0),
        "the finest grid is not reached"
    );
    let coarse = scene.cascade_heights(1).expect("heights");
    assert!(
        coarse.iter().any(|&z| z > 0.01),
        "cascade 1 takes the impulse"
    );
    for (text, why) in [
        (beyond(80.0, 3.0), "1.5 of cascade 1's cells"),
        (beyond(200.0, 8.0), "beyond cascade 1"),
    ] {
        let err = Scenario::parse("c.toml", &grid("2", &text))
            .expect_err(why)
            .to_string();
        assert!(err.contains("reaches no cell"), "{why}: {err}");
    }
    // Without the cascade the first is refused too.
    let err = Scenario::parse("c.toml", &grid("1", &beyond(80.0, 8.0)))
        .expect_err("no cascade")
        .to_string();
    assert!(err.contains("reaches no cell"), "{err}");
}

/// `[[land]]` with cascades is taken: every cascade sees it at its own cell size.
#[test]
fn land_with_cascades_is_taken_and_every_cascade_sees_it() {
    let land = "[[land]]\nx0 = 40\ny0 = 0\nx1 = 44\ny1 = 48\n";
    let scenario = Scenario::parse("c.toml", &grid("3", land)).expect("taken");
    let scene = scenario.scene(Backend::Cpu, None).expect("scene");
    for k in 0..3 {
        let dry = scene
            .cascade_land(k)
            .expect("land")
            .cells()
            .iter()
            .filter(|&&d| d)
            .count();
        // 4 x 48 finest cells; 2 x 24 of cascade 1's; 1 x 12 of cascade 2's.
        assert_eq!(dry, [192, 48, 12][k], "cascade {k}");
    }
}
