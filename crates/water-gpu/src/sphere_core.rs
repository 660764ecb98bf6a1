//! One GPU sphere water over two level stores: what [`crate::SphereComputeWater`] (levels in
//! buffers) and [`crate::SphereFragmentWater`] (levels in 2-D textures) share, written once,
//! as `grid_core.rs` is for grids.
//!
//! [`SphereCore`] is the state: the device, the mesh and the weights clicks are zero-sum in,
//! the time levels' ring, the step count and the mean-level keeper with what it recorded.
//! [`SphereLevels`] is what a store does its own way (record steps, read and write a level,
//! record both levels' readback, add a uniform amount to both levels, add per-vertex amounts,
//! start the heights' readback), and the functions below are the keeper and the runs built on
//! it once. `GpuSphereWater` and its sealed helpers are one blanket implementation for every
//! `SphereLevels`.

use water_core::kernels::mean_level::MeanLevelKeeper;
use water_sphere::{
    keep_weighted_level, weighted_level_amounts, Icosphere, SphereImpulse, SphereWater,
};

use crate::device_calls::submitted;
use crate::error::GpuError;
use crate::gpu_sphere_water::sealed::{AddedHeights, OnDevice};
use crate::gpu_sphere_water::GpuSphereWater;
use crate::keeper::carried::{carried_uniform, record_in_runs, take_arrived, Recorded};
use crate::readback::{f32s, PendingReadback};
use crate::time_levels::TimeLevels;

/// The state every GPU sphere water keeps, whatever holds its levels.
#[derive(Debug)]
pub(crate) struct SphereCore {
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub sphere: Icosphere,
    /// The weights clicks are zero-sum in: the stepper's conserved weights
    /// ([`SphereWater::conserved_weights`]), as the CPU's clicks use.
    pub click_weights: Vec<f64>,
    pub vertices: u32,
    /// `(old, current, spare)`.
    pub levels: TimeLevels,
    /// Steps taken (recorded ones included).
    pub steps: u64,
    /// Undamped water's mean-level keeper, run on the host on levels read back (as the CPU's
    /// [`water_sphere::keep_weighted_level`], in the same weights as the clicks).
    pub keeper: Option<MeanLevelKeeper>,
    /// Both levels recorded into a caller's encoder at a step count, on their way back (the
    /// record-only path's keeper).
    pub recorded: Recorded,
}

impl SphereCore {
    /// The state of `water` before any GPU step: its mesh, weights and step count 0, a keeper
    /// when it is undamped.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, water: &SphereWater) -> Self {
        let vertices = water.slot_table().len();
        let undamped = water.step_coefficients().1 == 1.0;
        Self {
            device: device.clone(),
            queue: queue.clone(),
            sphere: water.sphere().clone(),
            click_weights: water.conserved_weights().to_vec(),
            vertices: vertices as u32,
            levels: TimeLevels::new(3),
            steps: 0,
            keeper: undamped.then(|| MeanLevelKeeper::with_cells(vertices)),
            recorded: None,
        }
    }

    /// A click's heights per vertex, as [`SphereWater::add_impulse`] adds them.
    pub fn impulse_heights(&self, click: &SphereImpulse) -> Vec<f32> {
        click.heights(&self.sphere, &self.click_weights)
    }

    /// Drops the keeper's reference and any levels recorded for it.
    pub fn forget_level_reference(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            keeper.invalidate();
        }
        self.recorded = None;
    }

    /// How many of `left` steps run before the keeper's next correction (all of them on damped
    /// water).
    fn keeper_run(&self, left: u64) -> u64 {
        self.keeper
            .as_ref()
            .map_or(left, |k| k.segment(self.steps, left))
    }
}

/// What holds a sphere's levels and how it steps them.
pub(crate) trait SphereLevels {
    fn core(&self) -> &SphereCore;
    fn core_mut(&mut self) -> &mut SphereCore;
    /// Records the bare steps (without the keeper) and advances the ring and the step count.
    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64);
    /// The level in `slot`, one f32 a vertex. **Submits and waits.**
    fn read_level(&self, slot: usize) -> Result<Vec<f32>, GpuError>;
    /// Sets the level in `slot` to one f32 a vertex. **Queues a write.**
    fn write_level(&self, slot: usize, values: Vec<f32>);
    /// Records both levels' copies for reading back, the current level first; each comes back
    /// with at least one f32 a vertex (a texture's unused tail after them).
    fn record_levels_readback(&self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback;
    /// Records adding `amounts[0]` to every vertex of the current level and `amounts[1]` to
    /// the previous one.
    fn record_uniform_shift(&mut self, encoder: &mut wgpu::CommandEncoder, amounts: [f32; 2]);
    /// Records `heights` (checked: one finite value a vertex) added to the current level:
    /// the work behind [`crate::GpuSphereWater::encode_add_heights`].
    fn record_vertex_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError>;
    /// Behind [`crate::GpuSphereWater::read_heights_async`]: the current level's copy started,
    /// one f32 a vertex.
    fn start_heights_readback(&self) -> Result<PendingReadback, GpuError>;
}

/// The keeper's anchoring or correction, when one is wanted: both levels read back, corrected
/// on the host ([`keep_weighted_level`]) and written back. **Submits and waits** for the
/// readback.
fn keep_level(water: &mut impl SphereLevels, before_step: bool) -> Result<(), GpuError> {
    // Levels recorded for the record-only path would correct levels corrected here anew.
    water.core_mut().recorded = None;
    let core = water.core();
    if !core
        .keeper
        .as_ref()
        .is_some_and(|k| k.wanted(core.steps, before_step))
    {
        return Ok(());
    }
    let (cur, old) = (core.levels.current(), core.levels.previous());
    let (mut cur_values, mut old_values) = (water.read_level(cur)?, water.read_level(old)?);
    let core = water.core_mut();
    if let Some(keeper) = &mut core.keeper {
        keep_weighted_level(
            keeper,
            &core.click_weights,
            core.steps,
            (&mut cur_values, &mut old_values),
        );
    }
    water.write_level(cur, cur_values);
    water.write_level(old, old_values);
    Ok(())
}

/// The keeper's work for the record-only path, recorded into the caller's encoder and never
/// waiting: before a step (`before_step`), the correction of levels recorded earlier, once
/// they have come back (planned in the stepper's weights for the step count they were
/// recorded at and carried forward to this one: `keeper/carried.rs`); then, when none are on
/// their way and a correction (or anchoring) is wanted, both levels recorded for reading back.
/// Polls the device without waiting.
fn record_keep_level(
    water: &mut impl SphereLevels,
    encoder: &mut wgpu::CommandEncoder,
    before_step: bool,
) {
    let core = water.core_mut();
    if core.keeper.is_none() {
        return;
    }
    let arrived = before_step
        .then(|| take_arrived(&core.device, &mut core.recorded))
        .flatten();
    if let (Some((at, bytes)), Some(keeper)) = (arrived, &mut core.keeper) {
        let n = core.vertices as usize;
        let values = f32s(&bytes);
        let (cur, old) = values.split_at(values.len() / 2);
        let levels = (&cur[..n], &old[..n]);
        let amounts = weighted_level_amounts(keeper, &core.click_weights, at, levels);
        if let Some(carried) = carried_uniform(amounts, core.steps - at) {
            water.record_uniform_shift(encoder, carried);
        }
    }
    let core = water.core();
    let steps = core.steps;
    let wanted = core
        .keeper
        .as_ref()
        .is_some_and(|k| k.wanted(steps, before_step));
    if core.recorded.is_none() && wanted {
        let readback = water.record_levels_readback(encoder);
        water.core_mut().recorded = Some((steps, readback));
    }
}

/// [`crate::GpuSphereWater::step_many`]: runs cut where the keeper corrects on undamped
/// water, each submitted, each cut followed by the correction (which waits).
pub(crate) fn step_many(water: &mut impl SphereLevels, steps: u64) -> Result<(), GpuError> {
    let core = water.core();
    let (device, queue) = (core.device.clone(), core.queue.clone());
    keep_level(water, true)?;
    let mut left = steps;
    while left > 0 {
        let run = water.core().keeper_run(left);
        submitted(&device, || {
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("sphere water steps"),
            });
            water.record_steps(&mut encoder, run);
            queue.submit([encoder.finish()]);
        })?;
        left -= run;
        keep_level(water, false)?;
    }
    Ok(())
}

/// [`crate::GpuSphereWater::encode_step_many`]: the same runs and the keeper's recorded work,
/// into the caller's encoder.
pub(crate) fn encode_step_many<W: SphereLevels>(
    water: &mut W,
    encoder: &mut wgpu::CommandEncoder,
    steps: u64,
) {
    record_in_runs(
        water,
        encoder,
        steps,
        |water, left| water.core().keeper_run(left),
        record_keep_level,
        W::record_steps,
    );
}

impl<T: SphereLevels> OnDevice for T {
    fn device(&self) -> &wgpu::Device {
        &self.core().device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.core().queue
    }
}

impl<T: SphereLevels> AddedHeights for T {
    fn vertex_count(&self) -> usize {
        self.core().vertices as usize
    }

    fn impulse_heights(&self, click: &SphereImpulse) -> Vec<f32> {
        self.core().impulse_heights(click)
    }

    fn forget_level_reference(&mut self) {
        self.core_mut().forget_level_reference();
    }

    fn record_added_heights(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError> {
        self.record_vertex_amounts(encoder, heights)
    }
}

// Both spheres' `GpuSphereWater`, written once over their level stores.
impl<T: SphereLevels> GpuSphereWater for T {
    fn steps_taken(&self) -> u64 {
        self.core().steps
    }

    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        encode_step_many(self, encoder, steps);
    }

    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        step_many(self, steps)
    }

    fn read_heights_async(&self) -> Result<PendingReadback, GpuError> {
        self.start_heights_readback()
    }
}
