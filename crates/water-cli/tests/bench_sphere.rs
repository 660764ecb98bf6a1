//! `water bench sphere` with both layouts: one JSON line each, the same water to the bit, and
//! refusals that name the bad value.

use std::process::Output;

mod common;

use common::{assert_success, failure, water};

/// `water bench sphere` at level 2 for 5 steps, then `args`.
fn small_bench_sphere<'a>(args: &[&'a str]) -> Vec<&'a str> {
    [
        &["bench", "sphere", "--level", "2", "--steps", "5"][..],
        args,
    ]
    .concat()
}

/// The JSON lines of a successful run, one per layout.
fn lines(out: &Output) -> Vec<serde_json::Value> {
    assert_success(out);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn both_layouts_report_medians_of_their_repeats_and_the_same_checksum() {
    for stepper in [&[][..], &["--laplace-beltrami"][..]] {
        let mut args = vec![
            "bench",
            "sphere",
            "--level",
            "3",
            "--steps",
            "40",
            "--threads",
            "2",
            "--layout",
            "both",
            "--repeats",
            "3",
        ];
        args.extend_from_slice(stepper);
        let reports = lines(&water(&args));
        assert_eq!(reports.len(), 2, "{reports:?}");
        assert_eq!(reports[0]["layout"], "gather");
        assert_eq!(reports[1]["layout"], "rhombus");
        for r in &reports {
            assert_eq!(r["vertices"], 642);
            assert_eq!(r["repeats"], 3);
            let all: Vec<f64> = r["all_seconds"]
                .as_array()
                .expect("a list")
                .iter()
                .map(|v| v.as_f64().expect("seconds"))
                .collect();
            assert_eq!(all.len(), 3);
            let mut sorted = all.clone();
            sorted.sort_by(f64::total_cmp);
            assert_eq!(r["seconds"].as_f64(), Some(sorted[1]), "the median");
            let rate = 642.0 * 40.0 / sorted[1] / 1e9;
            let reported = r["gvertex_updates_per_s"].as_f64().expect("rate");
            assert!(
                (reported / rate - 1.0).abs() < 1e-12,
                "{reported} vs {rate}"
            );
        }
        let checksum = |r: &serde_json::Value| r["checksum"].as_f64().expect("checksum");
        assert_eq!(checksum(&reports[0]), checksum(&reports[1]));
        assert!(checksum(&reports[0]) != 0.0);
    }
}

#[test]
fn the_default_layout_is_rhombus_and_zero_repeats_are_refused() {
    let reports = lines(&water(&small_bench_sphere(&["--threads", "1"])));
    assert_eq!(reports.len(), 1);
    assert_eq!(reports[0]["layout"], "rhombus");
    assert_eq!(reports[0]["stepper"], "mean");
    let err = failure(&small_bench_sphere(&["--repeats", "0"]));
    assert!(err.contains("--repeats (0)"), "{err}");
}
