//! Contact masks already on the GPU (a buffer for the compute backend, textures for the
//! fragment backend) make the same bow and stern waves as uploaded masks.

use water_core::{Boundary, ContactMasks, Damping, GridMode, GridSize, WaveParams};
use water_gpu::render::HullMaskTexture;
use water_gpu::GpuGridWater;
use water_gpu::{ComputeGrid, FragmentGrid, GridSpec};
use water_testkit::gpu_or_return;

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
