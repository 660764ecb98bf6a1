//! [`GpuSphereWater`]: what sphere water does on either GPU backend
//! ([`crate::SphereComputeWater`], [`crate::SphereFragmentWater`], and [`crate::GpuSphere`]
//! holding either), as [`crate::GpuGridWater`] is for grids.

use water_sphere::SphereImpulse;

use crate::device_calls::submitted;
use crate::error::GpuError;
use crate::readback::{f32s, PendingReadback};

/// The device a sphere backend lives on. Outside this crate it can be neither named nor
/// implemented.
pub(crate) mod sealed {
    use water_sphere::SphereImpulse;

    use crate::error::GpuError;

    pub trait OnDevice {
        /// The device.
        fn device(&self) -> &wgpu::Device;
        /// Its queue.
        fn queue(&self) -> &wgpu::Queue;
    }

    /// How a backend adds per-vertex heights to its current level: the work behind
    /// [`super::GpuSphereWater::encode_add_impulse`] and
    /// [`super::GpuSphereWater::encode_add_heights`], not callable outside this crate.
    pub trait AddedHeights {
        /// Vertices of the mesh.
        fn vertex_count(&self) -> usize;
        /// A click's heights per vertex, as `water_sphere::SphereWater::add_impulse` adds them
        /// (its mesh and the weights its stepper conserves).
        fn impulse_heights(&self, impulse: &SphereImpulse) -> Vec<f32>;
        /// Drops the mean-level keeper's reference and any levels recorded for it, as
        /// `SphereWater::heights_mut` does: the keeper anchors anew before the next step.
        fn forget_level_reference(&mut self);
        /// Records `heights` (checked: one finite value a vertex) added to the current level.
        fn record_added_heights(
            &mut self,
            encoder: &mut wgpu::CommandEncoder,
            heights: &[f32],
        ) -> Result<(), GpuError>;
    }
}

/// Sphere water on a GPU backend, on the caller's `Device`/`Queue`. Bring the trait into scope
/// to call its methods: `use water_gpu::GpuSphereWater;`.
pub trait GpuSphereWater: sealed::OnDevice + sealed::AddedHeights {
    /// Steps taken on the GPU (recorded ones included).
    fn steps_taken(&self) -> u64;

    /// Records `steps` steps into the caller's encoder. **Records only**; which level is
    /// current advances now, for the operations recorded after. On undamped water the
    /// mean-level keeper runs here too without waiting (see
    /// [`crate::GpuGridWater::encode_step_many`]).
    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64);

    /// Records an impulse (a click) into the caller's encoder, its heights computed on the
    /// host exactly as [`water_sphere::SphereWater::add_impulse`] computes them. **Records
    /// only**: the amounts travel in buffers made for this click alone (and, on the fragment
    /// backend, through copies recorded around its pass), so clicks and steps recorded into one
    /// encoder apply in recording order, each once.
    ///
    /// # Errors
    /// None today for a live device; the `Result` keeps the `encode_` methods alike.
    fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &SphereImpulse,
    ) -> Result<(), GpuError> {
        let heights = self.impulse_heights(impulse);
        self.record_added_heights(encoder, &heights)
    }

    /// Records `heights` (one per vertex, in the mesh's order, m) added to the current
    /// heights, as the CPU's [`water_sphere::SphereWater::heights_mut`] would have them
    /// changed: a caller's edit, or the bow and stern events of floating bodies
    /// ([`water_core::apply_signed_events`] on zeros). Each vertex's sum is the one f32
    /// addition the CPU makes, and as on the CPU the mean-level keeper of undamped water takes
    /// the change as the caller's, not as drift to undo: it anchors anew before the next step
    /// (which then reads both levels back and waits). **Records only**, like
    /// [`GpuSphereWater::encode_add_impulse`].
    ///
    /// # Errors
    /// [`GpuError::HeightsLengthMismatch`] when `heights` has another length than the mesh's
    /// vertex count, [`GpuError::NotFiniteHeight`] naming the first vertex whose value is NaN
    /// or infinite (nothing recorded either way).
    fn encode_add_heights(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError> {
        let expected = self.vertex_count();
        if heights.len() != expected {
            return Err(GpuError::HeightsLengthMismatch {
                expected,
                actual: heights.len(),
            });
        }
        if let Some((vertex, &value)) = heights.iter().enumerate().find(|(_, h)| !h.is_finite()) {
            return Err(GpuError::NotFiniteHeight { vertex, value });
        }
        self.forget_level_reference();
        self.record_added_heights(encoder, heights)
    }

    /// Adds an impulse (a click). **Submits** one command buffer (what
    /// [`GpuSphereWater::encode_add_impulse`] records).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    fn add_impulse(&mut self, impulse: &SphereImpulse) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        crate::recording::submit_recorded(&device, &queue, "sphere click", |encoder| {
            self.encode_add_impulse(encoder, impulse)
        })
    }

    /// Adds per-vertex heights to the current heights. **Submits** one command buffer (what
    /// [`GpuSphereWater::encode_add_heights`] records).
    ///
    /// # Errors
    /// As [`GpuSphereWater::encode_add_heights`]; [`GpuError::DeviceLost`].
    fn add_heights(&mut self, heights: &[f32]) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        crate::recording::submit_recorded(&device, &queue, "sphere heights", |encoder| {
            self.encode_add_heights(encoder, heights)
        })
    }

    /// Starts reading the current heights back: 4 bytes per vertex (little-endian f32, the
    /// mesh's vertex order). Poll the device and take the bytes from the returned
    /// [`PendingReadback`] when they arrive.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn read_heights_async(&self) -> Result<PendingReadback, GpuError>;

    /// `steps` steps. **Submits** (what [`GpuSphereWater::encode_step_many`] records). On
    /// undamped water the run is cut where mean-level corrections fall, as on the CPU, and each
    /// cut **waits** for both levels to come back, corrects them on the host
    /// ([`water_sphere::keep_weighted_level`]) and writes them back.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        let (device, queue) = (self.device().clone(), self.queue().clone());
        submitted(&device, || {
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sphere water steps"),
            });
            self.encode_step_many(&mut encoder, steps);
            queue.submit([encoder.finish()]);
        })
    }

    /// The current heights (blocking readback), one per vertex in the mesh's order. **Submits
    /// and waits.**
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    fn heights(&self) -> Result<Vec<f32>, GpuError> {
        Ok(f32s(&self.read_heights_async()?.wait()?))
    }
}
