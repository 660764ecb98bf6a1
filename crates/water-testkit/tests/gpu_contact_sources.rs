//! Contact masks already on the GPU (a buffer for the compute backend, textures for the
//! fragment backend) make the same bow and stern waves as uploaded masks, in the wave model and
//! (compute) the dispersive one.

use water_core::{AiryDispersion, Boundary, ContactMasks, Damping, GridMode, GridSize, WaveParams};
use water_gpu::GpuGridWater;
use water_gpu::{ComputeGrid, FragmentGrid, GridSpec};
use water_render::HullMaskTexture;
use water_testkit::gpu_or_return;
use wgpu::util::DeviceExt;

const W: usize = 48;
const H: usize = 40;
const AMPLITUDE: f32 = 0.3;

fn hull(step: usize) -> Vec<f32> {
    let mut mask = vec![0.0; W * H];
    for dx in 0..4 {
        mask[20 * W + 10 + step + dx] = 1.5;
    }
    mask
}

fn spec(mode: GridMode) -> GridSpec {
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.999)).expect("params");
    GridSpec::new(
        GridSize::new(W, H).expect("size"),
        params,
        Boundary::Reflective,
        mode,
    )
}

#[test]
fn caller_owned_contact_buffers_and_textures_match_uploaded_masks() {
    let gpu = gpu_or_return!("caller_owned_contact_buffers");
    let (device, queue) = (&gpu.device, &gpu.queue);
    let size = GridSize::new(W, H).expect("size");
    let buffer = |data: &[f32]| {
        let b = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: (W * H * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&b, 0, bytemuck::cast_slice(data));
        b
    };
    // The fragment backend samples the masks as `R32Float` textures, the renderers' hull mask.
    let texture = |data: &[f32]| {
        let mask = HullMaskTexture::new(device, size);
        mask.write(queue, data).expect("mask");
        mask
    };
    for mode in [GridMode::Signed, GridMode::Split] {
        let mut uploaded_c = ComputeGrid::new(device, queue, spec(mode)).expect("grid");
        let mut owned_c = ComputeGrid::new(device, queue, spec(mode)).expect("grid");
        let mut uploaded_f = FragmentGrid::new(device, queue, spec(mode)).expect("grid");
        let mut owned_f = FragmentGrid::new(device, queue, spec(mode)).expect("grid");
        let mut masks = ContactMasks::new(size, AMPLITUDE).expect("masks");
        for step in 0..12 {
            masks.advance(&hull(step)).expect("mask");
            uploaded_c.step_with_contacts(&masks).expect("step");
            uploaded_f.step_with_contacts(&masks).expect("step");
            let (new, old) = (masks.new_mask(), masks.old_mask());
            owned_c
                .step_with_contact_buffers(&buffer(new), &buffer(old), AMPLITUDE)
                .expect("step");
            let (tn, to) = (texture(new), texture(old));
            owned_f
                .step_with_contact_textures(tn.view(), to.view(), AMPLITUDE)
                .expect("step");
        }
        let reference = uploaded_c.heights().expect("heights");
        assert!(reference.iter().any(|&v| v > 0.0) && reference.iter().any(|&v| v < 0.0));
        // Each backend's caller-owned masks step its water as its uploaded masks do.
        let runs: [(&str, &dyn GpuGridWater, &dyn GpuGridWater); 2] = [
            ("compute", &uploaded_c, &owned_c),
            ("fragment", &uploaded_f, &owned_f),
        ];
        for (backend, uploaded, owned) in runs {
            assert_eq!(
                owned.heights().expect("heights"),
                uploaded.heights().expect("heights"),
                "{mode} {backend}"
            );
        }
    }
}

/// The dispersive model's step (`shaders/spectral_step.wgsl`) with the caller's buffers makes
/// the same bow and stern waves as with uploaded masks, on a grid it takes (64 x 32 cells).
#[test]
fn caller_owned_contact_buffers_drive_dispersive_water_as_uploaded_masks() {
    let gpu = gpu_or_return!("caller_owned_contact_buffers_dispersive");
    let (device, queue) = (&gpu.device, &gpu.queue);
    let size = GridSize::new(64, 32).expect("size");
    let airy = AiryDispersion::gravity_waves(9.81).expect("gravity");
    let params = WaveParams::dispersive(0.1, &airy, 0.05, Damping::NONE).expect("params");
    let spec =
        GridSpec::new(size, params, Boundary::Periodic, GridMode::Signed).with_dispersion(airy);
    let mut uploaded = ComputeGrid::new(device, queue, spec).expect("grid");
    let mut owned = ComputeGrid::new(device, queue, spec).expect("grid");
    let buffer = |data: &[f32]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: bytemuck::cast_slice(data),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let mut masks = ContactMasks::new(size, AMPLITUDE).expect("masks");
    for step in 0..12 {
        let mut hull = vec![0.0; size.cells()];
        hull[16 * 64 + 10 + step..16 * 64 + 14 + step].fill(1.5);
        masks.advance(&hull).expect("mask");
        uploaded.step_with_contacts(&masks).expect("step");
        owned
            .step_with_contact_buffers(
                &buffer(masks.new_mask()),
                &buffer(masks.old_mask()),
                AMPLITUDE,
            )
            .expect("step");
    }
    let reference = uploaded.heights().expect("heights");
    assert!(reference.iter().any(|&v| v > 0.0) && reference.iter().any(|&v| v < 0.0));
    assert_eq!(owned.heights().expect("heights"), reference);
}
