//! [`Water`]: what the scenes step, one implementation a file: [`CpuGrid`] (the CPU reference
//! on a grid, `water/cpu_grid.rs`), `water_gpu::GpuGrid` (either GPU backend on a grid,
//! `water/gpu_grid.rs`) and [`BackendSphere`] (sphere water on any backend, `water/sphere.rs`).
//! [`WaterGrid`] adds what only grid water does. [`crate::BackendGrid`] is the CPU or the GPU
//! grid behind one type, as a [`crate::Scene`] holds it.
//!
//! Which step's water each answer comes from: every method here answers from the water as it
//! stands when it is called, after every step asked before it (on a GPU backend the calls that
//! read heights wait for the device to finish those steps). One exception: after
//! [`Water::step_frame`] on a GPU grid, the mean-level keeper's correction of undamped water
//! lands with the next frame's steps, so heights read in between are before it. Answers a frame
//! late, without waiting, are the scene's ([`crate::Scene::query_surfaces`],
//! [`crate::BodyWater`]).

use water_core::{ContactMasks, Depth, HeightView, Impulse, LandMask};

use crate::backend::Backend;
use crate::error::SceneError;

mod cpu_grid;
mod gpu_grid;
mod sphere;

pub use cpu_grid::CpuGrid;
pub use sphere::BackendSphere;

/// Water a scene steps: a grid or a sphere, on the CPU or a GPU backend.
///
/// ```
/// use water_scene::glam::Vec2;
/// use water_scene::water_core::{Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaveParams};
/// use water_scene::{Backend, BackendGrid, GridSpec, Water};
///
/// let params = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE)?;
/// let spec = GridSpec::new(GridSize::new(32, 32)?, params, Boundary::Absorbing, GridMode::Signed);
/// let mut water = BackendGrid::new(spec, LandMask::empty(spec.size), Backend::Cpu, None)?;
/// water.add_impulse(&Impulse::new(Vec2::new(16.0, 16.0), 3.0, 0.1, ImpulseShape::Cosine)?)?;
/// water.step_many(10)?;
/// assert_eq!(water.backend(), Backend::Cpu);
/// assert_eq!(water.heights()?.len(), 32 * 32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Water {
    /// A click or drop: [`Impulse`] on a grid (centre in cells), a
    /// [`water_sphere::SphereImpulse`] on a sphere.
    type Impulse: ?Sized;
    /// One step's bow and stern events: [`ContactMasks`] on a grid,
    /// [`water_buoyancy::SphereContacts`] on a sphere.
    type Contacts: ?Sized;

    /// The backend it runs on.
    #[must_use]
    fn backend(&self) -> Backend;

    /// Adds `impulse` to the current heights (a submission on the GPU).
    ///
    /// # Errors
    /// A lost GPU device.
    fn add_impulse(&mut self, impulse: &Self::Impulse) -> Result<(), SceneError>;

    /// `steps` steps without contact events (on the GPU one submission, or, for undamped water
    /// whose mean-level keeper corrects it every so many steps, one for each run between
    /// corrections, each waited for).
    ///
    /// # Errors
    /// A lost GPU device.
    fn step_many(&mut self, steps: u64) -> Result<(), SceneError>;

    /// `steps` steps as a frame loop runs them: where the backend can, one submission that
    /// never waits (on a GPU grid the mean-level keeper's correction lands a frame later,
    /// `water_gpu::GpuGridWater::step_frame`); elsewhere as [`Water::step_many`].
    ///
    /// # Errors
    /// A lost GPU device.
    fn step_frame(&mut self, steps: u64) -> Result<(), SceneError> {
        self.step_many(steps)
    }

    /// One step with the bow and stern events of `contacts` on its new heights (the masks
    /// uploaded on the GPU).
    ///
    /// # Errors
    /// Masks of another size than the water; a lost GPU device.
    fn step_with_contacts(&mut self, contacts: &Self::Contacts) -> Result<(), SceneError>;

    /// The current heights, m: row-major on a grid (classic mode: its integers), a vertex each
    /// on a sphere (a readback on the GPU, which waits for the device).
    ///
    /// # Errors
    /// A failed readback.
    fn heights(&self) -> Result<Vec<f32>, SceneError>;
}

/// What grid water does besides stepping: land, depth, the following window, and its state as
/// views and files.
pub trait WaterGrid: Water<Impulse = Impulse, Contacts = ContactMasks> {
    /// Replaces the land and zeroes its cells (a round trip through the host on the GPU: for
    /// setting up, not for every frame).
    ///
    /// # Errors
    /// A mask of another size; a failed GPU readback.
    fn set_land(&mut self, land: LandMask) -> Result<(), SceneError>;

    /// Sets the still-water depth of every cell (`water_core::SignedGrid::set_depth`; on the
    /// GPU `water_gpu::GpuGridWater::set_depth`, a host round trip for the dry cells).
    ///
    /// # Errors
    /// `WaterError::ClassicTakesNo` in classic mode (a typed GPU error there on the GPU); a
    /// depth of another size; f16 storage on the GPU; a failed readback.
    fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError>;

    /// Moves the window by whole cells: new cell `(x, y)` takes old cell `(x + dx, y + dy)` in
    /// both levels, cells that come in are still water, the land moves with the water
    /// (`water_core::GridWater::shift_window`; on the GPU one submission).
    ///
    /// # Errors
    /// A lost GPU device.
    fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), SceneError>;

    /// The current heights as a sampling view (`cell_size` metres per cell on the CPU; on the
    /// GPU its spec's): lent by signed or dispersive CPU water itself, made in `scratch`
    /// otherwise (`p - n` in split mode, the integers in classic mode, a readback on the GPU,
    /// which waits for the GPU).
    ///
    /// # Errors
    /// A bad `cell_size`; a failed readback.
    fn heights_view<'a>(
        &'a self,
        cell_size: f32,
        scratch: &'a mut Vec<f32>,
    ) -> Result<HeightView<'a>, SceneError>;

    /// The classic grid's i16 heights, for bit-exact comparison (a readback on the GPU).
    ///
    /// # Errors
    /// [`SceneError::Gpu`] with `GpuError::WrongMode` outside classic mode; a failed readback.
    fn classic_heights(&self) -> Result<Vec<i16>, SceneError>;

    /// The discrete energy, where both time levels are on the host (CPU grids); `None` on the
    /// GPU.
    #[must_use]
    fn energy(&self) -> Option<f64>;

    /// The state as files hold it (a readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    fn outputs(&self) -> Result<GridOutputs, SceneError>;
}

/// The state of grid water as files hold it.
#[derive(Debug, Clone, PartialEq)]
pub struct GridOutputs {
    /// Heights, f32, row-major (classic: its integers).
    pub heights: Vec<f32>,
    /// Split mode's channels `(p, n)`.
    pub channels: Option<(Vec<f32>, Vec<f32>)>,
    /// Classic mode's i16 heights.
    pub classic: Option<Vec<i16>>,
}

/// The error for i16 heights asked of grid water in another mode.
fn not_classic(mode: water_core::GridMode) -> SceneError {
    water_gpu::GpuError::WrongMode {
        operation: "classic_heights",
        mode,
        instead: "heights",
    }
    .into()
}
