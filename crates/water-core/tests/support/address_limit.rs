//! Runs one test of the current test binary again in a child process under an address-space
//! limit (`ulimit -v`), where the allocator refuses what does not fit: how the out-of-memory
//! tests of `water-core` and `water-sphere` check for real that a refusal is an error, not an
//! abort. Included by path from both crates' tests.

use std::process::Command;

/// Whether this process is the child (`child_var` is set): it then runs the checks.
pub fn in_child(child_var: &str) -> bool {
    std::env::var_os(child_var).is_some()
}

/// Runs `test` of this binary with `child_var` set under a `limit_kib` KiB address space.
///
/// # Panics
/// Unless the child exits 0 and printed `done_line`, showing its stdout and stderr (an abort
/// shows as SIGABRT with the allocator's message).
pub fn run_child_under_limit(test: &str, limit_kib: u64, child_var: &str, done_line: &str) {
    let exe = std::env::current_exe().expect("test binary");
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v {limit_kib} && exec \"$0\" --exact {test} --nocapture --test-threads=1"
        ))
        .arg(&exe)
        .env(child_var, "1")
        .output()
        .expect("run the child under ulimit -v");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains(done_line),
        "the child under a {limit_kib} KiB limit failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
}
