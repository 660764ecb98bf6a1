//! Getting a GPU for a test: a skip with a reason on machines without one, a failure when the
//! run requires one (`WATER_REQUIRE_GPU=1`, set by CI).

use water_gpu::GpuContext;

/// The environment variable that turns a missing adapter into a test failure.
pub const REQUIRE_GPU_VAR: &str = "WATER_REQUIRE_GPU";

/// A headless GPU, or `None` after printing why the test skips.
///
/// # Panics
/// When no adapter is found and `WATER_REQUIRE_GPU=1`.
#[must_use]
pub fn gpu_or_skip(test: &str) -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(gpu) => {
            eprintln!("{test}: running on {}", gpu.describe());
            Some(gpu)
        }
        Err(e) if std::env::var(REQUIRE_GPU_VAR).is_ok_and(|v| v == "1") => {
            panic!("{test}: {REQUIRE_GPU_VAR}=1 but no GPU is available: {e}")
        }
        Err(e) => {
            eprintln!(
                "{test}: skipped, no GPU adapter ({e}); set {REQUIRE_GPU_VAR}=1 to fail instead"
            );
            None
        }
    }
}

/// Records what `frame` encodes into one command encoder of `gpu` and submits it once, as a
/// renderer records its frame.
pub fn submit_once(gpu: &GpuContext, frame: impl FnOnce(&mut wgpu::CommandEncoder)) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    frame(&mut encoder);
    gpu.queue.submit([encoder.finish()]);
}

/// The GPU for a test, or a return from the test (which returns `()`) after [`gpu_or_skip`]
/// has said why it skips: the first line of every GPU test.
///
/// ```no_run
/// # fn a_gpu_test() {
/// let gpu = water_testkit::gpu_or_return!("a_gpu_test");
/// # let _ = gpu;
/// # }
/// ```
#[macro_export]
macro_rules! gpu_or_return {
    ($test:expr) => {
        match $crate::gpu_or_skip($test) {
            Some(gpu) => gpu,
            None => return,
        }
    };
}
