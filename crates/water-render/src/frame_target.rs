//! Where a 3-D renderer records a frame: the caller's colour and depth views and the colour the
//! frame starts from.

use glam::Vec3;

/// The targets of one frame of [`GridSurfaceRenderer::encode`](super::GridSurfaceRenderer::encode)
/// or [`SphereSurfaceRenderer::encode`](super::SphereSurfaceRenderer::encode): a window's
/// surface texture or an [`OffscreenTarget`](super::OffscreenTarget)
/// ([`OffscreenTarget::frame`](super::OffscreenTarget::frame)).
#[derive(Debug, Clone, Copy)]
pub struct FrameTarget<'a> {
    /// Colour view, in the format the renderer was built for.
    pub colour: &'a wgpu::TextureView,
    /// Depth view of the same size, in [`DEPTH_FORMAT`](super::DEPTH_FORMAT).
    pub depth: &'a wgpu::TextureView,
    /// Linear RGB the colour is cleared to before the frame is drawn (the sky behind the water).
    pub clear: Vec3,
}

impl FrameTarget<'_> {
    /// A render pass over the colour and depth views that clears both first (depth to the far
    /// plane).
    pub(crate) fn clearing_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
    ) -> wgpu::RenderPass<'e> {
        let clear = self.clear;
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("water render"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: self.colour,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: f64::from(clear.x),
                        g: f64::from(clear.y),
                        b: f64::from(clear.z),
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: self.depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }
}
