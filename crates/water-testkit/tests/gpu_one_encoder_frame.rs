//! A frame recorded into one command encoder and submitted once does exactly what the same
//! operations do when each submits on its own: impulses (kicks and displacements), contact steps
//! with their own masks (uploaded, or drawn on the GPU by `ContactMaskRenderer`), plain steps
//! (fused and single dispatches) and the surface update, on both GPU backends, in signed, split
//! and classic mode, with f16 storage, over a depth map with a dry islet, and for the dispersive
//! model (compute backend, over still depth and over the map). Compared bit for
//! bit: the two runs execute the same kernels on the same inputs, so any difference is an
//! operation applied to the wrong level, lost, doubled or fed another operation's upload.
//!
//! The grids are damped, so the mean-level keeper does not run: where it runs (undamped
//! reflective and periodic grids) a recorded correction lands a frame later than a per-call
//! one by design, and `gpu_mean_level.rs` checks each path keeps the level instead.

use glam::Vec2;
use water_core::{
    AiryDispersion, Boundary, ContactMasks, Damping, Depth, GridMode, GridSize, Impulse,
    ImpulseShape, LandMask, WaveParams,
};
use water_gpu::read_texture;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec, StorageFormat};
use water_testkit::scenario::impulse_amplitude;
use water_testkit::setup::{
    cpu_reference, gpu_grid_stored_with_land, gpu_grid_with_land, GPU_BACKENDS,
};
use water_testkit::{assert_f32_within, gpu_or_return, submit_once, F32_TOLERANCE};

const W: usize = 48;
const H: usize = 40;
/// Plain steps per frame: one fused dispatch of four steps and one single step on the compute
/// backend, so both dispatch kinds are recorded between the frame's other operations.
const PLAIN_STEPS: u64 = 5;
const FRAMES: usize = 3;

/// One grid under test: a backend, the spec it runs and whether it runs over a depth map.
struct Case {
    backend: GpuBackend,
    spec: GridSpec,
    storage: StorageFormat,
    depth: bool,
}

impl Case {
    /// Still water of the case, with the land (and the depth map's dry cells).
    fn grid(&self, gpu: &GpuContext) -> GpuGrid {
        let mut grid = gpu_grid_stored_with_land(
            gpu,
            self.backend,
            self.spec,
            self.storage,
            land(self.spec.size),
        );
        if self.depth {
            grid.set_depth(&depth_map(self.spec.size)).expect("depth");
        }
        grid
    }

    /// `backend-storage-mode[-dispersive][-depth]`, for messages.
    fn name(&self) -> String {
        format!(
            "{}-{}-{}{}{}",
            self.backend.name(),
            self.storage,
            self.spec.mode.name(),
            if self.spec.dispersion.is_some() {
                "-dispersive"
            } else {
                ""
            },
            if self.depth { "-depth" } else { "" }
        )
    }
}

/// A slope from 1 m deep at the left edge to 0.2 m at the right, with a dry islet.
fn depth_map(size: GridSize) -> Depth {
    let w = size.width();
    let metres: Vec<f32> = (0..size.cells())
        .map(|i| {
            let (x, y) = (i % w, i / w);
            if (20..24).contains(&x) && (4..8).contains(&y) {
                0.0
            } else {
                1.0 - 0.8 * x as f32 / (w - 1) as f32
            }
        })
        .collect();
    Depth::from_cells(size, metres).expect("depth")
}

/// The grids under test: each backend and storage, in each mode (classic: fixed boundary).
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for mode in GridMode::ALL {
        let mut push = |backend, storage| {
            cases.push(Case {
                backend,
                spec: spec(mode),
                storage,
                depth: false,
            });
        };
        push(GpuBackend::Compute, StorageFormat::F32);
        push(GpuBackend::Fragment, StorageFormat::F32);
        if mode != GridMode::Classic {
            push(GpuBackend::Compute, StorageFormat::F16);
        }
    }
    cases
}

/// [`cases`], and grids over a depth map (f32 signed and split, both backends) and of the
/// dispersive model (compute backend, absorbing edges, over still depth and over the map).
fn frame_cases() -> Vec<Case> {
    let mut cases = cases();
    for mode in [GridMode::Signed, GridMode::Split] {
        for backend in GPU_BACKENDS {
            cases.push(Case {
                backend,
                spec: spec(mode),
                storage: StorageFormat::F32,
                depth: true,
            });
        }
    }
    let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
    // Spectral sides are powers of two.
    let dispersive = GridSpec::new(
        GridSize::new(64, 32).expect("size"),
        spec(GridMode::Signed).params,
        Boundary::Absorbing,
        GridMode::Signed,
    )
    .with_dispersion(airy);
    for depth in [false, true] {
        cases.push(Case {
            backend: GpuBackend::Compute,
            spec: dispersive,
            storage: StorageFormat::F32,
            depth,
        });
    }
    cases
}

fn spec(mode: GridMode) -> GridSpec {
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.998)).expect("stable");
    let boundary = if mode == GridMode::Classic {
        Boundary::Fixed
    } else {
        Boundary::Reflective
    };
    GridSpec::new(size, params, boundary, mode)
}

/// Frame `k`'s impulse: alternating sign (split mode: both channels), every other one a
/// displacement, near a strip of land so the land rule is exercised too.
fn impulse(mode: GridMode, k: usize) -> Impulse {
    let sign = if k.is_multiple_of(2) { 1.0 } else { -0.7 };
    Impulse::new(
        Vec2::new(14.0 + 7.0 * k as f32, 17.0 + 2.0 * k as f32),
        5.0,
        sign * impulse_amplitude(mode),
        ImpulseShape::Cosine,
    )
    .expect("impulse")
    .with_displacement(!k.is_multiple_of(2))
}

/// A hull of a few cells at a position that moves with `k`, speeds 1.0 to 1.4.
fn hull_mask(size: GridSize, k: usize) -> Vec<f32> {
    let w = size.width();
    let mut mask = vec![0.0; size.cells()];
    let x0 = 6 + 3 * k;
    for dx in 0..5 {
        mask[26 * w + x0 + dx] = 1.0 + 0.1 * dx as f32;
        mask[27 * w + x0 + dx] = 1.0;
    }
    mask
}

fn land(size: GridSize) -> LandMask {
    let mut land = LandMask::empty(size);
    land.add_rect(30, 0, 33, 12).expect("rect");
    land
}

fn grid(gpu: &GpuContext, backend: GpuBackend, spec: GridSpec) -> GpuGrid {
    gpu_grid_with_land(gpu, backend, spec, land(spec.size))
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

/// Asserts the per-call run's bits of `what` equal the recorded run's, naming the first
/// difference as floats.
fn assert_same_bits(what: &str, per_call: &[u32], recorded: &[u32]) {
    assert!(
        per_call == recorded,
        "{what} differ, first at value {:?} (per call, recorded)",
        first_difference(per_call, recorded)
    );
}

/// Asserts the per-call run moved the water (two still grids would agree whatever the
/// recording did) and the recorded run holds the same levels bit for bit.
fn assert_waves_recorded_alike(name: &str, per_call: &GpuGrid, recorded: &GpuGrid) {
    let levels = level_bits(per_call);
    assert!(
        levels.iter().any(|&v| f32::from_bits(v) != 0.0),
        "{name}: no waves"
    );
    assert_same_bits(&format!("{name}: heights"), &levels, &level_bits(recorded));
}

#[test]
fn a_frame_recorded_into_one_encoder_equals_the_same_calls_submitted_one_by_one() {
    let gpu = gpu_or_return!("one_encoder_frame");
    for case in frame_cases() {
        let (mode, name) = (case.spec.mode, case.name());
        let amp = impulse_amplitude(mode);
        let mut per_call = case.grid(&gpu);
        let mut recorded = case.grid(&gpu);
        let mut masks_a = ContactMasks::new(case.spec.size, 0.2 * amp).expect("masks");
        let mut masks_b = masks_a.clone();
        for k in 0..FRAMES {
            let impulse = impulse(mode, k);
            masks_a
                .advance(&hull_mask(case.spec.size, k))
                .expect("advance");
            masks_b
                .advance(&hull_mask(case.spec.size, k))
                .expect("advance");

            per_call.add_impulse(&impulse).expect("impulse");
            per_call.step_with_contacts(&masks_a).expect("contact step");
            per_call.step_many(PLAIN_STEPS).expect("steps");
            per_call.update_normal_height().expect("surface");

            submit_once(&gpu, |encoder| {
                recorded
                    .encode_add_impulse(encoder, &impulse)
                    .expect("impulse");
                recorded
                    .encode_step_with_contacts(encoder, &masks_b)
                    .expect("contact step");
                recorded.encode_step_many(encoder, PLAIN_STEPS);
                recorded
                    .encode_update_normal_height(encoder)
                    .expect("surface");
            });

            assert_eq!(per_call.steps_taken(), recorded.steps_taken(), "{name}");
            assert_same_bits(
                &format!("{name}, frame {k}: heights"),
                &level_bits(&per_call),
                &level_bits(&recorded),
            );
            assert_same_bits(
                &format!("{name}, frame {k}: surface textures"),
                &surface_bits(&gpu, &per_call),
                &surface_bits(&gpu, &recorded),
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
    let gpu = gpu_or_return!("one_encoder_contacts");
    for case in cases() {
        let name = case.name();
        let mut per_call = case.grid(&gpu);
        let mut recorded = case.grid(&gpu);
        // Two different pairs with different amplitudes: the hull appears (bow events), then
        // moves on (bow and stern events), louder.
        let (size, amp) = (case.spec.size, impulse_amplitude(case.spec.mode));
        let mut first = ContactMasks::new(size, 0.2 * amp).expect("masks");
        first
            .advance(&hull_mask(case.spec.size, 0))
            .expect("advance");
        let mut second = ContactMasks::new(size, 0.35 * amp).expect("masks");
        second
            .advance(&hull_mask(case.spec.size, 0))
            .expect("advance");
        second
            .advance(&hull_mask(case.spec.size, 2))
            .expect("advance");
        assert_ne!(first.new_mask(), second.new_mask());

        for masks in [&first, &second] {
            per_call.step_with_contacts(masks).expect("step");
        }
        submit_once(&gpu, |encoder| {
            for masks in [&first, &second] {
                recorded
                    .encode_step_with_contacts(encoder, masks)
                    .expect("step");
            }
        });

        assert_waves_recorded_alike(&name, &per_call, &recorded);
    }
}

#[test]
fn an_impulse_recorded_between_steps_is_applied_once_at_its_place_in_the_recording() {
    // Steps, an impulse, steps, the surface: recorded into one encoder. The impulse must land
    // on the level current after the first steps, once: a lost impulse leaves still water, a
    // doubled one twice the heights, one applied before the first steps another wave.
    let gpu = gpu_or_return!("one_encoder_impulse");
    for case in cases() {
        let (spec, mode) = (case.spec, case.spec.mode);
        if case.storage != StorageFormat::F32 {
            continue; // f16 storage has its own accuracy tests against the CPU
        }
        let name = format!("{}-{}", case.backend.name(), mode.name());
        for displacement in [false, true] {
            let impulse = impulse(mode, 0).with_displacement(displacement);
            let mut recorded = case.grid(&gpu);
            submit_once(&gpu, |encoder| {
                recorded.encode_step_many(encoder, 3);
                recorded
                    .encode_add_impulse(encoder, &impulse)
                    .expect("impulse");
                recorded.encode_step_many(encoder, 6);
                recorded
                    .encode_update_normal_height(encoder)
                    .expect("surface");
            });

            let mut per_call = case.grid(&gpu);
            per_call.step_many(3).expect("steps");
            per_call.add_impulse(&impulse).expect("impulse");
            per_call.step_many(6).expect("steps");
            let gpu_heights = recorded.heights().expect("heights");
            assert_eq!(
                gpu_heights,
                per_call.heights().expect("heights"),
                "{name}, displacement {displacement}: recorded and per-call runs differ"
            );

            let mut cpu = cpu_reference(spec, land(spec.size));
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
                assert_f32_within(
                    &format!("one-encoder-impulse-{name}-{displacement}"),
                    W,
                    &reference,
                    &gpu_heights,
                    F32_TOLERANCE,
                );
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

    let gpu = gpu_or_return!("one_encoder_contact_masks");
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
    for backend in GPU_BACKENDS {
        for mode in [GridMode::Signed, GridMode::Split] {
            let spec = spec(mode);
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
                submit_once(&gpu, |encoder| {
                    for frame in pair {
                        masks_b.encode(encoder, &[hull(frame)]).expect("draw");
                        masks_b
                            .encode_step(encoder, &mut recorded, amplitude(frame))
                            .expect("contact step");
                        recorded.encode_step_many(encoder, 2);
                    }
                });
            }
            assert_waves_recorded_alike(&name, &per_call, &recorded);
        }
    }
}
