//! The ambient sea synthesised on the GPU (`OceanSynthesis`, shaders/ocean_synthesis.wgsl) is
//! the CPU twin's sea (`water_core::ocean::ocean_synthesis`): every field of every tile within
//! OCEAN_TOLERANCE of the field's largest value, at an early and a late time; the textures hold
//! the same values; two frames recorded into one encoder each keep their own time; and the
//! drawn sea's Catmull-Rom reads (shaders/shared/sea_taps.wgsl) put its vertices on the
//! surface the CPU answers.

use water_core::ocean::{AmbientSea, OceanSpec, SeaField, WaveSpectrum};
use water_gpu::{read_texture, OceanSynthesis};
use water_testkit::gpu_or_return;

/// Both sides run two radix-2 f32 transforms over 2 x 8 stages (256 samples a side) in
/// different orders (the CPU rows then columns by rustfft's mixed radix, the GPU rows then
/// columns by `fft_line`); each stage rounds to about 6e-8 of the line's magnitude, and a
/// field's largest value is a few times its RMS, so the two agree to about 16 x 6e-8 x a few:
/// 1e-5 of the largest value leaves a margin of a few.
const OCEAN_TOLERANCE: f32 = 1e-5;

/// The drawn sea's height against the CPU's, relative to the largest height drawn: a budget, not
/// a bound. Each tile's read weighs 16 samples whose weights' magnitudes add to at most
/// 1.25 x 1.25, each sample about OCEAN_TOLERANCE of the tile's largest value off the CPU's
/// (tested above at other times and choppiness): up to four tiles, about 6e-5 of the largest
/// height in the height read and as much in the displacement, which moves the point the CPU
/// inverts along the surface's slope (under 1 away from folds); the inversion stops within
/// 1e-5 m, and the fraction (f32 here, f64 on the CPU) is off by about 1e-4 of a sample within
/// 60 m of the origin. 2e-4 leaves room over these; bilinear taps miss by 2e-2.
const DRAWN_TOLERANCE: f32 = 2e-4;

fn sea(choppiness: f64) -> AmbientSea {
    let spec = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 11.0,
        fetch: 4e4,
        peak_enhancement: 3.3,
    })
    .with_seed(21)
    .with_direction(70.0)
    .with_choppiness(choppiness);
    AmbientSea::new(&spec, 0.5).expect("sea")
}

/// The worst difference of each field, relative to the CPU field's largest |value|.
fn worst_relative(cpu: &[Vec<f32>], gpu: &[Vec<f32>]) -> f32 {
    assert_eq!(cpu.len(), gpu.len(), "one array per field");
    cpu.iter()
        .zip(gpu)
        .map(|(c, g)| {
            let scale = c.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!(scale > 0.0, "a field with waves");
            c.iter()
                .zip(g)
                .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()))
                / scale
        })
        .fold(0.0, f32::max)
}

#[test]
fn the_gpu_synthesises_the_cpus_sea_in_every_field_and_tile() {
    let gpu = gpu_or_return!("the_gpu_synthesises_the_cpus_sea_in_every_field_and_tile");
    for choppiness in [0.0, 1.2] {
        let sea = sea(choppiness);
        assert!(sea.tiles().len() >= 3, "several tiles");
        let synthesis = OceanSynthesis::new(&gpu.device, &gpu.queue, &sea).expect("synthesis");
        for t in [3.25, 86_400.5] {
            synthesis.synthesise(&gpu.device, &gpu.queue, t);
            let got = synthesis
                .read_fields(&gpu.device, &gpu.queue)
                .expect("readback");
            let frame = sea.frame(t);
            for (tile, (cpu, gpu_fields)) in frame.tiles().iter().zip(&got).enumerate() {
                let worst = worst_relative(&cpu.fields(), gpu_fields);
                eprintln!("lambda {choppiness}, t = {t}, tile {tile}: {worst:.2e}");
                assert!(
                    worst <= OCEAN_TOLERANCE,
                    "tile {tile} at t = {t}: {worst:e}"
                );
            }
        }
    }
}

/// A 2-D `Rgba32Float` texture of `n x n` texels to copy into and read from.
fn plain_texture(gpu: &water_gpu::GpuContext, n: u32) -> wgpu::Texture {
    gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("one layer"),
        size: wgpu::Extent3d {
            width: n,
            height: n,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: water_gpu::OCEAN_TEXTURE_FORMAT,
        usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// Layer 0 of an `Rgba32Float` texture (array) as four arrays.
fn channels(gpu: &water_gpu::GpuContext, texture: &wgpu::Texture) -> [Vec<f32>; 4] {
    let n = texture.width();
    let layer = plain_texture(gpu, n);
    water_testkit::submit_once(gpu, |encoder| {
        encoder.copy_texture_to_texture(
            texture.as_image_copy(),
            layer.as_image_copy(),
            wgpu::Extent3d {
                width: n,
                height: n,
                depth_or_array_layers: 1,
            },
        );
    });
    let bytes = read_texture(&gpu.device, &gpu.queue, &layer, 16).expect("read");
    let values: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    std::array::from_fn(|c| values.iter().skip(c).step_by(4).copied().collect())
}

#[test]
fn the_textures_hold_the_displacement_height_and_normal_and_frames_keep_their_time() {
    let gpu = gpu_or_return!(
        "the_textures_hold_the_displacement_height_and_normal_and_frames_keep_their_time"
    );
    let sea = sea(0.9);
    let synthesis = OceanSynthesis::new(&gpu.device, &gpu.queue, &sea).expect("synthesis");
    let n = synthesis.cells();
    let copy = plain_texture(&gpu, n);
    // Two frames in one encoder: the first copied away before the second overwrites it.
    water_testkit::submit_once(&gpu, |encoder| {
        synthesis.encode(&gpu.device, encoder, 10.0);
        encoder.copy_texture_to_texture(
            synthesis.displacement().as_image_copy(),
            copy.as_image_copy(),
            wgpu::Extent3d {
                width: n,
                height: n,
                depth_or_array_layers: 1,
            },
        );
        synthesis.encode(&gpu.device, encoder, 25.0);
    });
    for (texture, t) in [(&copy, 10.0), (synthesis.displacement(), 25.0)] {
        let [dx, dy, h, det] = channels(&gpu, texture);
        let frame = sea.frame(t);
        let cpu = frame.tiles()[0].fields();
        let f = |field: SeaField| cpu[field as usize].clone();
        let jacobian: Vec<f32> = (0..h.len())
            .map(|i| {
                let (a, b, c) = (
                    1.0 + f(SeaField::DxDx)[i],
                    f(SeaField::DxDy)[i],
                    1.0 + f(SeaField::DyDy)[i],
                );
                a * c - b * b
            })
            .collect();
        let cpu_channels = [
            f(SeaField::DisplacementX),
            f(SeaField::DisplacementY),
            f(SeaField::Height),
        ];
        let worst = worst_relative(&cpu_channels, &[dx, dy, h]);
        assert!(
            worst <= OCEAN_TOLERANCE,
            "t = {t}: displacement and height {worst:e}"
        );
        let det_err = jacobian
            .iter()
            .zip(&det)
            .fold(0.0f32, |m, (a, b)| m.max((a - b).abs()));
        assert!(det_err < 1e-5, "t = {t}: det J off by {det_err}");
    }
    // The normals: unit, upward where the sheet does not fold, and tilted against the slope.
    let [nx, _, nz, rate] = channels(&gpu, synthesis.normals());
    let frame = sea.frame(25.0);
    let cpu = frame.tiles()[0].fields();
    let slope = &cpu[SeaField::SlopeX as usize];
    let rates = &cpu[SeaField::HeightRate as usize];
    let mut agree = 0;
    for ((x, z), s) in nx.iter().zip(&nz).zip(slope) {
        if *z > 0.0 && s.abs() > 0.05 && (*x < 0.0) == (*s > 0.0) {
            agree += 1;
        }
    }
    let steep = slope.iter().filter(|s| s.abs() > 0.05).count();
    assert!(
        steep > 100 && agree * 100 >= steep * 99,
        "{agree} of {steep} normals lean downhill"
    );
    assert!(
        worst_relative(std::slice::from_ref(rates), &[rate]) <= OCEAN_TOLERANCE,
        "dh/dt"
    );
}

/// `shared/sea_taps.wgsl` run over a list of points: the ambient sea `(Dx, Dy, h)` summed over
/// the tiles at each undisplaced point, as the drawn sea's vertices read it.
const READ_SEA: &str = r"
#import sea_taps

struct Tiles {
    lengths: array<vec4<f32>, 2>,
    count: u32,
    cells: u32,
    unused: vec2<u32>,
}

@group(0) @binding(0) var field: texture_2d_array<f32>;
@group(0) @binding(1) var<uniform> tiles: Tiles;
@group(0) @binding(2) var<storage, read> points: array<vec2<f32>>;
@group(0) @binding(3) var<storage, read_write> reads: array<vec4<f32>>;

@compute @workgroup_size(64)
fn read_sea(@builtin(global_invocation_id) id: vec3<u32>) {
    if (id.x >= arrayLength(&points)) {
        return;
    }
    var sum = vec4<f32>(0.0);
    for (var t = 0u; t < tiles.count; t = t + 1u) {
        let length = tiles.lengths[t / 4u][t % 4u];
        sum = sum + sea_tile_catmull_rom(field, i32(t), i32(tiles.cells), length, points[id.x]);
    }
    reads[id.x] = sum;
}
";

/// The drawn sea's `(Dx, Dy, h)` at `points`, read from `synthesis`'s textures by the shared
/// Catmull-Rom taps.
fn drawn_sea_at(
    gpu: &water_gpu::GpuContext,
    synthesis: &OceanSynthesis,
    points: &[glam::Vec2],
) -> Vec<[f32; 4]> {
    use wgpu::util::DeviceExt;
    let device = &gpu.device;
    let mut uniform = [0u32; 12];
    for (slot, length) in uniform.iter_mut().zip(synthesis.tile_lengths()) {
        *slot = length.to_bits();
    }
    uniform[8] = synthesis.tile_lengths().len() as u32;
    uniform[9] = synthesis.cells();
    let buffer = |label, contents: &[u8], usage| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage,
        })
    };
    let tiles = buffer(
        "tiles",
        bytemuck::cast_slice(&uniform),
        wgpu::BufferUsages::UNIFORM,
    );
    let flat: Vec<f32> = points.iter().flat_map(|p| [p.x, p.y]).collect();
    let points_buffer = buffer(
        "points",
        bytemuck::cast_slice(&flat),
        wgpu::BufferUsages::STORAGE,
    );
    let size = (points.len() * 16) as u64;
    let reads = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("reads"),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let pipeline = water_gpu::pipelines::compute_pipeline(device, READ_SEA, "read sea", "read_sea");
    let view = synthesis
        .displacement()
        .create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2Array),
            ..Default::default()
        });
    let resources = [
        wgpu::BindingResource::TextureView(&view),
        tiles.as_entire_binding(),
        points_buffer.as_entire_binding(),
        reads.as_entire_binding(),
    ];
    let entries: Vec<wgpu::BindGroupEntry<'_>> = (0..)
        .zip(resources)
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource })
        .collect();
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("read sea"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    });
    water_testkit::submit_once(gpu, |encoder| {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(points.len().div_ceil(64) as u32, 1, 1);
    });
    let bytes = water_gpu::PendingReadback::start(device, &gpu.queue, &reads, size)
        .and_then(water_gpu::PendingReadback::wait)
        .expect("readback");
    let floats: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    floats
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

#[test]
fn the_drawn_seas_vertices_lie_on_the_surface_the_cpu_answers() {
    // A vertex at the undisplaced point p is drawn at p + D(p), height h(p), each read between
    // the samples of every tile. The CPU's fixed-point height at p + D(p) inverts the same
    // displacement to the same p: the two heights agree where both interpolate alike.
    let gpu = gpu_or_return!("the_drawn_seas_vertices_lie_on_the_surface_the_cpu_answers");
    let sea = sea(0.9);
    let synthesis = OceanSynthesis::new(&gpu.device, &gpu.queue, &sea).expect("synthesis");
    let t = 7.5;
    synthesis.synthesise(&gpu.device, &gpu.queue, t);
    let frame = sea.frame(t);
    // Points off the samples (fractions all through [0, 1)), within 60 m of the origin.
    let points: Vec<glam::Vec2> = (0..4096)
        .map(|i| {
            let (a, b) = ((i * 7919 % 4096) as f32, (i * 104_729 % 4096) as f32);
            glam::Vec2::new(a / 4096.0 * 120.0 - 60.0, b / 4096.0 * 120.0 - 60.0)
        })
        .collect();
    let drawn = drawn_sea_at(&gpu, &synthesis, &points);
    let landed: Vec<glam::Vec2> = points
        .iter()
        .zip(&drawn)
        .map(|(p, d)| *p + glam::Vec2::new(d[0], d[1]))
        .collect();
    let cpu = frame.heights(&landed);
    let scale = drawn.iter().fold(0.0f32, |m, d| m.max(d[2].abs()));
    let worst = cpu
        .iter()
        .zip(&drawn)
        .fold(0.0f32, |m, (c, d)| m.max((c - d[2]).abs()));
    eprintln!("largest height {scale} m, worst difference {worst:e} m");
    assert!(scale > 0.3, "a sea with waves: {scale} m");
    assert!(
        worst <= DRAWN_TOLERANCE * scale,
        "drawn {worst:e} m off the CPU's surface (of {scale} m)"
    );
}
