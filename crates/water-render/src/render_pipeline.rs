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

/// The layout of a pipeline with one bind group, labelled `label`, of `bindings` at bindings 0,
/// 1, 2, ... in order, each seen by both stages.
pub(crate) fn one_group_layout(
    device: &wgpu::Device,
    label: &str,
    bindings: &[wgpu::BindingType],
) -> wgpu::PipelineLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = (0..)
        .zip(bindings)
        .map(|(binding, &ty)| layout_entry(binding, ty))
        .collect();
    let group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    });
    device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(&group_layout)],
        immediate_size: 0,
    })
}

/// An entry of a bind group layout seen by both the vertex and the fragment stage.
fn layout_entry(binding: u32, ty: wgpu::BindingType) -> wgpu::BindGroupLayoutEntry {
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

/// Group 0 of `pipeline` as the 3-D renderers bind it: `uniforms` (the per-frame camera and
/// style values) at binding 0, then `resources` at bindings 1, 2, ... in order.
pub(crate) fn bind_group_0<'r>(
    device: &wgpu::Device,
    label: &str,
    pipeline: &wgpu::RenderPipeline,
    uniforms: &'r wgpu::Buffer,
    resources: impl IntoIterator<Item = wgpu::BindingResource<'r>>,
) -> wgpu::BindGroup {
    let all = std::iter::once(uniforms.as_entire_binding()).chain(resources);
    let entries: Vec<wgpu::BindGroupEntry<'_>> = (0..)
        .zip(all)
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}
