//! The `water` command end to end: outputs, refusals with file:line:column, stability, bench.

use std::path::Path;

use water_cli::npy;

mod common;

use common::{
    assert_success, bench_grid_args, failure, json_line, read_json, run_file, run_ok, scratch,
    stderr, water, water_command, write_scenario,
};

fn npy_header(path: &Path) -> (String, Vec<usize>, usize) {
    let bytes = std::fs::read(path).expect("npy written");
    let (descr, shape, payload) = npy::read_raw(&bytes).expect("valid npy");
    (descr, shape, payload.len())
}

const MINIMAL: &str = include_str!("scenarios/minimal.toml");

#[test]
fn run_writes_height_png_and_summary() {
    let (res, out) = run_ok("run", "scenario.toml", MINIMAL);
    let (descr, shape, bytes) = npy_header(&out.join("height.npy"));
    assert_eq!(
        (descr.as_str(), shape, bytes),
        ("<f4", vec![30, 40], 30 * 40 * 4)
    );
    let png = std::fs::read(out.join("height.png")).expect("png");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let summary = read_json(&out.join("summary.json"));
    assert_eq!(summary["steps"], 20);
    assert_eq!(summary["model"], "wave");
    assert!(summary["max_abs_height"].as_f64().expect("number") > 0.0);
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(text.contains("height.npy"), "{text}");
}

/// The summary and the header say which water model ran: its Courant number is measured
/// against the shortest wave's phase speed in the dispersive model, not the wave model's `c`.
#[test]
fn a_dispersive_run_says_its_model() {
    let text = MINIMAL
        .replace("wave_speed", "# wave_speed")
        .replace("[grid]", "[grid]\nmodel = \"dispersive\"")
        .replace("reflective", "periodic");
    let (res, out) = run_ok("run-dispersive", "scenario.toml", &text);
    assert_eq!(read_json(&out.join("summary.json"))["model"], "dispersive");
    let header = String::from_utf8_lossy(&res.stdout);
    assert!(header.contains("model dispersive"), "{header}");
}

#[test]
fn split_and_classic_modes_write_their_arrays() {
    let split = MINIMAL.replace("mode = \"signed\"", "mode = \"split\"");
    let (_, out) = run_ok("split", "scenario.toml", &split);
    for name in ["height.npy", "positive.npy", "negative.npy"] {
        assert_eq!(npy_header(&out.join(name)).1, vec![30, 40], "{name}");
    }

    let out = scratch("classic").join("out");
    let res = water(&[
        "run",
        "--builtin",
        "rock-pool",
        "--out",
        out.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert_success(&res);
    let (descr, shape, _) = npy_header(&out.join("height.npy"));
    assert_eq!((descr.as_str(), shape), ("<i2", vec![150, 200]));
}

fn refusal(text: &str) -> String {
    let dir = scratch(&format!(
        "bad-{:x}",
        text.len() * 31 + text.bytes().map(usize::from).sum::<usize>()
    ));
    let file = write_scenario(&dir, "scenario.toml", text);
    let res = run_file(&file, &dir.join("o"), &[]);
    assert!(!res.status.success(), "accepted: {text}");
    let err = stderr(&res);
    assert_eq!(err.lines().count(), 1, "one-line cause: {err}");
    err
}

#[test]
fn unknown_keys_and_bad_values_are_refused_with_line_and_column() {
    let unknown = MINIMAL.replace("damping = 0.999", "dampening = 0.999");
    let err = refusal(&unknown);
    assert!(
        err.contains("scenario.toml:8:1:") && err.contains("dampening"),
        "{err}"
    );

    let bad_boundary = MINIMAL.replace("\"reflective\"", "\"bouncy\"");
    let err = refusal(&bad_boundary);
    assert!(err.contains(":9:12:") && err.contains("bouncy"), "{err}");

    let bad_type = MINIMAL.replace("width = 40", "width = \"forty\"");
    let err = refusal(&bad_type);
    assert!(err.contains(":3:9:"), "{err}");

    let zero = MINIMAL.replace("width = 40", "width = 0");
    let err = refusal(&zero);
    assert!(err.contains(":3:9:") && err.contains("width"), "{err}");

    let nan_radius = MINIMAL.replace("radius = 4.0", "radius = nan");
    let err = refusal(&nan_radius);
    assert!(err.contains(":14:10:") && err.contains("radius"), "{err}");
}

#[test]
fn an_unstable_scenario_is_refused_naming_the_limit() {
    let unstable = MINIMAL.replace("dt = 0.02", "dt = 0.05");
    let err = refusal(&unstable);
    assert!(err.contains(":7:6:"), "points at dt: {err}");
    assert!(err.contains("limit 0.5"), "{err}");
    // h / (c sqrt 2) = 0.0353553 s, written to four digits toward zero so that it is stable.
    assert!(
        err.contains("is 0.03535 s"),
        "names the largest stable dt: {err}"
    );
}

#[test]
fn every_scenario_in_the_repository_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let files = water_scene::scenario::scenario_files(&dir).expect("scenarios folder");
    assert!(files.len() >= 3, "found only {files:?}");
    for file in files {
        water_scene::scenario::ScenarioFile::load(&file).unwrap_or_else(|e| panic!("{e}"));
    }
    for (name, _) in water_scene::scenario::BUILTIN {
        water_scene::scenario::ScenarioFile::builtin(name).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn every_built_in_is_offered_by_name_and_any_other_name_is_refused_with_the_list() {
    for command in ["run", "compare", "render"] {
        let help = water(&[command, "--help"]);
        assert_success(&help);
        let text = String::from_utf8_lossy(&help.stdout);
        for (name, _) in water_scene::scenario::BUILTIN {
            assert!(
                text.contains(name),
                "`water {command} --help` omits {name}: {text}"
            );
        }
        let refused = water(&[command, "--builtin", "no-such-sea"]);
        assert_eq!(refused.status.code(), Some(2), "{command}");
        let e = String::from_utf8_lossy(&refused.stderr);
        assert!(
            e.contains("no-such-sea") && e.contains("swell"),
            "{command}: {e}"
        );
    }
}

#[test]
fn stability_reports_a_limit_and_substeps() {
    let res = water(&[
        "stability",
        "--wave-speed",
        "2",
        "--cell-size",
        "0.1",
        "--dt",
        "0.1",
    ]);
    assert_success(&res);
    let text = String::from_utf8_lossy(&res.stdout);
    assert!(text.contains("limit          = 0.5"), "{text}");
    assert!(text.contains("stable         = no"), "{text}");
    assert!(text.contains("max stable dt  = 0.03535 s"), "{text}");
    assert!(text.contains("substeps       = 3"), "{text}");
    let bad = failure(&["stability", "--wave-speed=-2", "--cell-size", "0.1"]);
    // Named as the option typed, not the library's parameter.
    assert!(
        bad.contains("--wave-speed must be greater than 0, got -2"),
        "{bad}"
    );
}

#[test]
fn bench_grid_prints_one_json_line_with_the_agreed_fields() {
    for mode in ["signed", "split", "classic"] {
        let res = water(&bench_grid_args(
            "64",
            "10",
            &["--threads", "2", "--mode", mode],
        ));
        assert_success(&res);
        let text = String::from_utf8_lossy(&res.stdout);
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(text.trim()).expect("json");
        for key in [
            "backend",
            "size",
            "steps",
            "threads",
            "seconds",
            "gcells_per_s",
        ] {
            assert!(v.get(key).is_some(), "missing {key} in {text}");
        }
        assert_eq!(v["backend"], "cpu");
        assert_eq!(v["threads"], 2);
        assert!(v["gcells_per_s"].as_f64().expect("number") > 0.0);
        // 64² is below the threading threshold, and its levels fit any L2: single steps.
        assert_eq!(v["blocked"], false, "{text}");
        let always = water(&bench_grid_args(
            "64",
            "10",
            &["--mode", mode, "--blocking", "always"],
        ));
        let text = String::from_utf8_lossy(&always.stdout);
        let v: serde_json::Value = serde_json::from_str(text.trim()).expect("json");
        assert_eq!(v["blocked"], true, "{text}");
    }
    let err = failure(&["bench", "grid", "--size", "1", "--steps", "10"]);
    assert!(err.contains("--size 1 is out of range"), "{err}");
}

/// `--model dispersive` times the spectral step in the FFTW peer's setting and says so; what the
/// model does not take is refused by name.
#[test]
fn bench_grid_times_the_dispersive_model_and_refuses_what_it_does_not_take() {
    for depth in [None, Some("2")] {
        let mut args = bench_grid_args("64", "20", &["--threads", "1", "--model", "dispersive"]);
        if let Some(d) = depth {
            args.extend(["--depth", d]);
        }
        let v = json_line(&water(&args));
        assert_eq!(v["model"], "dispersive");
        assert_eq!(v["boundary"], "periodic", "the peer's edges by default");
        assert_eq!(
            v["cells_per_step"],
            64 * 64,
            "every cell of a periodic grid"
        );
        assert_eq!(
            v["depth"].as_f64(),
            depth.map(|d| d.parse().expect("depth"))
        );
        assert!(v["gcells_per_s"].as_f64().expect("number") > 0.0);
        // The step keeps the mean (its multiplier is 0 at k = 0): the ripples' sum, not a
        // blown-up field.
        let start: f64 = (0..64 * 64)
            .map(|i| f64::from(water_cli::bench_dispersive::ripple(i)))
            .sum();
        let checksum = v["checksum"].as_f64().expect("number");
        assert!((checksum - start).abs() < 1e-3, "{checksum} vs {start}");
    }
    let wave = json_line(&water(&["bench", "grid", "--size", "64", "--steps", "2"]));
    assert_eq!(wave["model"], "wave");
    for (extra, named) in [
        (&["--depth", "2"][..], "--depth 2"),
        (
            &["--model", "dispersive", "--mode", "split"][..],
            "--mode split",
        ),
        (
            &["--model", "dispersive", "--boundary", "fixed"][..],
            "--boundary fixed",
        ),
        (
            &["--model", "dispersive", "--depth", "-1"][..],
            "--depth must be greater than 0, got -1",
        ),
        (
            &["--model", "dispersive", "--depth", "20000"][..],
            "--depth = 20000 is outside the allowed range [1e-6, 11000] m",
        ),
        // Shallower than a micrometre the shortest wave would move slower than any grid steps:
        // refused by the depth, on every backend (the GPU's wave speed once named instead).
        (
            &["--model", "dispersive", "--depth", "1e-14"][..],
            "--depth = 1e-14 is outside the allowed range [1e-6, 11000] m",
        ),
        (&["--depth", "1e-14"][..], "--depth 1e-14: the wave model"),
        (
            &["--model", "dispersive", "--storage", "f16"][..],
            "--storage f16",
        ),
    ] {
        let err = failure(&bench_grid_args("64", "2", extra));
        assert!(err.contains(named), "{extra:?}: {err}");
    }
}

#[test]
fn bench_roofline_reports_bandwidth_and_the_cells_it_allows() {
    let res = water(&[
        "bench",
        "roofline",
        "--size",
        "512",
        "--passes",
        "3",
        "--threads",
        "1",
    ]);
    let v = json_line(&res);
    let bandwidth = v["gbytes_per_s"].as_f64().expect("number");
    let cells = v["roofline_gcells_per_s"].as_f64().expect("number");
    assert!(bandwidth > 0.0);
    assert!(
        (cells * 12.0 - bandwidth).abs() < 1e-9 * bandwidth,
        "12 bytes per cell"
    );
    assert_eq!(v["cells"], 512 * 512);
    for size in ["0", "100000"] {
        let e = failure(&["bench", "roofline", "--size", size]);
        assert_eq!(
            e,
            format!("error: --size {size} is out of range: expected 1 to 65536\n")
        );
    }
}

/// Arrays past the memory allowed are one line naming the bytes, not an abort with a backtrace
/// (`--size 16384`: three arrays of 1 GiB, under a 2 GB address-space limit).
#[test]
fn bench_roofline_past_the_memory_allowed_is_one_line_not_an_abort() {
    let script = format!(
        "ulimit -v 2000000 && exec {} bench roofline --size 16384 --passes 1 --threads 1",
        env!("CARGO_BIN_EXE_water")
    );
    let res = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash");
    assert_eq!(res.status.code(), Some(1));
    let e = stderr(&res);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("16384 x 16384") && e.contains("GiB"), "{e}");
}

const SPHERE: &str = r#"steps = 50
[sphere]
level = 3
radius = 1.0
wave_speed = 0.5
dt = 0.01
damping = 0.999
stepper = "laplace-beltrami"
[[click]]
direction = [0.0, 0.0, 1.0]
radius = 0.4
amplitude = 0.05
step = 0
"#;

#[test]
fn sphere_scenarios_write_heights_per_vertex_and_positions() {
    let (_, out) = run_ok("sphere", "scenario.toml", SPHERE);
    let (descr, shape, _) = npy_header(&out.join("height.npy"));
    assert_eq!((descr.as_str(), shape), ("<f4", vec![642]));
    assert_eq!(npy_header(&out.join("positions.npy")).1, vec![642, 3]);
    assert!(out.join("height.png").is_file());

    let mean = SPHERE.replace("\"laplace-beltrami\"", "\"mean\"");
    run_ok("sphere-mean", "scenario.toml", &mean);
}

#[test]
fn sphere_scenarios_refuse_bad_values_with_line_and_column() {
    let err = refusal(&SPHERE.replace("dt = 0.01", "dt = 5.0"));
    assert!(
        err.contains(":6:6:") && err.contains("largest stable dt"),
        "{err}"
    );
    let err = refusal(&SPHERE.replace("level = 3", "level = 20"));
    assert!(err.contains(":3:9:") && err.contains("vertices"), "{err}");
    let err = refusal(&SPHERE.replace("stepper = ", "steper = "));
    assert!(err.contains(":8:1:") && err.contains("steper"), "{err}");
    let err = refusal(&SPHERE.replace("radius = 0.4", "radius = 9.0"));
    assert!(
        err.contains(":11:10:") && err.contains("click radius must be in (0, pi] rad, got 9"),
        "{err}"
    );
}

#[test]
fn bench_sphere_reports_vertex_updates() {
    let res = water(&[
        "bench",
        "sphere",
        "--level",
        "4",
        "--steps",
        "20",
        "--threads",
        "2",
        "--laplace-beltrami",
    ]);
    let v = json_line(&res);
    assert_eq!(v["vertices"], 2562);
    assert_eq!(v["stepper"], "laplace-beltrami");
    assert!(v["gvertex_updates_per_s"].as_f64().expect("number") > 0.0);
    failure(&["bench", "sphere", "--level", "30", "--steps", "1"]);
    // Every run's seconds are listed: the count is bounded (16 million made a 128 MB line).
    let err = failure(&[
        "bench",
        "sphere",
        "--level",
        "1",
        "--steps",
        "1",
        "--repeats",
        "16080000",
    ]);
    assert!(
        err.contains("--repeats 16080000 is out of range: expected 1 to 1000"),
        "{err}"
    );
}

/// A backend named twice in `--backends` is refused before anything runs: it would run twice
/// and print the same row again.
#[test]
fn compare_refuses_a_backend_named_twice() {
    let stderr = failure(&["compare", "--builtin", "harbour", "--backends", "cpu,cpu"]);
    assert!(stderr.contains("--backends names cpu twice"), "{stderr}");
    assert!(!stderr.contains("compare (cpu)"), "it ran first: {stderr}");
}

/// What the fragment backend refuses (the dispersive model, cascades) is said before an
/// adapter is looked for: with every adapter hidden (no Vulkan driver, no EGL vendor), the
/// refusal still names the reason, not the missing adapter.
#[test]
fn compare_names_what_the_fragment_backend_refuses_without_an_adapter() {
    let dir = scratch("fragment-refusals");
    let cascaded = write_scenario(
        &dir,
        "cascaded.toml",
        "steps = 10\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.5\ndt = 0.05\n\
         wave_speed = 2.0\nboundary = \"absorbing\"\ncascades = 2\n",
    );
    let cascaded = cascaded.to_str().expect("utf8");
    for (scenario, reason) in [
        (
            ["--builtin", "kelvin-wake"],
            "the dispersive model is not offered with the fragment backend",
        ),
        (
            ["--", cascaded],
            "cascades run on the cpu and gpu (compute) backends",
        ),
    ] {
        let out = water_command()
            .args(["compare", "--backends", "gpu-fragment"])
            .args(scenario)
            .env("VK_ICD_FILENAMES", "/nonexistent")
            .env("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent")
            .output()
            .expect("the water binary runs");
        assert!(!out.status.success(), "{scenario:?}: accepted");
        let stderr = stderr(&out);
        assert!(stderr.contains(reason), "{scenario:?}: {stderr}");
        assert!(!stderr.contains("adapter"), "{scenario:?}: {stderr}");
    }
}

/// `--blocking` shapes the multi-step run that `--single-step` replaces: asked together, the
/// command is refused, not run with the blocking dropped (it reported `"blocked": false`).
#[test]
fn bench_grid_refuses_blocking_with_single_steps() {
    let out = water(&bench_grid_args(
        "32",
        "1",
        &["--single-step", "--blocking", "always"],
    ));
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("--blocking")
            && e.contains("cannot be used with")
            && e.contains("--single-step"),
        "{e}"
    );
}

/// `bench grid --size` is refused by the option's name with the range its help states, which
/// holds the square to the grid's cell limit (65536 passed the help's old range and was then
/// refused as a grid of too many cells; 0 was named as a grid width).
#[test]
fn bench_grid_size_names_the_square_it_can_step() {
    for size in ["0", "2", "32769", "65536"] {
        let e = failure(&bench_grid_args(size, "1", &[]));
        assert_eq!(
            e,
            format!("error: --size {size} is out of range: expected 3 to 32768\n")
        );
    }
}

/// `render --height-scale` past what f32 holds is refused as written, before any device is
/// looked for (1e308 was read as an f32 infinity and refused as "inf", 1e-50 as 0).
#[test]
fn render_height_scale_is_refused_as_written() {
    for value in ["1e308", "1e-50", "1e-45", "0", "-2", "nan"] {
        let out = water(&["render", "--height-scale", value]);
        assert_eq!(out.status.code(), Some(2), "{value}");
        let e = stderr(&out);
        assert!(
            e.contains(&format!("'{value}'"))
                && e.contains("expected a number from 1.17549435e-38 to 3.4028235e38"),
            "{value}: {e}"
        );
    }
}
