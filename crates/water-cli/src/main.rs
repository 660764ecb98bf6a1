//! `water`: run scenarios, benchmark the grid, check stability. `water --help` for usage.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use water_cli::bench::{bench_grid, BenchGrid, BenchModel};
use water_cli::compare::{compare, table};
use water_cli::limits::threads as checked_threads;
use water_cli::output::{report, Failure, Stdout, CLOSED_PIPE_STATUS};
use water_cli::render::{default_frames, render_scenario, RenderOptions, MAX_SIDE};
use water_cli::run::run_scenario;
use water_cli::sphere_run::run_sphere;
use water_core::{
    Boundary, GridMode, StabilityReport, TemporalBlocking, MAX_GRID_CELLS, MAX_GRID_DIM,
    MIN_GRID_DIM,
};
use water_gpu::GpuBackend;
use water_scene::scenario::{Scenario, ScenarioError, ScenarioFile, BUILTIN, DEFAULT_BUILTIN};
use water_scene::{Backend, BodyWater, UnknownBackend, UnknownBodyWater};

#[derive(Parser)]
#[command(
    name = "water",
    version,
    about = "Interactive water surfaces: run, benchmark, check"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `--builtin`: the built-in scenarios' names, listed by `--help` and by the refusal of any
/// other name (from the library's own list, so a new built-in is never missing from either).
fn builtin_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(BUILTIN.iter().map(|(name, _)| *name))
}

/// `--backend`: `cpu`, `gpu` or `gpu-fragment`.
fn parse_backend(text: &str) -> Result<Backend, UnknownBackend> {
    text.parse()
}

/// `--body-water`: `current` or `one-step-late`.
fn parse_body_water(text: &str) -> Result<BodyWater, UnknownBodyWater> {
    text.parse()
}

/// `water render --backend`: a GPU backend.
fn parse_gpu_backend(text: &str) -> Result<GpuBackend, String> {
    let backend = parse_backend(text).map_err(|e| e.to_string())?;
    backend.gpu().ok_or_else(|| {
        format!("water render draws on the GPU: expected gpu or gpu-fragment, got {backend}")
    })
}

/// `--height-scale`: a number that f32 holds as a normal number (parsed as f64 first, so that
/// `1e308` is refused as written rather than read as an f32 infinity, and `1e-50` rather than
/// as 0; the least is written as `1.17549435e-38`, which rounds to it and is taken).
fn parse_height_scale(text: &str) -> Result<f32, String> {
    let scale: f64 = text
        .parse()
        .map_err(|_| "expected a number above 0".to_owned())?;
    let narrow = scale as f32;
    if !(narrow.is_finite() && narrow >= f32::MIN_POSITIVE) {
        return Err(format!(
            "expected a number from 1.17549435e-38 to {:e}",
            f32::MAX
        ));
    }
    Ok(narrow)
}

/// A number option: one past f64's range (`1e400`, which Rust reads as infinity), an infinity or
/// a NaN is refused as written, where it would reach the range checks as `inf` or `NaN`.
/// So is one too small for f64 (`1e-400`, which reads as 0) where it is not 0.
fn parse_number(text: &str) -> Result<f64, String> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(x) if !x.is_finite() => Err("expected a finite number".to_owned()),
        Ok(x) if x == 0.0 && mantissa_is_not_zero(text) => {
            Err("expected 0 or a number at least 5e-324 in size (the least f64 holds)".to_owned())
        }
        Ok(x) => Ok(x),
        Err(_) => Err("expected a number".to_owned()),
    }
}

/// Whether the digits before a number's exponent hold anything but zeros.
fn mantissa_is_not_zero(text: &str) -> bool {
    text.split(['e', 'E'])
        .next()
        .is_some_and(|m| m.bytes().any(|b| (b'1'..=b'9').contains(&b)))
}

/// `WIDTHxHEIGHT`.
fn parse_picture_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected WIDTHxHEIGHT such as 640x400, got {text:?}");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    // A side of digits past u32 is a number too large, not a malformed size.
    let side = |s: &str| {
        let s = s.trim();
        s.parse::<u32>().map_err(|_| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                format!("{text:?} has a side of {s} pixels: each is 1 to {MAX_SIDE}")
            } else {
                bad()
            }
        })
    };
    Ok((side(w)?, side(h)?))
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Signed,
    Split,
    Classic,
}

#[derive(Clone, Copy, ValueEnum)]
enum BoundaryArg {
    Fixed,
    Reflective,
    Periodic,
    Absorbing,
}

#[derive(Clone, Copy, ValueEnum)]
enum ModelArg {
    /// The five-point wave stencil (the C peer's step).
    Wave,
    /// The dispersive spectral step (the FFTW peer's step), deep water unless --depth.
    Dispersive,
}

#[derive(Clone, Copy, ValueEnum)]
enum BlockingArg {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario and write height.npy, height.png and summary.json.
    Run {
        /// Scenario file (TOML). Without one, the built-in "harbour" scenario runs.
        scenario: Option<PathBuf>,
        /// Run a built-in scenario by name instead.
        #[arg(long, conflicts_with = "scenario", value_parser = builtin_names())]
        builtin: Option<String>,
        /// Where the solver runs.
        #[arg(long, default_value = "cpu", value_parser = parse_backend)]
        backend: Backend,
        /// Output folder.
        #[arg(long, default_value = "out")]
        out: PathBuf,
        /// No progress lines.
        #[arg(long)]
        quiet: bool,
    },
    /// Run a scenario on the CPU and on GPU backends and print their differences; exits 1
    /// when a backend is outside the documented tolerance.
    Compare {
        /// Scenario file (TOML). Without one, the built-in "harbour" scenario runs.
        scenario: Option<PathBuf>,
        /// Run a built-in scenario by name instead.
        #[arg(long, conflicts_with = "scenario", value_parser = builtin_names())]
        builtin: Option<String>,
        /// Backends to compare with the CPU reference, comma-separated [default: the GPU
        /// backends that run the scenario: gpu,gpu-fragment, or gpu for model = "dispersive"
        /// and for cascades]. With cascades, every cascade's heights are compared: a row for all of them, then one per cascade, under one allowance.
        #[arg(long, value_delimiter = ',')]
        backends: Option<Vec<String>>,
    },
    /// Run a scenario on a GPU backend and draw it: frame-NNNN.png, water.gif and render.json.
    #[command(allow_negative_numbers = true)]
    Render {
        /// Scenario file (TOML). Without one, the built-in "harbour" scenario runs.
        scenario: Option<PathBuf>,
        /// Render a built-in scenario by name instead.
        #[arg(long, conflicts_with = "scenario", value_parser = builtin_names())]
        builtin: Option<String>,
        /// Output folder.
        #[arg(long, default_value = "out/render")]
        out: PathBuf,
        /// GPU backend that runs the water.
        #[arg(long, default_value = "gpu", value_parser = parse_gpu_backend)]
        backend: GpuBackend,
        /// Frames, evenly spaced over the run (default: 48, or one a step for a shorter run):
        /// 1 to 1000.
        #[arg(long)]
        frames: Option<u32>,
        /// Picture size, WIDTHxHEIGHT pixels (each 1 to 4096).
        #[arg(long, default_value = "640x400", value_parser = parse_picture_size)]
        size: (u32, u32),
        /// Drawn metres per metre of wave (default: waves drawn at 3% of the water's size; true
        /// scale for a scenario drawn at sea: with an ocean, or with cascades).
        #[arg(long, value_parser = parse_height_scale)]
        height_scale: Option<f32>,
        /// No progress lines.
        #[arg(long)]
        quiet: bool,
    },
    /// Courant number, stability limit, largest stable dt and substeps for c, h and dt.
    #[command(allow_negative_numbers = true)]
    Stability {
        /// Wave speed c, m/s.
        #[arg(long, value_parser = parse_number, allow_hyphen_values = true)]
        wave_speed: f64,
        /// Cell size h, m.
        #[arg(long, value_parser = parse_number, allow_hyphen_values = true)]
        cell_size: f64,
        /// Time step dt, s (default: the largest stable one).
        #[arg(long, value_parser = parse_number, allow_hyphen_values = true)]
        dt: Option<f64>,
    },
    /// Benchmarks.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
}

/// `water bench sphere --layout`.
#[derive(Clone, Copy, ValueEnum)]
enum BenchLayout {
    /// Ten rhombus patches with halos (the library's default).
    Rhombus,
    /// Per-vertex gathers of six neighbour slots.
    Gather,
    /// Both, one line each.
    Both,
}

/// `water bench grid --storage`.
#[derive(Clone, Copy, ValueEnum)]
enum StorageArg {
    /// 4 bytes per cell.
    F32,
    /// 2 bytes per cell (binary16 pairs in u32 words, f32 arithmetic); `--backend gpu`, signed
    /// and split modes.
    F16,
}

/// How a scene benchmark runs: `water bench ocean` and `water bench scene` alike.
#[derive(Args, Debug)]
struct SceneBenchRun {
    /// Steps to time: 1 to 1000000.
    #[arg(long, default_value_t = 100)]
    steps: u64,
    /// Steps before the timed ones: 0 to 1000000.
    #[arg(long, default_value_t = water_cli::bench_scene::DEFAULT_WARMUP)]
    warmup: u64,
    /// Threads (default: all cores; at most 4 per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Where the water steps.
    #[arg(long, default_value = "cpu", value_parser = parse_backend)]
    backend: Backend,
}

impl SceneBenchRun {
    /// Checks `--threads`, runs `bench` with this run's steps, warm-up steps, threads and
    /// backend (in that order) and prints its report as one JSON line.
    fn print_report<R: serde::Serialize>(
        self,
        stdout: &mut Stdout,
        bench: impl FnOnce(u64, u64, usize, Backend) -> Result<R, Failure>,
    ) -> Result<(), Failure> {
        let threads = checked_threads(self.threads)?;
        let report = bench(self.steps, self.warmup, threads, self.backend)?;
        stdout.line(&serde_json::to_string(&report)?)
    }
}

#[derive(Subcommand)]
enum BenchWhat {
    /// Steps sphere water of a subdivision level and prints one JSON line.
    #[command(allow_negative_numbers = true)]
    Sphere {
        /// Icosphere level, 0 to 12 (7: 163,842 vertices).
        #[arg(long)]
        level: u32,
        /// Steps to time.
        #[arg(long)]
        steps: u64,
        /// Threads (default: all cores; at most 4 per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Use the Laplace-Beltrami stepper instead of the demo's mean.
        #[arg(long)]
        laplace_beltrami: bool,
        /// How the heights are laid out: rhombus patches, per-vertex gathers, or both (one JSON
        /// line each, gather first).
        #[arg(long, value_enum, default_value = "rhombus")]
        layout: BenchLayout,
        /// Timed runs per layout, from the same start (1 to 1000); the line reports the median.
        #[arg(long, default_value = "1")]
        repeats: usize,
    },
    /// Gcell/s against grid size for each backend and stepper, a plain scalar loop, the memory
    /// roofline and the C peer: writes OUT/bench-suite.md and OUT/images/bench-suite.svg.
    #[command(allow_negative_numbers = true)]
    Suite {
        /// Folder for the table and plot.
        #[arg(long, default_value = "docs")]
        out: PathBuf,
        /// Threads (default: all cores; at most 4 per core).
        #[arg(long)]
        threads: Option<usize>,
        /// The C peer's runner (`run-peer.sh SIZE STEPS THREADS`), run at every size in the
        /// same process, e.g. ../shared/peers/run-peer.sh.
        #[arg(long)]
        peer: Option<PathBuf>,
        /// Leave out the GPU backends.
        #[arg(long)]
        no_gpu: bool,
        /// Grid edges to measure, ascending.
        #[arg(long, value_delimiter = ',', default_values_t = water_cli::suite::SIZES)]
        sizes: Vec<usize>,
        /// Cell updates per CPU point (GPU points scale with it): 1 to 1e12.
        #[arg(long, default_value_t = water_cli::suite::CPU_UPDATES, value_parser = parse_number, allow_hyphen_values = true)]
        cell_updates: f64,
        /// Machine description for the title.
        #[arg(long, default_value = "this machine")]
        machine: String,
    },
    /// Memory bandwidth of a read-2/write-1 stream over N x N f32 arrays, and the cells per
    /// second it allows a plain step (bandwidth / 12 bytes); one JSON line.
    #[command(allow_negative_numbers = true)]
    Roofline {
        /// Array edge, cells: 1 to 65536.
        #[arg(long)]
        size: usize,
        /// Passes to time.
        #[arg(long, default_value = "20")]
        passes: usize,
        /// Threads (default: all cores; at most 4 per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Steps the open sea a game at sea steps: N x N cells of deep dispersive water in K
    /// cascades inside a wind sea with foam, following a point at --speed, with B crates; one
    /// JSON line (ms per step, and its share for the sea, the water, the cascades, the foam and
    /// the bodies).
    #[command(allow_negative_numbers = true)]
    Ocean {
        /// Grid edge, cells (0.25 m each), every cascade alike: 64 to 4096.
        #[arg(long)]
        size: usize,
        /// Cascades, the grid counted (each twice the cell size of the one inside): 1 to 8.
        #[arg(long, default_value_t = 1)]
        cascades: usize,
        /// Floating crates (0.8 x 0.5 x 0.4 m, 60 kg; every other one towed with the focus): 0
        /// to 10000.
        #[arg(long, default_value_t = 0)]
        bodies: usize,
        /// How fast the focus travels, m/s (0: the grid stays): 0, or 0.001 to 100.
        #[arg(long, default_value_t = 0.0, value_parser = parse_number, allow_hyphen_values = true)]
        speed: f64,
        /// No foam on any grid: the grids, their hand-over and the bodies alone.
        #[arg(long)]
        no_foam: bool,
        #[command(flatten)]
        run: SceneBenchRun,
    },
    /// Steps N x N cells of water with B floating crates coupled both ways, one step at a time,
    /// and prints one JSON line (ms per step, and its share for bodies, masks and water).
    #[command(allow_negative_numbers = true)]
    Scene {
        /// Grid edge, cells (0.1 m each): 16 to 8192.
        #[arg(long)]
        size: usize,
        /// Floating crates (0.8 x 0.5 x 0.4 m, 60 kg; every other one towed): 0 to 10000.
        #[arg(long)]
        bodies: usize,
        #[command(flatten)]
        run: SceneBenchRun,
        /// Which step's water the crates read: `current` or `one-step-late`.
        #[arg(long, default_value = "current", value_parser = parse_body_water)]
        body_water: BodyWater,
    },
    /// Steps an N x N grid and prints one JSON line.
    #[command(allow_negative_numbers = true)]
    Grid {
        /// Grid edge, cells: 3 to 32768.
        #[arg(long)]
        size: usize,
        /// Steps to time: 1 or more.
        #[arg(long)]
        steps: u64,
        /// Threads (default: all cores; at most 4 per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Where the solver runs.
        #[arg(long, default_value = "cpu", value_parser = parse_backend)]
        backend: Backend,
        /// Stepper.
        #[arg(long, value_enum, default_value = "signed")]
        mode: ModeArg,
        /// Boundary (default: fixed for the wave model, as the C peer; periodic for the
        /// dispersive model, as the FFTW peer).
        #[arg(long, value_enum)]
        boundary: Option<BoundaryArg>,
        /// Water model.
        #[arg(long, value_enum, default_value = "wave")]
        model: ModelArg,
        /// Uniform depth of the dispersive model, m (default: deep water).
        #[arg(long, value_parser = parse_number, allow_hyphen_values = true)]
        depth: Option<f64>,
        /// Time separate single steps instead of one multi-step run.
        #[arg(long)]
        single_step: bool,
        /// Temporal blocking of the multi-step run: auto blocks grids larger than the caches
        /// (not with --single-step, whose steps are each their own run).
        #[arg(
            long,
            value_enum,
            default_value = "auto",
            conflicts_with = "single_step"
        )]
        blocking: BlockingArg,
        /// How the GPU grid stores its cells; with f16 the line also reports its error against
        /// f32 after the same steps.
        #[arg(long, value_enum, default_value = "f32")]
        storage: StorageArg,
    },
}

mod usage;
use usage::whole_number_refusal;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and the version go to stdout through the same checked writes as every other
        // output: a stdout that takes nothing (`/dev/full`) is an error, not a silent 0.
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) =>
        {
            // On a terminal clap writes it in colour; anywhere else, plain and checked.
            if std::io::stdout().is_terminal() && e.print().is_ok() {
                return ExitCode::SUCCESS;
            }
            return finish(Stdout.print(&e.render().to_string()));
        }
        Err(e) => match whole_number_refusal(&e) {
            Some(message) => {
                report(&message);
                return ExitCode::from(USAGE_STATUS);
            }
            None => e.exit(),
        },
    };
    finish(run(cli))
}

/// The status of a command line clap refuses.
const USAGE_STATUS: u8 = 2;

/// The exit status of a command that ended with `result`, its failure reported on stderr.
fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout went away: nothing to say (see `water_cli::output`).
        Err(Failure::ClosedPipe) => ExitCode::from(CLOSED_PIPE_STATUS),
        Err(failure) => {
            report(&failure.to_string());
            ExitCode::FAILURE
        }
    }
}

fn load(scenario: Option<PathBuf>, builtin: Option<String>) -> Result<ScenarioFile, ScenarioError> {
    match (scenario, builtin) {
        (Some(path), _) => ScenarioFile::load(&path),
        (None, Some(name)) => ScenarioFile::builtin(&name),
        (None, None) => ScenarioFile::builtin(DEFAULT_BUILTIN),
    }
}

/// The grid scenario, or why a sphere scenario cannot do this.
fn grid_only(file: ScenarioFile, what: &str) -> Result<Scenario, String> {
    match file {
        ScenarioFile::Grid(s) => Ok(*s),
        ScenarioFile::Sphere(s) => Err(format!(
            "{}: {what} is available for grid scenarios; sphere scenarios run with `water run`",
            s.source
        )),
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let mut stdout = Stdout;
    match cli.command {
        Command::Run {
            scenario,
            builtin,
            backend,
            out,
            quiet,
        } => {
            match load(scenario, builtin)? {
                ScenarioFile::Grid(scenario) => {
                    let summary = run_scenario(&scenario, backend, &out, !quiet)?;
                    stdout.print(&summary.to_text())?;
                }
                ScenarioFile::Sphere(scenario) => {
                    let summary = run_sphere(&scenario, backend, &out, !quiet)?;
                    stdout.print(&summary.to_text())?;
                }
            }
            Ok(())
        }
        Command::Render {
            scenario,
            builtin,
            out,
            backend,
            frames,
            size,
            height_scale,
            quiet,
        } => {
            let mut scenario = load(scenario, builtin)?;
            let options = RenderOptions {
                backend,
                frames: frames.unwrap_or_else(|| default_frames(&scenario)),
                width: size.0,
                height: size.1,
                height_scale,
                show_progress: !quiet,
            };
            let summary = render_scenario(&mut scenario, &options, &out)?;
            stdout.print(&summary.to_text())?;
            Ok(())
        }
        Command::Compare {
            scenario,
            builtin,
            backends,
        } => {
            let scenario = grid_only(load(scenario, builtin)?, "water compare")?;
            let backends = match backends {
                Some(named) => named
                    .iter()
                    .map(|b| b.trim().parse::<Backend>())
                    .collect::<Result<Vec<_>, _>>()?,
                // The fragment backend runs neither the dispersive model nor cascades (it
                // says why when asked by name).
                None if scenario.dispersion.is_some() || scenario.cascades > 1 => {
                    vec![Backend::Gpu]
                }
                None => vec![Backend::Gpu, Backend::GpuFragment],
            };
            // A backend named twice would run twice and print the same row again.
            for (i, b) in backends.iter().enumerate() {
                if backends[..i].contains(b) {
                    return Err(format!(
                        "--backends names {} twice; name each backend once",
                        b.name()
                    )
                    .into());
                }
            }
            let rows = compare(&scenario, &backends)?;
            stdout.print(&table(&rows))?;
            match rows.iter().find(|r| !r.passes()) {
                Some(r) => Err(r.failure().into()),
                None => Ok(()),
            }
        }
        Command::Stability {
            wave_speed,
            cell_size,
            dt,
        } => {
            let r = StabilityReport::new(wave_speed, cell_size, dt)
                .map_err(|e| Failure::Message(water_cli::option_names::as_option(&e)))?;
            // Steps a reader copies are told toward zero, so what is printed stays stable.
            stdout.print(&format!(
                "courant a      = {}  ((c*dt/h)^2 with dt = {} s)\n\
                 limit          = {}\n\
                 stable         = {}\n\
                 max stable dt  = {} s  (h / (c*sqrt 2))\n\
                 substeps       = {}  (stable steps of {} s per dt)\n",
                water_core::readable_apart(r.courant, r.limit),
                water_core::readable(r.dt),
                r.limit,
                if r.is_stable() { "yes" } else { "no" },
                water_core::readable_at_most(r.max_stable_dt),
                r.substeps,
                water_core::readable_at_most(r.dt / r.substeps as f64)
            ))?;
            if r.max_stable_dt < water_core::DT_RANGE.0 {
                stdout.print(&format!(
                    "no grid steps these h and c: the largest stable dt is below the shortest \
                     a grid takes, {:e} s; use larger cells or a slower wave\n",
                    water_core::DT_RANGE.0
                ))?;
            }
            if r.max_stable_dt > water_core::DT_RANGE.1 {
                stdout.print(&format!(
                    "the largest stable dt is above the longest a grid takes, {:e} s: every dt a \
                     grid takes is stable for these h and c\n",
                    water_core::DT_RANGE.1
                ))?;
            }
            Ok(())
        }
        Command::Bench {
            what:
                BenchWhat::Sphere {
                    level,
                    steps,
                    threads,
                    laplace_beltrami,
                    layout,
                    repeats,
                },
        } => {
            let threads = checked_threads(threads)?;
            use water_sphere::SphereLayout;
            let layouts = match layout {
                BenchLayout::Rhombus => vec![SphereLayout::Rhombus],
                BenchLayout::Gather => vec![SphereLayout::Gather],
                BenchLayout::Both => vec![SphereLayout::Gather, SphereLayout::Rhombus],
            };
            let reports = water_cli::bench::bench_sphere(&water_cli::bench::SphereBench {
                level,
                steps,
                threads,
                laplace_beltrami,
                layouts,
                repeats,
            })?;
            for r in reports {
                stdout.line(&serde_json::to_string(&r)?)?;
            }
            Ok(())
        }
        Command::Bench {
            what:
                BenchWhat::Suite {
                    out,
                    threads,
                    peer,
                    no_gpu,
                    sizes,
                    cell_updates,
                    machine,
                },
        } => {
            let threads = checked_threads(threads)?;
            let options = water_cli::suite::SuiteOptions {
                sizes,
                threads,
                cell_updates,
                gpu: !no_gpu,
                peer,
            };
            for file in water_cli::suite::write(&out, &options, &machine)? {
                stdout.line(&format!("wrote {}", file.display()))?;
            }
            Ok(())
        }
        Command::Bench {
            what:
                BenchWhat::Roofline {
                    size,
                    passes,
                    threads,
                },
        } => {
            let threads = checked_threads(threads)?;
            let r = water_cli::roofline::measure(size, passes, threads)?;
            stdout.line(&serde_json::to_string(&r)?)?;
            Ok(())
        }
        Command::Bench {
            what:
                BenchWhat::Ocean {
                    size,
                    cascades,
                    bodies,
                    speed,
                    no_foam,
                    run,
                },
        } => run.print_report(&mut stdout, |steps, warmup, threads, backend| {
            water_cli::bench_ocean::bench_ocean(&water_cli::bench_ocean::OceanBench {
                size,
                cascades,
                bodies,
                speed,
                foam: !no_foam,
                steps,
                warmup,
                threads,
                backend,
            })
            .map_err(Failure::from)
        }),
        Command::Bench {
            what:
                BenchWhat::Scene {
                    size,
                    bodies,
                    run,
                    body_water,
                },
        } => run.print_report(&mut stdout, |steps, warmup, threads, backend| {
            water_cli::bench_scene::bench_scene(&water_cli::bench_scene::SceneBench {
                size,
                bodies,
                steps,
                warmup,
                threads,
                backend,
                body_water,
            })
            .map_err(Failure::from)
        }),
        Command::Bench {
            what:
                BenchWhat::Grid {
                    size,
                    steps,
                    threads,
                    backend,
                    mode,
                    boundary,
                    model,
                    depth,
                    single_step,
                    blocking,
                    storage,
                },
        } => {
            // A square grid: its side is also held to the cells' limit.
            let largest = MAX_GRID_CELLS.isqrt().min(MAX_GRID_DIM);
            if !(MIN_GRID_DIM..=largest).contains(&size) {
                return Err(Failure::Message(format!(
                    "--size {size} is out of range: expected {MIN_GRID_DIM} to {largest}"
                )));
            }
            let model = match (model, depth) {
                (ModelArg::Wave, Some(d)) => {
                    return Err(Failure::Message(format!(
                        "--depth {}: the wave model takes no depth (use --model dispersive)",
                        water_core::readable_exact(d)
                    )))
                }
                (ModelArg::Wave, None) => BenchModel::Wave,
                (ModelArg::Dispersive, depth) => BenchModel::Dispersive { depth },
            };
            let boundary = boundary.unwrap_or(match model {
                BenchModel::Wave => BoundaryArg::Fixed,
                BenchModel::Dispersive { .. } => BoundaryArg::Periodic,
            });
            let spec = BenchGrid {
                size,
                steps,
                threads: threads.map(|t| checked_threads(Some(t))).transpose()?,
                mode: match mode {
                    ModeArg::Signed => GridMode::Signed,
                    ModeArg::Split => GridMode::Split,
                    ModeArg::Classic => GridMode::Classic,
                },
                boundary: match boundary {
                    BoundaryArg::Fixed => Boundary::Fixed,
                    BoundaryArg::Reflective => Boundary::Reflective,
                    BoundaryArg::Periodic => Boundary::Periodic,
                    BoundaryArg::Absorbing => Boundary::Absorbing,
                },
                single_step,
                backend,
                blocking: match blocking {
                    BlockingArg::Auto => TemporalBlocking::Auto,
                    BlockingArg::Always => TemporalBlocking::Always,
                    BlockingArg::Never => TemporalBlocking::Never,
                },
                storage: match storage {
                    StorageArg::F32 => water_gpu::StorageFormat::F32,
                    StorageArg::F16 => water_gpu::StorageFormat::F16,
                },
                model,
            };
            let report = bench_grid(&spec)?;
            stdout.line(&serde_json::to_string(&report)?)?;
            Ok(())
        }
    }
}
