//! Pipeline construction shared by the backends: every kernel is one WGSL source (its
//! `#import`s of `shaders/shared/` composed in, [`crate::wgsl_import`]) with an entry point and
//! an automatic layout.
//! Full-screen passes share the vertex stage of `shaders/shared/full_screen.wgsl`.

/// The shader module of a kernel's `source`, its imports composed in.
pub fn shader_module(device: &wgpu::Device, label: &str, source: &str) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(crate::wgsl_import::compose(source).into()),
    })
}

/// A compute pipeline for `entry` of `source`.
pub fn compute_pipeline(
    device: &wgpu::Device,
    source: &str,
    label: &str,
    entry: &str,
) -> wgpu::ComputePipeline {
    compute_pipeline_with_constants(device, source, label, entry, &[])
}

/// A compute pipeline for `entry` of `source` with values for its pipeline constants
/// (`override` declarations), by name.
pub(crate) fn compute_pipeline_with_constants(
    device: &wgpu::Device,
    source: &str,
    label: &str,
    entry: &str,
    constants: &[(&str, f64)],
) -> wgpu::ComputePipeline {
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: None,
        module: &shader_module(device, label, source),
        entry_point: Some(entry),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants,
            ..Default::default()
        },
        cache: None,
    })
}

/// Layout entries for the buffer bindings 0, 1, 2, ... of `kinds`, visible to compute: the
/// explicit layout of kernels that bind one group between them ([`compute_pipelines_sharing`]).
pub(crate) fn compute_buffer_entries(
    kinds: &[wgpu::BufferBindingType],
) -> Vec<wgpu::BindGroupLayoutEntry> {
    kinds
        .iter()
        .zip(0..)
        .map(|(&ty, binding)| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect()
}

/// The compute pipelines of `kernels` (entry points of `source`, labelled by their names) over
/// one explicit bind group `layout`: for kernels that bind one group between them, where an
/// automatic layout would give each only the bindings it uses.
pub(crate) fn compute_pipelines_sharing<const N: usize>(
    device: &wgpu::Device,
    label: &str,
    source: &str,
    layout: &wgpu::BindGroupLayout,
    kernels: [&str; N],
) -> [wgpu::ComputePipeline; N] {
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(label),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    let module = shader_module(device, label, source);
    kernels.map(|kernel| {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(kernel),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(kernel),
            compilation_options: Default::default(),
            cache: None,
        })
    })
}

/// A render pipeline drawing one full-screen triangle (`vs_main` of `source`) into one `format`
/// target with the fragment entry `fragment_entry`.
pub fn full_screen_pipeline(
    device: &wgpu::Device,
    source: &str,
    label: &str,
    fragment_entry: &str,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    full_screen_pipeline_with_constants(device, source, label, fragment_entry, format, &[])
}

/// [`full_screen_pipeline`] with values for the fragment stage's pipeline constants.
pub(crate) fn full_screen_pipeline_with_constants(
    device: &wgpu::Device,
    source: &str,
    label: &str,
    fragment_entry: &str,
    format: wgpu::TextureFormat,
    constants: &[(&str, f64)],
) -> wgpu::RenderPipeline {
    let module = shader_module(device, label, source);
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: None,
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
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                ..Default::default()
            },
            targets: &[Some(format.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Records one render pass that draws `pipeline`'s full-screen triangle into `target`.
pub fn full_screen_pass(
    encoder: &mut wgpu::CommandEncoder,
    target: &wgpu::TextureView,
    pipeline: &wgpu::RenderPipeline,
    group: &wgpu::BindGroup,
) {
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("water fragment pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                // The full-screen triangle writes every texel, so the old contents need not be
                // cleared first.
                load: wgpu::LoadOp::Load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(pipeline);
    pass.set_bind_group(0, group, &[]);
    pass.draw(0..3, 0..1);
}

/// Records `level + delta` rendered into `target` by `pipeline`, a pipeline of
/// `shaders/add_impulse_fragment.wgsl` (its `fs_classic` entry when `classic`, else
/// `fs_main`), the cells `land` flags left as they are: how the fragment backends add per-cell
/// amounts (impulses, mean-level corrections), since a render pass cannot read its target.
pub(crate) fn record_add_delta_pass(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::RenderPipeline,
    classic: bool,
    [level, target]: [&wgpu::TextureView; 2],
    [delta, land]: [&wgpu::Texture; 2],
) {
    let view_of = |t: &wgpu::Texture| t.create_view(&Default::default());
    let (delta, land) = (view_of(delta), view_of(land));
    // `fs_classic` reads i32 texels at bindings 3 and 4; both entries read the land at 2.
    let (level_binding, delta_binding) = if classic { (3, 4) } else { (0, 1) };
    let views = [(level_binding, level), (delta_binding, &delta), (2, &land)];
    let group = crate::device_calls::bind_numbered(
        device,
        &pipeline.get_bind_group_layout(0),
        "water fragment delta",
        views.map(|(binding, view)| (binding, wgpu::BindingResource::TextureView(view))),
    );
    full_screen_pass(encoder, target, pipeline, &group);
}
