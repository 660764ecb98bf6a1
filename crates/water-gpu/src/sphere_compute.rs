//! Sphere water stepped by a compute shader (`shaders/sphere_step.wgsl`), built from a CPU
//! [`SphereWater`] so both start from the same mesh, weights, coefficients and state.

use water_sphere::SphereWater;

use crate::device_calls::{
    bind_numbered, check_limit, record_compute_pass, storage_buffer, uniform_buffer, validated,
};
use crate::error::GpuError;
use crate::pipelines::compute_pipeline;
use crate::readback::{f32s, PendingReadback};
use crate::recording::record_buffer_write;
use crate::shaders;
use crate::sphere_core::{SphereCore, SphereLevels};
use crate::uniforms::{ImpulseCell, ImpulseUniforms, SphereUniforms};

/// Invocations per workgroup of `sphere_step.wgsl`.
const GROUP: u32 = 256;

/// Sphere water on the GPU (compute).
/// Its operations are [`GpuSphereWater`]'s (listed among the blanket implementations: one
/// implementation serves both spheres).
///
/// [`GpuSphereWater`]: crate::GpuSphereWater
#[derive(Debug)]
pub struct SphereComputeWater {
    /// The state every GPU sphere water keeps (`sphere_core.rs`).
    core: SphereCore,
    fields: [wgpu::Buffer; 3],
    pipeline: wgpu::ComputePipeline,
    groups: [wgpu::BindGroup; 3],
    impulse_pipeline: wgpu::ComputePipeline,
    dry: wgpu::Buffer,
    /// The record-only path's shift (`shaders/mean_level.wgsl`, `shift_vertices`), with the
    /// keeper.
    shift: Option<VertexShift>,
}

/// `shift_vertices` of `shaders/mean_level.wgsl` for one sphere: adds a uniform amount to every
/// vertex of a level, recorded into the caller's encoder.
#[derive(Debug)]
struct VertexShift {
    pipeline: wgpu::ComputePipeline,
    uniforms: wgpu::Buffer,
    /// The current and the previous level's amounts (`x` of the first `vec4<f32>`).
    amounts: [wgpu::Buffer; 2],
    vertices: u32,
}

impl VertexShift {
    fn new(device: &wgpu::Device, vertices: u32) -> Self {
        Self {
            pipeline: compute_pipeline(
                device,
                shaders::MEAN_LEVEL,
                "mean_level vertex shift",
                "shift_vertices",
            ),
            // `MeanLevelUniforms`: width, height, padding, channels.
            uniforms: uniform_buffer(
                device,
                "sphere mean level uniforms",
                bytemuck::cast_slice(&[vertices, 1, 0, 1]),
            ),
            amounts: [0, 1].map(|i| {
                uniform_buffer(
                    device,
                    &format!("sphere mean level amounts {i}"),
                    &[0u8; 32],
                )
            }),
            vertices,
        }
    }

    /// Records adding `amounts[0]` to every vertex of `levels[0]` and `amounts[1]` to
    /// `levels[1]`.
    fn record(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        levels: [&wgpu::Buffer; 2],
        amounts: [f32; 2],
    ) {
        let groups: Vec<wgpu::BindGroup> = (0..2)
            .map(|i| {
                let words = [amounts[i], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
                record_buffer_write(
                    device,
                    encoder,
                    &self.amounts[i],
                    bytemuck::cast_slice(&words),
                );
                let buffers = [(0, &self.uniforms), (3, &self.amounts[i]), (4, levels[i])];
                bind_numbered(
                    device,
                    &self.pipeline.get_bind_group_layout(0),
                    "sphere mean level shift",
                    buffers.map(|(binding, buffer)| (binding, buffer.as_entire_binding())),
                )
            })
            .collect();
        record_compute_pass(
            encoder,
            "sphere mean level shift",
            &self.pipeline,
            &groups,
            [self.vertices.div_ceil(GROUP), 1, 1],
        );
    }
}

impl SphereComputeWater {
    /// Uploads `water`'s slot table, coefficients and both levels.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] beyond the device's buffer or dispatch limits,
    /// [`GpuError::Validation`] if a pipeline is refused.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        water: &SphereWater,
    ) -> Result<Self, GpuError> {
        let table = water.slot_table();
        let n = table.len();
        let bytes = n as u64 * 4;
        let limits = device.limits();
        check_limit(
            "storage buffer binding size (bytes)",
            bytes * 6,
            limits.max_storage_buffer_binding_size,
        )?;
        check_limit(
            "workgroups per dispatch dimension",
            (n as u64).div_ceil(u64::from(GROUP)),
            u64::from(limits.max_compute_workgroups_per_dimension),
        )?;
        let fields = [0, 1, 2].map(|i| storage_buffer(device, &format!("sphere level {i}"), bytes));
        let index: Vec<u32> = table.indices().iter().flatten().copied().collect();
        let weight: Vec<f32> = table.weights().iter().flatten().copied().collect();
        let slot_index = storage_buffer(device, "sphere slot index", bytes * 6);
        let slot_weight = storage_buffer(device, "sphere slot weight", bytes * 6);
        queue.write_buffer(&slot_index, 0, bytemuck::cast_slice(&index));
        queue.write_buffer(&slot_weight, 0, bytemuck::cast_slice(&weight));
        queue.write_buffer(&fields[1], 0, bytemuck::cast_slice(water.heights()));
        queue.write_buffer(&fields[0], 0, bytemuck::cast_slice(water.previous()));
        let dry = storage_buffer(device, "sphere dry (none)", bytes);
        let (k, d) = water.step_coefficients();
        let uniforms = uniform_buffer(
            device,
            "sphere uniforms",
            bytemuck::bytes_of(&SphereUniforms {
                vertices: n as u32,
                k,
                d,
                _pad: 0,
            }),
        );
        let undamped = d == 1.0;
        let (pipeline, impulse_pipeline, shift) = validated(device, || {
            (
                compute_pipeline(device, shaders::SPHERE_STEP, "sphere_step", "main"),
                compute_pipeline(device, shaders::ADD_IMPULSE, "add_impulse", "main"),
                undamped.then(|| VertexShift::new(device, n as u32)),
            )
        })?;
        let layout = pipeline.get_bind_group_layout(0);
        let groups = validated(device, || {
            [0usize, 1, 2].map(|r| {
                let (old, cur, new) = (r, (r + 1) % 3, (r + 2) % 3);
                let resources = [
                    uniforms.as_entire_binding(),
                    fields[cur].as_entire_binding(),
                    fields[old].as_entire_binding(),
                    fields[new].as_entire_binding(),
                    slot_index.as_entire_binding(),
                    slot_weight.as_entire_binding(),
                ];
                crate::device_calls::bind_in_order(device, &layout, "sphere step", resources)
            })
        })?;
        let core = SphereCore::new(device, queue, water);
        // The record-only keeper corrects through the shift: one without the other would drop
        // its corrections.
        debug_assert_eq!(core.keeper.is_some(), shift.is_some());
        Ok(Self {
            core,
            fields,
            pipeline,
            groups,
            impulse_pipeline,
            dry,
            shift,
        })
    }

    /// The buffer holding the current heights (one f32 per vertex, the mesh's order).
    #[must_use]
    pub fn current_buffer(&self) -> &wgpu::Buffer {
        &self.fields[self.core.levels.current()]
    }
}

impl SphereLevels for SphereComputeWater {
    fn core(&self) -> &SphereCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut SphereCore {
        &mut self.core
    }

    /// The bare steps: one compute pass of `steps` dispatches.
    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            for _ in 0..steps {
                pass.set_bind_group(0, &self.groups[self.core.levels.previous()], &[]);
                pass.dispatch_workgroups(self.core.vertices.div_ceil(GROUP), 1, 1);
                self.core.levels.advance(1);
            }
        }
        self.core.steps += steps;
    }

    fn read_level(&self, slot: usize) -> Result<Vec<f32>, GpuError> {
        let buffer = &self.fields[slot];
        let core = &self.core;
        let bytes =
            PendingReadback::start(&core.device, &core.queue, buffer, buffer.size())?.wait()?;
        Ok(f32s(&bytes))
    }

    fn write_level(&self, slot: usize, values: Vec<f32>) {
        self.core
            .queue
            .write_buffer(&self.fields[slot], 0, bytemuck::cast_slice(&values));
    }

    fn record_levels_readback(&self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback {
        let levels = self.core.levels;
        let (cur, old) = (
            &self.fields[levels.current()],
            &self.fields[levels.previous()],
        );
        PendingReadback::record(&self.core.device, encoder, &[cur, old])
    }

    /// `shift_vertices` of `shaders/mean_level.wgsl` on both levels.
    fn record_uniform_shift(&mut self, encoder: &mut wgpu::CommandEncoder, amounts: [f32; 2]) {
        let Some(shift) = &self.shift else {
            return;
        };
        let levels = self.core.levels;
        let (cur, old) = (
            &self.fields[levels.current()],
            &self.fields[levels.previous()],
        );
        shift.record(&self.core.device, encoder, [cur, old], amounts);
    }

    /// Records the vertices whose amount is not zero, as a list of `(vertex, amount)` pairs in
    /// a buffer made for this call alone, added by `shaders/add_impulse.wgsl`. **Records only.**
    fn record_vertex_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError> {
        let cells: Vec<ImpulseCell> = heights
            .iter()
            .enumerate()
            .filter(|(_, dz)| **dz != 0.0)
            .map(|(i, &amount)| ImpulseCell {
                index: i as u32,
                amount,
            })
            .collect();
        if cells.is_empty() {
            return Ok(());
        }
        let device = self.core.device.clone();
        let uniforms = uniform_buffer(
            &device,
            "sphere click",
            bytemuck::bytes_of(&ImpulseUniforms {
                cells: self.core.vertices,
                mode: 0,
                count: cells.len() as u32,
                _pad: 0,
            }),
        );
        // Made with its contents for this click alone: no queued write, which would land
        // before every command of the submission.
        let amounts = {
            use wgpu::util::DeviceExt;
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("sphere click cells"),
                contents: bytemuck::cast_slice(&cells),
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let resources = [
            (0, uniforms.as_entire_binding()),
            (1, amounts.as_entire_binding()),
            (2, self.dry.as_entire_binding()),
            (
                3,
                self.fields[self.core.levels.current()].as_entire_binding(),
            ),
        ];
        let layout = self.impulse_pipeline.get_bind_group_layout(0);
        let group = bind_numbered(&device, &layout, "sphere click", resources);
        record_compute_pass(
            encoder,
            "water sphere impulse",
            &self.impulse_pipeline,
            [&group],
            [(cells.len() as u32).div_ceil(64), 1, 1],
        );
        Ok(())
    }

    /// Starts reading the current heights back: 4 bytes per vertex (little-endian f32, the mesh's
    /// vertex order). Poll the device and take the bytes from the returned [`PendingReadback`]
    /// when they arrive.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn start_heights_readback(&self) -> Result<PendingReadback, GpuError> {
        let buffer = &self.fields[self.core.levels.current()];
        PendingReadback::start(&self.core.device, &self.core.queue, buffer, buffer.size())
    }
}
