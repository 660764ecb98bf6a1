//! `[foam]`: its keys build the scene's foam with their defaults, every mistake is refused at
//! its own line with the limit, and a towed boat leaves a trail that fades with age.

use water_scene::scenario::{Scenario, ScenarioRun, DEFAULT_FOAM_WAKE, DEFAULT_JACOBIAN_THRESHOLD};
use water_scene::{Backend, FoamSettings};

const GRID: &str = "steps = 120\n[grid]\nwidth = 96\nheight = 32\ncell_size = 0.25\nwave_speed = 2.0\ndt = 0.05\nboundary = \"absorbing\"\n";
const SEA: &str = "[ocean]\nspectrum = \"pierson-moskowitz\"\nwind_speed = 5.0\nchoppiness = 1.0\n";
const BOAT: &str = "[[body]]\nname = \"boat\"\nshape = \"box\"\nsize = [1.0, 0.5, 0.4]\nmass = 40.0\nposition = [2.0, 4.0, 0.0]\npath = [[2.0, 4.0], [22.0, 4.0]]\nspeed = 1.5\n";

fn parse(extra: &str, foam: &str) -> Result<Scenario, String> {
    // "DEPTH" puts the grid over 0.4 m of water (the waves' speed then follows from it).
    let grid = match extra {
        "DEPTH" => GRID.replace("wave_speed = 2.0", "depth = 0.4"),
        // The dispersive model over a uniform 3 m: the depth lives in its relation.
        "DISPERSIVE DEPTH" => {
            GRID.replace("wave_speed = 2.0", "model = \"dispersive\"\ndepth = 3.0")
        }
        "DISPERSIVE DEEP" => GRID.replace("wave_speed = 2.0", "model = \"dispersive\""),
        _ => format!("{GRID}{extra}"),
    };
    Scenario::parse("foam.toml", &format!("{grid}[foam]\n{foam}")).map_err(|e| e.to_string())
}

#[test]
fn the_keys_build_the_foam_with_their_defaults() {
    let s = parse(BOAT, "half_life = 3.0\n").expect("parses");
    assert_eq!(
        s.foam,
        Some(FoamSettings {
            half_life: 3.0,
            wake: DEFAULT_FOAM_WAKE,
            jacobian_threshold: None,
            shore_depth: None,
        })
    );
    let s = parse(SEA, "half_life = 3.0\nwake = 0.2\n").expect("parses");
    assert_eq!(
        s.foam.and_then(|f| f.jacobian_threshold),
        Some(DEFAULT_JACOBIAN_THRESHOLD),
        "at sea, crests break by default"
    );
    let s = parse(SEA, "half_life = 3.0\njacobian_threshold = -0.2\n").expect("parses");
    assert_eq!(s.foam.and_then(|f| f.jacobian_threshold), Some(-0.2));
    let s = parse("DEPTH", "half_life = 3.0\nshore_depth = 0.8\n").expect("parses");
    assert_eq!(s.foam.and_then(|f| f.shore_depth), Some(0.8));
    // The scene takes the scenario's depth before its foam, so the surf has its shores.
    let scene = s.scene(Backend::Cpu, None).expect("scene with surf");
    assert!(scene.foam_coverage().is_some());
}

#[test]
fn every_mistake_is_refused_at_its_line() {
    // [foam] stands on line 9 without a sea, line 13 with one.
    for (extra, foam, line, needle) in [
        (
            "",
            "half_life = 0.0\n",
            10,
            "foam half_life must be above 0 to 86400 s, got 0",
        ),
        ("", "half_life = -2.0\n", 10, "got -2"),
        ("", "half_life = 1e6\n", 10, "to 86400 s"),
        (
            "",
            "half_life = 2.0\nwake = 1.5\n",
            11,
            "foam wake must be from 0 to 1, got 1.5",
        ),
        (
            "",
            "half_life = 2.0\njacobian_threshold = 0.3\n",
            11,
            "needs an [ocean]",
        ),
        (
            SEA,
            "half_life = 2.0\njacobian_threshold = 1.5\n",
            15,
            "from -1 to 1, got 1.5",
        ),
        ("", "wake = 0.3\n", 9, "missing field `half_life`"),
        // Nothing to feed it: no boat to make a wake, no sea, no shore; a boat of wake 0.
        (
            "",
            "half_life = 2.0\n",
            9,
            "[foam] has nothing to make foam: no bodies whose wakes foam",
        ),
        (
            BOAT,
            "half_life = 2.0\nwake = 0.0\n",
            17,
            "[foam] has nothing to make foam: its wake is 0",
        ),
        (
            "",
            "half_life = 2.0\nshore_depth = 0.5\n",
            11,
            "foam shore_depth = 0.5 m needs the grid's `depth` or `depth_map`",
        ),
        // Said when the file is read (the scene refused it at its first step, naming an API
        // call).
        (
            "DISPERSIVE DEPTH",
            "half_life = 2.0\nshore_depth = 0.5\n",
            12,
            "foam shore_depth = 0.5 m needs a `depth_map` with model = \"dispersive\"",
        ),
        (
            "DISPERSIVE DEEP",
            "half_life = 2.0\nshore_depth = 0.5\n",
            11,
            "foam shore_depth = 0.5 m needs a `depth_map` with model = \"dispersive\"",
        ),
        (
            "DEPTH",
            "half_life = 2.0\nshore_depth = 0.0\n",
            11,
            "foam shore_depth must be above 0 to 1000 m, got 0",
        ),
        // Over 0.4 m of water everywhere, a shore 0.3 m deep is nowhere (it was taken and
        // made no foam).
        (
            "DEPTH",
            "half_life = 2.0\nshore_depth = 0.3\n",
            11,
            "foam shore_depth = 0.3 m reaches no shore: no wet cell is shallower (the shallowest \
             is 0.4 m)",
        ),
        (
            "DEPTH",
            "half_life = 2.0\nshore_depth = 2e3\n",
            11,
            "got 2000",
        ),
        (
            "DEPTH",
            "half_life = 2.0\nshore_depth = 1e-50\n",
            11,
            "(0 in single precision)",
        ),
        (
            "DEPTH",
            "half_life = 2.0\nsurf = 0.5\n",
            11,
            "unknown field `surf`",
        ),
        // A wake or threshold f32 holds only as a subnormal is 0 in the scene (a wake of
        // 1e-320 was taken and made no foam).
        (
            BOAT,
            "half_life = 2.0\nwake = 1e-320\n",
            19,
            "foam wake = 1e-320 is 0 in single precision",
        ),
        (
            SEA,
            "half_life = 2.0\njacobian_threshold = -1e-40\n",
            15,
            "1.17549435e-38",
        ),
    ] {
        let e = parse(extra, foam).expect_err(foam);
        assert!(
            e.starts_with(&format!("foam.toml:{line}:")),
            "{foam}: line {line}? {e}"
        );
        assert!(e.contains(needle), "{foam}: {e}");
    }
    // The least they take, as the message writes it, is taken.
    parse(BOAT, "half_life = 2.0\nwake = 1.17549435e-38\n").expect("the least wake");
}

/// A towed boat's bow and stern events leave foam along its path and none ahead of it, fainter
/// where it passed longer ago (a 1 s half-life over the 6 s run).
#[test]
fn a_towed_boat_leaves_a_trail_that_fades_with_age() {
    let s = parse(BOAT, "half_life = 1.0\n").expect("parses");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&s)
        .advance_to(&mut scene, s.steps, None, |_| {})
        .expect("run");
    let foam = scene.foam_coverage().expect("foam");
    // Along the path's row (y = 4 m: row 16): the boat went from x = 2 m to 11 m (cells 8 to 44).
    let column_max = |x0: usize, x1: usize| {
        (x0..x1)
            .flat_map(|x| (12..20).map(move |y| (x, y)))
            .map(|(x, y)| foam[y * 96 + x])
            .fold(0.0f32, f32::max)
    };
    let (old, recent, ahead) = (column_max(8, 16), column_max(34, 42), column_max(52, 96));
    assert!(recent > 0.2, "foam where the boat just passed: {recent}");
    assert!(
        old < 0.1 * recent,
        "fainter where it passed 5 s ago: {old} vs {recent}"
    );
    assert_eq!(ahead, 0.0, "none ahead of the boat");
    assert!(
        foam.iter().all(|f| (0.0..=1.0).contains(f)),
        "coverage in [0, 1]"
    );
}

/// The scene refuses the same values by name.
#[test]
fn the_scene_refuses_bad_foam_by_name() {
    let s = parse(BOAT, "half_life = 3.0\n").expect("parses");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    let good = FoamSettings {
        half_life: 1.0,
        wake: 0.5,
        jacobian_threshold: None,
        shore_depth: None,
    };
    for (bad, name) in [
        (
            FoamSettings {
                half_life: 0.0,
                ..good
            },
            "foam half_life",
        ),
        (
            FoamSettings {
                half_life: f64::NAN,
                ..good
            },
            "foam half_life",
        ),
        (FoamSettings { wake: 2.0, ..good }, "foam wake"),
        (
            FoamSettings {
                jacobian_threshold: Some(3.0),
                ..good
            },
            "foam jacobian_threshold",
        ),
    ] {
        let e = scene.set_foam(Some(bad)).expect_err(name).to_string();
        assert!(e.contains(name), "{name}: {e}");
    }
    scene.set_foam(Some(good)).expect("good foam");
    scene.set_foam(None).expect("none");
    assert_eq!(scene.foam_coverage(), None);
}
