//! The fragment grid's mean-level keeper ([`HostKeeper`]): both levels read back, the
//! correction planned on the host by the CPU's keeper and added by a full-screen pass. Twin of
//! `compute_grid/mean_level.rs`, whose sums are taken on the device.

use water_core::GridMode;

use super::level_io::texel_bytes;
use super::FragmentGrid;
use crate::carried_correction::{all_zero, carry_forward, pack, take_arrived, Amounts};
use crate::error::GpuError;
use crate::pipelines::full_screen_pass;
use crate::readback::{f32s, PendingReadback};
use crate::recording::record_texture_write;

impl FragmentGrid {
    /// Whether the keeper runs now: the spec conserves volume and no land is set (and, as on
    /// the CPU, not over varying depth at a marginal checkerboard).
    pub(super) fn keeps_level(&self) -> bool {
        self.land_mask.is_empty()
            && self
                .keeper
                .as_ref()
                .is_some_and(|k| !(self.has_depth && k.checker()))
    }

    /// Forgets the keeper's reference: the levels were changed from outside. Levels recorded
    /// before the change are dropped too (their correction would land on the changed levels).
    pub(super) fn invalidate_level(&mut self) {
        if let Some(keeper) = &mut self.keeper {
            keeper.invalidate();
        }
        self.recorded = None;
    }

    /// The keeper's work for the record-only methods, recorded into the caller's encoder and
    /// never waiting: before a step (`before_step`), the correction of levels recorded earlier,
    /// once they have come back (planned by the CPU's keeper for the step count they were
    /// recorded at and carried forward to this one: `carried_correction.rs`); then, when none
    /// are on their way and a correction (or anchoring) is wanted, both levels recorded for
    /// reading back. Polls the device without waiting.
    pub(super) fn record_keep_level(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        before_step: bool,
    ) {
        if !self.keeps_level() {
            return;
        }
        let arrived = before_step
            .then(|| take_arrived(&self.device, &mut self.recorded))
            .flatten();
        if let (Some((at, bytes)), Some(keeper)) = (arrived, &mut self.keeper) {
            let values = f32s(&bytes);
            let (cur, old) = values.split_at(values.len() / 2);
            let amounts = pack(&keeper.plan(at, cur, old));
            if !all_zero(&amounts) {
                self.record_shift(encoder, &carry_forward(amounts, self.steps - at));
            }
        }
        let steps = self.steps;
        let wanted = self
            .keeper
            .as_ref()
            .is_some_and(|k| k.wanted(steps, before_step));
        if self.recorded.is_none() && wanted {
            let levels = [
                &self.textures[self.levels.current()],
                &self.textures[self.levels.previous()],
            ];
            let texel = texel_bytes(self.format);
            let readback = PendingReadback::record_textures(&self.device, encoder, levels, texel);
            self.recorded = Some((steps, readback));
        }
    }

    /// Records adding a correction's `amounts` to both levels: each level plus a delta texture
    /// of `plain ± checker` per channel (`shaders/add_impulse_fragment.wgsl`), rendered into the
    /// spare texture and then into the current level's, as a displacement impulse is. The
    /// delta is cleared afterwards, in order, for the next impulse.
    pub(super) fn record_shift(&mut self, encoder: &mut wgpu::CommandEncoder, amounts: &Amounts) {
        let size = self.spec.size;
        let (w, h) = (size.width(), size.height());
        let channels = if self.spec.mode == GridMode::Split {
            2
        } else {
            1
        };
        let delta = |words: &[f32; 8]| -> Vec<u8> {
            let mut texels = Vec::with_capacity(size.cells() * channels);
            for y in 0..h {
                for x in 0..w {
                    let sign = if (x + y).is_multiple_of(2) { 1.0 } else { -1.0 };
                    for c in 0..channels {
                        texels.push(words[4 * c] + sign * words[4 * c + 1]);
                    }
                }
            }
            bytemuck::cast_slice(&texels).to_vec()
        };
        let extent = wgpu::Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        };
        let (device, texel) = (self.device.clone(), texel_bytes(self.format));
        let write = |encoder: &mut wgpu::CommandEncoder, bytes: &[u8]| {
            let origin = wgpu::Origin3d::ZERO;
            record_texture_write(&device, encoder, &self.delta, origin, extent, texel, bytes);
        };
        let l = self.levels;
        write(encoder, &delta(&amounts[0]));
        self.record_add_delta(encoder, l.current(), l.next());
        write(encoder, &delta(&amounts[1]));
        self.record_add_delta(encoder, l.previous(), l.current());
        write(encoder, &vec![0u8; size.cells() * texel as usize]);
        self.levels.advance(1);
    }

    /// Records `level + delta` rendered into `target` (a render pass cannot read its target),
    /// land cells kept as they are.
    pub(super) fn record_add_delta(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        level: usize,
        target: usize,
    ) {
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (delta, land) = (view(&self.delta), view(&self.land));
        let classic = self.spec.mode == GridMode::Classic;
        let (level_binding, delta_binding) = if classic { (3, 4) } else { (0, 1) };
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("water fragment impulse"),
            layout: &self.impulse_pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: level_binding,
                    resource: wgpu::BindingResource::TextureView(&self.views[level]),
                },
                wgpu::BindGroupEntry {
                    binding: delta_binding,
                    resource: wgpu::BindingResource::TextureView(&delta),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&land),
                },
            ],
        });
        full_screen_pass(encoder, &self.views[target], &self.impulse_pipeline, &group);
    }

    /// The keeper's anchoring or correction, when one is wanted: both levels read back,
    /// corrected on the host and written back. **Submits and waits** for the readback.
    pub(super) fn keep_level(&mut self, before_step: bool) -> Result<(), GpuError> {
        // Levels recorded for the record-only path would correct levels corrected here anew.
        self.recorded = None;
        let (keeps, steps) = (self.keeps_level(), self.steps);
        if !keeps
            || !self
                .keeper
                .as_ref()
                .is_some_and(|k| k.wanted(steps, before_step))
        {
            return Ok(());
        }
        let (cur, old) = (self.levels.current(), self.levels.previous());
        let mut cur_values = f32s(&self.read_texture(cur)?);
        let mut old_values = f32s(&self.read_texture(old)?);
        if let Some(keeper) = &mut self.keeper {
            keeper.correct(steps, &mut cur_values, &mut old_values);
        }
        self.write_field(cur, bytemuck::cast_slice(&cur_values));
        self.write_field(old, bytemuck::cast_slice(&old_values));
        Ok(())
    }
}
