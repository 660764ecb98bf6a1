//! The cascades' hand-over on [`ComputeGrid`]: a coarse grid's two time levels relaxed toward
//! the finer grid inside it by `shaders/relax_toward.wgsl`, whose CPU twin is
//! `crates/water-scene/src/scene/cascades.rs` (`relax_toward`).

use glam::I64Vec2;
use wgpu::util::DeviceExt;

use super::ComputeGrid;
use crate::device_calls::{bind_in_order, made_on_first_use, record_compute_pass, validated};
use crate::error::GpuError;
use crate::grid_core::LevelStore;
use crate::pipelines::compute_pipeline;
use crate::recording::submit_recorded;
use crate::shaders;
use crate::storage::StorageFormat;
use crate::uniforms::RelaxUniforms;

/// The kernel's workgroup side (`@workgroup_size(8, 8)`).
const RELAX_GROUP: u32 = 8;

/// Where a finer grid (half the cell size) lies inside a coarser one, and how the hand-over
/// between them is weighted: what [`ComputeGrid::encode_relax_toward`] needs besides the two
/// grids.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CascadeOverlap {
    /// The finer grid's cell under the lower corner of the coarse grid's cell `(0, 0)`, in the
    /// finer grid's cells: twice the coarse grid's corner minus the finer grid's, both in
    /// their own cells (the corners are whole cells of each grid).
    pub base: I64Vec2,
    /// The finer grid's absorbing band, cells: the weight is 0 within it.
    pub edge: f32,
    /// Finer cells past the band over which the weight rises from 0 to 1 (a smoothstep).
    pub blend_cells: f32,
}

impl CascadeOverlap {
    /// The uniforms for `outer` relaxed toward `inner`; `None` when the finer grid covers no
    /// coarse cell whole (nothing to record).
    fn uniforms(&self, outer: &ComputeGrid, inner: &ComputeGrid) -> Option<RelaxUniforms> {
        let (o, i) = (outer.core.spec.size, inner.core.spec.size);
        let (ow, oh) = (o.width() as i64, o.height() as i64);
        let (iw, ih) = (i.width() as i64, i.height() as i64);
        // Coarse cell `c` covers finer cells `base + 2c` and the next: some `c` in the grid
        // must put both inside the finer grid on each axis.
        let overlaps =
            |base: i64, outer: i64, inner: i64| base <= inner - 2 && base + 2 * (outer - 1) >= 0;
        if !(overlaps(self.base.x, ow, iw) && overlaps(self.base.y, oh, ih)) {
            return None;
        }
        // Overlapping, `base` lies within the two grids' sides, far inside i32.
        Some(RelaxUniforms {
            outer_size: [ow as u32, oh as u32],
            inner_size: [iw as u32, ih as u32],
            base: [self.base.x as i32, self.base.y as i32],
            edge: self.edge,
            blend_cells: self.blend_cells,
        })
    }

    /// Refuses a band or blend that is not a finite number of cells (a blend of 0 cells too).
    fn check(&self) -> Result<(), GpuError> {
        let refuse = |name: &'static str, value: f32, range: &'static str| {
            Err(GpuError::Invalid(water_core::WaterError::OutOfRange {
                name,
                value: f64::from(value),
                range,
            }))
        };
        if !(self.edge.is_finite() && self.edge >= 0.0) {
            return refuse("hand-over edge band", self.edge, "[0, inf) cells, finite");
        }
        if !(self.blend_cells.is_finite() && self.blend_cells > 0.0) {
            return refuse(
                "hand-over blend",
                self.blend_cells,
                "(0, inf) cells, finite",
            );
        }
        Ok(())
    }
}

impl ComputeGrid {
    /// Records the cascades' hand-over into the caller's encoder: where `inner` (a grid of
    /// half this one's cell size, placed as `overlap` says) covers one of this grid's cells,
    /// both time levels of that cell move toward the mean of the 2 x 2 cells of `inner` over
    /// it, by a weight rising from 0 at `inner`'s absorbing band to 1 over
    /// `overlap.blend_cells`; dry cells stay 0. It reads `inner`'s levels as the steps
    /// recorded before it leave them (the CPU twin: `water_scene`'s cascades).
    ///
    /// ```no_run
    /// # // no_run: doc tests do not assume a GPU; the crate's tests run this for real.
    /// use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
    /// use water_gpu::{CascadeOverlap, ComputeGrid, GpuContext, GpuGridWater, GridSpec};
    /// use glam::I64Vec2;
    /// let gpu = GpuContext::headless()?;
    /// let size = GridSize::new(64, 64)?;
    /// let fine = WaveParams::new(0.1, 1.0, 0.02, Damping::NONE)?;
    /// let coarse = WaveParams::new(0.2, 1.0, 0.02, Damping::NONE)?;
    /// let spec = |params| GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed);
    /// let inner = ComputeGrid::new(&gpu.device, &gpu.queue, spec(fine))?;
    /// let mut outer = ComputeGrid::new(&gpu.device, &gpu.queue, spec(coarse))?;
    /// // Both centred on one point: the coarse corner 16 of its cells below the fine one's.
    /// let overlap = CascadeOverlap { base: I64Vec2::splat(-32), edge: 2.0, blend_cells: 16.0 };
    /// outer.relax_toward(&inner, &overlap)?; // one submission
    /// # Ok::<(), water_gpu::GpuError>(())
    /// ```
    ///
    /// # Errors
    /// [`GpuError::StorageNotOffered`] for f16 storage of either grid;
    /// [`GpuError::WrongMode`] for a grid that is not signed; [`GpuError::Invalid`] for a band
    /// below 0 or a blend not above 0 (or either not finite); [`GpuError::Validation`] for
    /// grids on two devices.
    pub fn encode_relax_toward(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        inner: &ComputeGrid,
        overlap: &CascadeOverlap,
    ) -> Result<(), GpuError> {
        for grid in [&*self, inner] {
            if grid.storage == StorageFormat::F16 {
                return Err(GpuError::StorageNotOffered {
                    storage: StorageFormat::F16,
                    reason: "by the cascades' hand-over (relax_toward), which reads and writes \
                             f32 cells",
                });
            }
            if grid.core.spec.mode != water_core::GridMode::Signed {
                return Err(GpuError::WrongMode {
                    operation: "relax_toward",
                    mode: grid.core.spec.mode,
                    instead: "signed grids (the wave or dispersive model)",
                });
            }
        }
        overlap.check()?;
        let Some(uniforms) = overlap.uniforms(self, inner) else {
            return Ok(());
        };
        // The levels change from outside the steps.
        self.invalidate_level();
        let device = &self.core.device;
        made_on_first_use(device, &mut self.relax_pipeline, || {
            compute_pipeline(device, shaders::RELAX_TOWARD, "relax_toward", "main")
        })?;
        let Some(pipeline) = &self.relax_pipeline else {
            unreachable!("made above");
        };
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water cascade hand-over"),
            contents: bytemuck::bytes_of(&uniforms),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let (levels, inner_levels) = (self.core.levels, inner.core.levels);
        let layout = pipeline.get_bind_group_layout(0);
        let group = validated(device, || {
            let resources = [
                uniform.as_entire_binding(),
                inner.fields[inner_levels.current()].as_entire_binding(),
                inner.fields[inner_levels.previous()].as_entire_binding(),
                self.fields[levels.current()].as_entire_binding(),
                self.fields[levels.previous()].as_entire_binding(),
                self.land.as_entire_binding(),
            ];
            bind_in_order(device, &layout, "water cascade hand-over", resources)
        })?;
        record_compute_pass(
            encoder,
            "water cascade hand-over",
            pipeline,
            [&group],
            [
                uniforms.outer_size[0].div_ceil(RELAX_GROUP),
                uniforms.outer_size[1].div_ceil(RELAX_GROUP),
                1,
            ],
        );
        Ok(())
    }

    /// [`ComputeGrid::encode_relax_toward`] in a submission of its own, not waited for.
    ///
    /// # Errors
    /// As [`ComputeGrid::encode_relax_toward`]; a lost device.
    pub fn relax_toward(
        &mut self,
        inner: &ComputeGrid,
        overlap: &CascadeOverlap,
    ) -> Result<(), GpuError> {
        let (device, queue) = (self.core.device.clone(), self.core.queue.clone());
        submit_recorded(&device, &queue, "water cascade hand-over", |encoder| {
            self.encode_relax_toward(encoder, inner, overlap)
        })
    }
}
