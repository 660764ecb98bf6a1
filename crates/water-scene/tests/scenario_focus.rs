//! `[focus]`: a scenario's grid follows a body or a path through the world, and every mistake
//! is refused at its own line with what is needed.

use glam::{I64Vec2, Vec2};
use water_scene::npy;
use water_scene::scenario::{Scenario, ScenarioFile, ScenarioFocus, ScenarioRun};
use water_scene::{Backend, TowPath, Water as _};

/// 64 x 32 cells of 0.5 m, waves at 2 m/s, 20 steps a second.
const GRID: &str = "steps = 40\n[grid]\nwidth = 64\nheight = 32\ncell_size = 0.5\nwave_speed = 2.0\ndt = 0.05\nboundary = \"absorbing\"\n";
const BOAT: &str = "[[body]]\nname = \"boat\"\nshape = \"box\"\nsize = [2.0, 1.0, 0.5]\nmass = 200.0\nposition = [16.0, 8.0, 0.0]\npath = [[16.0, 8.0], [200.0, 8.0]]\nspeed = 5.0\n";
/// The line `[focus]` stands at after [`GRID`] and [`BOAT`].
const FOCUS_LINE: usize = 17;

fn parse(focus: &str) -> Result<Scenario, String> {
    Scenario::parse("sail.toml", &format!("{GRID}{BOAT}[focus]\n{focus}"))
        .map_err(|e| e.to_string())
}

/// Refused at `line` (1-based, of the whole file) with `needle` in the message.
fn refused(focus: &str, line: usize, needle: &str) {
    let e = parse(focus).expect_err(focus);
    assert!(
        e.starts_with(&format!("sail.toml:{line}:")),
        "{focus}: line {line}? {e}"
    );
    assert!(e.contains(needle), "{focus}: {e}");
    assert!(!e.contains('\n'), "one line: {e}");
}

#[test]
fn every_mistake_is_refused_at_its_line() {
    let key = FOCUS_LINE + 1;
    refused(
        "follow = \"dinghy\"\n",
        key,
        "focus follows \"dinghy\", which is no body of this scenario (its bodies: boat)",
    );
    refused(
        "follow = \"boat\"\npath = [[0.0, 0.0], [1.0, 0.0]]\nspeed = 1.0\n",
        key,
        "either `follow` (a body) or `path` with `speed`, not both",
    );
    refused(
        "path = [[0.0, 0.0]]\nspeed = 1.0\n",
        key,
        "a path needs two or more finite points, got 1",
    );
    refused(
        "path = [[5.0, 5.0], [5.0, 5.0]]\nspeed = 1.0\n",
        key,
        "a focus path goes nowhere: all its 2 points lie at [5, 5]",
    );
    refused(
        "path = [[0.0, 0.0], [1.0, 0.0]]\nspeed = 0.0\n",
        key + 1,
        "speed must be greater than 0",
    );
    refused(
        "path = [[0.0, 0.0], [1.0, 0.0]]\nspeed = -2.0\n",
        key + 1,
        "speed must be greater than 0",
    );
    refused(
        "path = [[0.0, 0.0], [1.0, 0.0]]\n",
        key,
        "a focus path needs a `speed` (m/s)",
    );
    refused("speed = 1.0\n", key, "`speed` applies only with a `path`");
    refused(
        "",
        FOCUS_LINE,
        "[focus] needs `follow` (a body's name) or `path` with `speed`",
    );
    refused("camera = 1\n", key, "unknown field `camera`");
}

/// Positions are f32: a route farther out than 10 km, where neighbouring f32 values lie more
/// than 1 mm apart, is refused at its line naming the limit (at 1e9 m the sea the grid sampled
/// came out as one value, and a body's steps rounded away).
#[test]
fn a_path_past_ten_kilometres_is_refused() {
    refused(
        "path = [[0.0, 0.0], [10001.0, 0.0]]\nspeed = 1.0\n",
        FOCUS_LINE + 1,
        "path point must be within [-1e4, 1e4] m, got 10001",
    );
    parse("path = [[0.0, 0.0], [10000.0, 0.0]]\nspeed = 1.0\n").expect("10 km is within");
    // On cells past 1 m the limit is 1e4 cells (f32 positions 1/1000 of a cell apart there).
    let coarse = |point: &str| {
        Scenario::parse(
            "sail.toml",
            &format!(
                "{}{BOAT}[focus]\npath = [[0.0, 0.0], [{point}, 0.0]]\nspeed = 1.0\n",
                GRID.replace("cell_size = 0.5", "cell_size = 100.0")
            ),
        )
        .map_err(|e| e.to_string())
    };
    coarse("5e5").expect("500 km on 100 m cells");
    let e = coarse("1.5e6").expect_err("past 1e4 cells");
    assert!(
        e.contains("path point must be within [-1e6, 1e6] m, got 1500000"),
        "{e}"
    );
    let far_boat = BOAT.replace("[16.0, 8.0, 0.0]", "[16.0, 1e5, 0.0]");
    let e = Scenario::parse("sail.toml", &format!("{GRID}{far_boat}"))
        .expect_err("past 10 km")
        .to_string();
    assert!(
        e.contains("position must be within [-1e4, 1e4] m, got 100000"),
        "{e}"
    );
}

/// A grid that moves takes its edges along: a wall or a wrap there would reflect or wrap
/// waves at a line that is not in the world. `[focus]` is refused at its table without
/// absorbing edges.
#[test]
fn a_focus_needs_absorbing_edges() {
    for boundary in ["reflective", "periodic", "fixed"] {
        let grid = GRID.replace("\"absorbing\"", &format!("\"{boundary}\""));
        let e = Scenario::parse(
            "sail.toml",
            &format!("{grid}{BOAT}[focus]\nfollow = \"boat\"\n"),
        )
        .expect_err(boundary)
        .to_string();
        assert!(e.starts_with(&format!("sail.toml:{FOCUS_LINE}:")), "{e}");
        assert!(
            e.contains(&format!(
                "give [grid] boundary = \"absorbing\", not \"{boundary}\""
            )),
            "{e}"
        );
    }
}

#[test]
fn a_depth_map_and_a_focus_are_refused_together() {
    let dir = std::env::temp_dir().join(format!("water-focus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("bay.npy"),
        npy::encode(&vec![2.0f32; 64 * 32], &[32, 64]),
    )
    .expect("write");
    let file = dir.join("bay.toml");
    let text = format!(
        "{}depth_map = \"bay.npy\"\n[focus]\npath = [[0.0, 0.0], [9.0, 0.0]]\nspeed = 1.0\n",
        GRID.replace("wave_speed = 2.0\n", "")
    );
    std::fs::write(&file, text).expect("write");
    let e = ScenarioFile::load(&file).expect_err("refused").to_string();
    assert!(e.contains("bay.toml:9:"), "at [focus]: {e}");
    assert!(e.contains("give a uniform `depth` instead"), "{e}");
}

/// A path focus: after each run the grid's corner is where the path put the focus at the start
/// of the last step, less half the grid (the centre cell), in whole cells.
#[test]
fn the_grid_follows_a_path_focus() {
    let s = Scenario::parse(
        "sail.toml",
        &format!("{GRID}[focus]\npath = [[16.0, 8.0], [116.0, 8.0]]\nspeed = 4.0\n"),
    )
    .expect("parses");
    let path = TowPath::new(vec![Vec2::new(16.0, 8.0), Vec2::new(116.0, 8.0)], 4.0).expect("path");
    assert_eq!(s.focus, Some(ScenarioFocus::Path(path.clone())));
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    assert_eq!(
        scene.window_origin_cells(),
        I64Vec2::ZERO,
        "cell (32, 16) at the start"
    );
    ScenarioRun::new(&s)
        .advance_to(&mut scene, s.steps, None, |_| {})
        .expect("run");
    // The last step started at t = 39 * 0.05 s, the focus 7.8 m on: cell 47.
    let (at, _) = path.at(39.0 * 0.05);
    assert_eq!(at.x, 23.8);
    assert_eq!(scene.window_origin_cells(), I64Vec2::new(47 - 32, 0));
    assert_eq!(scene.window_origin().x, 7.5, "15 cells of 0.5 m");
}

/// A body focus: the towed boat stays within a cell of the grid's centre however far it goes.
#[test]
fn the_grid_follows_a_towed_boat() {
    let s = parse("follow = \"boat\"\n").expect("parses");
    assert_eq!(s.focus, Some(ScenarioFocus::Body("boat".into())));
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    let boat = scene.body_ids().next().expect("the boat");
    let mut run = ScenarioRun::new(&s);
    for until in 1..=s.steps {
        run.advance_to(&mut scene, until, None, |_| {})
            .expect("step");
        let x = scene.body(boat).expect("boat").position.x;
        let centre = scene.window_origin().x as f32 + 32.0 * 0.5;
        // Followed at the start of each step: at most one step's travel (0.25 m) and half a
        // cell off the centre cell's middle.
        assert!(
            (x - (centre + 0.25)).abs() <= 0.25 + 0.25 + 1e-4,
            "step {until}: the boat at {x} m, the centre cell from {centre} m"
        );
    }
    assert!(scene.window_origin().x > 5.0, "moved with the boat");
}

/// An impulse the following grid has left behind by its step lands on no cell: the run stops
/// there naming it and where the grid was (it was dropped without a word), while the same
/// impulse timed for a step when the grid still lies over it lands.
#[test]
fn an_impulse_the_grid_has_left_is_named_not_dropped() {
    // The focus goes 20 m (40 cells) a second along x: by step 15 (0.75 s) the grid's corner
    // is 30 cells on, 16 cells past the impulse's far rim (cell 14).
    let text = |step: u64| {
        format!(
            "{GRID}[focus]\npath = [[16.0, 8.0], [516.0, 8.0]]\nspeed = 20.0\n\
             [[impulse]]\nx = 10.0\ny = 16.0\nradius = 4.0\namplitude = 0.1\nstep = {step}\n"
        )
    };
    let s = Scenario::parse("sail.toml", &text(15)).expect("parses");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    let e = ScenarioRun::new(&s)
        .advance_to(&mut scene, s.steps, None, |_| {})
        .expect_err("missed")
        .to_string();
    assert_eq!(scene.impulses_missed(), 1);
    assert_eq!(
        scene.steps_taken(),
        16,
        "stopped after the step it missed in"
    );
    assert!(
        e.contains("the impulse at cell (10, 16) of the world, radius 4 cells, timed for step 15, landed on no cell")
            && e.contains("corner at cell (30, 0)"),
        "{e}"
    );
    assert_eq!(scene.impulses_missed_last().len(), 1);
    let s = Scenario::parse("sail.toml", &text(2)).expect("parses");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&s)
        .advance_to(&mut scene, s.steps, None, |_| {})
        .expect("lands while the grid is over it");
    assert_eq!(scene.impulses_missed(), 0);
    // Where the grid will be at its step, not where it starts (it spans cells 30 to 93 then):
    // taken, and it lands.
    let ahead = text(15).replace("x = 10.0", "x = 80.0");
    let s = Scenario::parse("sail.toml", &ahead).expect("taken where the grid will be");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&s)
        .advance_to(&mut scene, 16, None, |_| {})
        .expect("lands");
    assert_eq!(scene.impulses_missed(), 0);
    let heights = scene.water().heights().expect("heights");
    assert!(
        heights.iter().any(|&z| z > 0.05),
        "the impulse raised the water"
    );
    // Of two impulses in one step, the one that missed is named, and that there were two.
    let both = format!(
        "{}[[impulse]]\nx = 80.0\ny = 16.0\nradius = 4.0\namplitude = 0.1\nstep = 15\n",
        text(15)
    );
    let s = Scenario::parse("sail.toml", &both).expect("parses");
    let mut scene = s.scene(Backend::Cpu, None).expect("scene");
    let e = ScenarioRun::new(&s)
        .advance_to(&mut scene, s.steps, None, |_| {})
        .expect_err("one missed")
        .to_string();
    assert!(
        e.contains("at cell (10, 16)") && e.contains("(one of 2 that landed in it)"),
        "{e}"
    );
    // Past every place the grid can go (its path within 1e4 m, 2e4 cells of 0.5 m, and its
    // own 64 cells): refused at its line, not at its step.
    let e = Scenario::parse("sail.toml", &text(15).replace("x = 10.0", "x = 1e30"))
        .expect_err("nowhere the grid goes")
        .to_string();
    assert!(
        e.starts_with("sail.toml:13:")
            && e.contains("impulse x = 1e30 cells lies past every place a following grid can reach: within 20064 cells"),
        "{e}"
    );
    Scenario::parse("sail.toml", &text(15).replace("x = 10.0", "x = 20000.0"))
        .expect("within reach");
    // A free body the grid follows may drift anywhere: no bound is known when the file is read.
    let drifter = format!(
        "{GRID}[[body]]\nname = \"drifter\"\nshape = \"sphere\"\nradius = 0.3\nmass = 10.0\n\
         position = [16.0, 8.0, 0.0]\n[focus]\nfollow = \"drifter\"\n[[impulse]]\nx = 1e6\n\
         y = 16.0\nradius = 4.0\namplitude = 0.1\nstep = 15\n"
    );
    Scenario::parse("drift.toml", &drifter).expect("no bound on a free body's route");
}
