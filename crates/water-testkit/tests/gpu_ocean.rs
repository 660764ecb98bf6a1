//! The ambient sea synthesised on the GPU (`OceanSynthesis`, shaders/ocean_synthesis.wgsl) is
//! the CPU twin's sea (`water_core::ocean::ocean_synthesis`): every field of every tile within
//! OCEAN_TOLERANCE of the field's largest value, at an early and a late time; the textures hold
//! the same values; and two frames recorded into one encoder each keep their own time.

use water_core::ocean::{AmbientSea, OceanSpec, SeaField, WaveSpectrum};
use water_gpu::{read_texture, OceanSynthesis};
use water_testkit::gpu_or_return;

/// Both sides run two radix-2 f32 transforms over 2 x 8 stages (256 samples a side) in
/// different orders (the CPU rows then columns by rustfft's mixed radix, the GPU rows then
/// columns by `fft_line`); each stage rounds to about 6e-8 of the line's magnitude, and a
/// field's largest value is a few times its RMS, so the two agree to about 16 x 6e-8 x a few:
/// 1e-5 of the largest value leaves a margin of a few.
const OCEAN_TOLERANCE: f32 = 1e-5;

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
