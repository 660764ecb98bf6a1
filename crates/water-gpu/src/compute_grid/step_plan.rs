//! How [`ComputeGrid`] records a run of steps: fused dispatches of [`FUSED_STEPS`] steps
//! where the spec allows them, single steps for the rest, with their bind groups made once
//! per rotation of the time levels and reused; the dispersive model's steps are recorded by
//! `spectral.rs`.

use super::spectral::SpectralContacts;
use super::{ComputeGrid, FUSED_STEPS, TILE};
use crate::device_calls::submitted;
use crate::error::GpuError;
use crate::gpu_grid_water::GpuGridWater;
use crate::readback::PendingReadback;

/// Which bind group a dispatch of the step kernels binds, and the key it is kept under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum StepGroup {
    /// A single step over the levels `[old, current, new]`, with the contact uniforms or not.
    Single { contacts: bool, levels: [usize; 3] },
    /// A fused dispatch of [`FUSED_STEPS`] steps over the levels `[old, current, new current,
    /// new old]`.
    Fused([usize; 4]),
}

impl ComputeGrid {
    /// Workgroups of a single-step dispatch: one invocation per cell, or per word of two cells
    /// with f16 storage.
    pub(super) fn step_workgroups(&self) -> (u32, u32) {
        let size = self.core.spec.size;
        let row = self.storage.words_per_row(size.width()) as u32;
        (row.div_ceil(TILE), (size.height() as u32).div_ceil(TILE))
    }

    pub(super) fn encode_steps(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u64,
        contacts: bool,
    ) {
        self.encode_steps_timed(encoder, steps, contacts, None);
    }

    pub(super) fn encode_steps_timed(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u64,
        contacts: bool,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        if self.spectral.is_some() {
            let contacts = SpectralContacts::own_when(contacts);
            self.encode_spectral_steps(encoder, steps, &contacts, timestamp_writes);
            return;
        }
        let size = self.core.spec.size;
        // The fused kernel covers TILE x TILE cells per workgroup in either storage format.
        let groups_x = (size.width() as u32).div_ceil(TILE);
        let groups_y = (size.height() as u32).div_ceil(TILE);
        let (step_x, step_y) = self.step_workgroups();
        // Plan the dispatches first (bind groups are made or fetched outside the pass): fused
        // dispatches of FUSED_STEPS steps while they fit, single steps for the rest.
        let mut plan: Vec<(bool, wgpu::BindGroup)> = Vec::new();
        let mut left = steps;
        while left > 0 {
            if !contacts && self.fused_pipeline.is_some() && left >= FUSED_STEPS {
                let l = self.core.levels;
                let levels = [l.previous(), l.current(), l.after_next(), l.next()];
                let group = self.step_group(StepGroup::Fused(levels));
                plan.push((true, group));
                self.core.levels.advance(2);
                left -= FUSED_STEPS;
            } else {
                let l = self.core.levels;
                let levels = [l.previous(), l.current(), l.next()];
                let group = self.step_group(StepGroup::Single { contacts, levels });
                plan.push((false, group));
                self.core.levels.advance(1);
                left -= 1;
            }
        }
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("water steps"),
            timestamp_writes,
        });
        for (fused, group) in &plan {
            match (fused, &self.fused_pipeline) {
                (true, Some(fused_pipeline)) => {
                    pass.set_pipeline(fused_pipeline);
                    pass.set_bind_group(0, group, &[]);
                    pass.dispatch_workgroups(groups_x, groups_y, self.channels);
                }
                _ => {
                    pass.set_pipeline(&self.step_pipeline);
                    pass.set_bind_group(0, group, &[]);
                    pass.dispatch_workgroups(step_x, step_y, 1);
                }
            }
        }
        self.core.steps += steps;
        self.dispatches += plan.len() as u64;
    }

    /// The bind group of `which`, made on first use and kept: each rotation of the levels binds
    /// the same buffers every time it comes round.
    pub(super) fn step_group(&mut self, which: StepGroup) -> wgpu::BindGroup {
        if let Some(group) = self.step_groups.get(&which) {
            return group.clone();
        }
        let group = match which {
            StepGroup::Single { contacts, levels } => self.single_step_group(contacts, levels),
            StepGroup::Fused(levels) => self.fused_group(levels),
        };
        self.step_groups.insert(which, group.clone());
        group
    }

    /// A new bind group of the single-step kernel over the levels `[old, cur, new]`, with the
    /// contact uniforms when `contacts`.
    fn single_step_group(&self, contacts: bool, [old, cur, new]: [usize; 3]) -> wgpu::BindGroup {
        let mut resources = self.step_bindings(
            self.core.step_uniforms(contacts),
            (old, cur, new),
            (&self.contact_new, &self.contact_old),
        );
        if self.step_reads_faces() {
            resources.push(self.faces.as_entire_binding());
        }
        self.bind(&self.step_pipeline, "water step", resources)
    }

    /// A new bind group of the fused kernel over the levels `[old, cur, new_cur, new_old]`.
    fn fused_group(&self, [old, cur, new_cur, new_old]: [usize; 4]) -> wgpu::BindGroup {
        let Some(pipeline) = &self.fused_pipeline else {
            unreachable!("fused groups are only asked for with a fused pipeline");
        };
        let resources = [
            self.core.uniforms_plain.as_entire_binding(),
            self.fields[cur].as_entire_binding(),
            self.fields[old].as_entire_binding(),
            self.fields[new_cur].as_entire_binding(),
            self.fields[new_old].as_entire_binding(),
            self.land.as_entire_binding(),
        ];
        self.bind(pipeline, "water fused steps", resources)
    }

    /// A bind group giving `resources` bindings 0, 1, 2, ... of `pipeline`'s group 0.
    pub(super) fn bind<'r>(
        &self,
        pipeline: &wgpu::ComputePipeline,
        label: &str,
        resources: impl IntoIterator<Item = wgpu::BindingResource<'r>>,
    ) -> wgpu::BindGroup {
        let layout = pipeline.get_bind_group_layout(0);
        crate::device_calls::bind_in_order(&self.core.device, &layout, label, resources)
    }
}

impl ComputeGrid {
    /// Runs `steps` steps in one submission and measures them with GPU timestamp queries:
    /// the GPU's own time for the pass in seconds, or `None` when the device was created without
    /// [`wgpu::Features::TIMESTAMP_QUERY`] (the caller then times the submission by wall clock).
    /// **Submits and waits** for the GPU to finish.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn step_many_timed(&mut self, steps: u64) -> Result<Option<f64>, GpuError> {
        if !self
            .core
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            self.step_many(steps)?;
            crate::device_traffic::count_wait();
            self.core
                .device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| GpuError::DeviceLost(e.to_string()))?;
            return Ok(None);
        }
        let device = self.core.device.clone();
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("water step timestamps"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        let resolved = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("water timestamps"),
            size: 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        submitted(&device, || {
            let mut encoder = device.create_command_encoder(&Default::default());
            self.encode_steps_timed(
                &mut encoder,
                steps,
                false,
                Some(wgpu::ComputePassTimestampWrites {
                    query_set: &queries,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: Some(1),
                }),
            );
            encoder.resolve_query_set(&queries, 0..2, &resolved, 0);
            self.core.queue.submit([encoder.finish()]);
        })?;
        let bytes = PendingReadback::start(&device, &self.core.queue, &resolved, 16)?.wait()?;
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&bytes);
        let period_ns = f64::from(self.core.queue.get_timestamp_period());
        Ok(Some(
            ticks[1].saturating_sub(ticks[0]) as f64 * period_ns * 1e-9,
        ))
    }
}
