//! [`PatchReader`]: the patches of a GPU grid's water that floating bodies and point queries
//! need, gathered on the device (`shaders/gather_patches.wgsl`) and read back without waiting.
//! A body on 512^2 water needs a few hundred cells, not the 262,144 of the field.

use water_core::{CellRect, HeightPatches};

use crate::device_calls::{
    bind_in_order, check_limit, record_compute_pass, storage_buffer, validated,
};
use crate::error::GpuError;
use crate::gpu_grid_water::GpuGridWater;
use crate::pipelines::compute_pipeline;
use crate::readback::PendingReadback;
use crate::shaders;

/// Invocations per workgroup of `gather_patches`.
const WORKGROUP: u32 = 64;

/// Gathers rectangles of a grid's heights on the device for an asynchronous readback. One per
/// device; it serves any grid on it.
///
/// ```no_run
/// use water_core::{Boundary, CellRect, Damping, GridMode, GridSize, HeightSource, WaveParams};
/// use water_gpu::{wgpu, ComputeGrid, GpuContext, GpuGridWater, GridSpec, PatchReader};
/// let context = GpuContext::headless()?;
/// let params = WaveParams::new(0.1, 2.0, 0.02, Damping::NONE)?;
/// let spec = GridSpec::new(GridSize::new(256, 256)?, params, Boundary::Reflective, GridMode::Signed);
/// let mut water = ComputeGrid::new(&context.device, &context.queue, spec)?;
/// let reader = PatchReader::new(&context.device)?;
/// let mut encoder = context.device.create_command_encoder(&Default::default());
/// water.encode_step_many(&mut encoder, 4);
/// let around_buoy = CellRect::around(spec.size, 0.1, glam::Vec2::new(12.0, 8.0), 0.5);
/// let pending = reader.encode_read(&mut water, &mut encoder, vec![around_buoy])?;
/// context.queue.submit([encoder.finish()]);
/// // Later, once a frame: poll, and take the patches when they are there.
/// let _ = context.device.poll(wgpu::PollType::Poll);
/// if let Some(patches) = pending.try_take() {
///     let patches = patches?; // the water after 4 steps (`patches.step()`)
///     let buoy = patches.view(0).surface_at(glam::Vec3::new(12.0, 8.0, 0.0));
/// #   let _ = buoy;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PatchReader {
    device: wgpu::Device,
    pipeline: wgpu::ComputePipeline,
}

impl PatchReader {
    /// The gather pipeline on `device`.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the device refuses it.
    pub fn new(device: &wgpu::Device) -> Result<Self, GpuError> {
        let pipeline = validated(device, || {
            compute_pipeline(
                device,
                shaders::GATHER_PATCHES,
                "gather_patches",
                "gather_patches",
            )
        })?;
        Ok(Self {
            device: device.clone(),
            pipeline,
        })
    }

    /// Records, into the caller's encoder, the update of `water`'s surface texture, the gather
    /// of `rects` from it and their copy to the host, mapped when the encoder is submitted: the
    /// patches of the water as it is at this point of the recording (after
    /// `water.steps_taken()` steps). **Records only**; nothing waits. Bytes read back: 4 per
    /// cell of the rectangles.
    ///
    /// # Errors
    /// [`water_core::WaterError::RectOutsideGrid`] (as [`GpuError::Invalid`]) for a rectangle
    /// not inside the grid; [`GpuError::TooLarge`] for more rectangles or a larger one than a
    /// dispatch holds; what the surface update reports.
    pub fn encode_read(
        &self,
        water: &mut dyn GpuGridWater,
        encoder: &mut wgpu::CommandEncoder,
        rects: Vec<CellRect>,
    ) -> Result<PendingPatches, GpuError> {
        let spec = *water.spec();
        let mut table = Vec::with_capacity(rects.len() * 8);
        let (mut total, mut widest) = (0u64, 0u64);
        for rect in &rects {
            rect.check_inside(spec.size)?;
            let cells = rect.cells() as u64;
            let start = u32::try_from(total).map_err(|_| GpuError::TooLarge {
                what: "cells in height patches",
                needed: total,
                limit: u64::from(u32::MAX),
            })?;
            // The rectangle lies inside the grid, whose dimensions fit in u32.
            table.extend([rect.x0, rect.y0, rect.width, rect.height].map(|v| v as u32));
            table.extend([start, 0, 0, 0]);
            total += cells;
            widest = widest.max(cells);
        }
        let meta = PatchMeta {
            size: spec.size,
            cell_size: spec.params.cell_size() as f32,
            step: water.steps_taken(),
            rects,
        };
        if meta.rects.is_empty() {
            return Ok(PendingPatches {
                meta,
                readback: None,
            });
        }
        let limits = self.device.limits();
        let groups_x = widest.div_ceil(u64::from(WORKGROUP));
        let max_groups = u64::from(limits.max_compute_workgroups_per_dimension);
        check_limit(
            "workgroups for the largest height patch",
            groups_x,
            max_groups,
        )?;
        check_limit(
            "height patches in one gather",
            meta.rects.len() as u64,
            max_groups,
        )?;
        check_limit(
            "bytes of height patches",
            total * 4,
            limits.max_storage_buffer_binding_size,
        )?;
        let view = water.encode_update_normal_height(encoder)?;
        let table_buffer = {
            use wgpu::util::DeviceExt;
            self.device
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("water height patches"),
                    contents: bytemuck::cast_slice(&table),
                    usage: wgpu::BufferUsages::STORAGE,
                })
        };
        let heights = storage_buffer(&self.device, "water patch heights", total * 4);
        let group = bind_in_order(
            &self.device,
            &self.pipeline.get_bind_group_layout(0),
            "water gather patches",
            [
                wgpu::BindingResource::TextureView(view),
                table_buffer.as_entire_binding(),
                heights.as_entire_binding(),
            ],
        );
        record_compute_pass(
            encoder,
            "water gather patches",
            &self.pipeline,
            [&group],
            [groups_x as u32, meta.rects.len() as u32, 1],
        );
        let readback = PendingReadback::record(&self.device, encoder, &[&heights]);
        Ok(PendingPatches {
            meta,
            readback: Some(readback),
        })
    }
}

/// What the patches are, kept until their heights arrive.
#[derive(Debug)]
struct PatchMeta {
    size: water_core::GridSize,
    cell_size: f32,
    step: u64,
    rects: Vec<CellRect>,
}

/// Patches on their way to the host ([`PatchReader::encode_read`]).
#[derive(Debug)]
pub struct PendingPatches {
    meta: PatchMeta,
    /// `None` for no rectangles: ready at once.
    readback: Option<PendingReadback>,
}

impl PendingPatches {
    /// Steps the water had taken when the patches were recorded: the water they hold.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.meta.step
    }

    /// The rectangles asked for.
    #[must_use]
    pub fn rects(&self) -> &[CellRect] {
        &self.meta.rects
    }

    /// The patches, if they have arrived (poll the device first); `None` while on the way.
    /// They are given once: a call after they were taken gives `None` or an error.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the map failed.
    pub fn try_take(&self) -> Option<Result<HeightPatches, GpuError>> {
        match &self.readback {
            None => Some(self.patches(Vec::new())),
            Some(readback) => readback
                .try_take()
                .map(|bytes| bytes.and_then(|b| self.patches(crate::readback::f32s(&b)))),
        }
    }

    /// Blocks until the patches are on the host (one counted wait,
    /// [`crate::DeviceTraffic::blocking_waits`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the device stops answering or the map fails.
    pub fn wait(self) -> Result<HeightPatches, GpuError> {
        match self.readback {
            None => self.meta.into_patches(Vec::new()),
            Some(readback) => {
                let bytes = readback.wait()?;
                self.meta.into_patches(crate::readback::f32s(&bytes))
            }
        }
    }

    fn patches(&self, heights: Vec<f32>) -> Result<HeightPatches, GpuError> {
        let m = &self.meta;
        Ok(HeightPatches::from_parts(
            m.size,
            m.cell_size,
            m.step,
            m.rects.clone(),
            heights,
        )?)
    }
}

impl PatchMeta {
    fn into_patches(self, heights: Vec<f32>) -> Result<HeightPatches, GpuError> {
        Ok(HeightPatches::from_parts(
            self.size,
            self.cell_size,
            self.step,
            self.rects,
            heights,
        )?)
    }
}
