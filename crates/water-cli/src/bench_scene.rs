//! `water bench scene`: a game's frame of floating crates, timed. `N x N` cells of water with
//! `B` boxes coupled both ways ([`water_scene::benchmark::crate_field`]), some warm-up steps,
//! then `S` steps timed one by one on a pool of `T` threads; one JSON line.

use std::time::Instant;

use serde::Serialize;
use water_buoyancy::FloatingBody;
use water_gpu::{DeviceTraffic, GpuContext};
use water_scene::benchmark::{bench_pool, crate_field, BenchSetupError};
use water_scene::Water as _;
use water_scene::{Backend, BodyWater, SceneError};

/// Smallest grid edge, cells: a crate spans 8 x 5 cells, and the lattice needs a margin.
pub const MIN_SIZE: usize = 16;
/// Largest grid edge, cells (64 Mcells of split water, about 1 GiB with its masks).
pub const MAX_SIZE: usize = 8192;
/// Most bodies.
pub const MAX_BODIES: usize = 10_000;
/// Most timed steps.
pub const MAX_STEPS: u64 = 1_000_000;
/// Most threads in the pool.
pub const MAX_THREADS: usize = 256;
/// Warm-up steps before the timed ones, unless set otherwise: page faults, the pool's threads
/// waking, the GPU's pipelines compiling, and the towed crates' first wakes all land here.
pub const DEFAULT_WARMUP: u64 = 10;

/// What `water bench scene` measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneBench {
    /// Grid edge, cells.
    pub size: usize,
    /// Floating boxes.
    pub bodies: usize,
    /// Steps timed.
    pub steps: u64,
    /// Steps run before the timed ones.
    pub warmup: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// Where the water steps.
    pub backend: Backend,
    /// Which step's water the crates read.
    pub body_water: BodyWater,
}

/// One `water bench scene` result, printed as a JSON line.
#[derive(Debug, Clone, Serialize)]
pub struct SceneBenchReport {
    /// `"scene"`.
    pub bench: String,
    /// `"cpu"`, `"gpu"` or `"gpu-fragment"`.
    pub backend: String,
    /// Grid edge, cells.
    pub size: usize,
    /// Floating boxes.
    pub bodies: usize,
    /// Steps timed.
    pub steps: u64,
    /// Steps run before them.
    pub warmup_steps: u64,
    /// Threads in the pool (the bodies move on it; so does the CPU water).
    pub threads: usize,
    /// Which step's water the crates read: `current` or `one-step-late`.
    pub body_water: String,
    /// Wall time of the timed steps, seconds.
    pub seconds: f64,
    /// Wall time per step, ms.
    pub ms_per_step: f64,
    /// Of that, the bodies moving on the current water (with the heights view they read), ms.
    pub bodies_ms_per_step: f64,
    /// Of that, the hulls drawn into the contact masks, ms.
    pub masks_ms_per_step: f64,
    /// Of that, the water stepping with the contacts, ms.
    pub water_ms_per_step: f64,
    /// Bytes copied from the device to the host per timed step, all causes (0 on the CPU): on
    /// a GPU backend the crates' patches of water, 4 bytes a cell.
    pub readback_bytes_per_step: f64,
    /// Blocking waits on the device per timed step (0 on the CPU).
    pub device_waits_per_step: f64,
    /// Substeps a body takes per step (the most of any body at the end).
    pub substeps: u32,
    /// Surface triangles of one crate's hull: what buoyancy integrates over.
    pub hull_triangles: usize,
    /// The GPU adapter, for GPU backends.
    pub adapter: Option<String>,
    /// True when the adapter is a software rasteriser (e.g. lavapipe): its figures say nothing
    /// about GPU performance.
    pub software_renderer: bool,
    /// Sum of the final heights, to check runs compute the same thing.
    pub checksum: f64,
}

/// Errors of `water bench scene`.
#[derive(Debug, thiserror::Error)]
pub enum SceneBenchError {
    /// A request outside the command's limits.
    #[error("--{name} {value} is out of range: expected {min} to {max}")]
    OutOfRange {
        /// The option.
        name: &'static str,
        /// What was asked for.
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// The setup failed.
    #[error(transparent)]
    Setup(#[from] BenchSetupError),
    /// A step failed.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// No GPU for a GPU backend.
    #[error(transparent)]
    Gpu(#[from] water_gpu::GpuError),
    /// Options that do not go together, or a value out of range that is not a count.
    #[error("{0}")]
    Options(String),
}

impl SceneBench {
    /// Refuses a request outside the limits, naming the option, its value and the range.
    ///
    /// # Errors
    /// [`SceneBenchError::OutOfRange`].
    pub fn validate(&self) -> Result<(), SceneBenchError> {
        let checks = [
            ("size", self.size as u64, MIN_SIZE as u64, MAX_SIZE as u64),
            ("bodies", self.bodies as u64, 0, MAX_BODIES as u64),
            ("steps", self.steps, 1, MAX_STEPS),
            ("warmup", self.warmup, 0, MAX_STEPS),
            ("threads", self.threads as u64, 1, MAX_THREADS as u64),
        ];
        check_ranges(&checks)
    }
}

/// [`SceneBenchError::OutOfRange`] for the first `(option, value, min, max)` whose value lies
/// outside `min..=max`.
///
/// # Errors
/// That option, its value and its range.
pub fn check_ranges(checks: &[(&'static str, u64, u64, u64)]) -> Result<(), SceneBenchError> {
    for &(name, value, min, max) in checks {
        if !(min..=max).contains(&value) {
            return Err(SceneBenchError::OutOfRange {
                name,
                value,
                min,
                max,
            });
        }
    }
    Ok(())
}

/// Sets up the crate field, runs the warm-up and times the steps, all on a pool of
/// `bench.threads` threads.
///
/// # Errors
/// [`SceneBenchError`] for a request out of range, no GPU for a GPU backend, or a failed step.
pub fn bench_scene(bench: &SceneBench) -> Result<SceneBenchReport, SceneBenchError> {
    bench.validate()?;
    let gpu = crate::run::gpu_for(bench.backend)?;
    let pool = bench_pool(bench.threads)?;
    let (mut scene, seconds, traffic) = pool.install(|| -> Result<_, SceneBenchError> {
        let mut scene = crate_field(bench.size, bench.bodies, bench.backend, gpu.as_ref())?;
        scene.set_body_water(bench.body_water);
        scene.step_many(bench.warmup)?;
        scene.reset_step_times();
        let start = Instant::now();
        // Counted on this thread, where the scene reads back and waits.
        let before = DeviceTraffic::on_this_thread();
        // One call a step, as a game's frame loop makes them (a scene without bodies would
        // otherwise fuse the steps into one multi-step run).
        for _ in 0..bench.steps {
            scene.step()?;
        }
        let traffic = DeviceTraffic::on_this_thread().since(before);
        if bench.backend.gpu().is_some() {
            // The GPU's last step is only submitted: reading the heights back waits for it
            // (timed, but not counted as the steps' traffic).
            scene.water().heights()?;
        }
        Ok((scene, start.elapsed().as_secs_f64(), traffic))
    })?;
    let times = scene.step_times();
    let bodies: Vec<&FloatingBody> = scene
        .body_ids()
        .map(|id| scene.floating_body(id))
        .collect::<Result<_, _>>()?;
    let gravity = scene.settings().gravity;
    let dt = scene.spec().params.dt() as f32;
    let substeps = bodies
        .iter()
        .map(|b| b.substeps(dt, &gravity))
        .collect::<Result<Vec<u32>, _>>()
        .map_err(|source| SceneError::BodySetup {
            name: "(substeps)".into(),
            source,
        })?
        .into_iter()
        .max()
        .unwrap_or(0);
    let hull_triangles = bodies.first().map_or(0, |b| {
        b.hulls.iter().map(|h| h.surface().triangles.len()).sum()
    });
    let checksum = scene
        .water_mut()
        .heights()?
        .iter()
        .map(|&v| f64::from(v))
        .sum();
    Ok(SceneBenchReport {
        bench: "scene".into(),
        backend: bench.backend.to_string(),
        size: bench.size,
        bodies: bench.bodies,
        steps: bench.steps,
        warmup_steps: bench.warmup,
        threads: bench.threads,
        body_water: bench.body_water.to_string(),
        seconds,
        ms_per_step: seconds * 1e3 / bench.steps as f64,
        bodies_ms_per_step: times.ms_per_step(times.bodies),
        masks_ms_per_step: times.ms_per_step(times.masks),
        water_ms_per_step: times.ms_per_step(times.water),
        readback_bytes_per_step: traffic.bytes_read_back as f64 / bench.steps as f64,
        device_waits_per_step: traffic.blocking_waits as f64 / bench.steps as f64,
        substeps,
        hull_triangles,
        adapter: gpu.as_ref().map(GpuContext::describe),
        software_renderer: gpu
            .as_ref()
            .is_some_and(|g| g.adapter.get_info().device_type == wgpu::DeviceType::Cpu),
        checksum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> SceneBench {
        SceneBench {
            size: 64,
            bodies: 4,
            steps: 3,
            warmup: 1,
            threads: 1,
            backend: Backend::Cpu,
            body_water: BodyWater::Current,
        }
    }

    #[test]
    fn each_limit_is_refused_with_its_name_and_range() {
        let cases = [
            (
                SceneBench {
                    size: 8,
                    ..request()
                },
                "--size 8 is out of range: expected 16 to 8192",
            ),
            (
                SceneBench {
                    bodies: MAX_BODIES + 1,
                    ..request()
                },
                "--bodies 10001 is out of range: expected 0 to 10000",
            ),
            (
                SceneBench {
                    steps: 0,
                    ..request()
                },
                "--steps 0 is out of range: expected 1 to 1000000",
            ),
            (
                SceneBench {
                    threads: 0,
                    ..request()
                },
                "--threads 0 is out of range: expected 1 to 256",
            ),
        ];
        for (bench, message) in cases {
            let err = bench_scene(&bench).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
    }

    #[test]
    fn the_phases_add_up_to_no_more_than_the_wall_time() {
        let report = bench_scene(&request()).unwrap();
        let phases =
            report.bodies_ms_per_step + report.masks_ms_per_step + report.water_ms_per_step;
        assert!(phases > 0.0, "{report:?}");
        assert!(phases <= report.ms_per_step * 1.000_001, "{report:?}");
        assert_eq!(report.substeps, 1, "a 60 Hz step needs no substeps");
        assert!(report.checksum.is_finite());
        assert_eq!(
            report.readback_bytes_per_step, 0.0,
            "the CPU reads nothing back"
        );
        assert_eq!(report.device_waits_per_step, 0.0);
    }
}
