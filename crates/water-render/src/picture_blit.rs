//! Shows a picture on a window: the offscreen picture copied onto the window's surface texture
//! with a full-screen triangle (`shaders/blit_picture.wgsl`), because the window's format may
//! differ from the picture's (BGRA, or not sRGB) and a texture copy would refuse that.

use water_gpu::device_calls::validated;
use water_gpu::pipelines::full_screen_pipeline;
use water_gpu::shaders;
use water_gpu::GpuError;

/// A pipeline that copies a picture onto a target of the same size in pixels and of one format,
/// keeping the picture's display-encoded bytes whatever that format is.
#[derive(Debug)]
pub struct PictureBlit {
    device: wgpu::Device,
    pipeline: wgpu::RenderPipeline,
}

impl PictureBlit {
    /// The copy for targets of `target_format` (a window's surface format, say).
    ///
    /// # Errors
    /// [`GpuError::Validation`] if wgpu refuses the pipeline for that format.
    pub fn new(
        device: &wgpu::Device,
        target_format: wgpu::TextureFormat,
    ) -> Result<Self, GpuError> {
        // An sRGB target encodes what the shader writes; any other stores it as it is.
        let fragment_entry = if target_format.is_srgb() {
            "fs_srgb_target"
        } else {
            "fs_linear_target"
        };
        let pipeline = validated(device, || {
            full_screen_pipeline(
                device,
                shaders::BLIT_PICTURE,
                "water picture blit",
                fragment_entry,
                target_format,
            )
        })?;
        Ok(Self {
            device: device.clone(),
            pipeline,
        })
    }

    /// Records the copy of `picture` (a float-sampled 2-D view, such as
    /// [`OffscreenTarget::colour_view`](super::OffscreenTarget::colour_view)) into `target`.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the views do not fit the pipeline; nothing is recorded
    /// then.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        picture: &wgpu::TextureView,
        target: &wgpu::TextureView,
    ) -> Result<(), GpuError> {
        let group = validated(&self.device, || {
            self.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("water picture blit"),
                layout: &self.pipeline.get_bind_group_layout(0),
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(picture),
                }],
            })
        })?;
        water_gpu::pipelines::full_screen_pass(encoder, target, &self.pipeline, &group);
        Ok(())
    }
}
