//! The dispersive model on the compute backend: `shaders/spectral_step.wgsl`'s three kernels
//! a step (rows' transforms, columns' transforms with the mode factors, rows back with the new
//! heights), or over a depth map its four (face differences, reference depths, fluxes, new
//! heights). CPU twins: `water_core::kernels::spectral_step` and `spectral_depth` with
//! `water_core::DispersiveGrid` (the factors, reference depths, weights, sponge and stability
//! limit come from there).

use std::collections::HashMap;

use water_core::kernels::spectral_depth::SpectralDepth;
use water_core::kernels::spectral_step::mode_factor;
use water_core::{check_dispersive_dt, sponge_factors, AiryDispersion, Boundary, Depth};

use super::ComputeGrid;
use crate::device_calls::{
    check_limit, check_storage_bytes, filled_storage_buffer, storage_buffer, uniform_buffer,
    validated,
};
use crate::error::GpuError;
use crate::fft_twiddles::twiddles;
use crate::pipelines::{compute_buffer_entries, compute_pipelines_sharing};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage_format::StorageFormat;

/// Longest side, in cells, of a dispersive grid on the GPU: each row and column is transformed
/// in the workgroup memory every WebGPU device offers (16 KiB, 2048 complex f32 values;
/// `MAX_SIDE` in `shaders/shared/fft_line.wgsl`).
pub const SPECTRAL_MAX_SIDE: usize = 2048;

/// Invocations per workgroup of the spectral kernels (`GROUP` in `shaders/shared/fft_line.wgsl`).
const GROUP: u32 = 256;

/// The entry points of `shaders/spectral_step.wgsl`: a step over uniform depth runs the first
/// three, one over a depth map `depth_rows_forward`, `columns_nodes`, `depth_rows_nodes` and
/// `depth_finish`.
const KERNELS: [&str; 6] = [
    "rows_forward",
    "columns_nodes",
    "rows_finish",
    "depth_rows_forward",
    "depth_rows_nodes",
    "depth_finish",
];

/// Cells per workgroup edge of `depth_finish` (`@workgroup_size(16, 16)`).
const FINISH_TILE: u32 = 16;

/// The buffers and pipelines of the dispersive step on one grid.
#[derive(Debug)]
pub(super) struct SpectralPlan {
    layout: wgpu::BindGroupLayout,
    pipelines: [wgpu::ComputePipeline; 6],
    /// `SpectralUniforms` as written: log2 width, log2 height, sponge, reference depths.
    uniform_values: [u32; 4],
    uniforms: wgpu::Buffer,
    spectrum: wgpu::Buffer,
    /// The mode factors, or over a depth map each reference depth's multipliers.
    factors: wgpu::Buffer,
    twiddles: wgpu::Buffer,
    sponge: wgpu::Buffer,
    /// Between the column and the row transforms: one plane, or one per reference depth.
    work: wgpu::Buffer,
    /// Over a depth map: the faces' weights and the summed fluxes (placeholders of one value
    /// otherwise).
    weights: wgpu::Buffer,
    flux: wgpu::Buffer,
    /// Bind groups by `(with contacts, old, current, new)`, made on first use.
    groups: HashMap<(bool, usize, usize, usize), wgpu::BindGroup>,
}

/// Checks what the dispersive model needs of a GPU grid: f32 storage, power-of-two sides up
/// to [`SPECTRAL_MAX_SIDE`] and a stable `dt` (as the CPU's [`check_dispersive_dt`]).
fn check_spectral_spec(
    spec: &GridSpec,
    storage: StorageFormat,
    airy: &AiryDispersion,
) -> Result<(), GpuError> {
    if storage != StorageFormat::F32 {
        return Err(GpuError::StorageNotOffered {
            storage,
            reason: "for the dispersive model, whose transforms round like the CPU's in f32",
        });
    }
    for (axis, cells) in [("width", spec.size.width()), ("height", spec.size.height())] {
        if !cells.is_power_of_two() || !(2..=SPECTRAL_MAX_SIDE).contains(&cells) {
            return Err(GpuError::SpectralSide {
                axis,
                cells,
                max: SPECTRAL_MAX_SIDE,
            });
        }
    }
    check_dispersive_dt(spec.params.cell_size(), spec.params.dt(), airy)?;
    Ok(())
}

impl SpectralPlan {
    /// The plan for `spec` under `airy`, or the reason the GPU cannot step it.
    ///
    /// # Errors
    /// As [`check_spectral_spec`]; [`GpuError::TooLarge`] past the device's buffer limits;
    /// [`GpuError::Validation`] if wgpu refuses a pipeline.
    pub(super) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: &GridSpec,
        storage: StorageFormat,
        airy: &AiryDispersion,
    ) -> Result<Self, GpuError> {
        check_spectral_spec(spec, storage, airy)?;
        let size = spec.size;
        let (w, h) = (size.width(), size.height());
        let spectrum_bytes = size.cells() as u64 * 8;
        check_storage_bytes(device, spectrum_bytes)?;
        let limits = device.limits();
        check_limit(
            "workgroup storage size (bytes)",
            SPECTRAL_MAX_SIDE as u64 * 8,
            u64::from(limits.max_compute_workgroup_storage_size),
        )?;
        check_limit(
            "invocations per workgroup",
            u64::from(GROUP),
            u64::from(limits.max_compute_invocations_per_workgroup),
        )?;
        let (cell_size, dt) = (spec.params.cell_size(), spec.params.dt());
        let factors: Vec<f32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| mode_factor(size, cell_size, dt, airy, x, y))
            .collect();
        let table: Vec<[f32; 2]> = twiddles(w).chain(twiddles(h)).collect();
        let sponge = if spec.boundary == Boundary::Absorbing {
            sponge_factors(size)
        } else {
            vec![1.0]
        };
        let log2 = |n: usize| n.trailing_zeros();
        let uniforms = [
            log2(w),
            log2(h),
            u32::from(spec.boundary == Boundary::Absorbing),
            0,
        ];
        use wgpu::BufferBindingType::{Storage, Uniform};
        let (read, write) = (Storage { read_only: true }, Storage { read_only: false });
        let kinds = [
            Uniform, write, read, write, read, read, read, Uniform, write, read, read, read, write,
            read, write,
        ];
        let (layout, pipelines) = validated(device, || {
            let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("water spectral step"),
                entries: &compute_buffer_entries(&kinds),
            });
            let pipelines = compute_pipelines_sharing(
                device,
                "spectral_step",
                shaders::SPECTRAL_STEP,
                &layout,
                KERNELS,
            );
            (layout, pipelines)
        })?;
        let filled = |label: &str, bytes: &[u8]| filled_storage_buffer(device, queue, label, bytes);
        let placeholder = |label: &str| storage_buffer(device, label, 16);
        Ok(Self {
            layout,
            pipelines,
            uniform_values: uniforms,
            uniforms: uniform_buffer(
                device,
                "water spectral uniforms",
                bytemuck::cast_slice(&uniforms),
            ),
            work: storage_buffer(device, "water spectral work", spectrum_bytes),
            weights: placeholder("water face weights (no depth map)"),
            flux: placeholder("water face fluxes (no depth map)"),
            spectrum: storage_buffer(device, "water spectrum", spectrum_bytes),
            factors: filled("water mode factors", bytemuck::cast_slice(&factors)),
            twiddles: filled("water twiddles", bytemuck::cast_slice(&table)),
            sponge: filled("water sponge", bytemuck::cast_slice(&sponge)),
            groups: HashMap::new(),
        })
    }
}

impl SpectralPlan {
    /// Steps the water over `depth` from now on: the reference depths, face weights and
    /// multipliers of the CPU's `SpectralDepth` (built by the same `checked` constructor)
    /// uploaded, and the depth kernels chosen.
    ///
    /// # Errors
    /// What `SpectralDepth::checked` refuses (a `dt` past the limit at the deepest cell), as
    /// [`GpuError::Invalid`]; [`GpuError::TooLarge`] when a buffer of `K` planes exceeds the
    /// device's limits.
    pub(super) fn set_depth(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: &GridSpec,
        airy: &AiryDispersion,
        depth: &Depth,
    ) -> Result<(), GpuError> {
        let size = spec.size;
        size.check_len("depth map", depth.cells().len())?;
        let (cell_size, dt) = (spec.params.cell_size(), spec.params.dt());
        let plan = SpectralDepth::checked(depth, cell_size, dt, airy)?;
        let (w, h, cells) = (size.width(), size.height(), size.cells());
        let nodes = plan.nodes().len();
        let planes = (nodes * cells) as u64;
        check_storage_bytes(device, planes * 8)?;
        let multipliers: Vec<f32> = (0..nodes)
            .flat_map(|j| (0..cells).map(move |i| (j, i)))
            .map(|(j, i)| plan.multiplier(j, i % w, i / w))
            .collect();
        let weights: Vec<[f32; 2]> = (0..nodes)
            .flat_map(|j| {
                let [x, y] = plan.face_weights(j);
                x.iter().zip(y).map(|(&x, &y)| [x, y])
            })
            .collect();
        let filled = |label: &str, bytes: &[u8]| filled_storage_buffer(device, queue, label, bytes);
        self.factors = filled(
            "water depth multipliers",
            bytemuck::cast_slice(&multipliers),
        );
        self.weights = filled("water face weights", bytemuck::cast_slice(&weights));
        self.work = storage_buffer(device, "water spectral work", planes * 8);
        self.flux = storage_buffer(device, "water face fluxes", cells as u64 * 8);
        self.uniform_values[3] = nodes as u32;
        queue.write_buffer(
            &self.uniforms,
            0,
            bytemuck::cast_slice(&self.uniform_values),
        );
        self.groups.clear();
        debug_assert_eq!(multipliers.len(), w * h * nodes);
        Ok(())
    }
}

/// The contact masks a spectral step reads: the grid's own buffers or the caller's.
pub(super) enum SpectralContacts<'a> {
    /// None: the grid's buffers are bound but the uniforms say no events.
    None,
    /// The grid's own buffers, filled by a recorded copy.
    Own,
    /// Buffers of the caller's (not cached).
    Caller(&'a wgpu::Buffer, &'a wgpu::Buffer),
}

impl SpectralContacts<'_> {
    /// What a run of steps reads: the grid's own masks when `contacts`, none otherwise.
    pub(super) fn own_when(contacts: bool) -> Self {
        if contacts {
            Self::Own
        } else {
            Self::None
        }
    }
}

impl ComputeGrid {
    /// Records `steps` dispersive steps into one compute pass (three dispatches a step, four over
    /// a depth map), each reading the contact masks `contacts` names.
    pub(super) fn encode_spectral_steps(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u64,
        contacts: &SpectralContacts<'_>,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        let groups: Vec<wgpu::BindGroup> = (0..steps)
            .map(|_| {
                let l = self.core.levels;
                self.core.levels.advance(1);
                self.spectral_group(contacts, l.previous(), l.current(), l.next())
            })
            .collect();
        self.record_spectral_pass(encoder, &groups, timestamp_writes);
    }

    /// One compute pass of a step per bind group (the levels already advanced).
    pub(super) fn record_spectral_pass(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        groups: &[wgpu::BindGroup],
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        let Some(plan) = &self.spectral else {
            unreachable!("spectral steps are only recorded with a plan");
        };
        let (w, h) = (
            self.core.spec.size.width() as u32,
            self.core.spec.size.height() as u32,
        );
        // One workgroup per row, per column, per row; over a depth map then a tile per 16 x 16
        // cells for `depth_finish`.
        let p = &plan.pipelines;
        let kernels: Vec<(&wgpu::ComputePipeline, (u32, u32))> = if plan.uniform_values[3] == 0 {
            vec![(&p[0], (h, 1)), (&p[1], (w, 1)), (&p[2], (h, 1))]
        } else {
            let tiles = (w.div_ceil(FINISH_TILE), h.div_ceil(FINISH_TILE));
            vec![
                (&p[3], (h, 1)),
                (&p[1], (w, 1)),
                (&p[4], (h, 1)),
                (&p[5], tiles),
            ]
        };
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("water spectral steps"),
            timestamp_writes,
        });
        for group in groups {
            pass.set_bind_group(0, group, &[]);
            for &(pipeline, (x, y)) in &kernels {
                pass.set_pipeline(pipeline);
                pass.dispatch_workgroups(x, y, 1);
            }
        }
        let steps = groups.len() as u64;
        self.core.steps += steps;
        self.dispatches += kernels.len() as u64 * steps;
    }

    pub(super) fn spectral_group(
        &mut self,
        contacts: &SpectralContacts<'_>,
        old: usize,
        cur: usize,
        new: usize,
    ) -> wgpu::BindGroup {
        let with_contacts = !matches!(contacts, SpectralContacts::None);
        let key = (with_contacts, old, cur, new);
        let Some(plan) = &self.spectral else {
            unreachable!("spectral groups are only asked for with a plan");
        };
        let cached = matches!(contacts, SpectralContacts::None | SpectralContacts::Own);
        if let Some(group) = plan.groups.get(&key).filter(|_| cached) {
            return group.clone();
        }
        let (contact_new, contact_old) = match contacts {
            SpectralContacts::Caller(new, old) => (*new, *old),
            _ => (&self.contact_new, &self.contact_old),
        };
        let uniforms = if with_contacts {
            &self.core.uniforms_contacts
        } else {
            &self.core.uniforms_plain
        };
        let mut resources =
            self.step_bindings(uniforms, (old, cur, new), (contact_new, contact_old));
        resources.extend([
            plan.uniforms.as_entire_binding(),
            plan.spectrum.as_entire_binding(),
            plan.factors.as_entire_binding(),
            plan.twiddles.as_entire_binding(),
            plan.sponge.as_entire_binding(),
            plan.work.as_entire_binding(),
            plan.weights.as_entire_binding(),
            plan.flux.as_entire_binding(),
        ]);
        let group = crate::device_calls::bind_in_order(
            &self.core.device,
            &plan.layout,
            "water spectral step",
            resources,
        );
        if cached {
            if let Some(plan) = &mut self.spectral {
                plan.groups.insert(key, group.clone());
            }
        }
        group
    }
}
