//! `water bench ocean`: the open sea a game at sea steps each frame, timed. The setup is
//! [`water_scene::benchmark::open_sea`] (deep dispersive water in `K` cascades, a wind sea with
//! foam, a focus travelling at `--speed`, `B` crates); each step the sea is synthesised for the
//! frame and the scene steps; one JSON line with `ms_per_step` and each part's share.

use std::time::{Duration, Instant};

use serde::Serialize;
use water_scene::benchmark::{bench_pool, open_sea, BenchSetupError};
use water_scene::{Backend, SceneError, MAX_CASCADES};

use crate::bench_scene::{check_ranges, SceneBenchError, MAX_BODIES, MAX_STEPS, MAX_THREADS};
use water_scene::Water as _;

/// Smallest grid edge, cells: the sponge (an eighth of the side, 8 cells here, up to 24) leaves
/// three quarters of the grid between.
pub const MIN_SIZE: usize = 64;
/// Largest grid edge, cells (each cascade as many again).
pub const MAX_SIZE: usize = 4096;
/// Fastest the focus travels, m/s.
pub const MAX_SPEED: f64 = 100.0;
/// Slowest it travels, but for 0, m/s ([`water_scene::benchmark::OPEN_SEA_MIN_SPEED`], written
/// in f64 so the refusal quotes it as written).
pub const MIN_SPEED: f64 = 1e-3;
const _: () = assert!(MIN_SPEED as f32 == water_scene::benchmark::OPEN_SEA_MIN_SPEED);

/// What `water bench ocean` measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OceanBench {
    /// Grid edge, cells (every cascade alike).
    pub size: usize,
    /// Cascades, the grid counted.
    pub cascades: usize,
    /// Floating crates.
    pub bodies: usize,
    /// How fast the focus travels, m/s (0: the grid stays), as written (a value f32 would
    /// round to 0 is refused, not taken as 0).
    pub speed: f64,
    /// Foam on every grid (the default scene's); without it the steps time the grids, their
    /// hand-over and the bodies alone, to set beside as many lone grids.
    pub foam: bool,
    /// Steps timed.
    pub steps: u64,
    /// Steps run before the timed ones.
    pub warmup: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// Where the water steps: cpu or gpu (the fragment backend runs no cascades).
    pub backend: Backend,
}

/// One `water bench ocean` result, printed as a JSON line.
#[derive(Debug, Clone, Serialize)]
pub struct OceanBenchReport {
    /// `"ocean"`.
    pub bench: String,
    /// `"cpu"`.
    pub backend: String,
    /// Grid edge, cells.
    pub size: usize,
    /// Cascades, the grid counted.
    pub cascades: usize,
    /// `"dispersive"`.
    pub model: String,
    /// Floating crates.
    pub bodies: usize,
    /// How fast the focus travelled, m/s.
    pub speed: f32,
    /// Steps timed.
    pub steps: u64,
    /// Steps run before the timed ones.
    pub warmup_steps: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// Wall time per step, ms: the sea's synthesis and the scene's step.
    pub ms_per_step: f64,
    /// Of that, the sea synthesised for the step's end (its tiles' inverse FFTs), ms.
    pub sea_ms_per_step: f64,
    /// The finest grid's step, ms (with the grid following its focus when there are no
    /// bodies; with bodies the following counts in theirs).
    pub water_ms_per_step: f64,
    /// The coarser cascades' steps and hand-over, ms.
    pub cascades_ms_per_step: f64,
    /// The foam's sources (the sea's Jacobian at every cell of the grid) and decay, ms.
    pub foam_ms_per_step: f64,
    /// The bodies moving, ms.
    pub bodies_ms_per_step: f64,
    /// Their hulls drawn into every cascade's masks, ms (within the cascades' share for the
    /// coarser ones).
    pub masks_ms_per_step: f64,
    /// Sum of the final heights, to check runs compute the same thing.
    pub checksum: f64,
}

impl OceanBench {
    /// Refuses a request outside the limits, naming the option, its value and the range.
    ///
    /// # Errors
    /// [`SceneBenchError::OutOfRange`].
    pub fn validate(&self) -> Result<(), SceneBenchError> {
        let checks = [
            ("size", self.size as u64, MIN_SIZE as u64, MAX_SIZE as u64),
            ("cascades", self.cascades as u64, 1, MAX_CASCADES as u64),
            ("bodies", self.bodies as u64, 0, MAX_BODIES as u64),
            ("steps", self.steps, 1, MAX_STEPS),
            ("warmup", self.warmup, 0, MAX_STEPS),
            ("threads", self.threads as u64, 1, MAX_THREADS as u64),
        ];
        check_ranges(&checks)?;
        if !(self.speed == 0.0 || (MIN_SPEED..=MAX_SPEED).contains(&self.speed)) {
            return Err(SceneBenchError::Options(format!(
                "--speed {} is out of range: expected {MIN_SPEED} to {MAX_SPEED} m/s, or 0 \
                 (the grid stays)",
                water_core::readable_exact(self.speed)
            )));
        }
        if self.backend == Backend::GpuFragment {
            return Err(SceneBenchError::Options(format!(
                "--backend {}: the open sea's cascades run on the cpu and gpu backends",
                self.backend
            )));
        }
        Ok(())
    }
}

/// Sets up the open sea, runs the warm-up and times the steps one by one, on a pool of
/// `bench.threads` threads.
///
/// # Errors
/// [`SceneBenchError`] for a request out of range or a failed step.
pub fn bench_ocean(bench: &OceanBench) -> Result<OceanBenchReport, SceneBenchError> {
    bench.validate()?;
    // Every cascade's grid, dispersive, before any is made.
    let size = water_core::GridSize::new(bench.size, bench.size)
        .map_err(|e| SceneBenchError::Options(e.to_string()))?;
    let one = crate::limits::grid_bytes(size, water_core::GridMode::Signed).saturating_add(
        water_core::DispersiveGrid::bytes(size, water_core::Boundary::Absorbing),
    );
    crate::limits::check_memory(
        &format!(
            "{} cascades of {} x {} cells",
            bench.cascades, bench.size, bench.size
        ),
        one.saturating_mul(bench.cascades as u64),
    )
    .map_err(|e| SceneBenchError::Options(e.to_string()))?;
    let gpu = match bench.backend {
        Backend::Cpu => None,
        _ => Some(water_gpu::GpuContext::headless()?),
    };
    let pool = bench_pool(bench.threads)?;
    let (scene, seconds, sea) = pool.install(|| -> Result<_, SceneBenchError> {
        let on = (bench.backend, gpu.as_ref());
        let mut scene = open_sea(
            bench.size,
            bench.cascades,
            bench.bodies,
            bench.speed as f32,
            on,
        )
        .map_err(|e| match e {
            BenchSetupError::Scene(e) => SceneBenchError::Scene(e),
            e => SceneBenchError::Setup(e),
        })?;
        if !bench.foam {
            scene.set_foam(None)?;
        }
        let step = |scene: &mut water_scene::Scene| -> Result<Duration, SceneError> {
            // The sea at the step's end, made once: the foam's breaking reads it, and the
            // bodies and a renderer the next step.
            let start = Instant::now();
            scene.sea_frame_at(scene.steps_taken() + 1);
            let made = start.elapsed();
            scene.step()?;
            Ok(made)
        };
        for _ in 0..bench.warmup {
            step(&mut scene)?;
        }
        scene.reset_step_times();
        let start = Instant::now();
        let mut sea = Duration::ZERO;
        for _ in 0..bench.steps {
            sea += step(&mut scene)?;
        }
        Ok((scene, start.elapsed().as_secs_f64(), sea))
    })?;
    let times = scene.step_times();
    let checksum = scene.water().heights()?.iter().map(|&v| f64::from(v)).sum();
    let per_step = |d: Duration| d.as_secs_f64() * 1e3 / bench.steps as f64;
    Ok(OceanBenchReport {
        bench: "ocean".into(),
        backend: bench.backend.to_string(),
        size: bench.size,
        cascades: bench.cascades,
        model: "dispersive".into(),
        bodies: bench.bodies,
        // `--speed -0` is the grid at rest, written 0 (adding zero turns -0 into +0).
        speed: (bench.speed + 0.0) as f32,
        steps: bench.steps,
        warmup_steps: bench.warmup,
        threads: bench.threads,
        ms_per_step: seconds * 1e3 / bench.steps as f64,
        sea_ms_per_step: per_step(sea),
        water_ms_per_step: times.ms_per_step(times.water),
        cascades_ms_per_step: times.ms_per_step(times.cascades),
        foam_ms_per_step: times.ms_per_step(times.foam),
        bodies_ms_per_step: times.ms_per_step(times.bodies),
        masks_ms_per_step: times.ms_per_step(times.masks),
        checksum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> OceanBench {
        OceanBench {
            size: 64,
            cascades: 2,
            bodies: 2,
            speed: 5.0,
            foam: true,
            steps: 3,
            warmup: 1,
            threads: 1,
            backend: Backend::Cpu,
        }
    }

    #[test]
    fn each_limit_is_refused_with_its_name_and_range() {
        let cases = [
            (
                OceanBench {
                    size: 32,
                    ..request()
                },
                "--size 32 is out of range: expected 64 to 4096",
            ),
            (
                OceanBench {
                    cascades: 0,
                    ..request()
                },
                "--cascades 0 is out of range: expected 1 to 8",
            ),
            (
                OceanBench {
                    speed: -1.0,
                    ..request()
                },
                "--speed -1 is out of range: expected 0.001 to 100 m/s, or 0 (the grid stays)",
            ),
            (
                OceanBench {
                    backend: Backend::GpuFragment,
                    ..request()
                },
                "--backend gpu-fragment: the open sea's cascades run on the cpu and gpu backends",
            ),
        ];
        for (bench, message) in cases {
            assert_eq!(bench_ocean(&bench).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn every_part_is_timed_within_the_wall_time() {
        let report = bench_ocean(&request()).unwrap();
        let parts = report.sea_ms_per_step
            + report.water_ms_per_step
            + report.cascades_ms_per_step
            + report.foam_ms_per_step
            + report.bodies_ms_per_step
            + report.masks_ms_per_step;
        for (name, part) in [
            ("sea", report.sea_ms_per_step),
            ("water", report.water_ms_per_step),
            ("cascades", report.cascades_ms_per_step),
            ("foam", report.foam_ms_per_step),
            ("bodies", report.bodies_ms_per_step),
        ] {
            assert!(part > 0.0, "{name}: {report:?}");
        }
        assert!(parts <= report.ms_per_step * 1.000_001, "{report:?}");
        assert!(report.checksum.is_finite());
    }

    /// `--speed -0` is the grid at rest, and its report says 0, not -0.
    #[test]
    fn a_speed_of_minus_zero_is_reported_as_zero() {
        let report = bench_ocean(&OceanBench {
            speed: -0.0,
            ..request()
        })
        .unwrap();
        assert!(
            report.speed == 0.0 && report.speed.is_sign_positive(),
            "{report:?}"
        );
    }
}
