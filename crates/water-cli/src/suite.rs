//! `water bench suite`: Gcell/s against grid size for each stepper, beside a plain scalar loop
//! and the measured memory roofline, written as a Markdown table and an SVG plot.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use water_core::{Boundary, GridMode, TemporalBlocking};

use crate::bench::{bench_grid, BenchError, BenchGrid};
use crate::roofline;
use crate::simulation::BackendChoice;

/// Grid edges the suite measures.
pub const SIZES: [usize; 6] = [128, 256, 512, 1024, 2048, 4096];

/// One measured series: a name and Gcell/s per size in [`SIZES`].
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend name.
    pub name: &'static str,
    /// Gcell/s per size.
    pub gcells: Vec<f64>,
}

/// Steps for a grid of `n^2` cells: about 2e9 cell updates, at least 8.
fn steps_for(n: usize) -> u64 {
    (2_000_000_000 / (n * n)).max(8) as u64
}

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

/// Runs every series on `threads` threads (single steps, multi-step, the plain loop on one
/// thread, and the roofline), printing progress on stderr.
///
/// # Errors
/// What a benchmark reports.
pub fn run(threads: usize) -> Result<Vec<Series>, BenchError> {
    let mut multi = Vec::new();
    let mut single = Vec::new();
    let mut plain = Vec::new();
    let mut roof = Vec::new();
    for n in SIZES {
        eprintln!("suite: {n}x{n}");
        let steps = steps_for(n);
        let spec = |single_step| BenchGrid {
            size: n,
            steps,
            threads: Some(threads),
            mode: GridMode::Signed,
            boundary: Boundary::Fixed,
            single_step,
            blocking: TemporalBlocking::Auto,
            backend: BackendChoice::Cpu,
            storage: water_gpu::StorageFormat::F32,
        };
        multi.push(bench_grid(&spec(false))?.gcells_per_s);
        single.push(bench_grid(&spec(true))?.gcells_per_s);
        plain.push(plain_scalar_loop(n, (steps / 4).max(4)));
        let passes = (steps as usize / 4).clamp(4, 200);
        roof.push(
            roofline::measure(n, passes, threads)
                .map_err(BenchError::Invalid)?
                .roofline_gcells_per_s,
        );
    }
    Ok(vec![
        Series {
            name: "water multi-step",
            gcells: multi,
        },
        Series {
            name: "water single-step",
            gcells: single,
        },
        Series {
            name: "plain scalar loop (1 thread)",
            gcells: plain,
        },
        Series {
            name: "memory roofline (bandwidth / 12 B)",
            gcells: roof,
        },
    ])
}

/// The Markdown table.
#[must_use]
pub fn table(series: &[Series], threads: usize) -> String {
    let mut s = format!("| Gcell/s ({threads} threads) |");
    for n in SIZES {
        let _ = write!(s, " {n}² |");
    }
    s.push_str("\n|---|");
    s.push_str(&"---:|".repeat(SIZES.len()));
    s.push('\n');
    for line in series {
        let _ = write!(s, "| {} |", line.name);
        for v in &line.gcells {
            let _ = write!(s, " {v:.2} |");
        }
        s.push('\n');
    }
    s
}

/// An SVG line plot: Gcell/s (linear) against grid edge (log scale).
#[must_use]
pub fn svg(series: &[Series], title: &str) -> String {
    let (w, h, left, right, top, bottom) = (800.0, 420.0, 70.0, 290.0, 40.0, 50.0);
    let plot_w = w - left - right;
    let plot_h = h - top - bottom;
    let max = series
        .iter()
        .flat_map(|s| s.gcells.iter().copied())
        .fold(0.0f64, f64::max)
        .max(1e-9)
        * 1.1;
    let x_of = |k: usize| left + plot_w * k as f64 / (SIZES.len() - 1) as f64;
    let y_of = |v: f64| top + plot_h * (1.0 - v / max);
    let colours = ["#1f77b4", "#2ca02c", "#7f7f7f", "#d62728", "#9467bd"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"22\" font-size=\"15\">{title}</text>\n"
    );
    for t in 0..=4 {
        let v = max * f64::from(t) / 4.0;
        let y = y_of(v);
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v:.1}</text>",
            left + plot_w,
            left - 6.0,
            y + 4.0
        );
    }
    for (k, n) in SIZES.iter().enumerate() {
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
         <text x=\"16\" y=\"{:.1}\" transform=\"rotate(-90 16 {:.1})\" text-anchor=\"middle\">Gcell/s</text>",
        left + plot_w / 2.0,
        h - 10.0,
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
        let dash = if line.name.starts_with("memory") {
            " stroke-dasharray=\"6 4\""
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
            points.join(" ")
        );
        let ly = top + 16.0 + 20.0 * i as f64;
        let lx = left + plot_w + 16.0;
        let _ = writeln!(
            s,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            lx + 22.0,
            lx + 28.0,
            ly + 4.0,
            line.name
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Runs the suite and writes `bench-suite.md` and `images/bench-suite.svg` under `dir`.
///
/// # Errors
/// Benchmark failures, or the files (as [`BenchError::Invalid`] with the path).
pub fn write(dir: &Path, threads: usize, machine: &str) -> Result<Vec<PathBuf>, BenchError> {
    let series = run(threads)?;
    let images = dir.join("images");
    let io = |path: &Path, e: std::io::Error| {
        BenchError::Invalid(format!("writing {}: {e}", path.display()))
    };
    std::fs::create_dir_all(&images).map_err(|e| io(&images, e))?;
    let svg_path = images.join("bench-suite.svg");
    let title = format!("Signed f32 grid step, {threads} threads, {machine}");
    std::fs::write(&svg_path, svg(&series, &title)).map_err(|e| io(&svg_path, e))?;
    let md_path = dir.join("bench-suite.md");
    let md = format!(
        "# Benchmark suite\n\nWritten by `water bench suite --out {} --threads {threads}` on {machine}: \
         signed f32, fixed edges, `a = 0.25`, `d = 0.999`, about 2e9 cell updates per point; the \
         roofline is `water bench roofline` at the same size. Single runs: the machine's noise \
         (up to ±30%) shows; `docs/benchmarks.md` has medians against the C peer.\n\n\
         ![Gcell/s against grid size](images/bench-suite.svg)\n\n{}",
        dir.display(),
        table(&series, threads)
    );
    std::fs::write(&md_path, md).map_err(|e| io(&md_path, e))?;
    Ok(vec![md_path, svg_path])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_and_table_show_every_series_and_size() {
        let series = vec![
            Series {
                name: "a",
                gcells: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
            },
            Series {
                name: "memory roofline (bandwidth / 12 B)",
                gcells: vec![9.0; 6],
            },
        ];
        let svg = svg(&series, "t");
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("stroke-dasharray"), "the roofline is dashed");
        assert!(svg.contains("4096²"));
        let table = table(&series, 2);
        assert_eq!(table.lines().count(), 4);
        assert!(table.contains("| a | 1.00 | 2.00 |"), "{table}");
    }
}
