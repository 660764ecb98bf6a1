//! Window shifts on [`ComputeGrid`]: both levels moved by `shaders/shift_window.wgsl` (see
//! `crate::window_shift`, which the fragment backend shares).

use wgpu::util::DeviceExt;

use super::ComputeGrid;
use crate::device_calls::{record_compute_pass, validated};
use crate::error::GpuError;
use crate::grid_core::LevelStore;
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
    /// What [`crate::GpuGridWater::encode_shift_window`] records on this backend.
    fn record_shift_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        dx: isize,
        dy: isize,
    ) -> Result<(), GpuError> {
        // The kernel first: if it cannot be built, nothing has moved.
        if self.shift_pipeline.is_none() {
            let device = &self.core.device;
            self.shift_pipeline = Some(validated(device, || {
                compute_pipeline(device, shaders::SHIFT_WINDOW, "shift_window", "main")
            })?);
        }
        let plan = ShiftPlan::new(
            &self.core.spec,
            &self.core.levels,
            &mut self.core.land_parts,
            (dx, dy),
        )?;
        let shift = plan.shift;
        self.invalidate_level();
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
        let uniform = self
            .core
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("water window shift"),
                contents: bytemuck::bytes_of(&uniforms),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let pipeline = self.shift_pipeline.as_ref().expect("made above");
        let layout = pipeline.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = plan
            .moves
            .iter()
            .map(|&(from, to)| {
                self.core
                    .device
                    .create_bind_group(&wgpu::BindGroupDescriptor {
                        label: Some("water window shift"),
                        layout: &layout,
                        entries: &[
                            wgpu::BindGroupEntry {
                                binding: 0,
                                resource: uniform.as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 1,
                                resource: self.fields[from].as_entire_binding(),
                            },
                            wgpu::BindGroupEntry {
                                binding: 2,
                                resource: self.fields[to].as_entire_binding(),
                            },
                        ],
                    })
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
        self.core.levels.after_shift();
        record_buffer_write(
            &self.core.device,
            encoder,
            &self.land,
            bytemuck::cast_slice(&plan.land_flags),
        );
        self.core.land_mask = plan.land;
        Ok(())
    }
}
