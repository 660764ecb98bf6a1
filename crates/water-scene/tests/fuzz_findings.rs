//! Inputs the `scenario` fuzz target (fuzz/) found, kept as tests: each once broke a promise
//! of the parser (docs/reliability.md, "Fuzzing and property tests").

use water_scene::scenario::ScenarioFile;
use water_scene::water_core::ContactSource;

#[test]
fn a_control_character_in_a_comment_is_refused_with_a_message_and_its_place() {
    // The rock pool's first line with a byte 0x01 in its comment: toml's own message for it is
    // empty.
    let text = "# Raindrops in a rock pool\u{1}\nsteps = 10\n[grid]\nwidth = 8\n";
    let e = ScenarioFile::parse("pool.toml", text).expect_err("not valid TOML");
    assert_eq!((e.line, e.column), (1, 27), "{e}");
    assert!(!e.message.trim().is_empty(), "{e:?}");
}

#[test]
fn a_contact_amplitude_past_the_scenes_limit_is_refused_by_the_parser_naming_it() {
    // The boat-wake scenario with `amplitude = 1e108`: the parser took any finite amplitude and
    // the scene then refused it, so a parsed scenario could not be run.
    let body =
        "[[body]]\nshape = \"sphere\"\nradius = 0.15\nmass = 4.0\nposition = [3.0, 2.0, 0.1]\n";
    let with = |amplitude: &str| {
        format!(
            "steps = 16\n[grid]\nwidth = 64\nheight = 48\ncell_size = 0.1\nwave_speed = 1.2\n\
             dt = 0.02\n[contacts]\namplitude = {amplitude}\n{body}"
        )
    };
    let e = ScenarioFile::parse("wake.toml", &with("1e108")).expect_err("past 1e5");
    assert_eq!(e.line, 9, "{e}");
    assert!(
        e.message.contains("got 1e108") && e.message.contains("0 or in [1.17549435e-38, 1e5]"),
        "{e}"
    );
    // The limit itself parses, and its scene is built.
    let Ok(ScenarioFile::Grid(scenario)) = ScenarioFile::parse("wake.toml", &with("1e5")) else {
        panic!("1e5 is within the limit");
    };
    scenario
        .scene(water_scene::Backend::Cpu, None)
        .expect("the scene takes what the parser took");
}

#[test]
fn a_depth_map_that_is_not_a_regular_file_is_refused_before_it_is_read() {
    // `depth_map = "/dev/zero"` was read whole (gigabytes) before its header was checked.
    let text = "steps = 1\n[grid]\nwidth = 8\nheight = 8\ncell_size = 0.1\ndt = 0.01\n\
                depth_map = \"/dev/zero\"\n";
    let e = ScenarioFile::parse("deep.toml", text).expect_err("a device, not a file");
    assert_eq!(e.line, 7, "{e}");
    assert!(e.message.contains("not a regular file"), "{e}");
}

#[test]
fn a_body_wholly_beyond_the_grid_is_refused_unless_a_sea_or_its_path_reaches_it() {
    // A body placed wholly off the grid ran with exit 0 and no word anywhere.
    let grid = "steps = 4\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.1\nwave_speed = 1.0\n\
                dt = 0.02\n";
    let placed = |x: f64, y: f64, extra: &str| {
        format!(
            "[[body]]\nname = \"stray\"\nshape = \"sphere\"\nradius = 0.2\nmass = 10.0\n\
             position = [{x}, {y}, 0.0]\n{extra}"
        )
    };
    let body = |x: f64, extra: &str| placed(x, 1.0, extra);
    let e = ScenarioFile::parse("stray.toml", &format!("{grid}{}", body(50.0, "")))
        .expect_err("no water under it");
    assert_eq!(e.line, 8, "{e}");
    assert!(
        e.message.contains("\"stray\"") && e.message.contains("3.2 m"),
        "{e}"
    );
    // Its rim over the grid's edge (3.2 m) is enough; so is a path over the grid.
    ScenarioFile::parse("stray.toml", &format!("{grid}{}", body(3.35, ""))).expect("reaches");
    let towed = body(-5.0, "path = [[-5.0, 1.0], [2.0, 1.0]]\nspeed = 1.0\n");
    ScenarioFile::parse("stray.toml", &format!("{grid}{towed}")).expect("towed over");
    // A leg from one side of the grid to the other crosses it with no corner over it (this
    // was refused as towed nowhere over the grid); a leg that passes beside it does not.
    let across = body(-5.0, "path = [[-5.0, 1.0], [50.0, 1.0]]\nspeed = 20.0\n");
    ScenarioFile::parse("stray.toml", &format!("{grid}{across}")).expect("a leg across");
    let diagonal = placed(
        -5.0,
        -2.0,
        "path = [[-5.0, -2.0], [8.0, 5.0]]\nspeed = 20.0\n",
    );
    ScenarioFile::parse("stray.toml", &format!("{grid}{diagonal}")).expect("a diagonal leg");
    let beside = placed(
        -5.0,
        4.0,
        "path = [[-5.0, 4.0], [50.0, 4.0]]\nspeed = 20.0\n",
    );
    let e = ScenarioFile::parse("stray.toml", &format!("{grid}{beside}"))
        .expect_err("a leg beside the grid");
    assert_eq!(e.line, 8, "{e}");
    // With a sea around the grid there is water everywhere.
    let sea = "[ocean]\nspectrum = \"pierson-moskowitz\"\nwind_speed = 3.0\n";
    ScenarioFile::parse("stray.toml", &format!("{grid}{}{sea}", body(50.0, "")))
        .expect("the sea carries it");
}

#[test]
fn a_wave_speed_the_scenario_did_not_write_is_blamed_on_what_was_written() {
    // Over a depth and in classic mode the refusal named `wave_speed` (not written, or even
    // refused there) at the [grid] line.
    let grid = "steps = 10\n[grid]\nwidth = 16\nheight = 16\n";
    let e = ScenarioFile::parse(
        "d.toml",
        &format!("{grid}cell_size = 0.1\ndt = 0.01\ndepth = 1e-14\n"),
    )
    .expect_err("too shallow to move");
    // Too shallow for any grid (sqrt(g d) past the wave speeds stepped): refused by the depth's
    // own range (`scenario_depth.rs` blames a map's deepest water).
    assert_eq!(e.line, 7, "{e}");
    assert!(
        e.message
            .contains("depth = 1e-14 is outside the allowed range [1e-6, 11000] m"),
        "{e}"
    );
    let e = ScenarioFile::parse(
        "c.toml",
        &format!("{grid}dt = 1e-9\nmode = \"classic\"\nboundary = \"fixed\"\n"),
    )
    .expect_err("a = 1/2 at 1e-9 s");
    assert_eq!(e.line, 5, "{e}");
    assert!(e.message.contains("cell_size / (dt sqrt 2)"), "{e}");
    assert!(!e.message.starts_with("wave_speed"), "{e}");
}

#[test]
fn the_displacement_source_is_refused_where_it_cannot_run() {
    let body =
        "[[body]]\nshape = \"sphere\"\nradius = 0.15\nmass = 4.0\nposition = [3.0, 2.0, 0.1]\n";
    let with = |mode: &str, contacts: &str| {
        format!(
            "steps = 4\n[grid]\nwidth = 64\nheight = 48\ncell_size = 0.1\nwave_speed = 1.2\n\
             dt = 0.02\nmode = \"{mode}\"\n[contacts]\n{contacts}\n{body}"
        )
    };
    // An unknown source, at its line, with the two it takes.
    let e = ScenarioFile::parse("wake.toml", &with("signed", "source = \"pressure\""))
        .expect_err("unknown");
    assert_eq!(e.line, 10, "{e}");
    assert!(
        e.message.contains("\"pressure\"") && e.message.contains("displacement"),
        "{e}"
    );
    // Split mode has no single height in metres to press: refused at the source's line.
    let e = ScenarioFile::parse("wake.toml", &with("split", "source = \"displacement\""))
        .expect_err("split");
    assert_eq!(e.line, 10, "{e}");
    assert!(
        e.message.contains("signed") && e.message.contains("split"),
        "{e}"
    );
    // Signed mode takes it, with the amplitude a scale of the body's weight head (1 unless
    // written), and its scene runs.
    let Ok(ScenarioFile::Grid(scenario)) =
        ScenarioFile::parse("wake.toml", &with("signed", "source = \"displacement\""))
    else {
        panic!("signed mode takes the displacement");
    };
    assert_eq!(scenario.contact_amplitude, 1.0);
    assert_eq!(scenario.contact_source, ContactSource::Displacement);
    let mut scene = scenario
        .scene(water_scene::Backend::Cpu, None)
        .expect("the CPU scene");
    scene.step_many(4).expect("steps");
}
