//! `water bench scene`: one JSON line with the agreed fields and its phases, and refusals that
//! name the bad value and the limit.

mod common;

use common::{assert_success, failure, water};

/// `water bench scene`, then `args`.
fn bench_scene<'a>(args: &[&'a str]) -> Vec<&'a str> {
    [&["bench", "scene"][..], args].concat()
}

#[test]
fn bench_scene_prints_one_json_line_with_the_agreed_fields() {
    let out = water(&bench_scene(&[
        "--size",
        "64",
        "--bodies",
        "9",
        "--steps",
        "5",
        "--threads",
        "2",
    ]));
    assert_success(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let r: serde_json::Value = serde_json::from_str(lines[0]).expect("a JSON line");
    assert_eq!(r["bench"], "scene");
    assert_eq!(r["backend"], "cpu");
    assert_eq!(r["size"], 64);
    assert_eq!(r["bodies"], 9);
    assert_eq!(r["steps"], 5);
    assert_eq!(r["threads"], 2);
    assert_eq!(r["hull_triangles"], 368);
    assert_eq!(r["substeps"], 1);
    let ms = |k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
    let seconds = ms("seconds");
    assert!(
        (ms("ms_per_step") - seconds * 1e3 / 5.0).abs() < 1e-9 * ms("ms_per_step"),
        "{r}"
    );
    let phases = ms("bodies_ms_per_step") + ms("masks_ms_per_step") + ms("water_ms_per_step");
    assert!(
        phases > 0.0 && phases <= ms("ms_per_step") * (1.0 + 1e-6),
        "{r}"
    );
    // Towed crates make waves: the water is not still.
    assert!(ms("checksum").is_finite() && ms("checksum") != 0.0, "{r}");
}

#[test]
fn bench_scene_refuses_values_out_of_range_naming_the_limit() {
    for (args, message) in [
        (
            ["--size", "64", "--bodies", "20000"],
            "--bodies 20000 is out of range: expected 0 to 10000",
        ),
        (
            ["--size", "4", "--bodies", "1"],
            "--size 4 is out of range: expected 16 to 8192",
        ),
    ] {
        let stderr = failure(&bench_scene(&args));
        assert!(stderr.contains(message), "{stderr}");
    }
    // Threads are checked by the command's shared limit before the bench's own: either names
    // the option, the value and the range.
    let stderr = failure(&bench_scene(&[
        "--size",
        "64",
        "--bodies",
        "1",
        "--threads",
        "0",
    ]));
    assert!(
        stderr.contains("--threads") && stderr.contains(" 0") && stderr.contains("1 to "),
        "{stderr}"
    );
}

/// Each option's `--help` line names the range its refusal names: a reader learns the limits
/// before a run is refused.
#[test]
fn bench_help_names_the_ranges_the_refusals_name() {
    for (bench, option, too_far, rest) in [
        ("scene", "--size", "4", &["--bodies", "1"][..]),
        ("scene", "--bodies", "20000", &["--size", "64"][..]),
        (
            "scene",
            "--steps",
            "0",
            &["--size", "64", "--bodies", "1"][..],
        ),
        ("ocean", "--size", "4", &[][..]),
        ("ocean", "--cascades", "99", &["--size", "64"][..]),
        ("ocean", "--bodies", "20000", &["--size", "64"][..]),
        ("ocean", "--speed", "1000", &["--size", "64"][..]),
        // f32 would take 1e-300 as 0: refused by the same range.
        ("ocean", "--speed", "1e-300", &["--size", "64"][..]),
        ("ocean", "--warmup", "2000000", &["--size", "64"][..]),
    ] {
        let args = [&["bench", bench, option, too_far][..], rest].concat();
        let stderr = failure(&args);
        let range = stderr
            .split("expected ")
            .nth(1)
            .and_then(|r| {
                r.split_whitespace()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into()
            })
            .unwrap_or_default();
        assert!(range.contains(" to "), "{bench} {option}: {stderr}");
        let help = water(&["bench", bench, "--help"]);
        assert_success(&help);
        let text = String::from_utf8_lossy(&help.stdout).into_owned();
        let line = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with(&format!("{option} ")))
            .take_while(|l| !l.trim_start().starts_with("--") || l.contains(option))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            line.contains(&range),
            "water bench {bench} --help says of {option} `{line}`, its refusal `{range}`"
        );
    }
    // The thread limit depends on the machine's cores: the help names it per core.
    let help = water(&["bench", "scene", "--help"]);
    let per_core = format!("at most {} per core", water_cli::limits::THREADS_PER_CORE);
    assert!(
        String::from_utf8_lossy(&help.stdout).contains(&per_core),
        "{per_core}"
    );
}
