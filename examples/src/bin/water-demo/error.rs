//! Why the demo stopped, in one line.

use std::fmt;
use std::path::PathBuf;

use water_buoyancy::BuoyancyError;
use water_core::WaterError;
use water_gpu::GpuError;
use water_scene::SceneError;
use water_sphere::SphereError;

/// Everything that can stop the demo.
#[derive(Debug)]
pub enum DemoError {
    /// No window could be opened (no display, or the windowing system refused).
    Window(String),
    /// A windowed check run drew its frames, but none reached the window.
    NothingPresented {
        /// Frames drawn.
        frames: u32,
    },
    /// No graphics adapter can draw into the window.
    NoAdapter(String),
    /// The adapter refused the device.
    Device(String),
    /// The GPU backends or renderers.
    Gpu(GpuError),
    /// Grid parameters (never for the demo's own constants).
    Water(WaterError),
    /// Sphere parameters (never for the demo's own constants).
    Sphere(SphereError),
    /// Building a crate (never for the demo's own constants).
    Buoyancy(BuoyancyError),
    /// The pool and its crates stepped together: a crate whose forces stopped being finite, a
    /// failed readback.
    Scene(SceneError),
    /// The screenshot could not be written.
    Screenshot {
        /// Where it was going.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The last frame came out blank: the check mode's failure.
    Blank {
        /// Where the blank picture was written.
        path: PathBuf,
        /// What made it count as blank.
        reason: String,
    },
}

impl fmt::Display for DemoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DemoError::Window(e) => write!(
                f,
                "cannot open a window ({e}); without a display run under \
                 xvfb-run -a -s \"-screen 0 1280x720x24\", or check with --frames N --headless"
            ),
            DemoError::NothingPresented { frames } => write!(
                f,
                "none of the {frames} frames could be presented to the window"
            ),
            DemoError::NoAdapter(e) => {
                write!(f, "no graphics adapter can draw into the window: {e}")
            }
            DemoError::Device(e) => write!(f, "the graphics adapter refused a device: {e}"),
            DemoError::Gpu(e) => write!(f, "GPU: {e}"),
            DemoError::Water(e) => write!(f, "water: {e}"),
            DemoError::Sphere(e) => write!(f, "sphere water: {e}"),
            DemoError::Buoyancy(e) => write!(f, "crate: {e}"),
            DemoError::Scene(e) => write!(f, "pool: {e}"),
            DemoError::Screenshot { path, source } => {
                write!(f, "writing the screenshot {}: {source}", path.display())
            }
            DemoError::Blank { path, reason } => {
                write!(
                    f,
                    "the last frame is blank ({reason}); see {}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for DemoError {}

impl From<GpuError> for DemoError {
    fn from(e: GpuError) -> Self {
        DemoError::Gpu(e)
    }
}

impl From<WaterError> for DemoError {
    fn from(e: WaterError) -> Self {
        DemoError::Water(e)
    }
}

impl From<SphereError> for DemoError {
    fn from(e: SphereError) -> Self {
        DemoError::Sphere(e)
    }
}

impl From<SceneError> for DemoError {
    fn from(e: SceneError) -> Self {
        DemoError::Scene(e)
    }
}

impl From<BuoyancyError> for DemoError {
    fn from(e: BuoyancyError) -> Self {
        DemoError::Buoyancy(e)
    }
}
