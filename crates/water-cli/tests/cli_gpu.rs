//! The `water` command's GPU parts: run, compare and bench on the compute and fragment
//! backends. Skipped with a reason without a GPU adapter, unless WATER_REQUIRE_GPU=1.

use std::path::Path;

use water_gpu::{Comparison, F32_TOLERANCE};

mod common;

use common::{
    assert_success, bench_grid_args, failure, json_line, read_json, stderr, water, water_on_gpu,
};

#[test]
fn compare_passes_for_every_built_in_scenario() {
    for builtin in ["harbour", "rock-pool", "open-sea", "boat-wake", "beach"] {
        let Some(out) = water_on_gpu("compare", &["compare", "--builtin", builtin]) else {
            return;
        };
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{builtin}: {text}{}", stderr(&out));
        assert_eq!(
            text.lines().filter(|l| l.ends_with(" ok")).count(),
            2,
            "{text}"
        );
    }
}

/// Waves of 1.2e-38 m, the least impulse taken: the CPU flushes their subnormal tails to 0 where
/// the GPU keeps them (1e-37 apart after 10 steps, ten thousand times the f32 tolerance of
/// their size), which the comparison's flush allowance covers; the same waves a million times
/// larger still compare by their own size.
#[test]
fn compare_allows_for_the_cpus_flush_to_zero_on_tiny_waves() {
    let dir = common::scratch("compare-tiny");
    for amplitude in ["1.2e-38", "1e-32"] {
        let text = format!(
            "steps = 10\n[grid]\nwidth = 32\nheight = 32\ncell_size = 0.1\nwave_speed = 1.0\n\
             dt = 0.02\ndamping = 0.999\nboundary = \"absorbing\"\n[[impulse]]\nx = 16.0\n\
             y = 16.0\nradius = 3.0\namplitude = {amplitude}\nshape = \"cosine\"\n"
        );
        let file = common::write_scenario(&dir, "tiny.toml", &text);
        let Some(out) = water_on_gpu("compare", &["compare", file.to_str().expect("utf-8")]) else {
            return;
        };
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{amplitude}: {report}{}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The shape and f32 payload of an `.npy` file `water run` wrote.
fn npy_f32(path: &Path) -> (Vec<usize>, Vec<f32>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (_, shape, payload) = water_cli::npy::read_raw(&bytes).expect("npy");
    (shape, bytemuck_f32(payload))
}

/// `water run --builtin BUILTIN --backend BACKEND --out OUT_DIR`: its summary, or `None`
/// where the test skips.
fn run_builtin_on(
    test: &str,
    builtin: &str,
    backend: &str,
    out_dir: &Path,
) -> Option<serde_json::Value> {
    let args = [
        "run",
        "--builtin",
        builtin,
        "--backend",
        backend,
        "--out",
        out_dir.to_str().expect("utf8"),
        "--quiet",
    ];
    let out = water_on_gpu(test, &args)?;
    assert!(
        out.status.success(),
        "{builtin} {backend}: {}",
        stderr(&out)
    );
    Some(read_json(&out_dir.join("summary.json")))
}

/// `water bench grid --size SIZE --steps STEPS`, then `extra`: its JSON line, or `None` where
/// the test skips.
fn bench_grid_on_gpu(
    test: &str,
    size: &str,
    steps: &str,
    extra: &[&str],
) -> Option<serde_json::Value> {
    water_on_gpu(test, &bench_grid_args(size, steps, extra)).map(|out| json_line(&out))
}

/// Body positions per row of a `bodies.csv` (x, y, z in columns 4 to 6).
fn csv_positions(path: &Path) -> Vec<[f32; 3]> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .map(|line| {
            let cols: Vec<&str> = line.split(',').collect();
            [3, 4, 5].map(|k| cols[k].parse::<f32>().expect("a number"))
        })
        .collect()
}

/// `water run` on each GPU backend writes the CPU's files with the CPU's contents: the same
/// arrays within `F32_TOLERANCE` of the largest height, and (boat-wake, with a towed boat and
/// floating crates) the same body paths within 1e-5 m (crates/water-testkit/tests/
/// scene_backends.rs derives that bound).
#[test]
fn run_on_each_gpu_backend_writes_the_same_files_as_the_cpu() {
    let dir = std::env::temp_dir().join(format!("water-cli-gpu-{}", std::process::id()));
    for (builtin, files) in [
        (
            "open-sea",
            &["height.npy", "positive.npy", "negative.npy"][..],
        ),
        (
            "boat-wake",
            &["height.npy", "positive.npy", "negative.npy"][..],
        ),
    ] {
        for backend in ["cpu", "gpu", "gpu-fragment"] {
            let out_dir = dir.join(builtin).join(backend);
            let Some(summary) = run_builtin_on("run", builtin, backend, &out_dir) else {
                return;
            };
            assert_eq!(summary["backend"], backend);
            assert_eq!(summary["adapter"].is_string(), backend != "cpu");
            assert!(
                out_dir.join("height.png").is_file(),
                "{backend}: height.png"
            );
            if backend == "cpu" {
                continue;
            }
            let reference = dir.join(builtin).join("cpu");
            for file in files {
                let (want, got) = (
                    npy_f32(&reference.join(file)).1,
                    npy_f32(&out_dir.join(file)).1,
                );
                let c = Comparison::measure(&want, &got);
                assert!(
                    c.within(F32_TOLERANCE),
                    "{builtin} {backend} {file}: {} from the CPU's at cell {} (scale {})",
                    c.max_abs,
                    c.worst_cell,
                    c.scale
                );
            }
            if builtin == "boat-wake" {
                let want = csv_positions(&reference.join("bodies.csv"));
                let got = csv_positions(&out_dir.join("bodies.csv"));
                assert_eq!(want.len(), got.len());
                assert!(want.len() > 100, "a row per body per step");
                let worst = want
                    .iter()
                    .zip(&got)
                    .map(|(a, b)| (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0f32, f32::max))
                    .fold(0.0f32, f32::max);
                assert!(worst <= 1e-5, "{backend}: body paths differ by {worst} m");
            }
        }
    }
}

/// The bench says how it timed and whether the GPU is software, as the adapter it ran on
/// (the one `GpuContext::headless` picks, asked here too) has it: GPU timestamps on the compute
/// backend exactly where the device offers timestamp queries, the wall clock on the fragment
/// backend, and "software" exactly for a CPU adapter such as lavapipe.
#[test]
fn bench_on_the_gpu_says_how_it_timed_and_whether_the_gpu_is_software() {
    for backend in ["gpu", "gpu-fragment"] {
        let Some(v) = bench_grid_on_gpu("bench", "64", "20", &["--backend", backend]) else {
            return;
        };
        let gpu = water_gpu::GpuContext::headless().expect("the adapter the bench ran on");
        let timestamps = gpu
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY);
        let software = gpu.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        assert_eq!(v["backend"], backend);
        let expected = if backend == "gpu" && timestamps {
            "gpu-timestamp"
        } else {
            "wall"
        };
        assert_eq!(v["timing"], expected, "{v}");
        assert_eq!(v["software_renderer"], software, "{v}");
        assert!(v["gcells_per_s"].as_f64().expect("number") > 0.0);
    }
}

#[test]
fn bench_reports_dispatch_and_readback_costs_and_the_f16_error() {
    let mut bytes = Vec::new();
    for storage in ["f32", "f16"] {
        let extra = ["--backend", "gpu", "--mode", "split", "--storage", storage];
        let Some(v) = bench_grid_on_gpu("bench costs", "63", "24", &extra) else {
            return;
        };
        assert_eq!(v["storage"], storage);
        let costs = &v["gpu_costs"];
        for key in [
            "seconds_per_dispatch",
            "seconds_per_submission",
            "readback_seconds",
            "readback_gb_per_s",
            "heights_seconds",
        ] {
            assert!(costs[key].as_f64().expect(key) > 0.0, "{key} in {v}");
        }
        // 1024 steps on the 16 x 16 grid: 256 fused dispatches of 4 steps.
        assert_eq!(costs["overhead_dispatches"], 256, "{v}");
        bytes.push(costs["readback_bytes"].as_u64().expect("bytes"));
        let error = &v["f16_error"];
        if storage == "f32" {
            assert!(error.is_null(), "{v}");
        } else {
            // Within 24 steps every store rounds to 11 bits: errors of order 2^-11 of the
            // field, far from both 0 (no rounding) and the field itself (a broken run).
            let relative = error["relative_max"].as_f64().expect("relative_max");
            assert!(relative > 1e-5 && relative < 0.05, "{v}");
            assert_eq!(error["compared"], "channels");
        }
    }
    // 63 cells a row: 63 f32 values, or 32 words of two halves; two channels.
    assert_eq!(bytes, [63 * 63 * 2 * 4, 32 * 63 * 2 * 4]);
    let stderr = failure(&bench_grid_args(
        "32",
        "4",
        &["--backend", "gpu-fragment", "--storage", "f16"],
    ));
    assert!(
        (stderr.contains("f16") && stderr.contains("fragment"))
            || stderr.contains("no GPU adapter"),
        "{stderr}"
    );
}

#[test]
fn classic_gpu_runs_match_the_cpu_checksum() {
    let mut sums = Vec::new();
    for backend in ["cpu", "gpu", "gpu-fragment"] {
        let extra = ["--mode", "classic", "--backend", backend];
        let Some(v) = bench_grid_on_gpu("classic checksum", "96", "30", &extra) else {
            return;
        };
        sums.push(v["checksum"].as_f64().expect("checksum"));
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
}

/// `water run` of the built-in sphere scenario on `backend`: its `height.npy` (one f32 per
/// vertex) and its summary; `None` where the test skips.
fn sphere_run(dir: &Path, backend: &str) -> Option<(Vec<f32>, serde_json::Value)> {
    let out_dir = dir.join(backend);
    let summary = run_builtin_on("sphere run", "sky-aquarium", backend, &out_dir)?;
    let (shape, heights) = npy_f32(&out_dir.join("height.npy"));
    assert_eq!(shape, vec![2562], "{backend}");
    Some((heights, summary))
}

#[test]
fn sphere_scenarios_on_each_gpu_backend_match_the_cpu() {
    let dir = std::env::temp_dir().join(format!("water-cli-gpu-sphere-{}", std::process::id()));
    let Some((reference, _)) = sphere_run(&dir, "cpu") else {
        return;
    };
    let scale = reference.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(scale > 0.0, "the clicks made waves");
    for backend in ["gpu", "gpu-fragment"] {
        let Some((heights, summary)) = sphere_run(&dir, backend) else {
            return;
        };
        assert_eq!(summary["backend"], backend);
        assert!(summary["adapter"].is_string(), "{summary}");
        // Comparison counts a NaN as an infinite difference, where a fold of f32::max would
        // skip it.
        let c = Comparison::measure(&reference, &heights);
        assert!(
            c.within(F32_TOLERANCE),
            "{backend}: the sphere differs from the CPU's by {} of {scale} at vertex {}",
            c.max_abs,
            c.worst_cell
        );
    }
}

fn bytemuck_f32(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn bench_suite_writes_a_table_and_plot_with_every_backend_and_the_peer() {
    let dir = std::env::temp_dir().join(format!("water-cli-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A stand-in for run-peer.sh that prints the peer's line with a figure the test can find.
    let peer = dir.join("peer.sh");
    std::fs::write(
        &peer,
        "echo \"peer=c size=$1 steps=$2 threads=$3 seconds=1 gcells_per_s=4.321 checksum=0\"\n",
    )
    .expect("peer script");
    let out_dir = dir.join("docs");
    let out_arg = out_dir.to_str().expect("utf-8 path");
    let args = [
        "bench",
        "suite",
        "--out",
        out_arg,
        "--threads",
        "1",
        "--sizes",
        "32,64",
        "--cell-updates",
        "1e6",
        "--peer",
        peer.to_str().expect("utf-8 path"),
    ];
    assert_success(&water(&args));
    let md = std::fs::read_to_string(out_dir.join("bench-suite.md")).expect("bench-suite.md");
    let svg = std::fs::read_to_string(out_dir.join("images/bench-suite.svg")).expect("svg");
    assert!(
        md.contains("| Gcell/s (CPU: 1 thread) | 32² | 64² |"),
        "{md}"
    );
    assert!(md.contains("| C peer (same run) | 4.32 | 4.32 |"), "{md}");
    assert!(
        md.contains("--sizes 32,64") && md.contains("--cell-updates 1e6"),
        "{md}"
    );
    for name in [
        "water multi-step",
        "water single-step",
        "water classic i16, multi-step",
        "water split (2 fields), multi-step",
        "plain scalar loop (1 thread)",
        "memory roofline (bandwidth / 12 B)",
    ] {
        assert!(md.contains(&format!("| {name} |")), "missing {name}: {md}");
    }
    if md.contains("Not measured: GPU series: no GPU adapter") {
        assert!(
            std::env::var("WATER_REQUIRE_GPU").map_or(true, |v| v != "1"),
            "WATER_REQUIRE_GPU=1 but the suite found no adapter: {md}"
        );
        eprintln!("bench suite: GPU series skipped: no adapter");
        return;
    }
    let gpu_rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| GPU ")).collect();
    assert_eq!(
        gpu_rows.len(),
        3,
        "compute f32, compute f16, fragment: {md}"
    );
    for row in &gpu_rows {
        let figures: Vec<f64> = row
            .split('|')
            .skip(2)
            .filter_map(|c| c.trim().parse().ok())
            .collect();
        assert_eq!(figures.len(), 2, "{row}");
        assert!(figures.iter().all(|&g| g > 0.0), "{row}");
    }
    // Seven CPU and peer lines and three GPU lines.
    assert_eq!(svg.matches("<polyline").count(), 10, "{svg}");
    let software = gpu_rows
        .iter()
        .all(|r| r.contains("software, not GPU speed"));
    assert_eq!(
        software,
        svg.contains("stroke-dasharray=\"2 3\""),
        "software GPU lines, and only they, are dotted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `water bench scene` on each GPU backend reports what the steps cost the host. Water without
/// bodies steps without waiting on the device and reads back only the mean-level keeper's sums;
/// with bodies the report carries both figures (today a full height readback a step).
#[test]
fn bench_scene_on_the_gpu_reports_readback_bytes_and_device_waits() {
    for backend in ["gpu", "gpu-fragment"] {
        let run = |bodies: &str| {
            water_on_gpu(
                "bench_scene_on_the_gpu",
                &[
                    "bench",
                    "scene",
                    "--size",
                    "64",
                    "--bodies",
                    bodies,
                    "--steps",
                    "20",
                    "--backend",
                    backend,
                ],
            )
            .map(|out| json_line(&out))
        };
        let Some(still) = run("0") else { return };
        let figure =
            |r: &serde_json::Value, k: &str| r[k].as_f64().unwrap_or_else(|| panic!("{k} in {r}"));
        assert_eq!(figure(&still, "device_waits_per_step"), 0.0, "{still}");
        assert!(figure(&still, "readback_bytes_per_step") < 64.0, "{still}");
        // Four crates read back their patches of water (at most 19 x 19 cells each, 4 bytes
        // a cell), never the 16 KiB field. Steps run back to back here, so whether one waits
        // for the device depends on how far behind the device runs: reported, not asserted.
        let Some(floating) = run("4") else { return };
        let bytes = figure(&floating, "readback_bytes_per_step");
        assert!(bytes > 0.0, "{floating}");
        assert!(bytes <= 4.0 * 19.0 * 19.0 * 4.0, "{floating}");
        assert!(bytes < 64.0 * 64.0 * 4.0, "{floating}");
        assert_eq!(floating["body_water"], "current", "{floating}");
        assert!(
            figure(&floating, "device_waits_per_step") <= 1.0,
            "{floating}"
        );
    }
}

/// The dispersive model's bench on the compute backend steps the same spectral step as the CPU's
/// (the same ripples keep the same mean and reach the same spread); the fragment backend refuses the model by name.
#[test]
fn bench_grid_times_the_dispersive_model_on_the_compute_backend() {
    let Some(gpu) = bench_grid_on_gpu(
        "bench_grid_times_the_dispersive_model_on_the_compute_backend",
        "64",
        "20",
        &["--model", "dispersive", "--backend", "gpu"],
    ) else {
        return;
    };
    let cpu = json_line(&water(&bench_grid_args(
        "64",
        "20",
        &["--model", "dispersive"],
    )));
    assert_eq!(gpu["model"], "dispersive");
    assert_eq!(gpu["backend"], "gpu");
    assert!(gpu["adapter"].is_string());
    let (g, c) = (
        gpu["checksum"].as_f64().expect("number"),
        cpu["checksum"].as_f64().expect("number"),
    );
    assert!((g - c).abs() < 1e-3, "gpu {g} vs cpu {c}");
    // The sum is kept by the step; the spread of heights after 20 steps is not, and must agree.
    let (g, c) = (
        gpu["rms"].as_f64().expect("number"),
        cpu["rms"].as_f64().expect("number"),
    );
    assert!((g - c).abs() < 1e-4 * c, "rms: gpu {g} vs cpu {c}");
    let err = failure(&bench_grid_args(
        "64",
        "2",
        &["--model", "dispersive", "--backend", "gpu-fragment"],
    ));
    assert!(err.contains("dispersive"), "{err}");
}

/// A scenario the fragment backend does not run (cascades) is refused by name before the CPU
/// reference runs: no line of the CPU's progress comes first.
#[test]
fn compare_refuses_cascades_on_the_fragment_backend_before_running_anything() {
    // The wave model with 3 cascades (the fragment backend runs the wave model alone).
    let dir = common::scratch("compare-cascades-fragment");
    let file = common::write_scenario(&dir, "ripple.toml", include_str!("scenarios/ripple.toml"));
    let args = [
        "compare",
        file.to_str().expect("utf-8"),
        "--backends",
        "gpu-fragment",
    ];
    let Some(out) = water_on_gpu("compare", &args) else {
        return;
    };
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("cascades run on the cpu and gpu (compute) backends, not gpu-fragment"),
        "{e}"
    );
    assert!(!e.contains("compare (cpu)"), "the CPU ran first: {e}");
}

/// A scenario with cascades is compared on the compute backend alone by default (every
/// cascade's heights with the grid's, then each cascade's own row: `compare.rs`'s own test)
/// and passes.
#[test]
fn compare_runs_cascades_on_the_compute_backend() {
    let dir = common::scratch("compare-cascades");
    let file = common::write_scenario(&dir, "ripple.toml", include_str!("scenarios/ripple.toml"));
    let Some(out) = water_on_gpu("compare", &["compare", file.to_str().expect("utf-8")]) else {
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let rows: Vec<&str> = text.lines().filter(|l| l.ends_with(" ok")).collect();
    assert_eq!(
        rows.len(),
        4,
        "all of them, then each of 3 cascades: {text}"
    );
    assert!(rows[0].starts_with("gpu "), "{text}");
    for (k, row) in rows[1..].iter().enumerate() {
        assert!(row.starts_with(&format!("gpu cascade {k} ")), "{text}");
    }
}

/// `water bench ocean --backend gpu` steps the open sea's cascades on the compute backend
/// (the grid following a point, crates on the water) and reports it; the fragment backend is
/// refused by name.
#[test]
fn bench_ocean_runs_its_cascades_on_the_compute_backend() {
    let args = [
        "bench",
        "ocean",
        "--size",
        "64",
        "--cascades",
        "3",
        "--bodies",
        "2",
        "--speed",
        "5",
        "--steps",
        "10",
        "--warmup",
        "2",
        "--backend",
        "gpu",
    ];
    let Some(out) = water_on_gpu("bench ocean", &args) else {
        return;
    };
    assert_success(&out);
    let report = json_line(&out);
    assert_eq!(report["backend"], "gpu", "{report}");
    assert_eq!(report["cascades"], 3, "{report}");
    let checksum = report["checksum"].as_f64().expect("checksum");
    assert!(checksum.is_finite() && checksum != 0.0, "{report}");
    let mut fragment = args.to_vec();
    *fragment.last_mut().expect("backend") = "gpu-fragment";
    let err = failure(&fragment);
    assert!(
        err.contains("cascades run on the cpu and gpu backends"),
        "{err}"
    );
}
