//! The compute backend: the grid steppers of `water-core` as compute shaders on the caller's
//! device, many steps per submission, no CPU round trip between steps. Cells are stored as f32,
//! or as f16 pairs in `u32` words ([`StorageFormat`]); the arithmetic is f32 either way.

mod mean_level;

use std::collections::HashMap;

use water_core::{Boundary, ContactMasks, GridMode, GridSize, Impulse, LandMask};

use crate::error::GpuError;
use crate::pipelines::compute_pipeline;
use crate::readback::{f32s, i32s, PendingReadback};
use crate::recording::{record_buffer_write, submit_recorded};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage::{check_f16_range, pack_f16_rows, unpack_f16_rows, StorageFormat};
use crate::surface::Surface;
use crate::uniforms::{mode_code, GridUniforms, ImpulseCell, ImpulseUniforms, ImpulseWord};
use mean_level::GpuKeeper;

/// Cells per workgroup edge of the step kernels (`@workgroup_size(16, 16)`).
const TILE: u32 = 16;
/// Steps per dispatch of the fused kernel (`FUSED_STEPS` in `shaders/grid_step_fused.wgsl`).
pub const FUSED_STEPS: u64 = 4;
/// Invocations per workgroup of the impulse kernel.
const IMPULSE_GROUP: u32 = 64;

/// A grid simulation stepped by compute shaders.
///
/// ```no_run
/// # // no_run: doc tests do not assume a GPU; the crate's tests run this for real.
/// use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
/// use water_gpu::{ComputeGrid, GpuContext, GridSpec};
/// let gpu = GpuContext::headless()?;
/// let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerStep(0.999))?;
/// let spec = GridSpec::new(GridSize::new(256, 256)?, params, Boundary::Reflective, GridMode::Signed);
/// let mut water = ComputeGrid::new(&gpu.device, &gpu.queue, spec)?;
/// water.step_many(100)?; // one submission
/// let heights = water.heights()?;
/// # Ok::<(), water_gpu::GpuError>(())
/// ```
///
/// The same grid with half the bytes per cell, at the accuracy cost docs/math.md (section 11)
/// derives; it needs no device feature:
///
/// ```no_run
/// # use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
/// # use water_gpu::{ComputeGrid, GpuContext, GridSpec};
/// use water_gpu::StorageFormat;
/// # let gpu = GpuContext::headless()?;
/// # let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerStep(0.999))?;
/// let spec = GridSpec::new(GridSize::new(256, 256)?, params, Boundary::Reflective, GridMode::Signed)
///     .with_storage(StorageFormat::F16);
/// let mut water = ComputeGrid::new(&gpu.device, &gpu.queue, spec)?;
/// water.step_many(100)?;
/// let heights = water.heights()?; // widened to f32
/// # Ok::<(), water_gpu::GpuError>(())
/// ```
#[derive(Debug)]
pub struct ComputeGrid {
    device: wgpu::Device,
    queue: wgpu::Queue,
    spec: GridSpec,
    channels: u32,
    /// Four level buffers (laid out as `spec.storage` says): three rotate through the roles
    /// old, current and new for single steps; the fused kernel writes its two newest levels into
    /// the spare and the fourth.
    fields: [wgpu::Buffer; 4],
    /// `(old, current, spare)` indices into `fields`.
    roles: (usize, usize, usize),
    /// Index of the fourth buffer.
    extra: usize,
    land: wgpu::Buffer,
    land_mask: LandMask,
    contact_new: wgpu::Buffer,
    contact_old: wgpu::Buffer,
    step_pipeline: wgpu::ComputePipeline,
    /// Single-step bind groups by `(with contacts, old, current, new)`, made on first use.
    step_groups: HashMap<(bool, usize, usize, usize), wgpu::BindGroup>,
    /// The fused multi-step kernel (signed and split grids, fixed / reflective / periodic).
    fused_pipeline: Option<wgpu::ComputePipeline>,
    /// Fused bind groups by `(old, current, new current, new old)`.
    fused_groups: HashMap<(usize, usize, usize, usize), wgpu::BindGroup>,
    uniforms_plain: wgpu::Buffer,
    uniforms_contacts: wgpu::Buffer,
    base_uniforms: GridUniforms,
    impulse_pipeline: wgpu::ComputePipeline,
    /// The surface texture and its pipeline, made on first use.
    surface: Option<(Surface, wgpu::ComputePipeline)>,
    steps: u64,
    /// Step dispatches recorded (a fused dispatch counts once).
    dispatches: u64,
    /// The mean-level keeper (`shaders/mean_level.wgsl`), when the spec conserves volume:
    /// reflective or periodic, undamped, signed or split, f32 storage; idle while land is set.
    keeper: Option<GpuKeeper>,
}

pub(crate) fn storage_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytes,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

/// Checks that `needed` fits under a device limit.
pub(crate) fn check_limit(what: &'static str, needed: u64, limit: u64) -> Result<(), GpuError> {
    if needed > limit {
        Err(GpuError::TooLarge {
            what,
            needed,
            limit,
        })
    } else {
        Ok(())
    }
}

/// Runs `work` (which submits to the queue) inside a validation error scope. The crate's own
/// commands are valid for a live device, so an error here means the device is gone.
pub(crate) fn submitted<T>(device: &wgpu::Device, work: impl FnOnce() -> T) -> Result<T, GpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = work();
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(GpuError::DeviceLost(e.to_string())),
        None => Ok(value),
    }
}

/// Runs `create` inside a validation error scope and turns an error into a [`GpuError`].
pub(crate) fn validated<T>(
    device: &wgpu::Device,
    create: impl FnOnce() -> T,
) -> Result<T, GpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = create();
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(GpuError::Validation(e.to_string())),
        None => Ok(value),
    }
}

impl ComputeGrid {
    /// Builds the buffers and pipelines on the caller's device. The water starts at rest.
    /// Submits nothing.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when a field exceeds the device's storage-buffer or dispatch
    /// limits, [`GpuError::Unsupported`] for classic mode with another boundary than fixed or
    /// with f16 storage, [`GpuError::Validation`] if wgpu rejects a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
    ) -> Result<Self, GpuError> {
        crate::spec::check_gpu_spec(&spec)?;
        let size = spec.size;
        let cells = size.cells() as u64;
        let channels: u32 = if spec.mode == GridMode::Split { 2 } else { 1 };
        let f16 = spec.storage == StorageFormat::F16;
        let field_bytes = spec.storage.level_bytes(size, channels as usize);
        let limits = device.limits();
        check_limit(
            "storage buffer binding size (bytes)",
            field_bytes,
            limits.max_storage_buffer_binding_size,
        )?;
        check_limit("buffer size (bytes)", field_bytes, limits.max_buffer_size)?;
        let groups = size.width().max(size.height()).div_ceil(TILE as usize) as u64;
        check_limit(
            "workgroups per dispatch dimension",
            groups,
            u64::from(limits.max_compute_workgroups_per_dimension),
        )?;

        let fields =
            [0, 1, 2, 3].map(|i| storage_buffer(device, &format!("water field {i}"), field_bytes));
        let land = storage_buffer(device, "water land", cells * 4);
        let contact_new = storage_buffer(device, "water contacts new", cells * 4);
        let contact_old = storage_buffer(device, "water contacts old", cells * 4);
        let base_uniforms = GridUniforms::new(
            size.width() as u32,
            size.height() as u32,
            spec.boundary,
            spec.mode,
            spec.coefficients(),
            spec.classic_shift,
        );
        let uniforms_plain =
            uniform_buffer(device, "water uniforms", bytemuck::bytes_of(&base_uniforms));
        let uniforms_contacts = uniform_buffer(
            device,
            "water uniforms with contacts",
            bytemuck::bytes_of(&base_uniforms),
        );

        // `check` refused f16 classic grids, so f16 means a signed or split grid here.
        let (step_source, step_label, fused_source, impulse_source) =
            if spec.mode == GridMode::Classic {
                (
                    shaders::CLASSIC_STEP,
                    "classic_step",
                    "",
                    shaders::ADD_IMPULSE,
                )
            } else if f16 {
                (
                    shaders::GRID_STEP_F16,
                    "grid_step_f16",
                    shaders::GRID_STEP_FUSED_F16,
                    shaders::ADD_IMPULSE_F16,
                )
            } else {
                (
                    shaders::GRID_STEP,
                    "grid_step",
                    shaders::GRID_STEP_FUSED,
                    shaders::ADD_IMPULSE,
                )
            };
        let pipeline =
            |source: &str, label: &str, entry: &str| compute_pipeline(device, source, label, entry);
        let fusable = spec.mode != GridMode::Classic && spec.boundary != Boundary::Absorbing;
        let (step_pipeline, impulse_pipeline, fused_pipeline) = validated(device, || {
            let impulse_entry = if spec.mode == GridMode::Classic {
                "main_classic"
            } else {
                "main"
            };
            (
                pipeline(step_source, step_label, "main"),
                pipeline(impulse_source, "add_impulse", impulse_entry),
                fusable.then(|| pipeline(fused_source, "grid_step_fused", "main")),
            )
        })?;
        let keeper = validated(device, || GpuKeeper::new(device, &spec, false))?;
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            spec,
            channels,
            fields,
            roles: (0, 1, 2),
            extra: 3,
            land,
            land_mask: LandMask::empty(size),
            contact_new,
            contact_old,
            step_pipeline,
            step_groups: HashMap::new(),
            fused_pipeline,
            fused_groups: HashMap::new(),
            uniforms_plain,
            uniforms_contacts,
            base_uniforms,
            impulse_pipeline,
            surface: None,
            steps: 0,
            dispatches: 0,
            keeper,
        })
    }

    /// What the grid simulates.
    #[must_use]
    pub fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        self.steps
    }

    /// Step dispatches recorded so far: one per single step, one per fused group of
    /// [`FUSED_STEPS`] steps. With [`ComputeGrid::steps_taken`] it tells how a run was split.
    #[must_use]
    pub fn dispatches_recorded(&self) -> u64 {
        self.dispatches
    }

    /// The buffer holding the current level, for binding in the caller's own passes:
    /// `channels * width * height` f32 values (i32 holding i16 in classic mode), or with f16
    /// storage `channels * height` rows of `ceil(width / 2)` `u32` words, two binary16 cells per
    /// word, even cells in the low halves (see [`crate::storage`]). Which buffer it is changes
    /// with every recorded step: fetch it after recording the frame's steps.
    #[must_use]
    pub fn current_buffer(&self) -> &wgpu::Buffer {
        &self.fields[self.roles.1]
    }

    /// Workgroups of a single-step dispatch: one invocation per cell, or per word of two cells
    /// with f16 storage.
    fn step_workgroups(&self) -> (u32, u32) {
        let size = self.spec.size;
        let row = self.spec.storage.words_per_row(size.width()) as u32;
        (row.div_ceil(TILE), (size.height() as u32).div_ceil(TILE))
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool) {
        self.encode_steps_timed(encoder, steps, contacts, None);
    }

    fn encode_steps_timed(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u64,
        contacts: bool,
        timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) {
        let size = self.spec.size;
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
                let (old, cur, spare) = self.roles;
                let extra = self.extra;
                plan.push((true, self.fused_group(old, cur, spare, extra)));
                self.roles = (extra, spare, old);
                self.extra = cur;
                left -= FUSED_STEPS;
            } else {
                let (old, cur, new) = self.roles;
                plan.push((false, self.step_group(contacts, old, cur, new)));
                self.roles = (cur, new, old);
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
        self.steps += steps;
        self.dispatches += plan.len() as u64;
    }

    fn step_group(
        &mut self,
        contacts: bool,
        old: usize,
        cur: usize,
        new: usize,
    ) -> wgpu::BindGroup {
        let key = (contacts, old, cur, new);
        if let Some(group) = self.step_groups.get(&key) {
            return group.clone();
        }
        let uniforms = if contacts {
            &self.uniforms_contacts
        } else {
            &self.uniforms_plain
        };
        let resources = [
            uniforms.as_entire_binding(),
            self.fields[cur].as_entire_binding(),
            self.fields[old].as_entire_binding(),
            self.fields[new].as_entire_binding(),
            self.land.as_entire_binding(),
            self.contact_new.as_entire_binding(),
            self.contact_old.as_entire_binding(),
        ];
        let group = self.bind(&self.step_pipeline, "water step", resources);
        self.step_groups.insert(key, group.clone());
        group
    }

    fn fused_group(
        &mut self,
        old: usize,
        cur: usize,
        new_cur: usize,
        new_old: usize,
    ) -> wgpu::BindGroup {
        let key = (old, cur, new_cur, new_old);
        if let Some(group) = self.fused_groups.get(&key) {
            return group.clone();
        }
        let Some(pipeline) = &self.fused_pipeline else {
            unreachable!("fused groups are only asked for with a fused pipeline");
        };
        let resources = [
            self.uniforms_plain.as_entire_binding(),
            self.fields[cur].as_entire_binding(),
            self.fields[old].as_entire_binding(),
            self.fields[new_cur].as_entire_binding(),
            self.fields[new_old].as_entire_binding(),
            self.land.as_entire_binding(),
        ];
        let group = self.bind(pipeline, "water fused steps", resources);
        self.fused_groups.insert(key, group.clone());
        group
    }

    /// A bind group giving `resources` bindings 0, 1, 2, ... of `pipeline`'s group 0.
    fn bind<const N: usize>(
        &self,
        pipeline: &wgpu::ComputePipeline,
        label: &str,
        resources: [wgpu::BindingResource<'_>; N],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
            .into_iter()
            .enumerate()
            .map(|(binding, resource)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource,
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    /// Records `steps` steps into the caller's encoder (one compute pass: fused dispatches of
    /// [`FUSED_STEPS`] steps where the kernel applies, one dispatch per remaining step).
    /// **Records only**; the steps run when the caller submits the encoder. The grid's
    /// bookkeeping (which buffer holds which level, [`ComputeGrid::steps_taken`]) advances now,
    /// so operations recorded after this one see the stepped levels.
    pub fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        self.encode_steps(encoder, steps, false);
    }

    /// Runs `steps` steps. **Submits** one command buffer (what
    /// [`ComputeGrid::encode_step_many`] records); does not wait for it.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    ///
    /// On a grid that conserves volume (reflective or periodic, undamped, no land, signed or
    /// split, f32 storage) the run is cut where mean-level corrections fall, every
    /// [`water_core::kernels::mean_level::mean_level_period`] steps of the step count, as on the
    /// CPU: each cut submits the steps so far, then the keeper's sums, **waits** for them, and
    /// submits the shift (`shaders/mean_level.wgsl`).
    pub fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        self.keep_level(true)?;
        let mut left = steps;
        while left > 0 {
            let run = match (&self.keeper, self.keeps_level()) {
                (Some(keeper), true) => keeper.segment(self.steps, left),
                _ => left,
            };
            submit_recorded(&device, &queue, "water steps", |encoder| {
                self.encode_steps(encoder, run, false);
                Ok(())
            })?;
            left -= run;
            self.keep_level(false)?;
        }
        Ok(())
    }

    /// Whether the keeper runs now: the spec conserves volume and no land is set.
    fn keeps_level(&self) -> bool {
        self.keeper.is_some() && self.land_mask.is_empty()
    }

    /// The keeper's anchoring or correction, when one is wanted (see
    /// [`water_core::kernels::mean_level::MeanLevelKeeper::wanted`]).
    fn keep_level(&mut self, before_step: bool) -> Result<(), GpuError> {
        let land_free = self.land_mask.is_empty();
        let steps = self.steps;
        let (old, cur, _) = self.roles;
        match &mut self.keeper {
            Some(keeper) if land_free && keeper.wanted(steps, before_step) => keeper.correct(
                &self.device,
                &self.queue,
                &self.fields[cur],
                &self.fields[old],
                steps,
            ),
            _ => Ok(()),
        }
    }

    /// Forgets the keeper's reference: the levels were changed from outside.
    fn invalidate_level(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            keeper.invalidate();
        }
    }

    /// Runs `steps` steps in one submission and measures them with GPU timestamp queries:
    /// the GPU's own time for the pass in seconds, or `None` when the device was created without
    /// [`wgpu::Features::TIMESTAMP_QUERY`] (the caller then times the submission by wall clock).
    /// **Submits and waits** for the GPU to finish.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn step_many_timed(&mut self, steps: u64) -> Result<Option<f64>, GpuError> {
        if !self
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
        {
            self.step_many(steps)?;
            self.device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| GpuError::DeviceLost(e.to_string()))?;
            return Ok(None);
        }
        let device = self.device.clone();
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
            self.queue.submit([encoder.finish()]);
        })?;
        let bytes = PendingReadback::start(&device, &self.queue, &resolved, 16)?.wait()?;
        let ticks: Vec<u64> = bytemuck::pod_collect_to_vec(&bytes);
        let period_ns = f64::from(self.queue.get_timestamp_period());
        Ok(Some(
            ticks[1].saturating_sub(ticks[0]) as f64 * period_ns * 1e-9,
        ))
    }

    /// One step. **Submits** one command buffer.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn step(&mut self) -> Result<(), GpuError> {
        self.step_many(1)
    }

    /// One step with bow and stern events from `contacts`. **Submits** one command buffer (what
    /// [`ComputeGrid::encode_step_with_contacts`] records).
    ///
    /// # Errors
    /// [`water_core::WaterError::SizeMismatch`] (as [`GpuError::Invalid`]) if the masks belong
    /// to a grid of another size; [`GpuError::DeviceLost`].
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        submit_recorded(&device, &queue, "water contact step", |encoder| {
            self.encode_step_with_contacts(encoder, contacts)
        })
    }

    /// Records one step with bow and stern events from `contacts` into the caller's encoder:
    /// copies of both masks and of the amplitude from staging buffers, then the step. **Records
    /// only.** The copies are ordered with the rest of the encoder, so several contact steps
    /// recorded into one encoder each use their own masks.
    ///
    /// # Errors
    /// [`water_core::WaterError::SizeMismatch`] (as [`GpuError::Invalid`]) if the masks belong
    /// to a grid of another size; nothing is recorded then.
    pub fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError> {
        self.spec
            .size
            .check_len("contact mask", contacts.new_mask().len())?;
        self.spec
            .size
            .check_len("contact mask", contacts.old_mask().len())?;
        // Contact events take and give water: the keeper re-anchors before its next step.
        self.invalidate_level();
        self.record_contact_uniforms(encoder, contacts.amplitude());
        let device = &self.device;
        record_buffer_write(
            device,
            encoder,
            &self.contact_new,
            bytemuck::cast_slice(contacts.new_mask()),
        );
        record_buffer_write(
            device,
            encoder,
            &self.contact_old,
            bytemuck::cast_slice(contacts.old_mask()),
        );
        self.encode_steps(encoder, 1, true);
        Ok(())
    }

    /// Records the copy of the contact amplitude into the uniforms the contact steps read.
    fn record_contact_uniforms(&self, encoder: &mut wgpu::CommandEncoder, amplitude: f32) {
        let uniforms = GridUniforms {
            contact_amplitude: amplitude,
            has_contacts: 1,
            ..self.base_uniforms
        };
        record_buffer_write(
            &self.device,
            encoder,
            &self.uniforms_contacts,
            bytemuck::bytes_of(&uniforms),
        );
    }

    /// One step with bow and stern events from contact masks already in GPU buffers (one f32
    /// per cell, row-major; value: speed factor), e.g. written by the caller's own passes.
    /// Nothing is uploaded; the buffers need `STORAGE` usage. **Submits** one command buffer
    /// (what [`ComputeGrid::encode_step_with_contact_buffers`] records).
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the buffers do not fit, [`GpuError::DeviceLost`].
    pub fn step_with_contact_buffers(
        &mut self,
        contact_new: &wgpu::Buffer,
        contact_old: &wgpu::Buffer,
        amplitude: f32,
    ) -> Result<(), GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        submit_recorded(&device, &queue, "water contact step", |encoder| {
            self.encode_step_with_contact_buffers(encoder, contact_new, contact_old, amplitude)
        })
    }

    /// Records one step with bow and stern events from the contact masks in `contact_new` and
    /// `contact_old` (as [`ComputeGrid::step_with_contact_buffers`]) into the caller's encoder.
    /// **Records only**; the buffers are read when the encoder runs, so commands recorded
    /// earlier into the same encoder (the masks' drawing) are seen.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the buffers do not fit; nothing is recorded then.
    pub fn encode_step_with_contact_buffers(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contact_new: &wgpu::Buffer,
        contact_old: &wgpu::Buffer,
        amplitude: f32,
    ) -> Result<(), GpuError> {
        self.invalidate_level();
        let device = self.device.clone();
        let (old, cur, new) = self.roles;
        let entries = [
            (0, self.uniforms_contacts.as_entire_binding()),
            (1, self.fields[cur].as_entire_binding()),
            (2, self.fields[old].as_entire_binding()),
            (3, self.fields[new].as_entire_binding()),
            (4, self.land.as_entire_binding()),
            (5, contact_new.as_entire_binding()),
            (6, contact_old.as_entire_binding()),
        ]
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource });
        let group = validated(&device, || {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water step with caller's contacts"),
                layout: &self.step_pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
        })?;
        self.record_contact_uniforms(encoder, amplitude);
        let (groups_x, groups_y) = self.step_workgroups();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("water step with caller's contacts"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.step_pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
        }
        self.roles = (cur, new, old);
        self.steps += 1;
        self.dispatches += 1;
        Ok(())
    }

    /// Adds an impulse to the current heights (and, for a displacement, to the previous level
    /// too: [`Impulse::displacement`]). The per-cell amounts are computed on the host by
    /// [`Impulse::for_each_cell`], exactly as the CPU grids compute them. **Submits** one
    /// command buffer (what [`ComputeGrid::encode_add_impulse`] records).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        submit_recorded(&device, &queue, "water impulse", |encoder| {
            self.encode_add_impulse(encoder, impulse)
        })
    }

    /// Records [`ComputeGrid::add_impulse`] into the caller's encoder. **Records only.** The
    /// amounts travel in buffers made for this impulse alone, so impulses and steps recorded
    /// into one encoder apply in recording order, each once.
    ///
    /// # Errors
    /// None today for a live device; the `Result` keeps the `encode_` methods alike.
    pub fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError> {
        use wgpu::util::DeviceExt;
        self.invalidate_level();
        let cells = impulse_cells(
            impulse,
            self.spec.size,
            self.spec.boundary,
            self.spec.mode,
            &self.land_mask,
        );
        if cells.is_empty() {
            return Ok(());
        }
        let (count, entries): (usize, Vec<u8>) = match self.spec.storage {
            StorageFormat::F32 => (cells.len(), bytemuck::cast_slice(&cells).to_vec()),
            StorageFormat::F16 => {
                let words = self.impulse_words(&cells);
                if words.is_empty() {
                    return Ok(()); // every covered cell is land
                }
                (words.len(), bytemuck::cast_slice(&words).to_vec())
            }
        };
        let uniforms = ImpulseUniforms {
            cells: self.spec.size.cells() as u32,
            mode: mode_code(self.spec.mode),
            count: count as u32,
            _pad: 0,
        };
        let device = &self.device;
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water impulse"),
            contents: bytemuck::bytes_of(&uniforms),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let amounts = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water impulse cells"),
            contents: &entries,
            usage: wgpu::BufferUsages::STORAGE,
        });
        let field_binding = if self.spec.mode == GridMode::Classic {
            4
        } else {
            3
        };
        // A displacement adds the same amounts to the previous level, so the bump starts at
        // rest (DESIGN.md, "Impulses").
        let mut levels = vec![self.roles.1];
        if impulse.displacement() {
            levels.push(self.roles.0);
        }
        let groups: Vec<wgpu::BindGroup> = levels
            .iter()
            .map(|&level| {
                let mut entries = vec![
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniform.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: amounts.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: field_binding,
                        resource: self.fields[level].as_entire_binding(),
                    },
                ];
                // The f16 kernel leaves land to the host (`impulse_words`), so it binds no land.
                if self.spec.storage == StorageFormat::F32 {
                    entries.push(wgpu::BindGroupEntry {
                        binding: 2,
                        resource: self.land.as_entire_binding(),
                    });
                }
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("water impulse"),
                    layout: &self.impulse_pipeline.get_bind_group_layout(0),
                    entries: &entries,
                })
            })
            .collect();
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("water impulse"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.impulse_pipeline);
        for group in &groups {
            pass.set_bind_group(0, group, &[]);
            pass.dispatch_workgroups((count as u32).div_ceil(IMPULSE_GROUP), 1, 1);
        }
        Ok(())
    }

    /// An impulse's per-cell amounts grouped by f16 storage word, as `add_impulse_f16.wgsl`
    /// takes them: one entry per word, so no two invocations write the same word. Land cells
    /// are left out (as the f32 kernel skips them); split grids send negative amounts, as
    /// magnitudes, to the `n` plane.
    fn impulse_words(&self, cells: &[ImpulseCell]) -> Vec<ImpulseWord> {
        let size = self.spec.size;
        let (width, height) = (size.width(), size.height());
        let row_words = StorageFormat::F16.words_per_row(width);
        let mut words: Vec<ImpulseWord> = Vec::new();
        let mut slot: HashMap<u32, usize> = HashMap::new();
        for cell in cells {
            let i = cell.index as usize;
            if self.land_mask.cells()[i] {
                continue;
            }
            let (plane, amount) = if self.spec.mode == GridMode::Split && cell.amount < 0.0 {
                (1, -cell.amount)
            } else {
                (0, cell.amount)
            };
            let (x, y) = (i % width, i / width);
            let word = ((plane * height + y) * row_words + x / 2) as u32;
            let k = *slot.entry(word).or_insert_with(|| {
                words.push(ImpulseWord {
                    word,
                    low: 0.0,
                    high: 0.0,
                    _pad: 0,
                });
                words.len() - 1
            });
            // Each cell appears once per impulse, so this assigns rather than sums.
            if x % 2 == 0 {
                words[k].low = amount;
            } else {
                words[k].high = amount;
            }
        }
        words
    }

    /// Replaces the land and zeroes the land cells of both levels (a round trip through the
    /// host: meant for setting up a scene, not for every frame). **Submits and waits**; submit
    /// any encoder holding this grid's recorded operations first.
    ///
    /// # Errors
    /// A size mismatch, or a failed readback.
    pub fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        self.spec.size.check_len("land mask", land.cells().len())?;
        self.invalidate_level();
        let flags: Vec<u32> = land.cells().iter().map(|&l| u32::from(l)).collect();
        self.queue
            .write_buffer(&self.land, 0, bytemuck::cast_slice(&flags));
        for index in [self.roles.0, self.roles.1] {
            let bytes = PendingReadback::start(
                &self.device,
                &self.queue,
                &self.fields[index],
                self.fields[index].size(),
            )?
            .wait()?;
            let mut words: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
            clear_land_words(&mut words, &land, self.spec.storage);
            self.queue
                .write_buffer(&self.fields[index], 0, bytemuck::cast_slice(&words));
        }
        self.land_mask = land;
        Ok(())
    }

    /// Sets both time levels of a signed or split grid (`channels * cells` f32 values each:
    /// split mode stores `p` then `n`). Equal levels start the water at rest in that shape.
    /// With f16 storage the values are rounded to nearest f16 (ties to even) on the host.
    /// **Queues a write** (`queue.write_buffer`): it lands at the next submission, before every
    /// command buffer in it, so call it between frames, not while a recorded frame waits to be
    /// submitted.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] in classic mode, or with f16 storage for a value that is not
    /// finite or beyond ±[`crate::storage::F16_MAX`]; a size mismatch otherwise.
    pub fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        if self.spec.mode == GridMode::Classic {
            return Err(GpuError::Unsupported(
                "classic grids hold i16 heights: use upload_i16".into(),
            ));
        }
        let current = &crate::spec::settled_level(&self.spec, &self.land_mask, current);
        let previous = &crate::spec::settled_level(&self.spec, &self.land_mask, previous);
        match self.spec.storage {
            StorageFormat::F32 => self.upload(
                bytemuck::cast_slice(current),
                bytemuck::cast_slice(previous),
            ),
            StorageFormat::F16 => {
                let expected = self.values_per_level();
                for (what, values) in [("current level", current), ("previous level", previous)] {
                    if values.len() != expected {
                        return Err(water_core::WaterError::SizeMismatch {
                            what,
                            width: self.spec.size.width(),
                            height: self.spec.size.height(),
                            expected,
                            actual: values.len(),
                        }
                        .into());
                    }
                    check_f16_range(what, values)?;
                }
                let width = self.spec.size.width();
                self.upload(
                    bytemuck::cast_slice(&pack_f16_rows(current, width)),
                    bytemuck::cast_slice(&pack_f16_rows(previous, width)),
                )
            }
        }
    }

    /// Sets both time levels of a classic grid. **Queues a write**, as
    /// [`ComputeGrid::upload_f32`].
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] outside classic mode, a size mismatch otherwise.
    pub fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        if self.spec.mode != GridMode::Classic {
            return Err(GpuError::Unsupported(
                "only classic grids hold i16 heights: use upload_f32".into(),
            ));
        }
        let current = &crate::spec::settled_level(&self.spec, &self.land_mask, current);
        let previous = &crate::spec::settled_level(&self.spec, &self.land_mask, previous);
        let widen = |v: &[i16]| v.iter().map(|&x| i32::from(x)).collect::<Vec<i32>>();
        self.upload(
            bytemuck::cast_slice(&widen(current)),
            bytemuck::cast_slice(&widen(previous)),
        )
    }

    fn upload(&mut self, current: &[u8], previous: &[u8]) -> Result<(), GpuError> {
        let expected = self.fields[0].size() as usize;
        for (what, bytes) in [("current level", current), ("previous level", previous)] {
            if bytes.len() != expected {
                return Err(water_core::WaterError::SizeMismatch {
                    what,
                    width: self.spec.size.width(),
                    height: self.spec.size.height(),
                    expected: expected / 4,
                    actual: bytes.len() / 4,
                }
                .into());
            }
        }
        self.invalidate_level();
        self.queue
            .write_buffer(&self.fields[self.roles.1], 0, current);
        self.queue
            .write_buffer(&self.fields[self.roles.0], 0, previous);
        Ok(())
    }

    /// Starts reading the current level back as raw bytes, laid out as
    /// [`ComputeGrid::current_buffer`] says (f16 storage: packed words, half the bytes; widen
    /// them with [`crate::storage::unpack_f16_rows`]). Poll the device and take the bytes from
    /// the returned [`PendingReadback`] when they arrive. **Submits** a copy; does not wait.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn read_current_async(&self) -> Result<PendingReadback, GpuError> {
        let buffer = &self.fields[self.roles.1];
        PendingReadback::start(&self.device, &self.queue, buffer, buffer.size())
    }

    /// The raw bytes of a level as `channels * cells` f32 values (f16 widened exactly).
    fn decode(&self, bytes: &[u8]) -> Vec<f32> {
        match self.spec.storage {
            StorageFormat::F32 => f32s(bytes),
            StorageFormat::F16 => {
                unpack_f16_rows(&bytemuck::pod_collect_to_vec(bytes), self.spec.size.width())
            }
        }
    }

    /// Current heights as f32, row-major: signed heights, split `p - n`, classic values.
    /// **Submits and waits** (submit any encoder holding this grid's recorded operations
    /// first).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the readback fails.
    pub fn heights(&self) -> Result<Vec<f32>, GpuError> {
        let bytes = self.read_current_async()?.wait()?;
        let cells = self.spec.size.cells();
        Ok(match self.spec.mode {
            GridMode::Signed => self.decode(&bytes),
            GridMode::Split => {
                let v = self.decode(&bytes);
                v[..cells]
                    .iter()
                    .zip(&v[cells..])
                    .map(|(p, n)| p - n)
                    .collect()
            }
            GridMode::Classic => i32s(&bytes).into_iter().map(|v| v as f32).collect(),
        })
    }

    /// The current level's raw channels as f32 (`p` then `n` in split mode; f16 storage
    /// widened exactly). **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] in classic mode, [`GpuError::DeviceLost`] on failure.
    pub fn channels(&self) -> Result<Vec<f32>, GpuError> {
        if self.spec.mode == GridMode::Classic {
            return Err(GpuError::Unsupported(
                "classic grids hold i16 heights: use classic_heights".into(),
            ));
        }
        Ok(self.decode(&self.read_current_async()?.wait()?))
    }

    /// The current classic heights. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] outside classic mode, [`GpuError::DeviceLost`] on failure.
    pub fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        if self.spec.mode != GridMode::Classic {
            return Err(GpuError::Unsupported("not a classic grid".into()));
        }
        let bytes = self.read_current_async()?.wait()?;
        // The kernel only ever stores values already wrapped or clamped to i16.
        Ok(i32s(&bytes).into_iter().map(|v| v as i16).collect())
    }

    /// The number of values per level (`channels * cells`), whatever the storage format: what
    /// [`ComputeGrid::upload_f32`] takes and [`ComputeGrid::channels`] returns.
    #[must_use]
    pub fn values_per_level(&self) -> usize {
        self.channels as usize * self.spec.size.cells()
    }

    /// Computes the surface texture ([`crate::surface::SURFACE_FORMAT`], `Rgba32Float`: unit
    /// normal in xyz, height in w, per cell) from the current heights and returns its view, to
    /// bind in the caller's render passes with `textureLoad` or a non-filtering sampler. GPU
    /// twin of [`water_core::HeightView::cell_normal`]. **Submits** one command buffer (what
    /// [`ComputeGrid::encode_update_surface`] records).
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused, [`GpuError::DeviceLost`].
    pub fn update_surface(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        submit_recorded(&device, &queue, "water surface", |encoder| {
            self.encode_update_surface(encoder).map(drop)
        })?;
        Ok(&self.made_surface().view)
    }

    /// Records the update of the surface texture (as [`ComputeGrid::update_surface`]) into the
    /// caller's encoder and returns its view. **Records only**: the pass reads the level that
    /// is current at this point of the recording, so record it after the frame's steps.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused (on first use).
    pub fn encode_update_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        let device = self.device.clone();
        let f16 = self.spec.storage == StorageFormat::F16;
        if self.surface.is_none() {
            let surface = Surface::new(&device, &self.spec, true);
            let entry = if f16 {
                "main_f16"
            } else {
                Surface::entries(self.spec.mode).0
            };
            let pipeline = validated(&device, || {
                compute_pipeline(&device, shaders::SURFACE_NORMALS, "surface_normals", entry)
            })?;
            self.surface = Some((surface, pipeline));
        }
        let Some((surface, pipeline)) = &self.surface else {
            unreachable!("made above");
        };
        let field_binding = if self.spec.mode == GridMode::Classic {
            2
        } else if f16 {
            6
        } else {
            1
        };
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("water surface"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: surface.uniforms.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: field_binding,
                    resource: self.fields[self.roles.1].as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(&surface.view),
                },
            ],
        });
        let size = self.spec.size;
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("water surface"),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(
                (size.width() as u32).div_ceil(TILE),
                (size.height() as u32).div_ceil(TILE),
                1,
            );
        }
        Ok(&surface.view)
    }

    /// Updates the surface texture and its filterable copy
    /// ([`crate::surface::FILTERABLE_SURFACE_FORMAT`], `Rgba16Float`: the same texels rounded
    /// to binary16) and returns the copy's view: the one to bind with a linear sampler.
    /// **Submits** one command buffer (what [`ComputeGrid::encode_update_filterable_surface`]
    /// records).
    ///
    /// # Errors
    /// As [`ComputeGrid::update_surface`].
    pub fn update_filterable_surface(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        let (device, queue) = (self.device.clone(), self.queue.clone());
        submit_recorded(&device, &queue, "water surface", |encoder| {
            self.encode_update_filterable_surface(encoder).map(drop)
        })?;
        match &self.made_surface().filterable {
            Some(copy) => Ok(&copy.view),
            None => unreachable!("encode_update_filterable_surface made it"),
        }
    }

    /// Records [`ComputeGrid::update_filterable_surface`] into the caller's encoder: the
    /// surface pass, then the copy into the `Rgba16Float` texture, whose view it returns.
    /// **Records only.**
    ///
    /// # Errors
    /// As [`ComputeGrid::encode_update_surface`].
    pub fn encode_update_filterable_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        self.encode_update_surface(encoder)?;
        let device = self.device.clone();
        match &mut self.surface {
            Some((surface, _)) => surface.encode_filterable(&device, encoder),
            None => unreachable!("encode_update_surface made it"),
        }
    }

    /// The surface made by the first surface update.
    fn made_surface(&self) -> &Surface {
        match &self.surface {
            Some((surface, _)) => surface,
            None => unreachable!("only called after a surface update"),
        }
    }

    /// The `Rgba32Float` surface texture as the last recorded update left it (for copies in
    /// the caller's own commands); `None` before the first update.
    #[must_use]
    pub fn surface_texture(&self) -> Option<&wgpu::Texture> {
        self.surface.as_ref().map(|(surface, _)| &surface.texture)
    }

    /// The `Rgba16Float` filterable copy of the surface; `None` before the first
    /// [`ComputeGrid::update_filterable_surface`] or its `encode_` twin.
    #[must_use]
    pub fn filterable_surface_texture(&self) -> Option<&wgpu::Texture> {
        self.surface
            .as_ref()
            .and_then(|(surface, _)| surface.filterable.as_ref())
            .map(|copy| &copy.texture)
    }

    /// Updates the surface texture and reads it back: `[nx, ny, nz, height]` per cell.
    /// **Submits and waits.**
    ///
    /// # Errors
    /// As [`ComputeGrid::update_surface`], and readback failures.
    pub fn read_surface(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        self.update_surface()?;
        self.made_surface().read(&self.device, &self.queue)
    }

    /// Updates the surface and its filterable copy and reads the copy back, widened exactly
    /// to f32: `[nx, ny, nz, height]` per cell, each the f32 surface's value in binary16.
    /// **Submits and waits.**
    ///
    /// # Errors
    /// As [`ComputeGrid::update_surface`], and readback failures.
    pub fn read_filterable_surface(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        self.update_filterable_surface()?;
        match self
            .made_surface()
            .read_filterable(&self.device, &self.queue)?
        {
            Some(texels) => Ok(texels),
            None => unreachable!("update_filterable_surface made it"),
        }
    }

    /// The land currently set.
    #[must_use]
    pub fn land(&self) -> &LandMask {
        &self.land_mask
    }
}

/// Zeroes the land cells of every channel of a level's words: whole words of f32 (or i32)
/// storage, the cell's half of the word with f16 storage.
fn clear_land_words(words: &mut [u32], land: &LandMask, storage: StorageFormat) {
    let size = land.size();
    let width = size.width();
    let row_words = storage.words_per_row(width);
    let plane = row_words * size.height();
    for channel in words.chunks_exact_mut(plane) {
        for (i, _) in land.cells().iter().enumerate().filter(|(_, &dry)| dry) {
            let (x, y) = (i % width, i / width);
            match storage {
                // 0.0f32 and 0i32 share their bits.
                StorageFormat::F32 => channel[i] = 0,
                StorageFormat::F16 => {
                    // +0 in binary16 is all zero bits too; keep the other cell's half.
                    let keep = if x % 2 == 0 { 0xffff_0000 } else { 0x0000_ffff };
                    channel[y * row_words + x / 2] &= keep;
                }
            }
        }
    }
}

/// The impulse's per-cell amounts as the CPU grids would add them: interior cells only on a
/// fixed boundary, no land cells, classic amounts rounded and saturated to i16 first.
pub(crate) fn impulse_cells(
    impulse: &Impulse,
    size: GridSize,
    boundary: Boundary,
    mode: GridMode,
    land: &LandMask,
) -> Vec<ImpulseCell> {
    let mut cells = Vec::new();
    let interior_only = boundary == Boundary::Fixed || mode == GridMode::Classic;
    impulse.for_each_cell(size, interior_only, Some(land), |index, amount| {
        let amount = if mode == GridMode::Classic {
            f32::from(amount.round() as i16)
        } else {
            amount
        };
        cells.push(ImpulseCell {
            index: index as u32,
            amount,
        });
    });
    cells
}
