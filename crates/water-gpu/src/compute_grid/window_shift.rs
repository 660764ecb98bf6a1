//! Window shifts on [`ComputeGrid`]: both levels moved by `shaders/shift_window.wgsl` (see
//! `crate::window_shift`, which the fragment backend shares; `grid_core.rs` records a shift's
//! steps in order for both).

use wgpu::util::DeviceExt;

use super::ComputeGrid;
use crate::device_calls::{bind_in_order, made_on_first_use, record_compute_pass};
use crate::error::GpuError;
use crate::grid_core::ShiftStore;
use crate::pipelines::compute_pipeline;
use crate::recording::record_buffer_write;
use crate::shaders;
use crate::storage::StorageFormat;
use crate::uniforms::ShiftUniforms;
use crate::window_shift::ShiftPlan;

/// The kernel's workgroup side (`@workgroup_size(8, 8)`).
const SHIFT_GROUP: u32 = 8;

impl ShiftStore for ComputeGrid {
    /// The kernel, made by the first shift.
    fn prepare_shift(&mut self) -> Result<(), GpuError> {
        let device = &self.core.device;
        made_on_first_use(device, &mut self.shift_pipeline, || {
            compute_pipeline(device, shaders::SHIFT_WINDOW, "shift_window", "main")
        })?;
        Ok(())
    }

    /// One dispatch of the kernel per move, its uniforms made for this shift.
    fn record_level_moves(&mut self, encoder: &mut wgpu::CommandEncoder, plan: &ShiftPlan) {
        let shift = plan.shift;
        let size = self.core.spec.size;
        let row_words = self.storage.words_per_row(size.width()) as u32;
        let uniforms = ShiftUniforms {
            width: size.width() as u32,
            height: size.height() as u32,
            row_words,
            f16_cells: u32::from(self.storage == StorageFormat::F16),
            dx: shift.dx,
            dy: shift.dy,
            rim: shift.rim as u32,
            channels: self.channels,
        };
        let device = &self.core.device;
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water window shift"),
            contents: bytemuck::bytes_of(&uniforms),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let Some(pipeline) = &self.shift_pipeline else {
            unreachable!("made by prepare_shift");
        };
        let layout = pipeline.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = plan
            .moves
            .iter()
            .map(|&(from, to)| {
                let resources = [
                    uniform.as_entire_binding(),
                    self.fields[from].as_entire_binding(),
                    self.fields[to].as_entire_binding(),
                ];
                bind_in_order(device, &layout, "water window shift", resources)
            })
            .collect();
        record_compute_pass(
            encoder,
            "water window shift",
            pipeline,
            &groups,
            [
                row_words.div_ceil(SHIFT_GROUP),
                (size.height() as u32 * self.channels).div_ceil(SHIFT_GROUP),
                1,
            ],
        );
    }

    fn record_land_flags(&self, encoder: &mut wgpu::CommandEncoder, flags: &[u32]) {
        let bytes: &[u8] = bytemuck::cast_slice(flags);
        record_buffer_write(&self.core.device, encoder, &self.land, bytes);
    }
}
