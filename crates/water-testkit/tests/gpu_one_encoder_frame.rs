//! A frame recorded into one command encoder and submitted once does exactly what the same
//! operations do when each submits on its own: impulses (kicks and displacements), contact steps
//! with their own masks (uploaded, or drawn on the GPU by `ContactMaskRenderer`), plain steps
//! (fused and single dispatches) and the surface update, on both GPU backends, in signed, split
//! and classic mode and with f16 storage. Compared bit for
//! bit: the two runs execute the same kernels on the same inputs, so any difference is an
//! operation applied to the wrong level, lost, doubled or fed another operation's upload.

use water_gpu::GpuGridWater;
use glam::Vec2;
use water_core::{
    Boundary, ClassicGrid, ContactMasks, Damping, GridMode, GridSize, GridWater, Impulse,
    ImpulseShape, LandMask, SignedGrid, SplitGrid, WaveParams,
};
use water_gpu::read_texture;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GridSpec, StorageFormat};
use water_testkit::{compare_f32, gpu_or_skip, F32_TOLERANCE};

const W: usize = 48;
const H: usize = 40;
/// Plain steps per frame: one fused dispatch of four steps and one single step on the compute
/// backend, so both dispatch kinds are recorded between the frame's other operations.
const PLAIN_STEPS: u64 = 5;
const FRAMES: usize = 3;

/// The grids under test: each backend and storage, in each mode (classic: fixed boundary).
fn cases() -> Vec<(GpuBackend, StorageFormat, GridMode)> {
    let mut cases = Vec::new();
    for mode in GridMode::ALL {
        cases.push((GpuBackend::Compute, StorageFormat::F32, mode));
        cases.push((GpuBackend::Fragment, StorageFormat::F32, mode));
        if mode != GridMode::Classic {
            cases.push((GpuBackend::Compute, StorageFormat::F16, mode));
        }
    }
    cases
}

fn spec(mode: GridMode, storage: StorageFormat) -> GridSpec {
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.998)).expect("stable");
    let boundary = if mode == GridMode::Classic {
        Boundary::Fixed
    } else {
        Boundary::Reflective
    };
    GridSpec::new(size, params, boundary, mode).with_storage(storage)
}

fn amplitude(mode: GridMode) -> f32 {
    if mode == GridMode::Classic {
        3000.0
    } else {
        0.5
    }
}

/// Frame `k`'s impulse: alternating sign (split mode: both channels), every other one a
/// displacement, near a strip of land so the land rule is exercised too.
fn impulse(mode: GridMode, k: usize) -> Impulse {
    let sign = if k.is_multiple_of(2) { 1.0 } else { -0.7 };
    Impulse::new(
        Vec2::new(14.0 + 7.0 * k as f32, 17.0 + 2.0 * k as f32),
        5.0,
        sign * amplitude(mode),
        ImpulseShape::Cosine,
    )
    .expect("impulse")
    .with_displacement(!k.is_multiple_of(2))
}

/// A hull of a few cells at a position that moves with `k`, speeds 1.0 to 1.4.
fn hull_mask(k: usize) -> Vec<f32> {
    let mut mask = vec![0.0; W * H];
    let x0 = 6 + 3 * k;
    for dx in 0..5 {
        mask[26 * W + x0 + dx] = 1.0 + 0.1 * dx as f32;
        mask[27 * W + x0 + dx] = 1.0;
    }
    mask
}

fn land() -> LandMask {
    let mut land = LandMask::empty(GridSize::new(W, H).expect("size"));
    land.add_rect(30, 0, 33, 12).expect("rect");
    land
}

fn grid(gpu: &GpuContext, backend: GpuBackend, spec: GridSpec) -> GpuGrid {
    let mut grid = GpuGrid::new(backend, &gpu.device, &gpu.queue, spec).expect("grid");
    grid.set_land(land()).expect("land");
    grid
}

/// The heights' bits and, outside classic mode, the raw channels' bits (split: `p` and `n`
/// separately, which `p - n` alone could hide).
fn level_bits(grid: &GpuGrid) -> Vec<u32> {
    let mut bits: Vec<u32> = grid
        .heights()
        .expect("heights")
        .iter()
        .map(|v| v.to_bits())
        .collect();
    if grid.spec().mode != GridMode::Classic {
        bits.extend(
            grid.channels()
                .expect("channels")
                .iter()
                .map(|v| v.to_bits()),
        );
    }
    bits
}

/// The surface texture as the last update left it (no new update), as bits.
fn surface_bits(gpu: &GpuContext, grid: &GpuGrid) -> Vec<u32> {
    let texture = grid.normal_height_texture().expect("surface made");
    let bytes = read_texture(&gpu.device, &gpu.queue, texture, 16).expect("surface readback");
    bytemuck::pod_collect_to_vec(&bytes)
}

fn first_difference(a: &[u32], b: &[u32]) -> Option<(usize, f32, f32)> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .map(|i| (i, f32::from_bits(a[i]), f32::from_bits(b[i])))
}

#[test]
fn a_frame_recorded_into_one_encoder_equals_the_same_calls_submitted_one_by_one() {
    let Some(gpu) = gpu_or_skip("one_encoder_frame") else {
        return;
    };
    for (backend, storage, mode) in cases() {
        let spec = spec(mode, storage);
        let name = format!("{}-{}-{}", backend.name(), storage, mode.name());
        let amp = amplitude(mode);
        let mut per_call = grid(&gpu, backend, spec);
        let mut recorded = grid(&gpu, backend, spec);
        let mut masks_a = ContactMasks::new(spec.size, 0.2 * amp).expect("masks");
        let mut masks_b = masks_a.clone();
        for k in 0..FRAMES {
            let impulse = impulse(mode, k);
            masks_a.advance(&hull_mask(k)).expect("advance");
            masks_b.advance(&hull_mask(k)).expect("advance");

            per_call.add_impulse(&impulse).expect("impulse");
            per_call.step_with_contacts(&masks_a).expect("contact step");
            per_call.step_many(PLAIN_STEPS).expect("steps");
            per_call.update_normal_height().expect("surface");

            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            recorded
                .encode_add_impulse(&mut encoder, &impulse)
                .expect("impulse");
            recorded
                .encode_step_with_contacts(&mut encoder, &masks_b)
                .expect("contact step");
            recorded.encode_step_many(&mut encoder, PLAIN_STEPS);
            recorded
                .encode_update_normal_height(&mut encoder)
                .expect("surface");
            gpu.queue.submit([encoder.finish()]);

            assert_eq!(per_call.steps_taken(), recorded.steps_taken(), "{name}");
            let (a, b) = (level_bits(&per_call), level_bits(&recorded));
            assert!(
                a == b,
                "{name}, frame {k}: heights differ, first at value {:?} (per call, recorded)",
                first_difference(&a, &b)
            );
            let (a, b) = (surface_bits(&gpu, &per_call), surface_bits(&gpu, &recorded));
            assert!(
                a == b,
                "{name}, frame {k}: surface textures differ, first at float {:?}",
                first_difference(&a, &b)
            );
        }
        // The frames moved the water: a comparison of two still grids would prove nothing.
        let peak = per_call
            .heights()
            .expect("heights")
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()));
        assert!(peak > 0.01 * amp, "{name}: the water barely moved ({peak})");
    }
}

#[test]
fn two_contact_steps_recorded_into_one_encoder_each_use_their_own_masks() {
    let Some(gpu) = gpu_or_skip("one_encoder_contacts") else {
        return;
    };
    for (backend, storage, mode) in cases() {
        let spec = spec(mode, storage);
        let name = format!("{}-{}-{}", backend.name(), storage, mode.name());
        let mut per_call = grid(&gpu, backend, spec);
        let mut recorded = grid(&gpu, backend, spec);
        // Two different pairs with different amplitudes: the hull appears (bow events), then
        // moves on (bow and stern events), louder.
        let amp = amplitude(mode);
        let mut first = ContactMasks::new(spec.size, 0.2 * amp).expect("masks");
        first.advance(&hull_mask(0)).expect("advance");
        let mut second = ContactMasks::new(spec.size, 0.35 * amp).expect("masks");
        second.advance(&hull_mask(0)).expect("advance");
        second.advance(&hull_mask(2)).expect("advance");
        assert_ne!(first.new_mask(), second.new_mask());

        per_call.step_with_contacts(&first).expect("step");
        per_call.step_with_contacts(&second).expect("step");
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        recorded
            .encode_step_with_contacts(&mut encoder, &first)
            .expect("step");
        recorded
            .encode_step_with_contacts(&mut encoder, &second)
            .expect("step");
        gpu.queue.submit([encoder.finish()]);

        let (a, b) = (level_bits(&per_call), level_bits(&recorded));
        assert!(
            a.iter().any(|&v| f32::from_bits(v) != 0.0),
            "{name}: no waves"
        );
        assert!(
            a == b,
            "{name}: heights differ, first at value {:?} (per call, recorded)",
            first_difference(&a, &b)
        );
    }
}

/// The CPU reference of `spec`'s mode with the same land.
fn cpu_grid(spec: &GridSpec) -> Box<dyn GridWater> {
    let mut grid: Box<dyn GridWater> = match spec.mode {
        GridMode::Signed => Box::new(SignedGrid::new(spec.size, spec.params, spec.boundary)),
        GridMode::Split => Box::new(SplitGrid::new(spec.size, spec.params, spec.boundary)),
        GridMode::Classic => Box::new(
            ClassicGrid::new(spec.size, spec.params.cell_size(), spec.classic_shift)
                .expect("classic"),
        ),
    };
    grid.set_land(land()).expect("land");
    grid
}

#[test]
fn an_impulse_recorded_between_steps_is_applied_once_at_its_place_in_the_recording() {
    // Steps, an impulse, steps, the surface: recorded into one encoder. The impulse must land
    // on the level current after the first steps, once: a lost impulse leaves still water, a
    // doubled one twice the heights, one applied before the first steps another wave.
    let Some(gpu) = gpu_or_skip("one_encoder_impulse") else {
        return;
    };
    for (backend, storage, mode) in cases() {
        if storage != StorageFormat::F32 {
            continue; // f16 storage has its own accuracy tests against the CPU
        }
        let spec = spec(mode, storage);
        let name = format!("{}-{}", backend.name(), mode.name());
        for displacement in [false, true] {
            let impulse = impulse(mode, 0).with_displacement(displacement);
            let mut recorded = grid(&gpu, backend, spec);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            recorded.encode_step_many(&mut encoder, 3);
            recorded
                .encode_add_impulse(&mut encoder, &impulse)
                .expect("impulse");
            recorded.encode_step_many(&mut encoder, 6);
            recorded
                .encode_update_normal_height(&mut encoder)
                .expect("surface");
            gpu.queue.submit([encoder.finish()]);

            let mut per_call = grid(&gpu, backend, spec);
            per_call.step_many(3).expect("steps");
            per_call.add_impulse(&impulse).expect("impulse");
            per_call.step_many(6).expect("steps");
            let gpu_heights = recorded.heights().expect("heights");
            assert_eq!(
                gpu_heights,
                per_call.heights().expect("heights"),
                "{name}, displacement {displacement}: recorded and per-call runs differ"
            );

            let mut cpu = cpu_grid(&spec);
            cpu.step_many(3);
            cpu.add_impulse(&impulse);
            cpu.step_many(6);
            let reference = cpu.heights();
            if mode == GridMode::Classic {
                assert_eq!(
                    gpu_heights, reference,
                    "{name}, displacement {displacement}: classic heights differ from the CPU"
                );
            } else {
                compare_f32(
                    &format!("one-encoder-impulse-{name}-{displacement}"),
                    W,
                    &reference,
                    &gpu_heights,
                    F32_TOLERANCE,
                )
                .unwrap_or_else(|e| panic!("{e}"));
            }
            // The surface of the recorded frame shows the same heights (w channel).
            let texture = recorded.normal_height_texture().expect("surface");
            let texels: Vec<f32> = bytemuck::pod_collect_to_vec(
                &read_texture(&gpu.device, &gpu.queue, texture, 16).expect("surface readback"),
            );
            let surface_heights: Vec<f32> = texels.chunks_exact(4).map(|t| t[3]).collect();
            assert_eq!(
                surface_heights, gpu_heights,
                "{name}, displacement {displacement}: the recorded surface shows other heights"
            );
        }
    }
}

#[test]
fn contact_masks_drawn_and_stepped_in_one_encoder_equal_drawing_and_stepping_per_call() {
    // A hull moving across the grid: its masks are drawn on the GPU and step the water. Per
    // call, each frame submits the drawing, the contact step and the plain steps; recorded,
    // two frames at a time go into one encoder. The masks rotate and the amplitude's uniform
    // is rewritten every frame, so a step reading another frame's masks or amplitude shows.
    use glam::{Affine3A, Vec3};
    use water_gpu::{ContactHull, ContactMaskRenderer, HullMesh};

    let Some(gpu) = gpu_or_skip("one_encoder_contact_masks") else {
        return;
    };
    // A tetrahedron 3 m across, counter-clockwise seen from outside, half under the water.
    let vertices = [
        Vec3::new(-1.5, -1.5, -1.0),
        Vec3::new(1.5, -1.5, -1.0),
        Vec3::new(0.0, 1.5, -1.0),
        Vec3::new(0.0, 0.0, 1.0),
    ];
    let mesh = HullMesh::new(
        &gpu.device,
        &vertices,
        &[[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]],
    )
    .expect("mesh");
    let hull = |frame: usize| ContactHull {
        mesh: &mesh,
        transform: Affine3A::from_translation(Vec3::new(1.2 + 0.25 * frame as f32, 2.0, 0.0)),
        speed: 1.0 + 0.2 * frame as f32,
    };
    let amplitude = |frame: usize| 0.05 + 0.01 * frame as f32;
    for backend in [GpuBackend::Compute, GpuBackend::Fragment] {
        for mode in [GridMode::Signed, GridMode::Split] {
            let spec = spec(mode, StorageFormat::F32);
            let name = format!("{}-{}", backend.name(), mode.name());
            let renderer = || {
                ContactMaskRenderer::new(&gpu.device, &gpu.queue, spec.size, 0.1, backend)
                    .expect("renderer")
            };
            let (mut masks_a, mut masks_b) = (renderer(), renderer());
            let mut per_call = grid(&gpu, backend, spec);
            let mut recorded = grid(&gpu, backend, spec);
            for frame in 0..4 {
                masks_a.render(&[hull(frame)]).expect("render");
                masks_a
                    .step(&mut per_call, amplitude(frame))
                    .expect("contact step");
                per_call.step_many(2).expect("steps");
            }
            for pair in [[0, 1], [2, 3]] {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                for frame in pair {
                    masks_b.encode(&mut encoder, &[hull(frame)]).expect("draw");
                    masks_b
                        .encode_step(&mut encoder, &mut recorded, amplitude(frame))
                        .expect("contact step");
                    recorded.encode_step_many(&mut encoder, 2);
                }
                gpu.queue.submit([encoder.finish()]);
            }
            let (a, b) = (level_bits(&per_call), level_bits(&recorded));
            assert!(
                a.iter().any(|&v| f32::from_bits(v) != 0.0),
                "{name}: the hull made no waves"
            );
            assert!(
                a == b,
                "{name}: heights differ, first at value {:?} (per call, recorded)",
                first_difference(&a, &b)
            );
        }
    }
}
