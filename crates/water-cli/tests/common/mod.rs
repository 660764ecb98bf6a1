//! Running the `water` binary from the integration tests.

#![allow(
    dead_code,
    reason = "each test file is a crate of its own and uses only some of the helpers"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use water_scene::scenario::{Scenario, ScenarioRun};
use water_scene::{Backend, Scene};

/// The `water` binary, for a test that sets up its own arguments and streams.
pub fn water_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_water"))
}

/// Runs `water` with `args`.
pub fn water(args: &[&str]) -> Output {
    water_command()
        .args(args)
        .output()
        .expect("the water binary runs")
}

/// Runs `args`; `None` (after saying why) when the failure is a missing adapter on a machine
/// that does not require one.
pub fn water_on_gpu(test: &str, args: &[&str]) -> Option<Output> {
    let out = water(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && stderr.contains("no GPU adapter") {
        assert!(
            std::env::var("WATER_REQUIRE_GPU").map_or(true, |v| v != "1"),
            "{test}: WATER_REQUIRE_GPU=1 but {stderr}"
        );
        eprintln!("{test}: skipped: {stderr}");
        return None;
    }
    Some(out)
}

/// An empty folder of the test's own: named after the test file, the process and `name`, so
/// that test files and tests running side by side never share one.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "water-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// What `water` wrote to stderr.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Fails the test with `water`'s stderr unless it succeeded.
pub fn assert_success(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

/// Runs `water` with `args`, checks that it failed, and returns its stderr.
pub fn failure(args: &[&str]) -> String {
    let out = water(args);
    assert!(!out.status.success(), "accepted: {args:?}");
    stderr(&out)
}

/// The arguments of `water bench grid --size SIZE --steps STEPS`, then `extra`.
pub fn bench_grid_args<'a>(size: &'a str, steps: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    [
        &["bench", "grid", "--size", size, "--steps", steps][..],
        extra,
    ]
    .concat()
}

/// The one JSON line a successful `water bench` prints.
pub fn json_line(out: &Output) -> serde_json::Value {
    assert_success(out);
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

/// Writes `text` as `dir/name` and returns its path.
pub fn write_scenario(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write scenario");
    path
}

/// `water run FILE --out OUT`, then `extra`.
pub fn run_file(file: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        file.to_str().expect("utf8"),
        "--out",
        out.to_str().expect("utf8"),
    ];
    args.extend_from_slice(extra);
    water(&args)
}

/// Writes `text` as `file_name` into the fresh folder `dir_name`, runs it into that folder's
/// `out` and checks that it succeeded; returns the run and `out`.
pub fn run_ok(dir_name: &str, file_name: &str, text: &str) -> (Output, PathBuf) {
    let dir = scratch(dir_name);
    let out = dir.join("out");
    let res = run_file(&write_scenario(&dir, file_name, text), &out, &[]);
    assert_success(&res);
    (res, out)
}

/// Scenario `text` (named `file_name`) run to its last step by the library on the CPU: what
/// the outputs of `water run` are compared with.
pub fn library_run(file_name: &str, text: &str) -> (Scenario, Scene) {
    let scenario = Scenario::parse(file_name, text).expect("parses");
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    ScenarioRun::new(&scenario)
        .advance_to(&mut scene, scenario.steps, None, |_| {})
        .expect("run");
    (scenario, scene)
}

/// Writes `text` as `file_name` into the fresh folder `dir_name` and runs it quietly into that
/// folder's `out`; returns the run and `out`.
pub fn run_text(dir_name: &str, file_name: &str, text: &str) -> (Output, PathBuf) {
    let dir = scratch(dir_name);
    let file = write_scenario(&dir, file_name, text);
    let out = dir.join("out");
    (run_file(&file, &out, &["--quiet"]), out)
}

/// The JSON file `water` wrote at `path`.
pub fn read_json(path: &Path) -> serde_json::Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).expect("json")
}
