//! The render pipelines of the 3-D renderers, described once: a vertex and a fragment entry of
//! one module, drawing into one colour target with depth in [`DEPTH_FORMAT`].

use crate::DEPTH_FORMAT;

/// What differs between the 3-D renderers' pipelines.
pub(crate) struct SurfacePipeline<'a> {
    pub label: &'a str,
    /// `None`: the layout wgpu derives from the module.
    pub layout: Option<&'a wgpu::PipelineLayout>,
    pub module: &'a wgpu::ShaderModule,
    pub vertex: &'a str,
    pub fragment: &'a str,
    pub buffers: &'a [wgpu::VertexBufferLayout<'a>],
    pub primitive: wgpu::PrimitiveState,
    /// Depth written, and how it is compared.
    pub depth: (bool, wgpu::CompareFunction),
    pub format: wgpu::TextureFormat,
}

impl SurfacePipeline<'_> {
    /// The pipeline on `device`.
    pub(crate) fn create(&self, device: &wgpu::Device) -> wgpu::RenderPipeline {
        let (write, compare) = self.depth;
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(self.label),
            layout: self.layout,
            vertex: wgpu::VertexState {
                module: self.module,
                entry_point: Some(self.vertex),
                compilation_options: Default::default(),
                buffers: self.buffers,
            },
            primitive: self.primitive,
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(write),
                depth_compare: Some(compare),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState::default(),
            }),
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: self.module,
                entry_point: Some(self.fragment),
                compilation_options: Default::default(),
                targets: &[Some(self.format.into())],
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// An entry of a bind group layout seen by both the vertex and the fragment stage.
pub(crate) fn layout_entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
        ty,
        count: None,
    }
}

/// A uniform buffer binding.
pub(crate) fn uniform_binding() -> wgpu::BindingType {
    wgpu::BindingType::Buffer {
        ty: wgpu::BufferBindingType::Uniform,
        has_dynamic_offset: false,
        min_binding_size: None,
    }
}

/// A 2-D float texture read with `textureLoad` (Rgba32Float is not filterable everywhere).
pub(crate) fn unfilterable_texture() -> wgpu::BindingType {
    wgpu::BindingType::Texture {
        sample_type: wgpu::TextureSampleType::Float { filterable: false },
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled: false,
    }
}
