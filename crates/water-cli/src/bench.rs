//! `water bench grid`: steps a grid as fast as it goes and reports one JSON line.
//!
//! The field starts as the C peer's does (`../shared/peers/stencil_peer.c`): interior cell `i`
//! holds `((i*7) % 97) * 0.001`, the previous level 0.9 times that, `a = 0.25`, `d = 0.999`,
//! fixed edges; cells per second count the cells a step updates, as the peer counts them.

use std::time::Instant;

use serde::Serialize;
use water_core::{
    Boundary, ClassicGrid, Damping, GridMode, GridSize, GridWater, Parallelism, SignedGrid,
    SplitGrid, TemporalBlocking, WaveParams,
};

/// One benchmark run's result, printed as a JSON line.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// `"cpu"`.
    pub backend: String,
    /// Stepper name.
    pub mode: String,
    /// Boundary name.
    pub boundary: String,
    /// Grid edge, cells.
    pub size: usize,
    /// Steps timed.
    pub steps: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// Wall time of the timed steps, seconds.
    pub seconds: f64,
    /// Updated cells per step.
    pub cells_per_step: usize,
    /// Billions of cell updates per second.
    pub gcells_per_s: f64,
    /// `"multi-step"` (one `step_many` call) or `"single-step"` (one `step` call per step).
    pub stepper: String,
    /// Whether the multi-step run was temporally blocked.
    pub blocked: bool,
    /// `"wall"`: how `seconds` was measured.
    pub timing: String,
    /// Sum of the final heights, to check runs compute the same thing.
    pub checksum: f64,
}

/// What to benchmark.
#[derive(Debug, Clone, Copy)]
pub struct BenchGrid {
    /// Grid edge, cells.
    pub size: usize,
    /// Steps to time.
    pub steps: u64,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Stepper.
    pub mode: GridMode,
    /// Boundary.
    pub boundary: Boundary,
    /// Time `steps` separate single steps instead of one multi-step run.
    pub single_step: bool,
    /// Temporal blocking of the multi-step run.
    pub blocking: TemporalBlocking,
}

/// Errors of the bench command.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Bad size or parameters.
    #[error(transparent)]
    Water(#[from] water_core::WaterError),
    /// Thread pool could not start.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why.
        source: rayon::ThreadPoolBuildError,
    },
    /// Nonsense request.
    #[error("{0}")]
    Invalid(String),
}

/// An `n x n` grid of `mode` initialised like the C peer's grid (see the module docs), with
/// `boundary` (classic mode: fixed only).
///
/// # Errors
/// [`BenchError`] for a bad size or a classic grid with another boundary.
pub fn peer_like_grid(
    n: usize,
    mode: GridMode,
    boundary: Boundary,
) -> Result<Box<dyn GridWater>, BenchError> {
    let size = GridSize::new(n, n)?;
    // h = 1, c = 1, dt = 0.5 gives a = 0.25, the peer's setting.
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::PerStep(0.999))?;
    let z = |i: usize| {
        let (x, y) = (i % n, i / n);
        if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
            0.0
        } else {
            ((i * 7) % 97) as f32 * 0.001
        }
    };
    let fill = |cur: &mut [f32], old: &mut [f32]| {
        for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
            *c = z(i);
            *o = z(i) * 0.9;
        }
    };
    Ok(match mode {
        GridMode::Signed => {
            let mut g = SignedGrid::new(size, params, boundary);
            let (cur, old) = g.field_mut().levels_mut();
            fill(cur, old);
            Box::new(g)
        }
        GridMode::Split => {
            // Both channels carry the field, as a run with crests and troughs would.
            let mut g = SplitGrid::new(size, params, boundary);
            let (p, n) = g.channels_mut();
            for channel in [p, n] {
                let (cur, old) = channel.levels_mut();
                fill(cur, old);
            }
            Box::new(g)
        }
        GridMode::Classic => {
            if boundary != Boundary::Fixed {
                return Err(BenchError::Invalid(format!(
                    "classic mode has only the fixed boundary, got {boundary}"
                )));
            }
            let mut g = ClassicGrid::new(size, 1.0, Some(5))?;
            let (cur, old) = g.levels_mut();
            for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
                *c = (z(i) * 10_000.0) as i16;
                *o = (z(i) * 9_000.0) as i16;
            }
            Box::new(g)
        }
    })
}

/// Runs the benchmark on a pool of the requested size.
///
/// # Errors
/// [`BenchError`] for a bad size, zero steps or threads, or a pool that cannot start.
pub fn bench_grid(spec: &BenchGrid) -> Result<BenchReport, BenchError> {
    if spec.steps == 0 {
        return Err(BenchError::Invalid("--steps must be at least 1".into()));
    }
    let threads = spec.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if threads == 0 {
        return Err(BenchError::Invalid("--threads must be at least 1".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| BenchError::Threads { threads, source })?;
    let mut water = peer_like_grid(spec.size, spec.mode, spec.boundary)?;
    water.set_temporal_blocking(spec.blocking);
    water.set_parallelism(if threads == 1 {
        Parallelism::Serial
    } else {
        Parallelism::Auto
    });
    let seconds = pool.install(|| {
        let start = Instant::now();
        if spec.single_step {
            for _ in 0..spec.steps {
                water.step();
            }
        } else {
            water.step_many(spec.steps);
        }
        start.elapsed().as_secs_f64()
    });
    let cells_per_step = if spec.boundary == Boundary::Fixed {
        (spec.size - 2) * (spec.size - 2)
    } else {
        spec.size * spec.size
    };
    let checksum = water.heights().iter().map(|&v| f64::from(v)).sum();
    Ok(BenchReport {
        backend: "cpu".into(),
        mode: spec.mode.name().into(),
        boundary: spec.boundary.name().into(),
        size: spec.size,
        steps: spec.steps,
        threads,
        seconds,
        cells_per_step,
        gcells_per_s: cells_per_step as f64 * spec.steps as f64 / seconds / 1e9,
        stepper: if spec.single_step {
            "single-step"
        } else {
            "multi-step"
        }
        .into(),
        blocked: !spec.single_step
            && spec.mode != GridMode::Classic
            && spec
                .blocking
                .applies(spec.boundary, spec.size * spec.size, spec.steps),
        timing: "wall".into(),
        checksum,
    })
}
