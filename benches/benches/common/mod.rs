//! The GPU the GPU benches measure, and waiting for it.

use water_gpu::GpuContext;

/// A headless GPU for the bench named `bench`, said on stderr; `None`, with the reason, where
/// there is none and the bench is skipped.
pub fn bench_gpu(bench: &str) -> Option<GpuContext> {
    match GpuContext::headless() {
        Ok(gpu) => {
            eprintln!("{bench} bench on {}", gpu.describe());
            Some(gpu)
        }
        Err(e) => {
            eprintln!("{bench} bench skipped: {e}");
            None
        }
    }
}

/// Blocks until the GPU has finished what was submitted, so a measured time is the work's and
/// not just its recording.
pub fn wait(gpu: &GpuContext) {
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("device answers");
}
