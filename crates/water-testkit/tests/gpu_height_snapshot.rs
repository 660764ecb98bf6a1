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
