//! Copies the offscreen picture to the window's surface texture with a full-screen triangle
//! (`blit.wgsl`): the window's format may differ from the picture's (BGRA, or not sRGB), which a
//! texture copy would refuse.

use crate::error::DemoError;

/// The copy pass's WGSL.
pub const BLIT_WGSL: &str = include_str!("blit.wgsl");

/// A pipeline drawing a same-sized picture into targets of one format.
#[derive(Debug)]
pub struct Blit {
    device: wgpu::Device,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
}

impl Blit {
    /// The pass for windows of `window_format`.
    ///
    /// # Errors
    /// [`DemoError::Gpu`] if wgpu rejects the shader or the pipeline.
    pub fn new(
        device: &wgpu::Device,
        window_format: wgpu::TextureFormat,
    ) -> Result<Self, DemoError> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("water-demo blit"),
            source: wgpu::ShaderSource::Wgsl(BLIT_WGSL.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("water-demo blit"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("water-demo blit"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        // An sRGB window encodes what the shader writes; any other stores it as it is.
        let fragment_entry = if window_format.is_srgb() {
            "fs_srgb_window"
        } else {
            "fs_linear_window"
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("water-demo blit"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(fragment_entry),
                compilation_options: Default::default(),
                targets: &[Some(window_format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(DemoError::Gpu(water_gpu::GpuError::Validation(
                e.to_string(),
            )));
        }
        Ok(Self {
            device: device.clone(),
            pipeline,
            layout,
        })
    }

    /// Records the copy of `picture` into `window` (the same size in pixels).
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        picture: &wgpu::TextureView,
        window: &wgpu::TextureView,
    ) {
        let group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("water-demo blit"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(picture),
            }],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("water-demo blit"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: window,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use wgpu::naga;

    use super::*;

    /// The shader parses and validates with no capabilities beyond core WGSL, so a mistake in it
    /// fails `cargo test` rather than the demo's first frame.
    #[test]
    fn the_blit_shader_is_valid_wgsl() {
        let module = naga::front::wgsl::parse_str(BLIT_WGSL).expect("parses");
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .expect("validates");
        for entry in ["vs_main", "fs_srgb_window", "fs_linear_window"] {
            assert!(
                module.entry_points.iter().any(|e| e.name == entry),
                "no entry point {entry}"
            );
        }
    }
}
