//! `water bench suite`: Gcell/s against grid size for each backend and stepper, beside a plain
//! scalar loop, the measured memory roofline and (when given) the C peer run in the same
//! process, written as a Markdown table and an SVG plot.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use water_core::{Boundary, GridMode, TemporalBlocking};
use water_gpu::{GpuBackend, StorageFormat};

use crate::bench::{bench_grid, BenchError, BenchGrid, BenchModel};
use crate::out_dir::OutputDir;
use crate::roofline;
use water_scene::Backend;

/// Grid edges the suite measures by default.
pub const SIZES: [usize; 6] = [128, 256, 512, 1024, 2048, 4096];

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineStyle {
    /// A measured stepper on real hardware.
    Solid,
    /// A bound (the memory roofline).
    Dashed,
    /// A GPU backend on a software renderer: CPU time, not GPU performance.
    Dotted,
}

/// One measured series: a name and Gcell/s per measured size.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend name.
    pub name: String,
    /// Gcell/s per size.
    pub gcells: Vec<f64>,
    /// How the plot draws it.
    pub style: LineStyle,
}

impl Series {
    fn new(name: impl Into<String>, style: LineStyle) -> Self {
        Self {
            name: name.into(),
            gcells: Vec::new(),
            style,
        }
    }
}

/// What the suite runs besides the CPU series.
#[derive(Debug, Clone)]
pub struct SuiteOptions {
    /// Grid edges, ascending ([`SIZES`] by default).
    pub sizes: Vec<usize>,
    /// Threads of the CPU pool.
    pub threads: usize,
    /// Cell updates per CPU point ([`CPU_UPDATES`] by default); GPU points scale with it.
    pub cell_updates: f64,
    /// Also measure the GPU backends (compute f32, compute f16 storage, fragment) on the
    /// headless adapter.
    pub gpu: bool,
    /// The C peer's runner (`run-peer.sh SIZE STEPS THREADS`), run at every size.
    pub peer: Option<PathBuf>,
}

/// Steps for a grid of `n^2` cells: about `updates` cell updates, at least `min`, rounded up to
/// a multiple of 4 (the fused GPU kernel's steps per dispatch).
fn steps_for(n: usize, updates: f64, min: u64) -> u64 {
    let steps = (updates / (n * n) as f64).ceil() as u64;
    steps.max(min).next_multiple_of(4)
}

/// Cell updates per CPU point by default.
pub const CPU_UPDATES: f64 = 2e9;
/// The most cell updates per CPU point: minutes a point at a few Gcell/s. More ran for hours
/// (1e18) or made a step count past what the runs take (1e308 was "--steps must be at least
/// 1").
pub const MAX_CELL_UPDATES: f64 = 1e12;
/// Cell updates per GPU point, as a multiple of the CPU's: ten times as many on a real GPU
/// (tens of milliseconds at its speed), a hundredth on a software renderer (a few seconds on a
/// CPU emulating one).
const GPU_UPDATES_PER_CPU_UPDATE: f64 = 10.0;
const SOFTWARE_GPU_UPDATES_PER_CPU_UPDATE: f64 = 0.01;

/// The naive loop a first implementation would write: index arithmetic, no SIMD dispatch, no
/// threads, fixed edges. Returns Gcell/s.
fn plain_scalar_loop(n: usize, steps: u64) -> f64 {
    let (a, b, d) = (0.25f32, 1.0f32, 0.999f32);
    let mut cur: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 97) as f32 * 0.001).collect();
    let mut old = cur.clone();
    let start = Instant::now();
    for _ in 0..steps {
        for y in 1..n - 1 {
            for x in 1..n - 1 {
                let i = y * n + x;
                old[i] = d
                    * (a * (cur[i - n] + cur[i + n] + cur[i + 1] + cur[i - 1]) + b * cur[i]
                        - old[i]);
            }
        }
        std::mem::swap(&mut cur, &mut old);
    }
    std::hint::black_box(&cur);
    ((n - 2) * (n - 2)) as f64 * steps as f64 / start.elapsed().as_secs_f64() / 1e9
}

/// Runs the C peer once and reads its `gcells_per_s=` field.
///
/// # Errors
/// [`BenchError::Invalid`] naming the runner when it cannot start, fails or prints no figure.
pub fn run_peer(runner: &Path, n: usize, steps: u64, threads: usize) -> Result<f64, BenchError> {
    let failed = |why: String| {
        BenchError::Invalid(format!(
            "C peer {} {n} {steps} {threads}: {why}",
            runner.display()
        ))
    };
    let out = Command::new("bash")
        .arg(runner)
        .args([n.to_string(), steps.to_string(), threads.to_string()])
        .output()
        .map_err(|e| failed(e.to_string()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(failed(format!(
            "exit {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    peer_gcells(&text).ok_or_else(|| failed(format!("no gcells_per_s= in {:?}", text.trim())))
}

/// The `gcells_per_s=` figure of a peer's output line.
fn peer_gcells(text: &str) -> Option<f64> {
    text.split_whitespace()
        .find_map(|field| field.strip_prefix("gcells_per_s="))
        .and_then(|v| v.parse().ok())
}

/// What a suite measured.
#[derive(Debug, Clone, PartialEq)]
pub struct SuiteResults {
    /// The measured series.
    pub series: Vec<Series>,
    /// What was asked for and could not be measured (e.g. no GPU adapter), with the reason.
    pub left_out: Vec<String>,
}

/// Runs every series (CPU steppers, the plain loop on one thread, the roofline, and the peer
/// and GPU backends when asked), printing progress on stderr. When the GPU series fail (no
/// adapter, say) the CPU series are still returned and the reason is in
/// [`SuiteResults::left_out`].
///
/// # Errors
/// What a CPU benchmark or the peer reports.
pub fn run(options: &SuiteOptions) -> Result<SuiteResults, BenchError> {
    check_sizes(&options.sizes)?;
    if !(1.0..=MAX_CELL_UPDATES).contains(&options.cell_updates) {
        return Err(BenchError::Invalid(format!(
            "--cell-updates must be from 1 to {MAX_CELL_UPDATES:e}, not {}",
            // Short, unless four digits would read as the limit passed (1000000000001).
            water_core::readable_apart(
                options.cell_updates,
                options.cell_updates.clamp(1.0, MAX_CELL_UPDATES)
            )
        )));
    }
    let threads = options.threads;
    let cpu = |n: usize, steps, mode, single_step| -> Result<f64, BenchError> {
        let spec = BenchGrid {
            size: n,
            steps,
            threads: Some(threads),
            mode,
            boundary: Boundary::Fixed,
            single_step,
            blocking: TemporalBlocking::Auto,
            backend: Backend::Cpu,
            storage: StorageFormat::F32,
            model: BenchModel::Wave,
        };
        Ok(bench_grid(&spec)?.gcells_per_s)
    };
    let mut multi = Series::new("water multi-step", LineStyle::Solid);
    let mut single = Series::new("water single-step", LineStyle::Solid);
    let mut classic = Series::new("water classic i16, multi-step", LineStyle::Solid);
    let mut split = Series::new("water split (2 fields), multi-step", LineStyle::Solid);
    let mut peer = Series::new("C peer (same run)", LineStyle::Solid);
    let mut plain = Series::new("plain scalar loop (1 thread)", LineStyle::Solid);
    let mut roof = Series::new("memory roofline (bandwidth / 12 B)", LineStyle::Dashed);
    for &n in &options.sizes {
        eprintln!("suite: CPU {n}x{n}");
        let steps = steps_for(n, options.cell_updates, 8);
        multi.gcells.push(cpu(n, steps, GridMode::Signed, false)?);
        single.gcells.push(cpu(n, steps, GridMode::Signed, true)?);
        classic
            .gcells
            .push(cpu(n, steps, GridMode::Classic, false)?);
        split.gcells.push(cpu(n, steps, GridMode::Split, false)?);
        if let Some(runner) = &options.peer {
            peer.gcells.push(run_peer(runner, n, steps, threads)?);
        }
        plain.gcells.push(plain_scalar_loop(n, (steps / 4).max(4)));
        let passes = (steps as usize / 4).clamp(4, 200);
        roof.gcells.push(
            roofline::measure(n, passes, threads)
                .map_err(BenchError::Invalid)?
                .roofline_gcells_per_s,
        );
    }
    let mut series = vec![multi, single, classic, split];
    if options.peer.is_some() {
        series.push(peer);
    }
    series.extend([plain, roof]);
    let mut left_out = Vec::new();
    if options.gpu {
        match gpu_series(&options.sizes, options.cell_updates) {
            Ok(gpu) => series.extend(gpu),
            Err(e) => {
                eprintln!("suite: GPU series left out: {e}");
                left_out.push(format!("GPU series: {e}"));
            }
        }
    }
    Ok(SuiteResults { series, left_out })
}

/// Smallest grid edge the suite measures: the fused GPU kernel's 16-cell tiles and the CPU's
/// 16-lane rows both want a few vectors per row.
pub const MIN_SIZE: usize = 16;

/// Refuses an empty, unsorted or too small list of sizes, naming the bad value.
fn check_sizes(sizes: &[usize]) -> Result<(), BenchError> {
    if sizes.is_empty() {
        return Err(BenchError::Invalid(
            "--sizes: give at least one grid edge".into(),
        ));
    }
    if let Some(&n) = sizes.iter().find(|&&n| n < MIN_SIZE) {
        return Err(BenchError::Invalid(format!(
            "--sizes: {n} is below the smallest edge the suite measures, {MIN_SIZE}"
        )));
    }
    if let Some(w) = sizes.windows(2).find(|w| w[0] >= w[1]) {
        return Err(BenchError::Invalid(format!(
            "--sizes must ascend: {} then {}",
            w[0], w[1]
        )));
    }
    Ok(())
}

/// The GPU backends on the headless adapter: the fused compute kernel with f32 and f16 storage
/// and the fragment backend, each one multi-step run per size. On a software renderer the
/// names say so and the lines are dotted.
fn gpu_series(sizes: &[usize], cell_updates: f64) -> Result<Vec<Series>, BenchError> {
    let spec = |n: usize, steps, backend: GpuBackend, storage| BenchGrid {
        size: n,
        steps,
        threads: None,
        mode: GridMode::Signed,
        boundary: Boundary::Fixed,
        single_step: false,
        blocking: TemporalBlocking::Auto,
        backend: backend.into(),
        storage,
        model: BenchModel::Wave,
    };
    let probe = bench_grid(&spec(sizes[0], 4, GpuBackend::Compute, StorageFormat::F32))?;
    let adapter = probe.adapter.unwrap_or_else(|| "GPU".into());
    let (updates, style, label) = if probe.software_renderer {
        let label = format!("{adapter}: software, not GPU speed");
        (
            cell_updates * SOFTWARE_GPU_UPDATES_PER_CPU_UPDATE,
            LineStyle::Dotted,
            label,
        )
    } else {
        (
            cell_updates * GPU_UPDATES_PER_CPU_UPDATE,
            LineStyle::Solid,
            adapter,
        )
    };
    let kinds = [
        ("compute f32", GpuBackend::Compute, StorageFormat::F32),
        ("compute f16", GpuBackend::Compute, StorageFormat::F16),
        ("fragment f32", GpuBackend::Fragment, StorageFormat::F32),
    ];
    let mut series = Vec::new();
    for (name, backend, storage) in kinds {
        let mut line = Series::new(format!("GPU {name} ({label})"), style);
        for &n in sizes {
            eprintln!("suite: GPU {name} {n}x{n}");
            let steps = steps_for(n, updates, 4);
            line.gcells
                .push(bench_grid(&spec(n, steps, backend, storage))?.gcells_per_s);
        }
        series.push(line);
    }
    Ok(series)
}

/// The Markdown table.
#[must_use]
pub fn table(series: &[Series], sizes: &[usize], threads: usize) -> String {
    let plural = if threads == 1 { "" } else { "s" };
    let mut s = format!("| Gcell/s (CPU: {threads} thread{plural}) |");
    for n in sizes {
        let _ = write!(s, " {n}² |");
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(sizes.len()));
    s.push('\n');
    for line in series {
        let _ = write!(s, "| {} |", line.name);
        for v in &line.gcells {
            let _ = write!(s, " {} |", three_significant(*v));
        }
        s.push('\n');
    }
    s
}

/// `v` with three significant digits (at least two decimals), so a slow series (a software
/// GPU at 1e-5 Gcell/s) never reads 0 and a fast one keeps the table's usual two decimals.
#[must_use]
pub fn three_significant(v: f64) -> String {
    if !v.is_finite() || v == 0.0 {
        return format!("{v}");
    }
    let decade = v.abs().log10().floor() as i32;
    let decimals = (2 - decade).max(2) as usize;
    format!("{v:.decimals$}")
}

/// An SVG line plot: Gcell/s against grid edge, both on log scales (so a software GPU at a
/// hundredth of a Gcell/s and the CPU steppers share one plot), legend below the plot.
#[must_use]
pub fn svg(series: &[Series], sizes: &[usize], title: &str) -> String {
    let (w, left, right, top, plot_h) = (820.0, 70.0, 30.0, 40.0, 360.0);
    let legend_top = top + plot_h + 50.0;
    let h = legend_top + 20.0 * series.len() as f64 + 10.0;
    let plot_w = w - left - right;
    let positive = || {
        series
            .iter()
            .flat_map(|s| s.gcells.iter().copied())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    // Whole decades that hold every figure.
    let hi = positive().fold(1e-9f64, f64::max).log10().ceil();
    let lo = positive()
        .fold(f64::INFINITY, f64::min)
        .log10()
        .floor()
        .min(hi - 1.0);
    let lo = if lo.is_finite() { lo } else { hi - 1.0 };
    let x_of = |k: usize| left + plot_w * k as f64 / (sizes.len().max(2) - 1) as f64;
    let y_of = |v: f64| {
        let t = (v.max(10f64.powf(lo)).log10() - lo) / (hi - lo);
        top + plot_h * (1.0 - t)
    };
    let colours = [
        "#1f77b4", "#2ca02c", "#17becf", "#bcbd22", "#ff7f0e", "#7f7f7f", "#d62728", "#9467bd",
        "#8c564b", "#e377c2",
    ];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"15\">{}</text>\n",
        escape(title)
    );
    let mut decade = lo;
    while decade <= hi {
        let v = 10f64.powf(decade);
        let y = y_of(v);
        let label = if decade >= 0.0 {
            format!("{v:.0}")
        } else {
            format!("{v:.*}", (-decade) as usize)
        };
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
            left + plot_w,
            left - 6.0,
            y + 4.0
        );
        if decade < hi {
            // Unlabelled lines at 2 and 5 times the decade, to read figures between decades.
            for minor in [2.0, 5.0] {
                let y = y_of(minor * v);
                let _ = writeln!(
                    s,
                    "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#f0f0f0\"/>",
                    left + plot_w
                );
            }
        }
        decade += 1.0;
    }
    for (k, n) in sizes.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{n}²</text>",
            x_of(k),
            top + plot_h + 18.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">grid size (cells)</text>\
         <text x=\"16\" y=\"{:.1}\" transform=\"rotate(-90 16 {:.1})\" text-anchor=\"middle\">Gcell/s (log scale)</text>",
        left + plot_w / 2.0,
        top + plot_h + 38.0,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    for (i, line) in series.iter().enumerate() {
        let colour = colours[i % colours.len()];
        let points: Vec<String> = line
            .gcells
            .iter()
            .enumerate()
            .map(|(k, v)| format!("{:.1},{:.1}", x_of(k), y_of(*v)))
            .collect();
        let dash = match line.style {
            LineStyle::Solid => "",
            LineStyle::Dashed => " stroke-dasharray=\"6 4\"",
            LineStyle::Dotted => " stroke-dasharray=\"2 3\"",
        };
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
            points.join(" ")
        );
        let ly = legend_top + 20.0 * i as f64;
        let _ = writeln!(
            s,
            "<line x1=\"{left:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            left + 28.0,
            left + 36.0,
            ly + 4.0,
            escape(&line.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Text for an SVG text node (adapter names may hold `<`, `>` or `&`).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Runs the suite and writes `bench-suite.md` and `images/bench-suite.svg` under `dir`.
///
/// # Errors
/// Benchmark failures, or the files (as [`BenchError::Invalid`] with the path).
pub fn write(
    dir: &Path,
    options: &SuiteOptions,
    machine: &str,
) -> Result<Vec<PathBuf>, BenchError> {
    let SuiteResults { series, left_out } = run(options)?;
    let threads = options.threads;
    let images = dir.join("images");
    let io = |path: &Path, e: std::io::Error| {
        BenchError::Invalid(format!("writing {}: {e}", path.display()))
    };
    // Both files are written under temporary names and renamed only once both are whole, as
    // every other command's outputs are (`OutputDir`): a failed run leaves the folder as it was.
    let mut out = OutputDir::create(dir).map_err(|e| io(dir, e))?;
    let mut out_images = OutputDir::create(&images).map_err(|e| io(&images, e))?;
    let title = format!("Grid steps, CPU on {threads} threads, {machine}");
    let sizes = &options.sizes;
    let svg_path = out_images
        .write("bench-suite.svg", |p| {
            std::fs::write(p, svg(&series, sizes, &title))
        })
        .map_err(|e| io(&images.join("bench-suite.svg"), e))?;
    let mut command = format!(
        "water bench suite --out {} --threads {threads}",
        dir.display()
    );
    if let Some(peer) = &options.peer {
        let _ = write!(command, " --peer {}", peer.display());
    }
    if !options.gpu {
        command.push_str(" --no-gpu");
    }
    if options.sizes != SIZES {
        let list: Vec<String> = options.sizes.iter().map(ToString::to_string).collect();
        let _ = write!(command, " --sizes {}", list.join(","));
    }
    #[allow(
        clippy::float_cmp,
        reason = "only the default is left out of the command"
    )]
    if options.cell_updates != CPU_UPDATES {
        let _ = write!(command, " --cell-updates {:e}", options.cell_updates);
    }
    let md = format!(
        "# Benchmark suite\n\nWritten by `{command}` on {machine}. Fixed edges, `a = 0.25`, \
         `d = 0.999`, the C peer's initial field; about {:e} cell updates per CPU point. Signed \
         f32 unless the name says otherwise: classic steps i16 cells, split steps two f32 \
         fields per cell (twice the peer's work). The roofline is `water bench roofline` at the \
         same size, and the C peer (`run-peer.sh SIZE STEPS THREADS`) ran in the same process \
         at the same sizes and steps. GPU series are one fused multi-step run per size; a \
         series marked software ran on a CPU emulating a GPU and says nothing about GPU speed. \
         Single runs: the machine's noise (up to ±30%) shows; `docs/benchmarks.md` has medians \
         against the C peer.\n\n\
         ![Gcell/s against grid size](images/bench-suite.svg)\n\n{}{}",
        options.cell_updates,
        table(&series, sizes, threads),
        left_out
            .iter()
            .map(|why| format!("\nNot measured: {why}\n"))
            .collect::<String>()
    );
    let md_path = out
        .write("bench-suite.md", |p| std::fs::write(p, md))
        .map_err(|e| io(&dir.join("bench-suite.md"), e))?;
    out_images
        .commit(|name| name == "bench-suite.svg")
        .map_err(|e| io(&svg_path, e))?;
    out.commit(|name| name == "bench-suite.md")
        .map_err(|e| io(&md_path, e))?;
    Ok(vec![md_path, svg_path])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, gcells: Vec<f64>, style: LineStyle) -> Series {
        Series {
            name: name.into(),
            gcells,
            style,
        }
    }

    #[test]
    fn plot_and_table_show_every_series_and_size() {
        let series = vec![
            line("a", vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], LineStyle::Solid),
            line(
                "memory roofline (bandwidth / 12 B)",
                vec![9.0; 6],
                LineStyle::Dashed,
            ),
            line(
                "GPU compute f32 (llvmpipe <LLVM>: software, not GPU speed)",
                vec![0.008; 6],
                LineStyle::Dotted,
            ),
        ];
        let svg = svg(&series, &SIZES, "t & u");
        assert_eq!(svg.matches("<polyline").count(), 3);
        assert!(
            svg.contains("stroke-dasharray=\"6 4\""),
            "the roofline is dashed"
        );
        assert!(
            svg.contains("stroke-dasharray=\"2 3\""),
            "software GPUs are dotted"
        );
        assert!(
            svg.contains("&lt;LLVM&gt;") && svg.contains("t &amp; u"),
            "text is escaped"
        );
        assert!(svg.contains("4096²"));
        // Decades from 0.001 to 10 hold 0.008 and 9.
        for label in [">0.001<", ">0.01<", ">0.1<", ">1<", ">10<"] {
            assert!(svg.contains(label), "missing tick {label}");
        }
        let table = table(&series, &SIZES, 2);
        assert_eq!(table.lines().count(), 5);
        assert!(table.contains("| a | 1.00 | 2.00 |"), "{table}");
        assert!(table.contains("| 0.00800 |"), "{table}");
    }

    #[test]
    fn a_slow_figure_keeps_three_significant_digits_and_never_reads_zero() {
        assert_eq!(three_significant(3.2468), "3.25");
        assert_eq!(three_significant(123.4), "123.40");
        assert_eq!(three_significant(0.04321), "0.0432");
        assert_eq!(three_significant(4.2e-5), "0.0000420");
        assert_eq!(three_significant(0.0), "0");
    }

    #[test]
    fn the_plot_puts_faster_series_higher() {
        let series = vec![
            line("slow", vec![0.01; 6], LineStyle::Solid),
            line("fast", vec![10.0; 6], LineStyle::Solid),
        ];
        let svg = svg(&series, &SIZES, "t");
        let first_y = |k: usize| -> f64 {
            let poly = svg.split("<polyline points=\"").nth(k).expect("polyline");
            let point = poly.split(' ').next().expect("point");
            point.split(',').nth(1).expect("y").parse().expect("number")
        };
        assert!(first_y(2) < first_y(1), "SVG y grows downwards");
    }

    #[test]
    fn peer_output_is_read_and_a_missing_figure_is_none() {
        let line =
            "peer=c size=128 steps=100 threads=2 seconds=0.1631 gcells_per_s=0.010 checksum=-1";
        assert_eq!(peer_gcells(line), Some(0.010));
        assert_eq!(peer_gcells("peer=c size=128"), None);
    }

    #[test]
    fn a_missing_peer_runner_is_named() {
        let err = run_peer(Path::new("/nonexistent/run-peer.sh"), 8, 4, 1).expect_err("fails");
        assert!(
            err.to_string().contains("/nonexistent/run-peer.sh"),
            "{err}"
        );
    }

    #[test]
    fn bad_size_lists_are_refused_with_the_value() {
        assert!(check_sizes(&[]).is_err());
        let small = check_sizes(&[8, 128]).expect_err("too small").to_string();
        assert!(small.contains('8') && small.contains("16"), "{small}");
        let order = check_sizes(&[256, 128]).expect_err("unsorted").to_string();
        assert!(order.contains("256 then 128"), "{order}");
        assert!(check_sizes(&SIZES).is_ok());
    }

    #[test]
    fn steps_round_up_to_whole_fused_dispatches() {
        assert_eq!(steps_for(4096, 2e7, 4), 4);
        assert_eq!(steps_for(128, 2e9, 8) % 4, 0);
        assert!(steps_for(128, 2e9, 8) as f64 * 128.0 * 128.0 >= 2e9);
    }
}
