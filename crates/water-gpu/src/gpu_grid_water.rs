//! [`GpuGridWater`]: what grid water does on either GPU backend ([`crate::ComputeGrid`],
//! [`crate::FragmentGrid`], and [`crate::GpuGrid`] holding either), as
//! [`water_core::GridWater`] is for the CPU grids.
//!
//! Both grids implement it once, in `grid_core.rs`, over their level stores (each store records
//! its own passes and readbacks); what only submits a recording, and the normal-and-height
//! texture's filterable copy and readbacks, are written once here.

use water_core::{ContactMasks, Depth, Impulse, LandMask};

use crate::error::GpuError;
use crate::normal_height::NormalHeightTexture;
use crate::readback::PendingReadback;
use crate::recording::submit_recorded;
use crate::spec::GridSpec;

/// What the backends give the shared methods: their device and the normal-and-height texture.
/// Outside this crate it can be neither named nor implemented.
pub(crate) mod sealed {
    use crate::normal_height::NormalHeightTexture;

    pub trait GridTargets {
        /// The device the grid lives on.
        fn device(&self) -> &wgpu::Device;
        /// Its queue.
        fn queue(&self) -> &wgpu::Queue;
        /// The normal-and-height texture, made by the first update.
        fn normal_height(&mut self) -> Option<&mut NormalHeightTexture>;
        /// The same, read only.
        fn normal_height_ref(&self) -> Option<&NormalHeightTexture>;
    }
}

/// Grid water on a GPU backend, on the caller's `Device`/`Queue`.
///
/// Methods say whether they **record only** into the caller's encoder (the `encode_*` ones:
/// nothing runs until the caller submits), **submit** one command buffer of their own, or
/// **submit and wait** (readbacks). Bring the trait into scope to call them:
/// `use water_gpu::GpuGridWater;`.
///
/// ```no_run
/// use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
/// use water_gpu::{ComputeGrid, GpuContext, GpuGridWater, GridSpec};
/// let context = GpuContext::headless()?;
/// let params = WaveParams::new(0.1, 2.0, 0.02, Damping::NONE)?;
/// let spec = GridSpec::new(GridSize::new(64, 64)?, params, Boundary::Reflective, GridMode::Signed);
/// let mut water = ComputeGrid::new(&context.device, &context.queue, spec)?;
/// let mut encoder = context.device.create_command_encoder(&Default::default());
/// water.encode_step_many(&mut encoder, 10);
/// let view = water.encode_update_normal_height(&mut encoder)?; // bind it in your passes
/// # let _ = view;
/// context.queue.submit([encoder.finish()]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait GpuGridWater: sealed::GridTargets {
    /// What the grid simulates.
    fn spec(&self) -> &GridSpec;

    /// Steps taken so far (recorded ones included).
    fn steps_taken(&self) -> u64;

    /// The land currently set.
    fn land(&self) -> &LandMask;

    /// Replaces the land: cells where `land` is true hold no water from now on (both levels are
    /// zeroed there, a round trip through the host: meant for setting up a scene, not for
    /// every frame). **Submits and waits**; submit any encoder holding this grid's recorded
    /// operations first.
    ///
    /// # Errors
    /// A mask of another size; readback failures.
    fn set_land(&mut self, land: LandMask) -> Result<(), GpuError>;

    /// Sets the still-water depth of every cell, as the CPU grids' `set_depth`
    /// ([`water_core::SignedGrid::set_depth`]): each cell's waves travel at
    /// `c_deepest sqrt(d / d_max)`, cells at or below 0 m are land, and steps use the
    /// variable-coefficient stencil (`shaders/shared/depth_cell.wgsl`, never fused). **Submits
    /// and waits** (the dry cells are zeroed in both levels, as [`GpuGridWater::set_land`]).
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] in classic mode; [`GpuError::StorageNotOffered`] with f16
    /// storage; a depth of another grid size; readback failures.
    fn set_depth(&mut self, depth: &Depth) -> Result<(), GpuError>;

    /// Records moving the window by whole cells into the caller's encoder, as
    /// [`water_core::GridWater::shift_window`] moves a CPU grid: new cell `(x, y)` takes old
    /// cell `(x + dx, y + dy)` in both levels, cells that come in are still water, the land
    /// moves with the water (a varying depth's dry cells with it, its wave speeds staying put,
    /// as on the CPU: set the depth of the new place after a shift), and a fixed rim stays 0. A shift of a whole side or more leaves still water. **Records only**; in
    /// recording order with the steps around it. With [`water_core::FollowingWindow`] it keeps a
    /// focus in the grid's centre cell.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the shift's kernel cannot be built on this device.
    fn encode_shift_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        dx: isize,
        dy: isize,
    ) -> Result<(), GpuError>;

    /// [`GpuGridWater::encode_shift_window`] in a command buffer of its own. **Submits.**
    ///
    /// # Errors
    /// As [`GpuGridWater::encode_shift_window`]; [`GpuError::DeviceLost`] when the device no
    /// longer accepts work.
    fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water window shift", |encoder| {
            self.encode_shift_window(encoder, dx, dy)
        })
    }

    /// Records an impulse into the caller's encoder: added to the current heights (and, for a
    /// displacement, to the previous level too: [`Impulse::displacement`]), with the per-cell
    /// amounts the CPU grids add ([`Impulse::for_each_cell`]). **Records only**; impulses and
    /// steps recorded into one encoder apply in recording order, each once (the compute grid's
    /// amounts travel in buffers made for this impulse alone; the fragment grid's delta
    /// rectangle is written and cleared by copies recorded around its passes).
    ///
    /// # Errors
    /// None today for a live device; the `Result` keeps the `encode_` methods alike.
    fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError>;

    /// Records one step with bow and stern events from `contacts`: copies of both masks and of
    /// the amplitude, then the step. **Records only**; the copies are ordered with the rest of
    /// the encoder, so several contact steps recorded into one encoder each use their own
    /// masks. With [`water_core::ContactSource::Displacement`]: a plain step, then the masks'
    /// displacement added to both levels.
    ///
    /// # Errors
    /// [`water_core::WaterError::SizeMismatch`] (as [`GpuError::Invalid`]) if the masks belong
    /// to a grid of another size, [`water_core::WaterError::ContactSourceNotOffered`] for a
    /// displacement outside signed mode, [`GpuError::StorageNotOffered`] for a displacement
    /// with the compute grid's f16 storage; nothing is recorded then.
    fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError>;

    /// Records `steps` steps into the caller's encoder. **Records only**; the grid's
    /// bookkeeping (which level is current, [`GpuGridWater::steps_taken`]) advances now, for
    /// the operations recorded after. The compute grid records one compute pass (fused
    /// dispatches of several steps where the kernel applies); the fragment grid one render
    /// pass a step.
    ///
    /// On water that conserves volume (reflective or periodic, undamped, no land) the
    /// mean-level keeper runs here too without waiting: what it measures comes back after the
    /// caller submits the encoder, and a later `encode_step_many` records the correction,
    /// carried forward to its own step count (`docs/math.md`, section 9; the compute grid sums
    /// on the device, `keeper/device_sums.rs`; the fragment grid reads both levels back and
    /// plans on the host, `keeper/host.rs`). Submit each encoder, as a frame loop does, for
    /// the level to be kept; the levels differ from the submitting path's by the corrections'
    /// own rounding.
    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64);

    /// Sets both levels of a signed or split grid (split: `p` for all cells, then `n`,
    /// `2 * cells` values each). Equal levels start the water at rest in that shape. With the
    /// compute grid's f16 storage the values are rounded to nearest f16 (ties to even) on the
    /// host. **Queues a write** that lands at the next submission, ahead of every command
    /// buffer in it, so call it between frames, not while a recorded frame waits to be
    /// submitted.
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] in classic mode; [`GpuError::OutsideF16`] with f16 storage for a
    /// value that is not finite or beyond ±[`crate::storage::F16_MAX`]; a wrong length.
    fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError>;

    /// Sets both levels of a classic grid. **Queues a write.**
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] outside classic mode; a wrong length.
    fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError>;

    /// The current heights in metres, row-major (split: `p - n`; classic: the integer heights
    /// as f32). **Submits and waits** (submit any encoder holding this grid's recorded
    /// operations first).
    ///
    /// # Errors
    /// Readback failures.
    fn heights(&self) -> Result<Vec<f32>, GpuError>;

    /// The current level as stored: split grids give both channels, `p` for all cells then `n`
    /// (`2 * cells` values); f16 storage is widened exactly. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] in classic mode; readback failures.
    fn channels(&self) -> Result<Vec<f32>, GpuError>;

    /// The current classic heights. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] outside classic mode; readback failures.
    fn classic_heights(&self) -> Result<Vec<i16>, GpuError>;

    /// Records the update of the normal-and-height texture
    /// ([`crate::NORMAL_HEIGHT_FORMAT`], `Rgba32Float`: unit normal in xyz, height in w, per
    /// cell; GPU twin of [`water_core::HeightView::cell_normal`]) and returns its view, to bind
    /// with `textureLoad` or a non-filtering sampler. **Records only**: the pass reads the
    /// level that is current at this point of the recording, so record it after the frame's
    /// steps.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused (on first use).
    fn encode_update_normal_height(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError>;

    /// Runs `steps` steps. **Submits** one command buffer (what
    /// [`GpuGridWater::encode_step_many`] records); does not wait for it.
    ///
    /// On a grid that conserves volume (reflective or periodic, undamped, no land, signed or
    /// split) the run is cut where mean-level corrections fall, every
    /// [`water_core::kernels::mean_level::mean_level_period`] steps of the step count, as on the
    /// CPU ([`water_core::kernels::mean_level::f16_mean_level_period`] with f16 storage): each
    /// cut submits the steps so far, then the keeper's measurement, **waits** for it, and
    /// submits the correction (the compute grid's sums on the device, `shaders/mean_level.wgsl`;
    /// the fragment grid's both levels back to the host's keeper and written back).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water steps", |encoder| {
            self.encode_step_many(encoder, steps);
            Ok(())
        })
    }

    /// Runs `steps` steps as a frame loop does: **submits** one command buffer of what
    /// [`GpuGridWater::encode_step_many`] records and never waits, also on water whose mean
    /// level the keeper holds (its sums come back asynchronously and the correction lands in
    /// a later frame, where [`GpuGridWater::step_many`] cuts the run at each correction and
    /// waits for what the keeper measures, to match the CPU's schedule step for step).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn step_frame(&mut self, steps: u64) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water frame", |encoder| {
            self.encode_step_many(encoder, steps);
            Ok(())
        })
    }

    /// One step. **Submits** one command buffer.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn step(&mut self) -> Result<(), GpuError> {
        self.step_many(1)
    }

    /// One step with bow and stern events from `contacts`. **Submits** one command buffer
    /// (what [`GpuGridWater::encode_step_with_contacts`] records).
    ///
    /// # Errors
    /// As [`GpuGridWater::encode_step_with_contacts`]; [`GpuError::DeviceLost`].
    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water contact step", |encoder| {
            self.encode_step_with_contacts(encoder, contacts)
        })
    }

    /// Adds an impulse. **Submits** one command buffer (what
    /// [`GpuGridWater::encode_add_impulse`] records).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water impulse", |encoder| {
            self.encode_add_impulse(encoder, impulse)
        })
    }

    /// Updates the normal-and-height texture and returns its view. **Submits** one command
    /// buffer (what [`GpuGridWater::encode_update_normal_height`] records).
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused, [`GpuError::DeviceLost`].
    fn update_normal_height(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water normal and height", |encoder| {
            self.encode_update_normal_height(encoder).map(drop)
        })?;
        Ok(&made(self.normal_height()).view)
    }

    /// Records [`GpuGridWater::update_filterable_normal_height`]: the texture's update, then
    /// its copy into the `Rgba16Float` texture, whose view it returns. **Records only.**
    ///
    /// # Errors
    /// As [`GpuGridWater::encode_update_normal_height`].
    fn encode_update_filterable_normal_height(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        self.encode_update_normal_height(encoder)?;
        let device = self.device().clone();
        made(self.normal_height()).encode_filterable(&device, encoder)
    }

    /// Updates the normal-and-height texture and its filterable copy
    /// ([`crate::FILTERABLE_NORMAL_HEIGHT_FORMAT`], `Rgba16Float`: the same texels rounded to
    /// binary16) and returns the copy's view: the one to bind with a linear sampler.
    /// **Submits** one command buffer (what
    /// [`GpuGridWater::encode_update_filterable_normal_height`] records).
    ///
    /// # Errors
    /// As [`GpuGridWater::update_normal_height`].
    fn update_filterable_normal_height(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submit_recorded(&device, &queue, "water normal and height", |encoder| {
            self.encode_update_filterable_normal_height(encoder)
                .map(drop)
        })?;
        match made(self.normal_height()).filterable_view() {
            Some(view) => Ok(view),
            None => unreachable!("encode_update_filterable_normal_height made it"),
        }
    }

    /// The `Rgba32Float` normal-and-height texture as the last recorded update left it (for
    /// copies in the caller's own commands); `None` before the first update.
    fn normal_height_texture(&self) -> Option<&wgpu::Texture> {
        self.normal_height_ref().map(|made| &made.texture)
    }

    /// The `Rgba16Float` filterable copy; `None` before the first
    /// [`GpuGridWater::update_filterable_normal_height`] or its `encode_` twin.
    fn filterable_normal_height_texture(&self) -> Option<&wgpu::Texture> {
        self.normal_height_ref()
            .and_then(NormalHeightTexture::filterable_texture)
    }

    /// Updates the normal-and-height texture and reads it back: `[nx, ny, nz, height]` per
    /// cell, row-major. **Submits and waits.**
    ///
    /// # Errors
    /// As [`GpuGridWater::update_normal_height`], and readback failures.
    fn read_normal_height(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        self.update_normal_height()?;
        let (device, queue) = (self.device().clone(), self.queue().clone());
        made(self.normal_height()).read(&device, &queue)
    }

    /// Updates the normal-and-height texture and starts reading it back without waiting: poll
    /// the device (`device.poll(wgpu::PollType::Poll)` once a frame) until
    /// [`PendingReadback::try_take`] gives the bytes, `[nx, ny, nz, height]` as four
    /// little-endian f32 per cell, row-major (what [`GpuGridWater::read_normal_height`] gives,
    /// as bytes). **Submits** the update and the copy; waits for nothing.
    ///
    /// # Errors
    /// As [`GpuGridWater::update_normal_height`]; [`GpuError::DeviceLost`] if the copy is
    /// refused.
    fn read_normal_height_async(&mut self) -> Result<PendingReadback, GpuError> {
        self.update_normal_height()?;
        let (device, queue) = (self.device().clone(), self.queue().clone());
        made(self.normal_height()).start_read(&device, &queue)
    }

    /// Updates the texture and its filterable copy and reads the copy back, widened exactly to
    /// f32: `[nx, ny, nz, height]` per cell, each the f32 texture's value in binary16.
    /// **Submits and waits.**
    ///
    /// # Errors
    /// As [`GpuGridWater::update_normal_height`], and readback failures.
    fn read_filterable_normal_height(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        self.update_filterable_normal_height()?;
        let (device, queue) = (self.device().clone(), self.queue().clone());
        match made(self.normal_height()).read_filterable(&device, &queue)? {
            Some(texels) => Ok(texels),
            None => unreachable!("update_filterable_normal_height made it"),
        }
    }
}

/// The texture an update has made: only asked for after one.
fn made(texture: Option<&mut NormalHeightTexture>) -> &mut NormalHeightTexture {
    match texture {
        Some(made) => made,
        None => unreachable!("only asked for after an update made it"),
    }
}
