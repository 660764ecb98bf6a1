//! GPU backends report errors instead of panicking: grids beyond the device's limits, specs
//! the CPU refuses, mismatched uploads, and a lost device.

use water_core::{
    AiryDispersion, Boundary, Damping, Depth, GridMode, GridSize, WaterError, WaveParams,
};
use water_gpu::GpuGridWater;
use water_gpu::{ComputeGrid, FragmentGrid, GpuError, GridSpec, StorageFormat, SPECTRAL_MAX_SIDE};
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
    let half = spec(32, 32, Boundary::Reflective, GridMode::Signed);
    let mut grid =
        ComputeGrid::with_storage(&gpu.device, &gpu.queue, half, StorageFormat::F16).expect("grid");
    let err = grid.set_depth(&depth(32, 32)).expect_err("f16");
    assert!(matches!(err, GpuError::StorageNotOffered { .. }), "{err:?}");
    let signed = spec(32, 32, Boundary::Reflective, GridMode::Signed);
    let mut grid = FragmentGrid::new(&gpu.device, &gpu.queue, signed).expect("grid");
    let err = grid.set_depth(&depth(32, 16)).expect_err("size");
    assert!(err.to_string().contains("depth map"), "{err}");
}

/// Deep-water gravity waves on `w x h` cells of 0.1 m stepped by `dt` s; `wave_speed` only
/// sets what the five-point check of the parameters sees.
fn dispersive_spec(w: usize, h: usize, wave_speed: f64, dt: f64) -> GridSpec {
    let airy = AiryDispersion::gravity_waves(9.81).expect("Earth's gravity");
    let params = WaveParams::new(0.1, wave_speed, dt, Damping::NONE).expect("params");
    GridSpec::new(
        GridSize::new(w, h).expect("size"),
        params,
        Boundary::Periodic,
        GridMode::Signed,
    )
    .with_dispersion(airy)
}

#[test]
fn dispersive_grids_the_gpu_cannot_step_are_refused_by_name() {
    let gpu = gpu_or_return!("dispersive_grids_the_gpu_cannot_step");
    let (device, queue) = (&gpu.device, &gpu.queue);
    // Radix-2 transforms: a side that is not a power of two is named, with the CPU's offer.
    let err = ComputeGrid::new(device, queue, dispersive_spec(96, 64, 1.0, 0.05)).expect_err("96");
    assert_eq!(
        err,
        GpuError::SpectralSide {
            axis: "width",
            cells: 96,
            max: SPECTRAL_MAX_SIDE
        }
    );
    assert!(
        err.to_string().contains("CPU backend takes any size"),
        "{err}"
    );
    let err =
        ComputeGrid::new(device, queue, dispersive_spec(64, 4096, 1.0, 0.05)).expect_err("4096");
    assert!(
        matches!(
            err,
            GpuError::SpectralSide {
                axis: "height",
                cells: 4096,
                ..
            }
        ),
        "{err:?}"
    );
    // A dt the five-point check passes (c = 0.1 m/s) but the fastest ripple's pi/omega_max
    // (0.150 s on 0.1 m cells) refuses, as on the CPU.
    let err = ComputeGrid::new(device, queue, dispersive_spec(64, 64, 0.1, 0.5)).expect_err("dt");
    match &err {
        GpuError::Invalid(WaterError::DispersiveUnstable { max_stable_dt, .. }) => {
            assert!((max_stable_dt - 0.150).abs() < 1e-3, "{max_stable_dt}");
        }
        other => panic!("{other:?}"),
    }
    // f16 levels and the fragment backend are refused, each by name.
    let err = ComputeGrid::with_storage(
        device,
        queue,
        dispersive_spec(64, 64, 1.0, 0.05),
        StorageFormat::F16,
    )
    .expect_err("f16");
    assert!(matches!(err, GpuError::StorageNotOffered { .. }), "{err:?}");
    let err =
        FragmentGrid::new(device, queue, dispersive_spec(64, 64, 1.0, 0.05)).expect_err("fragment");
    assert!(err.to_string().contains("fragment backend"), "{err}");
    // A depth map whose deepest cell needs a shorter step than the grid's is refused, as on
    // the CPU (`SpectralDepth::checked`); one within the limit is taken.
    let shallow = AiryDispersion::new(9.81, 0.0, 1000.0, Some(0.01)).expect("airy");
    let params = WaveParams::new(0.1, 0.1, 0.16, Damping::NONE).expect("params");
    let size = GridSize::new(64, 64).expect("size");
    let spec =
        GridSpec::new(size, params, Boundary::Periodic, GridMode::Signed).with_dispersion(shallow);
    let mut grid = ComputeGrid::new(device, queue, spec).expect("stable over 1 cm");
    let deep = Depth::uniform(size, 2.0).expect("depth");
    let err = grid.set_depth(&deep).expect_err("2 m is faster");
    assert!(
        matches!(
            err,
            GpuError::Invalid(WaterError::DispersiveUnstable { .. })
        ),
        "{err:?}"
    );
    let mut grid =
        ComputeGrid::new(device, queue, dispersive_spec(64, 64, 1.0, 0.05)).expect("a grid");
    grid.set_depth(&deep).expect("within the limit");
}

/// An error outside the crate's error scopes (here a texture wider than the device allows,
/// made directly on the device) is kept by the headless context's handler, not wgpu's default
/// panic, and comes back once as a [`GpuError`]; a context of the caller's own device installs
/// nothing.
#[test]
fn an_error_outside_the_crates_scopes_is_kept_not_a_panic() {
    let gpu = gpu_or_return!("an_error_outside_the_crates_scopes");
    assert!(gpu.raised_error().is_ok(), "nothing raised yet");
    let too_wide = gpu.device.limits().max_texture_dimension_2d + 1;
    let _texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("wider than the device allows"),
        size: wgpu::Extent3d {
            width: too_wide,
            height: 1,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let err = gpu
        .raised_error()
        .expect_err("the texture's validation error");
    assert!(matches!(err, GpuError::Validation(_)), "{err:?}");
    assert!(gpu.raised_error().is_ok(), "taken once");
    let theirs =
        water_gpu::GpuContext::new(gpu.adapter.clone(), gpu.device.clone(), gpu.queue.clone());
    assert!(theirs.raised_error().is_ok());
}
