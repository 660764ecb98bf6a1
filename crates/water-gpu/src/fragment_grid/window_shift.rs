//! Window shifts on [`FragmentGrid`]: each level's target texture cleared by a render pass, the
//! cells that stay copied into place, and behind absorbing edges still water written over the
//! old edge cells that land inside (see `crate::window_shift`, which the compute backend
//! shares; `grid_core.rs` records a shift's steps in order for both).

use super::level_io::texel_bytes;
use super::FragmentGrid;
use crate::grid_core::ShiftStore;
use crate::recording::record_texture_write;
use crate::window_shift::ShiftPlan;

impl ShiftStore for FragmentGrid {
    /// Per move a pass clearing the target texture and a copy of the cells that stay, then
    /// still water behind absorbing edges.
    fn record_level_moves(&mut self, encoder: &mut wgpu::CommandEncoder, plan: &ShiftPlan) {
        let kept = plan.shift.kept(self.core.spec.size);
        for (from, to) in plan.moves {
            // A pass that only clears: every cell still water, the kept ones copied over it.
            drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("water window shift: clear"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.views[to],
                    resolve_target: None,
                    depth_slice: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            }));
            if let Some(rect) = kept {
                let at = |texture, [x, y]: [u32; 2]| wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x, y, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                };
                encoder.copy_texture_to_texture(
                    at(&self.textures[from], rect.from),
                    at(&self.textures[to], rect.to),
                    wgpu::Extent3d {
                        width: rect.extent[0],
                        height: rect.extent[1],
                        depth_or_array_layers: 1,
                    },
                );
            }
        }
        // Behind absorbing edges: still water over the old edge cells that landed inside, in
        // both moved levels (`WindowShift::cleared`).
        let size = self.core.spec.size;
        let texel = texel_bytes(self.format);
        for (at, extent) in plan.shift.cleared(size) {
            let still = vec![0u8; (extent[0] * extent[1] * texel) as usize];
            for (_, to) in plan.moves {
                record_texture_write(
                    &self.core.device,
                    encoder,
                    &self.textures[to],
                    wgpu::Origin3d {
                        x: at[0],
                        y: at[1],
                        z: 0,
                    },
                    wgpu::Extent3d {
                        width: extent[0],
                        height: extent[1],
                        depth_or_array_layers: 1,
                    },
                    texel,
                    &still,
                );
            }
        }
    }

    fn record_land_flags(&self, encoder: &mut wgpu::CommandEncoder, flags: &[u32]) {
        let (device, land, origin) = (&self.core.device, &self.land, wgpu::Origin3d::ZERO);
        let bytes: &[u8] = bytemuck::cast_slice(flags);
        record_texture_write(device, encoder, land, origin, land.size(), 4, bytes);
    }
}
