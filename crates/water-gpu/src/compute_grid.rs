//! The compute backend: the grid steppers of `water-core` as compute shaders on the caller's
//! device, many steps per submission, no CPU round trip between steps. Cells are stored as f32,
//! or as f16 pairs in `u32` words ([`StorageFormat`]); the arithmetic is f32 either way.

mod impulse;
mod level_io;
use level_io::clear_land_words;

mod relax_toward;
pub use relax_toward::CascadeOverlap;

mod spectral;
mod step_plan;
mod surface;
mod varying_depth;
mod window_shift;

pub use spectral::SPECTRAL_MAX_SIDE;

use std::collections::HashMap;

use water_core::{Boundary, ContactMasks, GridMode, LandMask};

use crate::device_calls::{
    check_limit, check_storage_bytes, record_compute_pass, storage_buffer, validated,
};
use crate::error::GpuError;
use crate::grid_core::{GridCore, LevelStore};
use crate::keeper::{GpuKeeper, KeeperPlan};
use crate::pipelines::compute_pipeline;
use crate::readback::PendingReadback;
use crate::recording::{record_buffer_write, submit_recorded};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;
use crate::uniforms::ImpulseCell;

use spectral::{SpectralContacts, SpectralPlan};
use step_plan::StepGroup;

/// Cells per workgroup edge of the step kernels (`@workgroup_size(16, 16)`).
const TILE: u32 = 16;
/// Steps per dispatch of the fused kernel (`FUSED_STEPS` in `shaders/grid_step_fused.wgsl`).
pub const FUSED_STEPS: u64 = 4;
/// Invocations per workgroup of the impulse kernel.
const IMPULSE_GROUP: u32 = 64;

/// A grid simulation stepped by compute shaders. Its operations are [`GpuGridWater`]'s (listed
/// among the blanket implementations: one implementation serves both grids).
///
/// [`GpuGridWater`]: crate::GpuGridWater
///
/// ```no_run
/// # // no_run: doc tests do not assume a GPU; the crate's tests run this for real.
/// use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
/// use water_gpu::{ComputeGrid, GpuContext, GpuGridWater, GridSpec};
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
/// # use water_gpu::{ComputeGrid, GpuContext, GpuGridWater, GridSpec};
/// use water_gpu::StorageFormat;
/// # let gpu = GpuContext::headless()?;
/// # let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerStep(0.999))?;
/// let spec = GridSpec::new(GridSize::new(256, 256)?, params, Boundary::Reflective, GridMode::Signed);
/// let mut water = ComputeGrid::with_storage(&gpu.device, &gpu.queue, spec, StorageFormat::F16)?;
/// water.step_many(100)?;
/// let heights = water.heights()?; // widened to f32
/// # Ok::<(), water_gpu::GpuError>(())
/// ```
#[derive(Debug)]
pub struct ComputeGrid {
    /// The state every GPU grid keeps (`grid_core.rs`); the ring has four slots.
    core: GridCore,
    /// How each level stores its cells.
    storage: StorageFormat,
    channels: u32,
    /// Four level buffers (laid out as `storage` says): a single step writes one spare,
    /// the fused kernel writes its two newest levels into both.
    fields: [wgpu::Buffer; 4],
    land: wgpu::Buffer,
    /// The depth's faces (`face_at` of `shaders/grid_step.wgsl`); one placeholder cell until
    /// [`GpuGridWater::set_depth`].
    faces: wgpu::Buffer,
    contact_new: wgpu::Buffer,
    contact_old: wgpu::Buffer,
    step_pipeline: wgpu::ComputePipeline,
    /// Single-step and fused bind groups by their levels, made on first use.
    step_groups: HashMap<StepGroup, wgpu::BindGroup>,
    /// The fused multi-step kernel (signed and split grids, fixed / reflective / periodic).
    fused_pipeline: Option<wgpu::ComputePipeline>,
    impulse_pipeline: wgpu::ComputePipeline,
    /// `shaders/shift_window.wgsl`, made by the first window shift.
    shift_pipeline: Option<wgpu::ComputePipeline>,
    /// `shaders/relax_toward.wgsl`, made by the first cascade hand-over.
    relax_pipeline: Option<wgpu::ComputePipeline>,
    /// The surface texture's pipeline, made on first use.
    surface_pipeline: Option<wgpu::ComputePipeline>,
    /// Step dispatches recorded (a fused dispatch counts once).
    dispatches: u64,
    /// The mean-level keeper (`shaders/mean_level.wgsl`), when the spec conserves volume:
    /// reflective or periodic, undamped, signed or split, either storage; idle while land is
    /// set.
    /// None for the dispersive model, whose CPU twin keeps none.
    keeper: Option<GpuKeeper>,
    /// The dispersive model's transforms (`shaders/spectral_step.wgsl`), when the spec has a
    /// dispersion relation; the five-point pipelines then stand idle.
    spectral: Option<SpectralPlan>,
}

impl ComputeGrid {
    /// Builds the buffers and pipelines on the caller's device, cells stored as f32. The water
    /// starts at rest. Submits nothing.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when a field exceeds the device's storage-buffer or dispatch
    /// limits, [`GpuError::Invalid`] for specs the CPU grids refuse (classic mode with another
    /// boundary than fixed), [`GpuError::Validation`] if wgpu rejects a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
    ) -> Result<Self, GpuError> {
        Self::with_storage(device, queue, spec, StorageFormat::F32)
    }

    /// As [`ComputeGrid::new`], each level's cells stored as `storage` says (the arithmetic
    /// is f32 either way).
    ///
    /// # Errors
    /// As [`ComputeGrid::new`]; [`GpuError::StorageNotOffered`] for f16 storage of a classic
    /// grid or of the dispersive model.
    pub fn with_storage(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
        storage: StorageFormat,
    ) -> Result<Self, GpuError> {
        crate::spec::check_gpu_spec(&spec, storage)?;
        let size = spec.size;
        let cells = size.cells() as u64;
        let channels: u32 = if spec.mode == GridMode::Split { 2 } else { 1 };
        let f16 = storage == StorageFormat::F16;
        let field_bytes = storage.level_bytes(size, channels as usize);
        let limits = device.limits();
        check_storage_bytes(device, field_bytes)?;
        let groups = size.width().max(size.height()).div_ceil(TILE as usize) as u64;
        check_limit(
            "workgroups per dispatch dimension",
            groups,
            u64::from(limits.max_compute_workgroups_per_dimension),
        )?;

        let fields =
            [0, 1, 2, 3].map(|i| storage_buffer(device, &format!("water field {i}"), field_bytes));
        let land = storage_buffer(device, "water land", cells * 4);
        let faces = storage_buffer(device, "water depth faces (none set)", 16);
        let contact_new = storage_buffer(device, "water contacts new", cells * 4);
        let contact_old = storage_buffer(device, "water contacts old", cells * 4);

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
        let spectral = spec
            .dispersion
            .map(|airy| SpectralPlan::new(device, queue, &spec, storage, &airy))
            .transpose()?;
        let fusable = spec.mode != GridMode::Classic
            && spec.boundary != Boundary::Absorbing
            && spectral.is_none();
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
        // The dispersive model's spectral step keeps the mean only in exact arithmetic, as the
        // stencil does: the same keeper holds it (its checkerboard is no marginal mode there,
        // `a < 1/2` below the step's limit).
        let keeper = validated(device, || GpuKeeper::new(device, &spec, storage))?;
        Ok(Self {
            core: GridCore::new(device, queue, spec, 4),
            storage,
            channels,
            fields,
            land,
            faces,
            contact_new,
            contact_old,
            step_pipeline,
            step_groups: HashMap::new(),
            fused_pipeline,
            impulse_pipeline,
            shift_pipeline: None,
            relax_pipeline: None,
            surface_pipeline: None,
            dispatches: 0,
            keeper,
            spectral,
        })
    }

    /// How each level stores its cells.
    #[must_use]
    pub fn storage(&self) -> StorageFormat {
        self.storage
    }

    /// Step dispatches recorded so far: one per single step, one per fused group of
    /// [`FUSED_STEPS`] steps. With [`ComputeGrid::steps_taken`](crate::GpuGridWater::steps_taken) it tells how a run was split.
    #[must_use]
    pub fn dispatches_recorded(&self) -> u64 {
        self.dispatches
    }

    /// The buffer holding the current level, for binding in the caller's own passes:
    /// `channels * width * height` f32 values (i32 holding i16 in classic mode), or with f16
    /// storage `channels * height` rows of `ceil(width / 2)` `u32` words, two binary16 cells per
    /// word, even cells in the low halves (see [`crate::StorageFormat`]). Which buffer it is changes
    /// with every recorded step: fetch it after recording the frame's steps.
    #[must_use]
    pub fn current_buffer(&self) -> &wgpu::Buffer {
        &self.fields[self.core.levels.current()]
    }

    /// Whether the step kernel is `shaders/grid_step.wgsl` (signed or split, f32), which binds
    /// the depth's faces.
    fn step_reads_faces(&self) -> bool {
        self.core.spec.mode != GridMode::Classic && self.storage == StorageFormat::F32
    }

    /// The first seven bindings of the step kernels (`shaders/shared/grid_step_bindings.wgsl`)
    /// and of the spectral ones: uniforms, the current, previous and new levels, land, and the
    /// two contact masks.
    fn step_bindings<'a>(
        &'a self,
        uniforms: &'a wgpu::Buffer,
        (old, cur, new): (usize, usize, usize),
        (contact_new, contact_old): (&'a wgpu::Buffer, &'a wgpu::Buffer),
    ) -> Vec<wgpu::BindingResource<'a>> {
        vec![
            uniforms.as_entire_binding(),
            self.fields[cur].as_entire_binding(),
            self.fields[old].as_entire_binding(),
            self.fields[new].as_entire_binding(),
            self.land.as_entire_binding(),
            contact_new.as_entire_binding(),
            contact_old.as_entire_binding(),
        ]
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
        let (device, queue) = (self.core.device.clone(), self.core.queue.clone());
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
        let device = self.core.device.clone();
        let l = self.core.levels;
        let (old, cur, new) = (l.previous(), l.current(), l.next());
        if self.spectral.is_some() {
            let contacts = SpectralContacts::Caller(contact_new, contact_old);
            let group = validated(&device, || self.spectral_group(&contacts, old, cur, new))?;
            self.core.levels.advance(1);
            self.core.record_contact_uniforms(encoder, amplitude);
            self.record_spectral_pass(encoder, &[group], None);
            return Ok(());
        }
        let mut resources = self.step_bindings(
            &self.core.uniforms_contacts,
            (old, cur, new),
            (contact_new, contact_old),
        );
        if self.step_reads_faces() {
            resources.push(self.faces.as_entire_binding());
        }
        let layout = self.step_pipeline.get_bind_group_layout(0);
        let group = validated(&device, || {
            let label = "water step with caller's contacts";
            crate::device_calls::bind_in_order(&device, &layout, label, resources)
        })?;
        self.core.record_contact_uniforms(encoder, amplitude);
        let (groups_x, groups_y) = self.step_workgroups();
        record_compute_pass(
            encoder,
            "water step with caller's contacts",
            &self.step_pipeline,
            [&group],
            [groups_x, groups_y, 1],
        );
        self.core.levels.advance(1);
        self.core.steps += 1;
        self.dispatches += 1;
        Ok(())
    }
}

impl LevelStore for ComputeGrid {
    fn core(&self) -> &GridCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut GridCore {
        &mut self.core
    }

    fn keeper_plan(&self) -> Option<&KeeperPlan> {
        self.keeper.as_ref().map(GpuKeeper::plan)
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool) {
        ComputeGrid::encode_steps(self, encoder, steps, contacts);
    }

    /// The keeper's anchoring or correction, when one is wanted (see
    /// [`water_core::kernels::mean_level::MeanLevelKeeper::wanted`]).
    fn keep_level(&mut self, before_step: bool) -> Result<(), GpuError> {
        let keeps = self.keeps_level();
        let steps = self.core.steps;
        let (old, cur) = (self.core.levels.previous(), self.core.levels.current());
        match &mut self.keeper {
            Some(keeper) if keeps && keeper.plan().wanted(steps, before_step) => keeper.correct(
                &self.core.device,
                &self.core.queue,
                [&self.fields[cur], &self.fields[old]],
                steps,
            ),
            _ => Ok(()),
        }
    }

    /// The keeper's work for the record-only methods, recorded into the caller's encoder
    /// ([`GpuKeeper::record_keeping`]): the correction of sums recorded earlier once they have
    /// arrived, and the sums of both levels when a correction is wanted.
    fn record_keep_level(&mut self, encoder: &mut wgpu::CommandEncoder, before_step: bool) {
        if !self.keeps_level() {
            return;
        }
        let steps = self.core.steps;
        let (old, cur) = (self.core.levels.previous(), self.core.levels.current());
        if let Some(keeper) = &mut self.keeper {
            let levels = [&self.fields[cur], &self.fields[old]];
            keeper.record_keeping(&self.core.device, encoder, levels, steps, before_step);
        }
    }

    /// Forgets the keeper's reference: the levels were changed from outside.
    fn invalidate_level(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            keeper.invalidate();
        }
    }

    fn record_cell_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        cells: &[ImpulseCell],
        displacement: bool,
    ) -> Result<(), GpuError> {
        ComputeGrid::record_cell_amounts(self, encoder, cells, displacement)
    }

    fn record_contact_masks(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) {
        let device = &self.core.device;
        for (buffer, mask) in [
            (&self.contact_new, contacts.new_mask()),
            (&self.contact_old, contacts.old_mask()),
        ] {
            record_buffer_write(device, encoder, buffer, bytemuck::cast_slice(mask));
        }
    }

    fn check_displacement(&self) -> Result<(), GpuError> {
        if self.storage == StorageFormat::F16 {
            // Each level would round its shift on its own, so the velocity the patch keeps
            // would not be kept.
            return Err(GpuError::StorageNotOffered {
                storage: StorageFormat::F16,
                reason: "for the displacement contact source, whose shift both levels must \
                         take exactly",
            });
        }
        Ok(())
    }

    fn write_land_flags(&self, flags: &[u32]) {
        self.core
            .queue
            .write_buffer(&self.land, 0, bytemuck::cast_slice(flags));
    }

    fn read_level_words(&self, slot: usize) -> Result<Vec<u32>, GpuError> {
        let field = &self.fields[slot];
        let bytes =
            PendingReadback::start(&self.core.device, &self.core.queue, field, field.size())?
                .wait()?;
        Ok(bytemuck::pod_collect_to_vec(&bytes))
    }

    fn write_level_words(&self, slot: usize, words: &[u32]) {
        self.core
            .queue
            .write_buffer(&self.fields[slot], 0, bytemuck::cast_slice(words));
    }

    fn clear_land_words(&self, words: &mut [u32], land: &LandMask) {
        clear_land_words(words, land, self.storage);
    }
}
