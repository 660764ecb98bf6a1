//! Why the demo stopped, in one line.

use std::path::PathBuf;

use water_buoyancy::BuoyancyError;
use water_core::WaterError;
use water_gpu::GpuError;
use water_scene::SceneError;
use water_sphere::SphereError;

/// Everything that can stop the demo.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    /// No window could be opened (no display, or the windowing system refused).
    #[error(
        "cannot open a window ({0}); without a display run under \
         xvfb-run -a -s \"-screen 0 1280x720x24\", or check with --frames N --headless"
    )]
    Window(String),
    /// A windowed check run drew its frames, but none reached the window.
    #[error("none of the {frames} frames could be presented to the window")]
    NothingPresented {
        /// Frames drawn.
        frames: u32,
    },
    /// No graphics adapter can draw into the window.
    #[error("no graphics adapter can draw into the window: {0}")]
    NoAdapter(String),
    /// The adapter refused the device.
    #[error("the graphics adapter refused a device: {0}")]
    Device(String),
    /// The GPU backends or renderers.
    #[error("GPU: {0}")]
    Gpu(#[from] GpuError),
    /// Grid parameters (never for the demo's own constants).
    #[error("water: {0}")]
    Water(#[from] WaterError),
    /// Sphere parameters (never for the demo's own constants).
    #[error("sphere water: {0}")]
    Sphere(#[from] SphereError),
    /// Building a crate (never for the demo's own constants).
    #[error("crate: {0}")]
    Buoyancy(#[from] BuoyancyError),
    /// The pool and its crates stepped together: a crate whose forces stopped being finite, a
    /// failed readback.
    #[error("pool: {0}")]
    Scene(#[from] SceneError),
    /// The screenshot could not be written.
    #[error("writing the screenshot {}: {source}", path.display())]
    Screenshot {
        /// Where it was going.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The last frame came out blank: the check mode's failure.
    #[error("the last frame is blank ({reason}); see {}", path.display())]
    Blank {
        /// Where the blank picture was written.
        path: PathBuf,
        /// What made it count as blank.
        reason: String,
    },
}
