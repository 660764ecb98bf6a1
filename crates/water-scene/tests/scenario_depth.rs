//! The depth keys of `[grid]`: `depth` or `depth_map` (a `.npy` beside the scenario), `gravity`
//! and `model` build water of varying depth, and every mistake is refused at its line and column
//! with the value and what is needed.

use std::path::Path;

use water_scene::npy;
use water_scene::scenario::{Scenario, ScenarioFile};
use water_scene::Backend;

const GRID: &str = "steps = 10\n[grid]\nwidth = 16\nheight = 8\ncell_size = 0.1\ndt = 0.01\n";

fn parse(extra: &str) -> Result<Scenario, String> {
    Scenario::parse("test.toml", &format!("{GRID}{extra}")).map_err(|e| e.to_string())
}

/// The one-line refusal of the scenario file at `file`.
fn load_refused(file: &Path, why: &str) -> String {
    ScenarioFile::load(file).expect_err(why).to_string()
}

fn refused(extra: &str, needle: &str) {
    let e = parse(extra).expect_err(extra);
    assert!(e.contains(needle), "{extra}: {e}");
    assert!(e.starts_with("test.toml:"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

#[test]
fn a_uniform_depth_sets_the_shallow_water_speed() {
    let s = parse("depth = 0.5\n").expect("parses");
    let c = (9.81f64 * 0.5).sqrt();
    assert!(
        (s.params.wave_speed() - c).abs() < 1e-6,
        "{}",
        s.params.wave_speed()
    );
    let s = parse("depth = 0.5\ngravity = 1.62\n").expect("the Moon");
    assert!((s.params.wave_speed() - (1.62f64 * 0.5).sqrt()).abs() < 1e-6);
    assert!(s.depth.expect("depth").is_uniform());
}

#[test]
fn a_depth_map_is_read_beside_the_scenario_and_its_dry_cells_are_land() {
    let dir = std::env::temp_dir().join(format!("water-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let metres: Vec<f32> = (0..16 * 8).map(|i| 1.0 - (i % 16) as f32 / 10.0).collect();
    std::fs::write(dir.join("bay.npy"), npy::encode(&metres, &[8, 16])).expect("write");
    let file = dir.join("bay.toml");
    std::fs::write(
        &file,
        format!("{GRID}depth_map = \"bay.npy\"\nboundary = \"reflective\"\n"),
    )
    .expect("write");
    let ScenarioFile::Grid(s) = ScenarioFile::load(&file).expect("loads") else {
        panic!("a grid scenario");
    };
    let depth = s.depth.as_ref().expect("depth");
    assert_eq!(depth.cells(), metres.as_slice());
    // Columns 10 to 15 are at or below 0 m.
    assert_eq!(s.all_land().land_cells(), 6 * 8);
    assert!(s.land.is_empty());
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    scene.step_many(10).expect("steps");

    std::fs::write(dir.join("wide.npy"), npy::encode(&metres, &[16, 8])).expect("write");
    std::fs::write(&file, format!("{GRID}depth_map = \"wide.npy\"\n")).expect("write");
    let e = load_refused(&file, "shape");
    assert!(e.contains("shape [16, 8]") && e.contains("[8, 16]"), "{e}");
    // The file is named once (it was `depth_map "wide.npy": cannot read DIR/wide.npy:
    // depth_map: shape ...`).
    assert_eq!(e.matches("depth_map").count(), 1, "{e}");
    assert!(!e.contains("cannot read"), "{e}");
    // A cell the depth refuses is named by its place.
    let mut holed = metres.clone();
    holed[3 * 16 + 5] = f32::NAN;
    std::fs::write(dir.join("bay.npy"), npy::encode(&holed, &[8, 16])).expect("write");
    std::fs::write(&file, format!("{GRID}depth_map = \"bay.npy\"\n")).expect("write");
    let e = load_refused(&file, "NaN");
    assert!(
        e.contains("cell (x 5, y 3) holds NaN; every depth must be a finite number"),
        "{e}"
    );
    holed[3 * 16 + 5] = 2e4;
    std::fs::write(dir.join("bay.npy"), npy::encode(&holed, &[8, 16])).expect("write");
    let e = load_refused(&file, "too deep");
    assert!(
        e.contains("cell (x 5, y 3) holds 20000.0") && e.contains("at most 11000"),
        "{e}"
    );
    // A map so shallow that its deepest water's sqrt(g d) is past the wave speeds a grid
    // steps is blamed on the map (no `wave_speed` was written), with the deepest depth.
    let film = vec![1e-14f32; 16 * 8];
    std::fs::write(dir.join("bay.npy"), npy::encode(&film, &[8, 16])).expect("write");
    let e = load_refused(&file, "too shallow");
    assert!(
        e.contains(":7:") && e.contains("the deepest water, 1e-14 m") && e.contains("sqrt(g d)"),
        "{e}"
    );
    // The dispersive model takes the map's deepest water as its relation's depth: shallower
    // than a micrometre, the map is named at its line (it was a `depth` nobody wrote, at the
    // `model` line).
    let film = vec![1e-7f32; 16 * 8];
    std::fs::write(dir.join("bay.npy"), npy::encode(&film, &[8, 16])).expect("write");
    std::fs::write(
        &file,
        format!("{GRID}depth_map = \"bay.npy\"\nmodel = \"dispersive\"\nboundary = \"periodic\"\n"),
    )
    .expect("write");
    let e = load_refused(&file, "too shallow");
    assert!(
        e.contains(":7:") && e.contains("depth_map's deepest water is 1e-7 m"),
        "{e}"
    );
    std::fs::write(&file, format!("{GRID}depth_map = \"missing.npy\"\n")).expect("write");
    let e = load_refused(&file, "missing");
    assert!(
        e.contains("missing.npy") && e.contains("cannot read"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
    assert!(!Path::new(&dir).exists());
}

#[test]
fn depth_mistakes_are_refused_where_they_stand() {
    refused("depth = 1.0\ndepth_map = \"x.npy\"\n", "not both");
    refused(
        "depth = 1.0\nwave_speed = 2.0\n",
        "wave_speed and a depth both given",
    );
    refused(
        "wave_speed = 2.0\ngravity = 9.81\n",
        "give `depth` or `depth_map`",
    );
    // One range for the depth, as written, in both models: a value f32 holds as 0 (1e-50)
    // was "must be greater than 0, got 0".
    let range =
        |shown: &str| format!("depth = {shown} is outside the allowed range [1e-6, 11000] m");
    for (written, why) in [
        ("-1.0", "depth must be greater than 0, got -1".to_owned()),
        ("nan", "depth must be a finite number, got NaN".to_owned()),
        ("1e40", range("1e40")),
        ("16080000", range("16080000")),
        ("1e-50", range("1e-50")),
        ("1e-7", range("1e-7")),
    ] {
        refused(&format!("depth = {written}\n"), &why);
        refused(
            &format!("depth = {written}\nmodel = \"dispersive\"\nboundary = \"periodic\"\n"),
            &why,
        );
    }
    refused("depth = 1.0\ngravity = 0.0\n", "gravity");
    refused("depth = 1.0\ngravity = 1e9\n", "gravity");
    refused("wave_speed = 2.0\nmodel = \"airy\"\n", "unknown model");
    // The stability check is made for the deepest water: c = sqrt(9.81 * 10) = 9.9 m/s gives
    // a = (c dt / h)^2 = 0.98.
    refused("depth = 10.0\n", "largest stable dt");
    refused(
        "depth = 1.0\nmode = \"classic\"\nboundary = \"fixed\"\n",
        "classic mode takes no depth",
    );
}

#[test]
fn the_beach_builtin_has_a_depth_with_a_dry_shore() {
    let ScenarioFile::Grid(s) = ScenarioFile::builtin("beach").expect("builtin") else {
        panic!("a grid scenario");
    };
    let depth = s.depth.as_ref().expect("depth");
    assert_eq!(depth.deepest(), 2.0);
    assert!(s.all_land().land_cells() > 0, "a dry shore");
}

const SEA: &str = "steps = 10\n[grid]\nwidth = 32\nheight = 16\ncell_size = 0.1\ndt = 0.02\n\
                   boundary = \"periodic\"\nmodel = \"dispersive\"\n";

fn sea(extra: &str) -> Result<Scenario, String> {
    Scenario::parse("sea.toml", &format!("{SEA}{extra}")).map_err(|e| e.to_string())
}

/// `model = "dispersive"` builds Airy water from gravity, surface tension, density and a
/// uniform depth; its wave speed is the shortest resolved wave's, so `a <= 1/2` is the
/// spectral step's limit.
#[test]
fn the_dispersive_model_takes_airys_keys() {
    let s = sea("").expect("deep water");
    let airy = s.dispersion.expect("dispersive");
    assert_eq!(airy.gravity(), 9.81);
    assert_eq!(airy.depth(), None);
    let k_max = std::f64::consts::PI * 2f64.sqrt() / 0.1;
    assert!((s.params.wave_speed() - airy.phase_speed(k_max)).abs() < 1e-9);
    let s = sea("depth = 0.2\nsurface_tension = 0.0728\ndensity = 1025.0\ngravity = 9.8\n")
        .expect("every key");
    let airy = s.dispersion.expect("dispersive");
    assert_eq!(
        (
            airy.depth(),
            airy.surface_tension(),
            airy.density(),
            airy.gravity()
        ),
        (Some(0.2), 0.0728, 1025.0, 9.8)
    );
    let mut scene = s.scene(Backend::Cpu, None).expect("on the CPU");
    scene.step_many(5).expect("steps");
    // The compute backend runs it too and the fragment backend refuses it by name:
    // water-testkit's cross_backend and gpu_errors tests, which have a GPU.
}

#[test]
fn dispersive_mistakes_are_refused_where_they_stand() {
    for (extra, needle) in [
        ("wave_speed = 2.0\n", "wave_speed is refused"),
        ("depth = 1.0\ndepth_map = \"x.npy\"\n", "not both"),
        ("mode = \"split\"\n", "signed grids"),
        ("surface_tension = -1.0\n", "surface_tension"),
        ("density = 0.0\n", "density"),
        // Without surface tension a density would change nothing.
        (
            "density = 1025.0\n",
            "only through surface_tension / density",
        ),
        ("depth = 0.0\n", "depth"),
        ("gravity = 1e9\n", "gravity"),
    ] {
        let e = sea(extra).expect_err(extra);
        assert!(e.contains(needle), "{extra}: {e}");
        assert!(e.starts_with("sea.toml:"), "{e}");
    }
    let e = Scenario::parse("sea.toml", &SEA.replace("periodic", "reflective"))
        .expect_err("reflective")
        .to_string();
    assert!(e.contains("periodic or absorbing"), "{e}");
    // The fastest ripple at h = 0.1 m, omega = sqrt(9.81 * 44.4) = 20.9 rad/s, needs dt below
    // pi / omega = 0.150 s.
    let e = Scenario::parse("sea.toml", &SEA.replace("dt = 0.02", "dt = 0.2"))
        .expect_err("too long")
        .to_string();
    assert!(
        e.contains("pi / omega_max = 0.150") && e.starts_with("sea.toml:6:"),
        "{e}"
    );
    refused(
        "wave_speed = 2.0\nsurface_tension = 0.07\n",
        "belong to model = \"dispersive\"",
    );
}

/// `model = "dispersive"` with a `depth_map`: the relation holds the map's deepest cell (which
/// sets the step's limit: a dt past it is refused at `dt`, named in the model's terms), the
/// dry cells are land, and the scene steps each cell at its own depth on the CPU.
#[test]
fn the_dispersive_model_takes_a_depth_map() {
    let dir = std::env::temp_dir().join(format!("water-sea-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let metres: Vec<f32> = (0..32 * 16).map(|i| 0.8 - (i % 32) as f32 / 30.0).collect();
    std::fs::write(dir.join("shore.npy"), npy::encode(&metres, &[16, 32])).expect("write");
    let file = dir.join("shore.toml");
    std::fs::write(&file, format!("{SEA}depth_map = \"shore.npy\"\n")).expect("write");
    let ScenarioFile::Grid(s) = ScenarioFile::load(&file).expect("loads") else {
        panic!("a grid scenario");
    };
    let airy = s.dispersion.expect("dispersive");
    assert_eq!(airy.depth(), Some(0.8f32.into()));
    // Columns 24 to 31 are at or below 0 m.
    assert_eq!(s.all_land().land_cells(), 8 * 16);
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    scene.step_many(10).expect("steps");
    // A dt past pi / omega_max at 0.8 m deep (0.107 s on 0.1 m cells) is refused at `dt`.
    let fast = format!("{SEA}depth_map = \"shore.npy\"\n").replace("dt = 0.02", "dt = 0.2");
    std::fs::write(&file, fast).expect("write");
    let e = load_refused(&file, "too long a step");
    assert!(e.contains("pi / omega_max") && e.contains(":6:"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Over a depth map the dispersive model's reference depths keep Airy's omega within 1% only up
/// to some step below the stability limit (the interpolation bends as `omega dt` nears `pi`).
/// A step past it is refused when the scenario is read, at `dt`'s line, naming the largest step
/// that does; that step is then taken. Here a map from 10 nm to 10 km on a 4096 x 4 grid of 1 m
/// cells (long waves and water a hundredth of a micrometre deep: the widest range a grid has
/// to cover), where dt = 0.45 s is 95% of the stability limit and 32 reference depths leave
/// 1.1%.
#[test]
fn a_step_the_reference_depths_cannot_keep_is_refused_at_dt_naming_the_largest_that_does() {
    let dir = std::env::temp_dir().join(format!("water-sea-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (w, h) = (4096usize, 4usize);
    let metres: Vec<f32> = (0..w * h)
        .map(|i| 1e-8 * 10f32.powf(12.0 * (i % w) as f32 / (w - 1) as f32))
        .collect();
    std::fs::write(dir.join("wide.npy"), npy::encode(&metres, &[h, w])).expect("write");
    let file = dir.join("wide.toml");
    let scenario = |dt: f64| {
        format!(
            "steps = 2\n[grid]\nwidth = {w}\nheight = {h}\ncell_size = 1.0\ndt = {dt}\n\
             boundary = \"periodic\"\nmodel = \"dispersive\"\ndepth_map = \"wide.npy\"\n"
        )
    };
    std::fs::write(&file, scenario(0.45)).expect("write");
    let e = load_refused(&file, "past the reference depths' step");
    assert!(
        e.contains(":6:") && e.contains("32 reference depths"),
        "{e}"
    );
    let largest: f64 = e
        .split("only up to dt = ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("names the largest step: {e}"));
    eprintln!("dt = 0.45 s refused, {largest} s named");
    assert!(largest > 0.2 && largest < 0.45, "{largest}");
    std::fs::write(&file, scenario(largest)).expect("write");
    let ScenarioFile::Grid(s) = ScenarioFile::load(&file).expect("the named step is taken") else {
        panic!("a grid scenario");
    };
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    scene.step_many(2).expect("steps");
    std::fs::remove_dir_all(&dir).ok();
}
