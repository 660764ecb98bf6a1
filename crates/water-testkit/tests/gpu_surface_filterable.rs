//! The filterable surface (`Rgba16Float`) holds the exact surface (`Rgba32Float`) rounded to
//! binary16 on both backends, and a linear (`Filtering`) sampler may sample it: a bind group
//! with it validates and a compute pass sampling half-way between two texels gets their mean.
//! The exact surface is refused under the same layout, which is why the copy exists.

use glam::Vec2;
use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::round_to_f16;
use water_gpu::GpuGridWater;
use water_gpu::FILTERABLE_NORMAL_HEIGHT_FORMAT;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GridSpec};
use water_testkit::gpu_or_return;
use water_testkit::setup::{cosine_impulse, rippled_gpu_grid, GPU_BACKENDS};

const W: usize = 40;
const H: usize = 32;

/// Relative spacing of binary16 numbers (11 significant bits): a value rounded to f16 to nearest
/// is within half of it, and within one if the device rounds toward zero, which Vulkan also
/// allows for render-target writes. One step, relative to the value, bounds either.
const F16_STEP: f32 = 1.0 / 1024.0;
/// The spacing of binary16 subnormals (2^-24): the absolute bound below the normal range.
const F16_SUBNORMAL_STEP: f32 = 1.0 / 16_777_216.0;

fn f16_bound(v: f32) -> f32 {
    (v.abs() * F16_STEP).max(F16_SUBNORMAL_STEP)
}

/// A signed grid with one bump, 9 steps on: steep slopes and heights of every size.
fn moving_grid(gpu: &GpuContext, backend: GpuBackend) -> GpuGrid {
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.998)).expect("stable");
    let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
    rippled_gpu_grid(
        gpu,
        backend,
        spec,
        &[cosine_impulse(18.0, 15.0, 6.0, 0.5)],
        9,
    )
}

#[test]
fn the_filterable_surface_is_the_exact_surface_rounded_to_f16() {
    let gpu = gpu_or_return!("filterable_surface_values");
    for backend in GPU_BACKENDS {
        let mut grid = moving_grid(&gpu, backend);
        let exact = grid.read_normal_height().expect("surface");
        let filterable = grid
            .read_filterable_normal_height()
            .expect("filterable surface");
        assert_eq!(exact.len(), W * H);
        assert_eq!(filterable.len(), W * H);
        let mut rounded_to_nearest = 0;
        for (cell, (e, f)) in exact.iter().zip(&filterable).enumerate() {
            for c in 0..4 {
                assert!(
                    (e[c] - f[c]).abs() <= f16_bound(e[c]),
                    "{}: cell {cell} channel {c}: f32 {} became {} in f16",
                    backend.name(),
                    e[c],
                    f[c]
                );
                rounded_to_nearest += usize::from(f[c] == round_to_f16(e[c]));
            }
        }
        // The texture holds f16 values, not the f32 ones: most texels differ from the f32
        // surface (a test of an Rgba32Float copy would see none differ).
        let changed = exact
            .iter()
            .zip(&filterable)
            .filter(|(e, f)| e[3] != f[3])
            .count();
        assert!(
            changed > W * H / 4,
            "{}: only {changed} heights were rounded",
            backend.name()
        );
        eprintln!(
            "{}: {rounded_to_nearest} of {} channels rounded to nearest",
            backend.name(),
            4 * W * H
        );
    }
}

const SAMPLE_SHADER: &str = r"
@group(0) @binding(0) var surface: texture_2d<f32>;
@group(0) @binding(1) var linear: sampler;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> uvs: array<vec2<f32>>;

@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    out[id.x] = textureSampleLevel(surface, linear, uvs[id.x], 0.0);
}
";

/// The explicit layout a user binding the surface with a linear sampler declares.
fn filtering_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty,
        count: None,
    };
    let storage = |binding, read_only| {
        entry(
            binding,
            wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
        )
    };
    let filterable_texture = wgpu::BindingType::Texture {
        sample_type: wgpu::TextureSampleType::Float { filterable: true },
        view_dimension: wgpu::TextureViewDimension::D2,
        multisampled: false,
    };
    let linear_sampler = wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering);
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("surface with a linear sampler"),
        entries: &[
            entry(0, filterable_texture),
            entry(1, linear_sampler),
            storage(2, false),
            storage(3, true),
        ],
    })
}

/// The two samples the pass wrote (blocking).
fn read_samples(gpu: &GpuContext, out: &wgpu::Buffer) -> Vec<[f32; 4]> {
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("samples readback"),
        size: out.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(out, 0, &staging, 0, Some(out.size()));
    gpu.queue.submit([encoder.finish()]);
    let slice = staging.slice(..);
    slice.map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let samples = bytemuck::pod_collect_to_vec(&slice.get_mapped_range());
    staging.unmap();
    samples
}

#[test]
fn a_linear_sampler_filters_the_filterable_surface() {
    use wgpu::util::DeviceExt;
    let gpu = gpu_or_return!("filterable_surface_sampled");
    let device = &gpu.device;
    for backend in GPU_BACKENDS {
        let mut grid = moving_grid(&gpu, backend);
        let texels = grid
            .read_filterable_normal_height()
            .expect("filterable surface");
        let exact_view = grid.update_normal_height().expect("surface").clone();
        let view = grid
            .update_filterable_normal_height()
            .expect("filterable")
            .clone();
        assert_eq!(
            grid.filterable_normal_height_texture()
                .expect("made")
                .format(),
            FILTERABLE_NORMAL_HEIGHT_FORMAT
        );
        // Half-way between two texels of a steep slope, where linear and nearest differ most.
        let (x, y) = (0..W - 1)
            .flat_map(|x| (0..H).map(move |y| (x, y)))
            .max_by(|a, b| {
                let slope = |(x, y): (usize, usize)| {
                    (texels[y * W + x + 1][3] - texels[y * W + x][3]).abs()
                };
                slope(*a).total_cmp(&slope(*b))
            })
            .expect("cells");
        let (left, right) = (texels[y * W + x][3], texels[y * W + x + 1][3]);
        let uvs = [
            Vec2::new((x as f32 + 1.0) / W as f32, (y as f32 + 0.5) / H as f32),
            Vec2::new((x as f32 + 0.5) / W as f32, (y as f32 + 0.5) / H as f32),
        ];
        let uv_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("uvs"),
            contents: bytemuck::cast_slice(&uvs.map(|v| v.to_array())),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let out = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("samples"),
            size: 32,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let layout = filtering_layout(device);
        let group_for = |surface: &wgpu::TextureView| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("surface with a linear sampler"),
                layout: &layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(surface),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::Sampler(&sampler),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: out.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 3,
                        resource: uv_buffer.as_entire_binding(),
                    },
                ],
            })
        };

        // The exact surface is refused under a filtering layout (unless the device can filter
        // 32-bit floats): the reason the filterable copy exists.
        if !device
            .features()
            .contains(wgpu::Features::FLOAT32_FILTERABLE)
        {
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let _refused = group_for(&exact_view);
            assert!(
                pollster::block_on(scope.pop()).is_some(),
                "{}: an Rgba32Float view was accepted for a filtering sampler",
                backend.name()
            );
        }

        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let group = group_for(&view);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("sample the surface"),
            source: wgpu::ShaderSource::Wgsl(SAMPLE_SHADER.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: None,
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("sample the surface"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups(2, 1, 1);
        }
        gpu.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            panic!(
                "{}: sampling the filterable surface linearly was refused: {e}",
                backend.name()
            );
        }
        let samples = read_samples(&gpu, &out);
        // At a texel centre the sampler returns the texel; half-way, the mean of the two (the
        // filter's weights are exact at one half, the sum is rounded once in f32).
        assert_eq!(samples[1][3], left, "{}: texel centre", backend.name());
        let mean = 0.5 * (left + right);
        assert!(
            (samples[0][3] - mean).abs() <= f16_bound(mean.abs().max(left.abs())),
            "{}: half-way between {left} and {right} sampled {}, not their mean",
            backend.name(),
            samples[0][3]
        );
        assert!(
            (right - left).abs() > 10.0 * f16_bound(left.abs().max(right.abs())),
            "the chosen texels must differ for the mean to show filtering"
        );
    }
}
