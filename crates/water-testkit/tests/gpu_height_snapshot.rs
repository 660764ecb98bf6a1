//! A GPU readback snapshot answers height and normal queries as the CPU grid does for the same
//! run, and nothing outside the grid.

use glam::Vec3;
use water_core::{
    Boundary, Damping, GridMode, GridSize, GridWater, HeightSource, SignedGrid, WaveParams,
};
use water_gpu::GridSpec;
use water_testkit::setup::{cosine_impulse, rippled_gpu_grid, GPU_BACKENDS};
use water_testkit::{gpu_or_return, F32_TOLERANCE};

#[test]
fn snapshot_samples_like_the_cpu_grid() {
    let gpu = gpu_or_return!("snapshot_samples_like_the_cpu_grid");
    let size = GridSize::new(64, 48).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::PerStep(0.999)).expect("params");
    let impulse = cosine_impulse(30.0, 20.0, 6.0, 0.5);
    let mut cpu = SignedGrid::new(size, params, Boundary::Reflective);
    cpu.add_impulse(&impulse);
    cpu.step_many(40);
    let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
    for backend in GPU_BACKENDS {
        let grid = rippled_gpu_grid(&gpu, backend, spec, &[impulse], 40);
        let snapshot = grid.height_snapshot().expect("readback");
        assert_eq!(snapshot.step(), 40);
        let scale = cpu.heights().iter().fold(0.0_f32, |m, h| m.max(h.abs()));
        assert!(scale > 0.01, "the waves moved");
        for (x, y) in [
            (0.05, 0.05),
            (1.3, 2.2),
            (3.0, 1.0),
            (6.35, 4.75),
            (4.44, 0.5),
        ] {
            let at = Vec3::new(x, y, -0.3);
            let (c, g) = (
                cpu.view().surface_at(at).expect("inside"),
                snapshot.surface_at(at).expect("inside"),
            );
            assert!(
                (c.point.z - g.point.z).abs() <= F32_TOLERANCE * scale,
                "{backend:?} at ({x}, {y}): {} vs {}",
                c.point.z,
                g.point.z
            );
            assert!(
                c.normal.distance(g.normal) < 1e-3,
                "{backend:?}: {} vs {}",
                c.normal,
                g.normal
            );
            assert_eq!(snapshot.level_at(at).expect("inside").point, g.point);
        }
        assert_eq!(snapshot.surface_at(Vec3::new(6.41, 1.0, 0.0)), None);
        assert_eq!(snapshot.surface_at(Vec3::new(1.0, -0.01, 0.0)), None);
    }
}

/// Patches gathered on the device hold exactly the cells of the full readback (the same
/// texture's heights, signed and split, both backends), so a body sampling its patch sees what
/// it would see in the whole field, bit for bit; they cost 4 bytes a cell and no wait.
#[test]
fn device_patches_hold_the_full_readbacks_cells_bit_for_bit() {
    use water_core::{CellRect, HeightPatches};
    use water_gpu::{wgpu, DeviceTraffic, PatchReader};
    let gpu = gpu_or_return!("device_patches_hold_the_full_readbacks_cells_bit_for_bit");
    let size = GridSize::new(72, 40).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::PerStep(0.999)).expect("params");
    let reader = PatchReader::new(&gpu.device).expect("reader");
    let rects = vec![
        CellRect::around(size, 0.1, glam::Vec2::new(2.0, 1.5), 0.4),
        CellRect::around(size, 0.1, glam::Vec2::new(0.05, 3.95), 0.3), // a corner, clipped
        CellRect::whole(size),
        CellRect {
            x0: 71,
            y0: 39,
            width: 1,
            height: 1,
        },
    ];
    let cells: usize = rects.iter().map(CellRect::cells).sum();
    for mode in [GridMode::Signed, GridMode::Split] {
        let spec = GridSpec::new(size, params, Boundary::Reflective, mode);
        for backend in GPU_BACKENDS {
            let mut grid = rippled_gpu_grid(
                &gpu,
                backend,
                spec,
                &[cosine_impulse(20.0, 15.0, 6.0, 0.5)],
                25,
            );
            let snapshot = grid.height_snapshot().expect("readback");
            let expected = HeightPatches::gather(&snapshot.view(), rects.clone(), 25).expect("cpu");
            let before = DeviceTraffic::on_this_thread();
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let pending = reader
                .encode_read(grid.water_mut(), &mut encoder, rects.clone())
                .expect("record");
            gpu.queue.submit([encoder.finish()]);
            let patches = loop {
                let _ = gpu.device.poll(wgpu::PollType::Poll);
                if let Some(taken) = pending.try_take() {
                    break taken.expect("patches");
                }
                std::thread::yield_now();
            };
            let used = DeviceTraffic::on_this_thread().since(before);
            assert_eq!(patches, expected, "{backend:?} {mode:?}");
            assert_eq!(used.blocking_waits, 0, "{used:?}");
            assert_eq!(used.bytes_read_back, cells as u64 * 4, "{used:?}");
            // A rectangle past the rim is refused by name.
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let bad = CellRect {
                x0: 70,
                y0: 0,
                width: 3,
                height: 1,
            };
            let err = reader
                .encode_read(grid.water_mut(), &mut encoder, vec![bad])
                .expect_err("outside");
            assert!(err.to_string().contains("72 x 40 grid"), "{err}");
        }
    }
}
