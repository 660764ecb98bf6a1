//! The fragment backend: each step is a full-screen render pass into a texture, as a game engine
//! steps a simulation viewport (render-to-texture ping-pong). A render pass cannot read the
//! texture it writes, so three textures rotate through the roles old, current and new ([`TimeLevels`]).
//! Its step passes bind `shaders/shared/fragment_step_bindings.wgsl`.

mod cell_amounts;
mod level_io;
mod level_keeping;
mod surface;
mod varying_depth;
mod window_shift;

use level_io::texel_bytes;
use varying_depth::faces_texture;

use water_core::{ContactMasks, GridMode, LandMask};

use crate::device_calls::{check_limit, level_texture, validated};
use crate::error::GpuError;
use crate::grid_core::{GridCore, LevelStore};
use crate::keeper::carried::{all_zero, carry_forward, pack, take_arrived, Recorded};
use crate::keeper::{HostKeeper, KeeperPlan};
use crate::pipelines::{full_screen_pass, full_screen_pipeline};
use crate::readback::{f32s, PendingReadback};
use crate::recording::{record_texture_write, submit_recorded};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;
use crate::uniforms::ImpulseCell;

/// A grid simulation stepped by render passes. Its operations are [`GpuGridWater`]'s (listed
/// among the blanket implementations: one implementation serves both grids).
///
/// [`GpuGridWater`]: crate::GpuGridWater
#[derive(Debug)]
pub struct FragmentGrid {
    /// The state every GPU grid keeps (`grid_core.rs`); the ring has three slots.
    core: GridCore,
    format: wgpu::TextureFormat,
    textures: [wgpu::Texture; 3],
    views: [wgpu::TextureView; 3],
    land: wgpu::Texture,
    /// The depth's faces (`face_at` of `shaders/grid_step_fragment.wgsl`, Rgba32Float); one
    /// placeholder texel until [`GpuGridWater::set_depth`].
    faces: wgpu::TextureView,
    contact_new: wgpu::Texture,
    contact_old: wgpu::Texture,
    delta: wgpu::Texture,
    step_pipeline: wgpu::RenderPipeline,
    impulse_pipeline: wgpu::RenderPipeline,
    /// The surface texture's pipeline, made on first use.
    surface_pipeline: Option<wgpu::RenderPipeline>,
    /// The mean-level keeper ([`HostKeeper`]), when the spec conserves volume; idle while land
    /// is set.
    keeper: Option<HostKeeper>,
    /// Both levels recorded into a caller's encoder at a step count, on their way back (the
    /// record-only path's keeper).
    recorded: Recorded,
}

impl FragmentGrid {
    /// What the fragment backend refuses of `spec` before any device is touched (what the
    /// CPU grids refuse, and the dispersive model): a caller can ask before it looks for an
    /// adapter. [`FragmentGrid::new`] checks the same, then the device's limits.
    ///
    /// # Errors
    /// [`GpuError::Invalid`] for specs the CPU grids refuse; [`GpuError::DispersiveNotOffered`]
    /// for the dispersive model.
    pub fn check_spec(spec: &GridSpec) -> Result<(), GpuError> {
        crate::spec::check_gpu_spec(spec, StorageFormat::F32)?;
        if spec.dispersion.is_some() {
            // A transform passes values along whole rows and columns through workgroup
            // memory; a render pass would need one pass per radix-2 stage per axis (about 40 a
            // step at 512^2) where the compute backend needs three dispatches.
            return Err(GpuError::DispersiveNotOffered {
                with: "the fragment backend (gpu-fragment)",
                reason: "its FFTs run in compute workgroup memory, which render passes lack; \
                         the compute backend (gpu) runs it",
            });
        }
        Ok(())
    }

    /// Builds the textures and pipelines on the caller's device. The water starts at rest.
    /// Submits nothing.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when the grid exceeds the device's texture size,
    /// what [`FragmentGrid::check_spec`] refuses,
    /// [`GpuError::Validation`] if wgpu rejects a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
    ) -> Result<Self, GpuError> {
        Self::check_spec(&spec)?;
        let size = spec.size;
        let max_dim = u64::from(device.limits().max_texture_dimension_2d);
        check_limit("texture width (texels)", size.width() as u64, max_dim)?;
        check_limit("texture height (texels)", size.height() as u64, max_dim)?;
        let format = match spec.mode {
            GridMode::Signed => wgpu::TextureFormat::R32Float,
            GridMode::Split => wgpu::TextureFormat::Rg32Float,
            GridMode::Classic => wgpu::TextureFormat::R32Sint,
        };
        let extent = wgpu::Extent3d {
            width: size.width() as u32,
            height: size.height() as u32,
            depth_or_array_layers: 1,
        };
        let texture = |label: &str, format: wgpu::TextureFormat, target: bool| {
            level_texture(device, label, extent, (format, target))
        };
        let (textures, land, contact_new, contact_old, delta) = validated(device, || {
            (
                [
                    texture("water field 0", format, true),
                    texture("water field 1", format, true),
                    texture("water field 2", format, true),
                ],
                texture("water land", wgpu::TextureFormat::R32Uint, false),
                texture("water contacts new", wgpu::TextureFormat::R32Float, false),
                texture("water contacts old", wgpu::TextureFormat::R32Float, false),
                texture("water impulse delta", format, false),
            )
        })?;
        let views = [0, 1, 2].map(|i| textures[i].create_view(&Default::default()));
        let faces = faces_texture(device, queue, (1, 1), &[[0.0; 4]]);
        let pipeline = |source: &str, label: &str, fragment_entry: &str| {
            full_screen_pipeline(device, source, label, fragment_entry, format)
        };
        let classic = spec.mode == GridMode::Classic;
        let (step_pipeline, impulse_pipeline) = validated(device, || {
            let step = if classic {
                pipeline(
                    shaders::CLASSIC_STEP_FRAGMENT,
                    "classic_step_fragment",
                    "fs_main",
                )
            } else {
                pipeline(shaders::GRID_STEP_FRAGMENT, "grid_step_fragment", "fs_main")
            };
            let impulse = pipeline(
                shaders::ADD_IMPULSE_FRAGMENT,
                "add_impulse_fragment",
                if classic { "fs_classic" } else { "fs_main" },
            );
            (step, impulse)
        })?;
        let grid = Self {
            core: GridCore::new(device, queue, spec, 3),
            format,
            textures,
            views,
            land,
            faces,
            contact_new,
            contact_old,
            delta,
            step_pipeline,
            impulse_pipeline,
            surface_pipeline: None,
            keeper: HostKeeper::new(&spec),
            recorded: None,
        };
        // Textures start zeroed in wgpu, so the water is at rest and there is no land.
        Ok(grid)
    }

    /// A view of the texture holding the current heights (R32Float; split mode Rg32Float with
    /// `p` and `n`; classic mode R32Sint), to bind in the caller's render passes. It changes
    /// with every recorded step or impulse: fetch it after recording them.
    #[must_use]
    pub fn current_view(&self) -> &wgpu::TextureView {
        &self.views[self.core.levels.current()]
    }

    fn step_group(&self, contacts: bool) -> wgpu::BindGroup {
        let (new, old) = (
            self.contact_new.create_view(&Default::default()),
            self.contact_old.create_view(&Default::default()),
        );
        self.step_group_with(contacts, &new, &old)
    }

    fn step_group_with(
        &self,
        contacts: bool,
        contact_new: &wgpu::TextureView,
        contact_old: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let (old, cur) = (self.core.levels.previous(), self.core.levels.current());
        let uniforms = self.core.step_uniforms(contacts);
        let land = self.land.create_view(&Default::default());
        let faces = (self.core.spec.mode != GridMode::Classic).then_some(wgpu::BindGroupEntry {
            binding: 6,
            resource: wgpu::BindingResource::TextureView(&self.faces),
        });
        let entries: Vec<wgpu::BindGroupEntry<'_>> = [
            wgpu::BindGroupEntry {
                binding: 0,
                resource: uniforms.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&self.views[cur]),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::TextureView(&self.views[old]),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: wgpu::BindingResource::TextureView(&land),
            },
            wgpu::BindGroupEntry {
                binding: 4,
                resource: wgpu::BindingResource::TextureView(contact_new),
            },
            wgpu::BindGroupEntry {
                binding: 5,
                resource: wgpu::BindingResource::TextureView(contact_old),
            },
        ]
        .into_iter()
        .chain(faces)
        .collect();
        self.core
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water fragment step"),
                layout: &self.step_pipeline.get_bind_group_layout(0),
                entries: &entries,
            })
    }

    /// One step with bow and stern events from contact masks that are already on the GPU:
    /// `R32Float` texture views the size of the grid (value: speed factor), for example rendered
    /// from hull meshes in the caller's own passes. Nothing is uploaded. **Submits** one command
    /// buffer (what [`FragmentGrid::encode_step_with_contact_textures`] records).
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the views do not fit (format, size), [`GpuError::DeviceLost`].
    pub fn step_with_contact_textures(
        &mut self,
        contact_new: &wgpu::TextureView,
        contact_old: &wgpu::TextureView,
        amplitude: f32,
    ) -> Result<(), GpuError> {
        let (device, queue) = (self.core.device.clone(), self.core.queue.clone());
        submit_recorded(&device, &queue, "water fragment contact step", |encoder| {
            self.encode_step_with_contact_textures(encoder, contact_new, contact_old, amplitude)
        })
    }

    /// Records [`FragmentGrid::step_with_contact_textures`] into the caller's encoder.
    /// **Records only**; the views are read when the encoder runs, so commands recorded earlier
    /// into the same encoder (the masks' drawing) are seen.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the views do not fit (format, size); nothing is recorded
    /// then.
    pub fn encode_step_with_contact_textures(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contact_new: &wgpu::TextureView,
        contact_old: &wgpu::TextureView,
        amplitude: f32,
    ) -> Result<(), GpuError> {
        let device = self.core.device.clone();
        let group = validated(&device, || {
            self.step_group_with(true, contact_new, contact_old)
        })?;
        // Contact events take and give water: the keeper re-anchors before its next step.
        self.invalidate_level();
        self.core.record_contact_uniforms(encoder, amplitude);
        full_screen_pass(
            encoder,
            &self.views[self.core.levels.next()],
            &self.step_pipeline,
            &group,
        );
        self.core.levels.advance(1);
        self.core.steps += 1;
        Ok(())
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool) {
        // One bind group per rotation of the three textures, made once for the whole run.
        let mut groups: Vec<wgpu::BindGroup> = Vec::with_capacity(3);
        for step in 0..steps {
            if (step as usize) < 3 {
                groups.push(self.step_group(contacts));
            }
            let target = &self.views[self.core.levels.next()];
            full_screen_pass(
                encoder,
                target,
                &self.step_pipeline,
                &groups[(step % 3) as usize],
            );
            self.core.levels.advance(1);
        }
        self.core.steps += steps;
    }
}

impl LevelStore for FragmentGrid {
    fn core(&self) -> &GridCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut GridCore {
        &mut self.core
    }

    fn keeper_plan(&self) -> Option<&KeeperPlan> {
        self.keeper.as_ref().map(HostKeeper::plan)
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool) {
        FragmentGrid::encode_steps(self, encoder, steps, contacts);
    }

    /// The keeper's anchoring or correction, when one is wanted: both levels read back,
    /// corrected on the host and written back. **Submits and waits** for the readback.
    fn keep_level(&mut self, before_step: bool) -> Result<(), GpuError> {
        // Levels recorded for the record-only path would correct levels corrected here anew.
        self.recorded = None;
        let (keeps, steps) = (self.keeps_level(), self.core.steps);
        if !keeps
            || !self
                .keeper
                .as_ref()
                .is_some_and(|k| k.plan().wanted(steps, before_step))
        {
            return Ok(());
        }
        let (cur, old) = (self.core.levels.current(), self.core.levels.previous());
        let mut cur_values = f32s(&self.read_texture(cur)?);
        let mut old_values = f32s(&self.read_texture(old)?);
        if let Some(keeper) = &mut self.keeper {
            keeper.correct(steps, &mut cur_values, &mut old_values);
        }
        self.write_field(cur, bytemuck::cast_slice(&cur_values));
        self.write_field(old, bytemuck::cast_slice(&old_values));
        Ok(())
    }

    /// The keeper's work for the record-only methods, recorded into the caller's encoder and
    /// never waiting: before a step (`before_step`), the correction of levels recorded earlier,
    /// once they have come back (planned by the CPU's keeper for the step count they were
    /// recorded at and carried forward to this one: `keeper/carried.rs`); then, when none
    /// are on their way and a correction (or anchoring) is wanted, both levels recorded for
    /// reading back. Polls the device without waiting.
    fn record_keep_level(&mut self, encoder: &mut wgpu::CommandEncoder, before_step: bool) {
        if !self.keeps_level() {
            return;
        }
        let arrived = before_step
            .then(|| take_arrived(&self.core.device, &mut self.recorded))
            .flatten();
        if let (Some((at, bytes)), Some(keeper)) = (arrived, &mut self.keeper) {
            let values = f32s(&bytes);
            let (cur, old) = values.split_at(values.len() / 2);
            let amounts = pack(&keeper.plan_texels(at, cur, old));
            if !all_zero(&amounts) {
                self.record_shift(encoder, &carry_forward(amounts, self.core.steps - at));
            }
        }
        let steps = self.core.steps;
        let wanted = self
            .keeper
            .as_ref()
            .is_some_and(|k| k.plan().wanted(steps, before_step));
        if self.recorded.is_none() && wanted {
            let levels = [
                &self.textures[self.core.levels.current()],
                &self.textures[self.core.levels.previous()],
            ];
            let texel = texel_bytes(self.format);
            let readback =
                PendingReadback::record_textures(&self.core.device, encoder, levels, texel);
            self.recorded = Some((steps, readback));
        }
    }

    /// Forgets the keeper's reference: the levels were changed from outside. Levels recorded
    /// before the change are dropped too (their correction would land on the changed levels).
    fn invalidate_level(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            keeper.invalidate();
        }
        self.recorded = None;
    }

    fn record_cell_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        cells: &[ImpulseCell],
        displacement: bool,
    ) -> Result<(), GpuError> {
        FragmentGrid::record_cell_amounts(self, encoder, cells, displacement)
    }

    fn record_contact_masks(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) {
        for (texture, mask) in [
            (&self.contact_new, contacts.new_mask()),
            (&self.contact_old, contacts.old_mask()),
        ] {
            record_texture_write(
                &self.core.device,
                encoder,
                texture,
                wgpu::Origin3d::ZERO,
                texture.size(),
                4,
                bytemuck::cast_slice(mask),
            );
        }
    }

    fn write_land_flags(&self, flags: &[u32]) {
        self.write_r32(&self.land, bytemuck::cast_slice(flags));
    }

    fn read_level_words(&self, slot: usize) -> Result<Vec<u32>, GpuError> {
        Ok(bytemuck::pod_collect_to_vec(&self.read_texture(slot)?))
    }

    fn write_level_words(&self, slot: usize, words: &[u32]) {
        self.write_field(slot, bytemuck::cast_slice(words));
    }

    fn clear_land_words(&self, words: &mut [u32], land: &LandMask) {
        let per_texel = (texel_bytes(self.format) / 4) as usize;
        for (texel, &dry) in words.chunks_exact_mut(per_texel).zip(land.cells()) {
            if dry {
                texel.fill(0);
            }
        }
    }
}
