//! Running the `water` binary from the integration tests.

use std::process::{Command, Output};

/// Runs `water` with `args`.
pub fn water(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_water"))
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
