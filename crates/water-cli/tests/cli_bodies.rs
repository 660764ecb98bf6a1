//! `[[body]]` entries end to end: bodies float at their draft, towed bodies follow their path,
//! trajectories are written as CSV, and bad bodies are refused at their line and column.

mod common;

use common::{assert_success, run_text, stderr};

const LAKE: &str = include_str!("scenarios/lake.toml");

/// Rows of `bodies.csv` for one body: (step, x, y, z).
fn trajectory(out: &std::path::Path, body: &str) -> Vec<(u64, f32, f32, f32)> {
    let csv = std::fs::read_to_string(out.join("bodies.csv")).expect("bodies.csv written");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("step,time_s,body,x_m,y_m,z_m,qx,qy,qz,qw,vx_m_s,vy_m_s,vz_m_s,submerged_m3")
    );
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[2] == body)
        .map(|f| {
            (
                f[0].parse().expect("step"),
                f[3].parse().expect("x"),
                f[4].parse().expect("y"),
                f[5].parse().expect("z"),
            )
        })
        .collect()
}

#[test]
fn a_crate_settles_at_its_draft_and_a_towed_boat_keeps_to_its_path() {
    let text = format!(
        "{LAKE}
[[body]]
name = \"crate\"
shape = \"box\"
size = [0.4, 0.4, 0.2]
mass = 12.0
position = [1.0, 2.0, 0.1]

[[body]]
name = \"boat\"
shape = \"capsule\"
radius = 0.1
length = 0.4
mass = 6.0
position = [0.5, 0.8, 0.0]
path = [[0.5, 0.8], [3.5, 0.8]]
speed = 0.5
"
    );
    let (res, out) = run_text("float", "scenario.toml", &text);
    assert_success(&res);
    let crate_ = trajectory(&out, "crate");
    assert_eq!(crate_.len(), 301, "one row per step and the start");
    assert_eq!(crate_[0], (0, 1.0, 2.0, 0.1));
    // 12 kg on 0.16 m^2 of fresh water floats 0.075 m deep: its centre 0.025 m up.
    let z = crate_.last().expect("rows").3;
    assert!((z - 0.025).abs() < 0.0025, "crate ends at z = {z}");
    // The boat is towed at 0.5 m/s for 6 s: from x = 0.5 to 3.5.
    let boat = trajectory(&out, "boat");
    let (_, x, y, _) = *boat.last().expect("rows");
    assert!(
        (x - 3.5).abs() < 1e-4 && (y - 0.8).abs() < 1e-4,
        "boat ends at ({x}, {y})"
    );
    let (_, x, _, _) = boat[100];
    assert!(
        (x - (0.5 + 0.5 * 2.0)).abs() < 1e-4,
        "boat at step 100: x = {x}"
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).expect("summary");
    assert!(summary.contains("\"bodies\""), "{summary}");
    // The source the bodies' masks fed (the default: the events, 0.01 m per m/s).
    let summary: serde_json::Value = serde_json::from_str(&summary).expect("JSON");
    assert_eq!(summary["contacts"]["source"], "events", "{summary}");
    assert_eq!(summary["contacts"]["amplitude"], 0.01, "{summary}");
}

#[test]
fn bad_bodies_are_refused_at_their_line() {
    let cases = [
        ("shape = \"cone\"", "unknown body shape"),
        (
            "mass = -1.0",
            "mass must be within [1e-3, 1e12] kg (greater than 0), got -1",
        ),
        ("mass = 1e-30", "mass must be within [1e-3, 1e12] kg"),
        ("radius = 0.2", "`radius` does not apply to a box body"),
        ("speed = 1.0", "`speed` applies only with a `path`"),
    ];
    for (line, expected) in cases {
        let mut body = vec![
            "shape = \"box\"",
            "size = [0.4, 0.4, 0.2]",
            "mass = 12.0",
            "position = [1.0, 2.0, 0.1]",
        ];
        if line.starts_with("shape") || line.starts_with("mass") {
            body.retain(|l| !l.starts_with(&line[..4]));
        }
        body.push(line);
        let text = format!("{LAKE}[[body]]\n{}\n", body.join("\n"));
        let (res, _) = run_text("bad", "scenario.toml", &text);
        assert!(!res.status.success(), "accepted: {line}");
        let err = stderr(&res);
        assert!(err.contains(expected), "{line}: {err}");
        // The body table starts on line 12; the message points into it.
        let line_no: usize = err
            .split(".toml:")
            .nth(1)
            .and_then(|rest| rest.split(':').next())
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no line number in {err}"));
        assert!(line_no >= 12, "{line}: {err}");
    }
    let classic = LAKE
        .replace("mode = \"signed\"", "mode = \"classic\"")
        .replace("boundary = \"absorbing\"", "boundary = \"fixed\"")
        + "[[body]]\nshape = \"sphere\"\nradius = 0.2\nmass = 1.0\nposition = [1.0, 1.0, 0.0]\n";
    let (res, _) = run_text("classic", "scenario.toml", &classic);
    assert!(stderr(&res).contains("classic mode"));
}

/// A body that goes past the water's edge is reported, not integrated into the void without a
/// word: `summary.json` gives the first step it left the water in and whether it is off the
/// water at the end, and the report's line says so; a body that stays on the water has neither.
#[test]
fn a_body_that_leaves_the_water_is_reported() {
    let body = |name: &str, place: &str| {
        format!("[[body]]\nname = \"{name}\"\nshape = \"box\"\nsize = [0.4, 0.2, 0.1]\nmass = 4.0\n{place}\n")
    };
    let text = format!(
        "{LAKE}{}{}",
        body(
            "runaway",
            "position = [3.5, 1.5, 0.0]\nvelocity = [3.0, 0.0, 0.0]"
        ),
        body("crate", "position = [1.0, 1.5, 0.0]")
    );
    let dir = common::scratch("left-water");
    let file = common::write_scenario(&dir, "scenario.toml", &text);
    let out = dir.join("out");
    let res = common::run_file(&file, &out, &[]);
    assert_success(&res);
    let summary = common::read_json(&out.join("summary.json"));
    let runaway = &summary["bodies"][0];
    // Its front (x = 3.7 m) meets the edge of the 4 m lake within 0.1 s, 5 steps, at 3 m/s.
    let step = runaway["left_water_step"].as_u64().expect("a step");
    assert!((1..=8).contains(&step), "{runaway}");
    assert_eq!(runaway["off_water"], true, "{runaway}");
    let crate_ = &summary["bodies"][1];
    assert!(crate_["left_water_step"].is_null(), "{crate_}");
    assert_eq!(crate_["off_water"], false, "{crate_}");
    let report = String::from_utf8_lossy(&res.stdout);
    assert!(
        report.contains(&format!("off the water (it first left it at step {step})")),
        "{report}"
    );
}

/// A body driven past the body speed limit stops the run naming it, the step and the limit
/// (4e5 N on 1 kg: 8,000 m/s more each step of 0.02 s, past 1e4 in the second), with nothing
/// written (it was flung on at ten kilometres a second).
#[test]
fn a_body_driven_past_the_speed_limit_stops_the_run_by_name() {
    let text = format!(
        "{LAKE}[[body]]\nname = \"rocket\"\nshape = \"sphere\"\nradius = 0.1\nmass = 1.0\n\
         position = [2.0, 1.5, 0.0]\nforce = [0.0, 0.0, 4e5]\n"
    );
    let dir = common::scratch("rocket");
    let file = common::write_scenario(&dir, "scenario.toml", &text);
    let out = dir.join("out");
    let res = common::run_file(&file, &out, &[]);
    assert!(!res.status.success());
    let e = stderr(&res);
    assert!(
        e.contains("body \"rocket\" at step 1:") && e.contains("body speed limit, 1e4 m/s"),
        "{e}"
    );
    assert!(!out.join("summary.json").exists(), "nothing written");
}
