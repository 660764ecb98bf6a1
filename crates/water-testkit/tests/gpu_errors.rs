//! GPU backends report errors instead of panicking: grids beyond the device's limits, specs
//! the CPU refuses, mismatched uploads, and a lost device.

use water_core::{Boundary, Damping, Depth, GridMode, GridSize, WaveParams};
use water_gpu::GpuGridWater;
use water_gpu::{ComputeGrid, FragmentGrid, GpuError, GridSpec, StorageFormat};
use water_testkit::gpu_or_return;

fn spec(w: usize, h: usize, boundary: Boundary, mode: GridMode) -> GridSpec {
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::NONE).expect("params");
    GridSpec::new(GridSize::new(w, h).expect("size"), params, boundary, mode)
}

#[test]
fn grids_beyond_the_device_limits_are_refused_naming_the_limit() {
    let gpu = gpu_or_return!("grids_beyond_the_device_limits");
    // 2^30 cells: 4 GiB per f32 level, more than any storage binding allows.
    let huge = spec(65_536, 16_384, Boundary::Fixed, GridMode::Signed);
    let err = ComputeGrid::new(&gpu.device, &gpu.queue, huge).expect_err("too large");
    assert!(matches!(err, GpuError::TooLarge { .. }), "{err:?}");
    assert!(err.to_string().contains("allows at most"), "{err}");
    let err = FragmentGrid::new(&gpu.device, &gpu.queue, huge).expect_err("too large");
    match err {
        GpuError::TooLarge { needed, limit, .. } => assert!(needed > limit),
        other => panic!("{other:?}"),
    }
}

#[test]
fn specs_the_cpu_refuses_and_mismatched_uploads_are_errors() {
    let gpu = gpu_or_return!("specs_the_cpu_refuses");
    let classic_reflective = spec(32, 32, Boundary::Reflective, GridMode::Classic);
    let err = ComputeGrid::new(&gpu.device, &gpu.queue, classic_reflective).expect_err("refused");
    assert!(err.to_string().contains("fixed"), "{err}");
    let bad_shift = spec(32, 32, Boundary::Fixed, GridMode::Classic).with_classic_shift(Some(16));
    assert!(FragmentGrid::new(&gpu.device, &gpu.queue, bad_shift).is_err());

    let mut grid = ComputeGrid::new(
        &gpu.device,
        &gpu.queue,
        spec(32, 32, Boundary::Fixed, GridMode::Signed),
    )
    .expect("grid");
    assert!(grid.upload_f32(&[0.0; 10], &[0.0; 1024]).is_err());
    assert!(
        grid.upload_i16(&[0; 1024], &[0; 1024]).is_err(),
        "signed grids hold f32"
    );
    assert!(grid.classic_heights().is_err());
}

#[test]
fn readback_is_asynchronous_and_reports_a_lost_device() {
    let gpu = gpu_or_return!("readback_is_asynchronous");
    let mut grid = ComputeGrid::new(
        &gpu.device,
        &gpu.queue,
        spec(64, 48, Boundary::Reflective, GridMode::Signed),
    )
    .expect("grid");
    let levels: Vec<f32> = (0..64 * 48).map(|i| (i % 7) as f32).collect();
    grid.upload_f32(&levels, &levels).expect("upload");
    let pending = grid.read_current_async().expect("readback starts");
    // Nothing arrives until the device is polled.
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll");
    let bytes = loop {
        if let Some(result) = pending.try_take() {
            break result.expect("mapped");
        }
        gpu.device.poll(wgpu::PollType::Poll).expect("poll");
    };
    assert_eq!(bytes.len(), 64 * 48 * 4);
    assert_eq!(bytemuck::cast_slice::<u8, f32>(&bytes), &levels[..]);

    gpu.device.destroy();
    let err = grid.heights().expect_err("device gone");
    assert!(matches!(err, GpuError::DeviceLost(_)), "{err:?}");
    // Work submitted to a destroyed device may be dropped silently; it must not panic, and the
    // next readback must report the loss.
    if let Err(err) = grid.step_many(3) {
        assert!(matches!(err, GpuError::DeviceLost(_)), "{err:?}");
    }
    assert!(matches!(grid.heights(), Err(GpuError::DeviceLost(_))));
}

#[test]
fn depths_the_grid_cannot_take_are_typed_errors() {
    let gpu = gpu_or_return!("depths_the_grid_cannot_take");
    let depth = |w, h| Depth::uniform(GridSize::new(w, h).expect("size"), 1.0).expect("depth");
    let classic = spec(32, 32, Boundary::Fixed, GridMode::Classic);
    let mut grid = ComputeGrid::new(&gpu.device, &gpu.queue, classic).expect("grid");
    let err = grid.set_depth(&depth(32, 32)).expect_err("classic");
    assert!(matches!(err, GpuError::WrongMode { .. }), "{err:?}");
    let half =
        spec(32, 32, Boundary::Reflective, GridMode::Signed).with_storage(StorageFormat::F16);
    let mut grid = ComputeGrid::new(&gpu.device, &gpu.queue, half).expect("grid");
    let err = grid.set_depth(&depth(32, 32)).expect_err("f16");
    assert!(matches!(err, GpuError::StorageNotOffered { .. }), "{err:?}");
    let signed = spec(32, 32, Boundary::Reflective, GridMode::Signed);
    let mut grid = FragmentGrid::new(&gpu.device, &gpu.queue, signed).expect("grid");
    let err = grid.set_depth(&depth(32, 16)).expect_err("size");
    assert!(err.to_string().contains("depth map"), "{err}");
}
