//! How the fragment grid adds a mean-level correction: a delta texture and full-screen passes.
//! Its keeper ([`crate::keeper::HostKeeper`]) plans the correction on the host from both
//! levels read back; when it runs is the `LevelStore` impl's `keep_level` and
//! `record_keep_level` (`fragment_grid.rs`). Twin of `keeper/device_sums.rs`, whose sums and
//! shift run on the device.

use water_core::GridMode;

use super::level_io::texel_bytes;
use super::FragmentGrid;
use crate::keeper::carried::Amounts;
use crate::pipelines::record_add_delta_pass;
use crate::recording::record_texture_write;

impl FragmentGrid {
    /// Records adding a correction's `amounts` to both levels: each level plus a delta texture
    /// of `plain ± checker` per channel (`shaders/add_impulse_fragment.wgsl`), rendered into the
    /// spare texture and then into the current level's, as a displacement impulse is. The
    /// delta is cleared afterwards, in order, for the next impulse.
    pub(super) fn record_shift(&mut self, encoder: &mut wgpu::CommandEncoder, amounts: &Amounts) {
        let size = self.core.spec.size;
        let (w, h) = (size.width(), size.height());
        let channels = if self.core.spec.mode == GridMode::Split {
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
        let (device, texel) = (self.core.device.clone(), texel_bytes(self.format));
        let write = |encoder: &mut wgpu::CommandEncoder, bytes: &[u8]| {
            let origin = wgpu::Origin3d::ZERO;
            record_texture_write(&device, encoder, &self.delta, origin, extent, texel, bytes);
        };
        let l = self.core.levels;
        write(encoder, &delta(&amounts[0]));
        self.record_add_delta(encoder, l.current(), l.next());
        write(encoder, &delta(&amounts[1]));
        self.record_add_delta(encoder, l.previous(), l.current());
        write(encoder, &vec![0u8; size.cells() * texel as usize]);
        self.core.levels.advance(1);
    }

    /// Records `level + delta` rendered into `target` (a render pass cannot read its target),
    /// land cells kept as they are.
    pub(super) fn record_add_delta(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        level: usize,
        target: usize,
    ) {
        let classic = self.core.spec.mode == GridMode::Classic;
        let views = [&self.views[level], &self.views[target]];
        let (device, pipeline) = (&self.core.device, &self.impulse_pipeline);
        let textures = [&self.delta, &self.land];
        record_add_delta_pass(device, encoder, pipeline, classic, views, textures);
    }
}
