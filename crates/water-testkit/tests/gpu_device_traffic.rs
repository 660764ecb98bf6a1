//! The device traffic counters see what a GPU grid costs the host: a blocking readback counts
//! its bytes and one wait, an asynchronous one its bytes and no wait, and a frame loop stepping
//! water (with the mean-level keeper measuring conserving water asynchronously) waits on the
//! device never.

use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::{wgpu, DeviceTraffic, GpuGrid, GpuGridWater, GridSpec};
use water_scene::Water as _;
use water_testkit::gpu_or_return;
use water_testkit::setup::{cosine_impulse, GPU_BACKENDS};

fn spec(boundary: Boundary, damping: Damping) -> GridSpec {
    let params = WaveParams::new(0.1, 2.0, 0.025, damping).expect("params");
    // 48 cells a row: 192 bytes of R32Float, padded to 256 in a texture copy.
    let size = GridSize::new(48, 32).expect("size");
    GridSpec::new(size, params, boundary, GridMode::Signed)
}

#[test]
fn a_blocking_readback_counts_its_bytes_and_one_wait() {
    let gpu = gpu_or_return!("a_blocking_readback_counts_its_bytes_and_one_wait");
    let spec = spec(Boundary::Absorbing, Damping::PerStep(0.999));
    let cells = spec.size.cells() as u64;
    for backend in GPU_BACKENDS {
        let mut grid = GpuGrid::new(backend, &gpu.device, &gpu.queue, spec).expect("grid");
        grid.add_impulse(&cosine_impulse(20.0, 16.0, 5.0, 0.3))
            .expect("impulse");
        grid.step_many(10).expect("steps");
        let before = DeviceTraffic::on_this_thread();
        let heights = grid.heights().expect("heights");
        let used = DeviceTraffic::on_this_thread().since(before);
        assert_eq!(heights.len() as u64, cells);
        assert_eq!(used.blocking_waits, 1, "{backend:?}: {used:?}");
        // The staging copy: at least the heights, at most their rows padded to 256 bytes.
        let padded = 256 * spec.size.height() as u64;
        assert!(
            (cells * 4..=padded).contains(&used.bytes_read_back),
            "{backend:?}: {used:?}, expected {} to {padded} bytes",
            cells * 4
        );
    }
}

#[test]
fn an_asynchronous_readback_counts_its_bytes_and_no_wait() {
    let gpu = gpu_or_return!("an_asynchronous_readback_counts_its_bytes_and_no_wait");
    let spec = spec(Boundary::Absorbing, Damping::PerStep(0.999));
    let cells = spec.size.cells() as u64;
    let mut grid = GpuGrid::new(GPU_BACKENDS[0], &gpu.device, &gpu.queue, spec).expect("grid");
    grid.step_many(3).expect("steps");
    let before = DeviceTraffic::on_this_thread();
    let pending = grid.read_normal_height_async().expect("start");
    let bytes = loop {
        let _ = gpu.device.poll(wgpu::PollType::Poll);
        if let Some(taken) = pending.try_take() {
            break taken.expect("read");
        }
        std::thread::yield_now();
    };
    let used = DeviceTraffic::on_this_thread().since(before);
    assert_eq!(bytes.len() as u64, cells * 16, "four f32 per cell");
    assert_eq!(used.blocking_waits, 0, "{used:?}");
    assert!(used.bytes_read_back >= cells * 16, "{used:?}");
}

/// Runs 200 frames of 8 steps on `grid`, each frame recorded into its own encoder
/// (`recorded`) or submitted by `step_many`, polling the device once a frame as a game loop
/// does; what they cost the host.
fn frames(gpu: &water_gpu::GpuContext, grid: &mut GpuGrid, recorded: bool) -> DeviceTraffic {
    let before = DeviceTraffic::on_this_thread();
    for _frame in 0..200 {
        if recorded {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            grid.encode_step_many(&mut encoder, 8);
            gpu.queue.submit([encoder.finish()]);
        } else {
            grid.step_many(8).expect("steps");
        }
        let _ = gpu.device.poll(wgpu::PollType::Poll);
    }
    DeviceTraffic::on_this_thread().since(before)
}

#[test]
fn stepping_water_in_a_frame_loop_never_waits_on_the_device() {
    let gpu = gpu_or_return!("stepping_water_in_a_frame_loop_never_waits_on_the_device");
    for backend in GPU_BACKENDS {
        let impulse = cosine_impulse(20.0, 16.0, 5.0, 0.3);
        // Damped open water: nothing to read back, through either way of stepping.
        for recorded in [false, true] {
            let spec = spec(Boundary::Absorbing, Damping::PerStep(0.999));
            let mut grid = GpuGrid::new(backend, &gpu.device, &gpu.queue, spec).expect("grid");
            grid.add_impulse(&impulse).expect("impulse");
            let used = frames(&gpu, &mut grid, recorded);
            assert_eq!(
                used,
                DeviceTraffic::default(),
                "{backend:?} recorded {recorded}"
            );
        }
        // Undamped reflective water, whose mean level the keeper holds: recorded frames measure
        // it asynchronously and never wait. The compute backend sums on the device and reads a
        // few sums a correction (a 1,536-cell field a frame would be 1.2 MB over the 200
        // frames); the fragment backend's keeper sums on the host, from both levels read back
        // whole (asynchronously) at each correction.
        let spec = spec(Boundary::Reflective, Damping::NONE);
        let mut grid = GpuGrid::new(backend, &gpu.device, &gpu.queue, spec).expect("grid");
        grid.add_impulse(&impulse).expect("impulse");
        let used = frames(&gpu, &mut grid, true);
        assert_eq!(used.blocking_waits, 0, "{backend:?}: {used:?}");
        assert!(
            used.bytes_read_back > 0,
            "{backend:?}: the keeper measures: {used:?}"
        );
        if backend == water_gpu::GpuBackend::Compute {
            assert!(used.bytes_read_back <= 200 * 1024, "{used:?}");
        }
    }
}

/// Most cells a side of one crate's patch in [`water_scene::benchmark::crate_field`]: the
/// crate reaches 0.51 m from its centre, its margin for a towed crate's motion over two steps
/// and one cell add 0.13 m, the patch's halo two cells each side: 0.64 m * 2 / 0.1 m + 4 =
/// 16.9 cells, and up to 2 more where the ends round outward.
const CRATE_PATCH_SIDE: u64 = 19;

/// 100 crates on 512^2 split water on either GPU backend, stepped as a game does (a step a
/// frame, or two; the frame's presentation waits for the device outside the scene, as a
/// swap chain does): the scene reads back only the crates' patches, at most 19 x 19 cells
/// (1,444 bytes) a crate and step, against the field's 1 MiB, and never waits on the
/// device, reading the step's own water one step a frame and the water one step late two
/// steps a frame.
#[test]
fn a_gpu_scene_with_100_bodies_reads_back_their_patches_and_never_waits_in_a_frame() {
    use water_scene::benchmark::crate_field;
    use water_scene::{Backend, BodyWater};
    let gpu = gpu_or_return!(
        "a_gpu_scene_with_100_bodies_reads_back_their_patches_and_never_waits_in_a_frame"
    );
    let bodies = 100u64;
    let bound = bodies * CRATE_PATCH_SIDE * CRATE_PATCH_SIDE * 4;
    let present = || {
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the device answers");
    };
    for backend in [Backend::Gpu, Backend::GpuFragment] {
        for (body_water, steps_per_frame) in [
            (BodyWater::Current, 1),
            (BodyWater::OneStepLate, 1),
            (BodyWater::OneStepLate, 2),
        ] {
            let mut scene = crate_field(512, bodies as usize, backend, Some(&gpu)).expect("scene");
            scene.set_body_water(body_water);
            let frames = 6;
            let mut used = DeviceTraffic::default();
            // Two frames to fill the queue of patches, then the steady state.
            for frame in 0..2 + frames {
                let before = DeviceTraffic::on_this_thread();
                for _ in 0..steps_per_frame {
                    scene.step().expect("step");
                }
                let this = DeviceTraffic::on_this_thread().since(before);
                if frame >= 2 {
                    used.bytes_read_back += this.bytes_read_back;
                    used.blocking_waits += this.blocking_waits;
                }
                present();
            }
            let steps = frames * steps_per_frame;
            let per_step = used.bytes_read_back / steps;
            eprintln!(
                "{backend} {body_water} x{steps_per_frame}: {per_step} bytes a step, {used:?}"
            );
            assert_eq!(used.blocking_waits, 0, "{backend} {body_water}: {used:?}");
            assert!(
                (bodies * 4..=bound).contains(&per_step),
                "{backend} {body_water}: {per_step} bytes a step, expected patches of at most \
                 {bound} bytes"
            );
        }
    }
}

/// A GPU scene without bodies on undamped reflective water, whose mean level the keeper holds,
/// advanced frame by frame as a game does: 300 frames of two steps wait on the device never
/// (the keeper's sums come back asynchronously), and the level stays within 1e-6 m of where
/// it was (waves of 6 cm). The same
/// steps through `step_many`, which keeps the CPU's schedule of corrections, wait for them.
#[test]
fn a_scene_advanced_frame_by_frame_on_conserving_water_never_waits() {
    use water_core::LandMask;
    use water_scene::{Backend, Scene, SceneSettings};
    let gpu = gpu_or_return!("a_scene_advanced_frame_by_frame_on_conserving_water_never_waits");
    let spec = spec(Boundary::Reflective, Damping::NONE);
    let dt = spec.params.dt();
    for backend in [Backend::Gpu, Backend::GpuFragment] {
        let settings = SceneSettings {
            backend,
            ..SceneSettings::default()
        };
        let mean = |scene: &Scene| {
            let h = scene.water().heights().expect("heights");
            h.iter().map(|&v| f64::from(v)).sum::<f64>() / h.len() as f64
        };
        let mut framed =
            Scene::new(spec, LandMask::empty(spec.size), settings, Some(&gpu)).expect("scene");
        // A displacement (both levels raised): the mean level then stays where it starts, where
        // a kick to the current level alone would set it rising at a steady rate.
        framed.add_impulse(cosine_impulse(20.0, 16.0, 5.0, 0.3).with_displacement(true));
        framed.step().expect("the impulse lands");
        let start = mean(&framed);
        let before = DeviceTraffic::on_this_thread();
        for _ in 0..300 {
            framed.advance(2.0 * dt).expect("frame");
            let _ = gpu.device.poll(wgpu::PollType::Poll);
        }
        let used = DeviceTraffic::on_this_thread().since(before);
        assert_eq!(framed.steps_taken(), 601, "two steps a frame");
        assert_eq!(used.blocking_waits, 0, "{backend}: {used:?}");
        let drift = (mean(&framed) - start).abs();
        assert!(drift < 1e-6, "{backend}: the mean level moved by {drift} m");
        if backend == Backend::Gpu {
            let mut stepped =
                Scene::new(spec, LandMask::empty(spec.size), settings, Some(&gpu)).expect("scene");
            stepped.add_impulse(cosine_impulse(20.0, 16.0, 5.0, 0.3).with_displacement(true));
            let before = DeviceTraffic::on_this_thread();
            stepped.step_many(601).expect("steps");
            let used = DeviceTraffic::on_this_thread().since(before);
            assert!(
                used.blocking_waits > 0,
                "step_many keeps the CPU's schedule: {used:?}"
            );
        }
    }
}
