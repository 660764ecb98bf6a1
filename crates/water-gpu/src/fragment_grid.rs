//! The fragment backend: each step is a full-screen render pass into a texture, as a game engine
//! steps a simulation viewport (render-to-texture ping-pong). A render pass cannot read the
//! texture it writes, so three textures rotate through the roles old, current and new ([`TimeLevels`]).
//! Its step passes bind `shaders/shared/fragment_step_bindings.wgsl`.

mod cell_amounts;
mod level_io;
mod level_keeping;
mod varying_depth;
mod window_shift;

use level_io::texel_bytes;
use varying_depth::faces_texture;

use water_core::{ContactMasks, ContactSource, Depth, GridMode, Impulse, LandMask};

use crate::carried_correction::{record_in_runs, Recorded};
use crate::compute_grid::{displacement_cells, impulse_cells};
use crate::depth_faces::LandParts;
use crate::device_calls::{check_limit, level_texture, validated};
use crate::error::GpuError;
use crate::gpu_grid_water::{sealed::GridTargets, GpuGridWater};
use crate::host_keeper::HostKeeper;
use crate::normal_height::{NormalHeightTexture, NORMAL_HEIGHT_FORMAT};
use crate::pipelines::{full_screen_pass, full_screen_pipeline};
use crate::readback::{f32s, i32s};
use crate::recording::{record_buffer_write, record_texture_write, submit_recorded};
use crate::shaders;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;
use crate::time_levels::TimeLevels;
use crate::uniforms::GridUniforms;

/// A grid simulation stepped by render passes.
#[derive(Debug)]
pub struct FragmentGrid {
    device: wgpu::Device,
    queue: wgpu::Queue,
    spec: GridSpec,
    format: wgpu::TextureFormat,
    textures: [wgpu::Texture; 3],
    views: [wgpu::TextureView; 3],
    /// `(old, current, spare)` texture indices.
    levels: TimeLevels<3>,
    land: wgpu::Texture,
    /// The land as stepped: the caller's and the depth's dry cells.
    land_mask: LandMask,
    land_parts: LandParts,
    /// The depth's faces (`face_at` of `shaders/grid_step_fragment.wgsl`, Rgba32Float); one
    /// placeholder texel until [`GpuGridWater::set_depth`].
    faces: wgpu::TextureView,
    contact_new: wgpu::Texture,
    contact_old: wgpu::Texture,
    delta: wgpu::Texture,
    step_pipeline: wgpu::RenderPipeline,
    impulse_pipeline: wgpu::RenderPipeline,
    uniforms_plain: wgpu::Buffer,
    uniforms_contacts: wgpu::Buffer,
    base_uniforms: GridUniforms,
    /// The surface texture and its pipeline, made on first use.
    surface: Option<(NormalHeightTexture, wgpu::RenderPipeline)>,
    steps: u64,
    /// The mean-level keeper ([`HostKeeper`]), when the spec conserves volume; idle while land
    /// is set.
    keeper: Option<HostKeeper>,
    /// Both levels recorded into a caller's encoder at a step count, on their way back (the
    /// record-only path's keeper).
    recorded: Recorded,
    /// Whether a depth is set.
    has_depth: bool,
}

impl FragmentGrid {
    /// Builds the textures and pipelines on the caller's device. The water starts at rest.
    /// Queues the uniforms' first write; submits nothing.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when the grid exceeds the device's texture size,
    /// [`GpuError::Invalid`] for specs the CPU grids refuse,
    /// [`GpuError::StorageNotOffered`] for f16 storage (offered by [`crate::ComputeGrid`] only),
    /// [`GpuError::Validation`] if wgpu rejects a pipeline.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
    ) -> Result<Self, GpuError> {
        crate::spec::check_gpu_spec(&spec, StorageFormat::F32)?;
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
        let base_uniforms = GridUniforms::new(
            size.width() as u32,
            size.height() as u32,
            spec.boundary,
            spec.mode,
            spec.coefficients(),
            spec.classic_shift,
        );
        let uniform = |label: &str| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size_of::<GridUniforms>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            queue.write_buffer(&buffer, 0, bytemuck::bytes_of(&base_uniforms));
            buffer
        };
        let uniforms_plain = uniform("water uniforms");
        let uniforms_contacts = uniform("water uniforms with contacts");

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
            device: device.clone(),
            queue: queue.clone(),
            spec,
            format,
            textures,
            views,
            levels: TimeLevels::new(),
            land,
            land_mask: LandMask::empty(size),
            land_parts: LandParts::none(&spec),
            faces,
            contact_new,
            contact_old,
            delta,
            step_pipeline,
            impulse_pipeline,
            uniforms_plain,
            uniforms_contacts,
            base_uniforms,
            surface: None,
            steps: 0,
            keeper: HostKeeper::new(&spec),
            recorded: None,
            has_depth: false,
        };
        // Textures start zeroed in wgpu, so the water is at rest and there is no land.
        Ok(grid)
    }

    /// A view of the texture holding the current heights (R32Float; split mode Rg32Float with
    /// `p` and `n`; classic mode R32Sint), to bind in the caller's render passes. It changes
    /// with every recorded step or impulse: fetch it after recording them.
    #[must_use]
    pub fn current_view(&self) -> &wgpu::TextureView {
        &self.views[self.levels.current()]
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
        let (old, cur) = (self.levels.previous(), self.levels.current());
        let uniforms = if contacts {
            &self.uniforms_contacts
        } else {
            &self.uniforms_plain
        };
        let land = self.land.create_view(&Default::default());
        let faces = (self.spec.mode != GridMode::Classic).then_some(wgpu::BindGroupEntry {
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
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
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
        let (device, queue) = (self.device.clone(), self.queue.clone());
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
        let device = self.device.clone();
        let group = validated(&device, || {
            self.step_group_with(true, contact_new, contact_old)
        })?;
        // Contact events take and give water: the keeper re-anchors before its next step.
        self.invalidate_level();
        self.record_contact_uniforms(encoder, amplitude);
        full_screen_pass(
            encoder,
            &self.views[self.levels.next()],
            &self.step_pipeline,
            &group,
        );
        self.levels.advance(1);
        self.steps += 1;
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

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64, contacts: bool) {
        // One bind group per rotation of the three textures, made once for the whole run.
        let mut groups: Vec<wgpu::BindGroup> = Vec::with_capacity(3);
        for step in 0..steps {
            if (step as usize) < 3 {
                groups.push(self.step_group(contacts));
            }
            let target = &self.views[self.levels.next()];
            full_screen_pass(
                encoder,
                target,
                &self.step_pipeline,
                &groups[(step % 3) as usize],
            );
            self.levels.advance(1);
        }
        self.steps += steps;
    }
}

impl GridTargets for FragmentGrid {
    fn device(&self) -> &wgpu::Device {
        &self.device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    fn normal_height(&mut self) -> Option<&mut NormalHeightTexture> {
        self.surface.as_mut().map(|(made, _)| made)
    }

    fn normal_height_ref(&self) -> Option<&NormalHeightTexture> {
        self.surface.as_ref().map(|(made, _)| made)
    }
}

impl GpuGridWater for FragmentGrid {
    /// What the grid simulates.
    fn spec(&self) -> &GridSpec {
        &self.spec
    }

    /// Steps taken so far.
    fn steps_taken(&self) -> u64 {
        self.steps
    }

    /// The land currently set.
    fn land(&self) -> &LandMask {
        &self.land_mask
    }
    fn set_depth(&mut self, depth: &Depth) -> Result<(), GpuError> {
        self.take_depth(depth)
    }

    /// Replaces the land and zeroes the land cells of both levels (a host round trip, for
    /// setting up a scene). **Submits and waits**; submit any encoder holding this grid's
    /// recorded operations first.
    ///
    /// # Errors
    /// A size mismatch, or a failed readback.
    fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        self.spec.size.check_len("land mask", land.cells().len())?;
        self.land_parts.placed = land;
        let land = self.land_parts.combined()?;
        self.invalidate_level();
        let flags: Vec<u32> = land.cells().iter().map(|&l| u32::from(l)).collect();
        self.write_r32(&self.land, bytemuck::cast_slice(&flags));
        let per_texel = (texel_bytes(self.format) / 4) as usize;
        for index in [self.levels.previous(), self.levels.current()] {
            let mut words: Vec<u32> = bytemuck::pod_collect_to_vec(&self.read_texture(index)?);
            for (texel, &dry) in words.chunks_exact_mut(per_texel).zip(land.cells()) {
                if dry {
                    texel.fill(0);
                }
            }
            self.write_field(index, bytemuck::cast_slice(&words));
        }
        self.land_mask = land;
        Ok(())
    }

    fn encode_shift_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        dx: isize,
        dy: isize,
    ) -> Result<(), GpuError> {
        self.record_shift_window(encoder, dx, dy)
    }

    /// Records [`FragmentGrid::add_impulse`](crate::GpuGridWater::add_impulse) into the caller's encoder. **Records only.** The
    /// delta rectangle is written and cleared by copies recorded around the passes, so impulses
    /// and steps recorded into one encoder apply in recording order, each once.
    ///
    /// # Errors
    /// None today for a live device; the `Result` keeps the `encode_` methods alike.
    fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError> {
        let cells = impulse_cells(
            impulse,
            self.spec.size,
            self.spec.boundary,
            self.spec.mode,
            &self.land_mask,
        );
        self.record_cell_amounts(encoder, &cells, impulse.displacement())
    }

    /// Records one step with bow and stern events from `contacts` into the caller's encoder:
    /// copies of both masks and of the amplitude from staging buffers, then the step. **Records
    /// only.** The copies are ordered with the rest of the encoder, so several contact steps
    /// recorded into one encoder each use their own masks.
    ///
    /// # Errors
    /// A size mismatch, or [`water_core::WaterError::ContactSourceNotOffered`] for a displacement
    /// outside signed mode (as [`GpuError::Invalid`]); nothing is recorded then.
    fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError> {
        let size = self.spec.size;
        size.check_len("contact mask", contacts.new_mask().len())?;
        size.check_len("contact mask", contacts.old_mask().len())?;
        if contacts.source() == ContactSource::Displacement {
            // The pressure patch: a plain step, then the masks' displacement on both levels
            // (the CPU grids' `ContactMasks::apply_to_levels`).
            contacts.check_offered(self.spec.mode)?;
            self.encode_steps(encoder, 1, false);
            let cells = displacement_cells(contacts, size, self.spec.boundary, &self.land_mask);
            return self.record_cell_amounts(encoder, &cells, true);
        }
        // Contact events take and give water: the keeper re-anchors before its next step.
        self.invalidate_level();
        self.record_contact_uniforms(encoder, contacts.amplitude());
        for (texture, mask) in [
            (&self.contact_new, contacts.new_mask()),
            (&self.contact_old, contacts.old_mask()),
        ] {
            record_texture_write(
                &self.device,
                encoder,
                texture,
                wgpu::Origin3d::ZERO,
                texture.size(),
                4,
                bytemuck::cast_slice(mask),
            );
        }
        self.encode_steps(encoder, 1, true);
        Ok(())
    }

    /// Records `steps` steps into the caller's encoder (one render pass per step). **Records
    /// only**; the steps run when the caller submits the encoder. The grid's bookkeeping (which
    /// texture holds which level, [`FragmentGrid::steps_taken`](crate::GpuGridWater::steps_taken)) advances now, so operations
    /// recorded after this one see the stepped levels.
    ///
    /// On a grid that conserves volume the keeper works here too, never waiting: both levels
    /// are recorded for reading back where [`GpuGridWater::step_many`] would correct, and come
    /// back when the caller submits; a later `encode_step_many` that finds them arrived records
    /// their correction, planned by the CPU's keeper and carried forward to its own step count,
    /// as two passes adding a delta texture (`shaders/add_impulse_fragment.wgsl`).
    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        record_in_runs(
            self,
            encoder,
            steps,
            |grid, left| match (&grid.keeper, grid.keeps_level()) {
                (Some(keeper), true) => keeper.segment(grid.steps, left),
                _ => left,
            },
            Self::record_keep_level,
            |grid, encoder, run| grid.encode_steps(encoder, run, false),
        );
    }

    /// Runs `steps` steps. **Submits** one command buffer (what
    /// [`GpuGridWater::encode_step_many`] records); does not wait for it.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    ///
    /// On a grid that conserves volume (reflective or periodic, undamped, no land, signed or
    /// split) the run is cut where mean-level corrections fall, every
    /// [`water_core::kernels::mean_level::mean_level_period`] steps, as on the CPU: each cut
    /// submits the steps so far, **waits** for both levels to come back, corrects them on the
    /// host with the CPU's keeper and writes them back (`host_keeper.rs`).
    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
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

    /// Sets both time levels of a signed or split grid (split: `p` for all cells, then `n`).
    /// **Queues a write** (`queue.write_texture`): it lands at the next submission, before
    /// every command buffer in it, so call it between frames, not while a recorded frame waits
    /// to be submitted.
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] in classic mode, a size mismatch otherwise.
    fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        let cells = self.spec.size.cells();
        let channels = match self.spec.mode {
            GridMode::Classic => {
                return Err(GpuError::WrongMode {
                    operation: "upload_f32",
                    mode: GridMode::Classic,
                    instead: "upload_i16",
                })
            }
            GridMode::Split => 2,
            GridMode::Signed => 1,
        };
        for (what, level) in [("current level", current), ("previous level", previous)] {
            if level.len() != cells * channels {
                return Err(water_core::WaterError::SizeMismatch {
                    what,
                    width: self.spec.size.width(),
                    height: self.spec.size.height(),
                    expected: cells * channels,
                    actual: level.len(),
                }
                .into());
            }
        }
        let current = &crate::spec::settled_level(&self.spec, &self.land_mask, current);
        let previous = &crate::spec::settled_level(&self.spec, &self.land_mask, previous);
        self.invalidate_level();
        // Interleave split channels into RG texels.
        let texels = |level: &[f32]| -> Vec<f32> {
            if channels == 1 {
                level.to_vec()
            } else {
                (0..cells)
                    .flat_map(|i| [level[i], level[cells + i]])
                    .collect()
            }
        };
        self.write_field(
            self.levels.current(),
            bytemuck::cast_slice(&texels(current)),
        );
        self.write_field(
            self.levels.previous(),
            bytemuck::cast_slice(&texels(previous)),
        );
        Ok(())
    }

    /// Sets both time levels of a classic grid. **Queues a write**, as
    /// [`FragmentGrid::upload_f32`](crate::GpuGridWater::upload_f32).
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] outside classic mode, a size mismatch otherwise.
    fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        if self.spec.mode != GridMode::Classic {
            return Err(GpuError::WrongMode {
                operation: "upload_i16",
                mode: self.spec.mode,
                instead: "upload_f32",
            });
        }
        let current = &crate::spec::settled_level(&self.spec, &self.land_mask, current);
        let previous = &crate::spec::settled_level(&self.spec, &self.land_mask, previous);
        for level in [current, previous] {
            self.spec.size.check_len("classic level", level.len())?;
        }
        let widen = |v: &[i16]| v.iter().map(|&x| i32::from(x)).collect::<Vec<i32>>();
        self.write_field(self.levels.current(), bytemuck::cast_slice(&widen(current)));
        self.write_field(
            self.levels.previous(),
            bytemuck::cast_slice(&widen(previous)),
        );
        Ok(())
    }

    /// Current heights as f32, row-major: signed heights, split `p - n`, classic values.
    /// **Submits and waits** (submit any encoder holding this grid's recorded operations
    /// first).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the readback fails.
    fn heights(&self) -> Result<Vec<f32>, GpuError> {
        let bytes = self.read_texture(self.levels.current())?;
        Ok(match self.spec.mode {
            GridMode::Signed => f32s(&bytes),
            GridMode::Split => f32s(&bytes)
                .chunks_exact(2)
                .map(|pn| pn[0] - pn[1])
                .collect(),
            GridMode::Classic => i32s(&bytes).into_iter().map(|v| v as f32).collect(),
        })
    }

    /// The current level's channels as f32: `p` for all cells then `n` in split mode.
    /// **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] in classic mode, [`GpuError::DeviceLost`] on failure.
    fn channels(&self) -> Result<Vec<f32>, GpuError> {
        let values = f32s(&self.read_texture(self.levels.current())?);
        match self.spec.mode {
            GridMode::Classic => Err(GpuError::WrongMode {
                operation: "channels",
                mode: GridMode::Classic,
                instead: "classic_heights",
            }),
            GridMode::Signed => Ok(values),
            GridMode::Split => {
                let p = values.iter().step_by(2);
                let n = values.iter().skip(1).step_by(2);
                Ok(p.chain(n).copied().collect())
            }
        }
    }

    /// The current classic heights. **Submits and waits.**
    ///
    /// # Errors
    /// [`GpuError::WrongMode`] outside classic mode, [`GpuError::DeviceLost`] on failure.
    fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        if self.spec.mode != GridMode::Classic {
            return Err(GpuError::WrongMode {
                operation: "classic_heights",
                mode: self.spec.mode,
                instead: "heights",
            });
        }
        let bytes = self.read_texture(self.levels.current())?;
        Ok(i32s(&bytes).into_iter().map(|v| v as i16).collect())
    }

    /// Records the surface update (as [`FragmentGrid::update_normal_height`](crate::GpuGridWater::update_normal_height)) into the caller's
    /// encoder and returns the texture's view. **Records only**: the pass reads the level that
    /// is current at this point of the recording, so record it after the frame's steps.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused (on first use).
    fn encode_update_normal_height(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        let device = self.device.clone();
        if self.surface.is_none() {
            let surface = NormalHeightTexture::new(&device, &self.spec, StorageFormat::F32, false);
            let pipeline = validated(&device, || {
                full_screen_pipeline(
                    &device,
                    shaders::SURFACE_NORMALS,
                    "surface_normals",
                    NormalHeightTexture::fragment_entry(self.spec.mode),
                    NORMAL_HEIGHT_FORMAT,
                )
            })?;
            self.surface = Some((surface, pipeline));
        }
        let Some((surface, pipeline)) = &self.surface else {
            unreachable!("made above");
        };
        let field_binding = if self.spec.mode == GridMode::Classic {
            5
        } else {
            4
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
                    resource: wgpu::BindingResource::TextureView(
                        &self.views[self.levels.current()],
                    ),
                },
            ],
        });
        full_screen_pass(encoder, &surface.view, pipeline, &group);
        Ok(&surface.view)
    }
}
