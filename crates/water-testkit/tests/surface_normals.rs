//! The GPU surface texture holds each backend's own heights and the normals the CPU's
//! `HeightView::cell_normal` computes from them.

use water_core::{Boundary, GridMode, HeightView};
use water_scene::water_gpu::GpuGridWater;
use water_scene::wgpu;
use water_scene::{Backend, BackendGrid};
use water_testkit::{gpu_or_return, CrossCheck};

/// Normals are unit vectors computed from the same heights by the same formula; the GPU may
/// fuse or reorder a handful of operations, a few ulp of 1.
const NORMAL_TOLERANCE: f32 = 1e-5;

#[test]
fn surface_texture_matches_cpu_normals_of_the_same_heights() {
    let gpu = gpu_or_return!("surface_texture_matches_cpu_normals");
    for (mode, boundary) in [
        (GridMode::Signed, Boundary::Reflective),
        (GridMode::Split, Boundary::Absorbing),
        (GridMode::Classic, Boundary::Fixed),
    ] {
        let case = CrossCheck::new(mode, boundary);
        let size = case.spec.size;
        for kind in [Backend::Gpu, Backend::GpuFragment] {
            let BackendGrid::Gpu(mut grid) = case.run(kind, Some(&gpu)).expect("run") else {
                unreachable!("GPU kinds build GPU backends");
            };
            let heights = grid.heights().expect("heights");
            let surface = grid.read_normal_height().expect("surface");
            let view =
                HeightView::new(size, case.spec.params.cell_size() as f32, &heights).expect("view");
            let mut worst = 0.0f32;
            for y in 0..size.height() {
                for x in 0..size.width() {
                    let texel = surface[size.index(x, y)];
                    assert_eq!(texel[3], heights[size.index(x, y)], "height at ({x}, {y})");
                    let n = view.cell_normal(x, y);
                    let d = (n.x - texel[0])
                        .abs()
                        .max((n.y - texel[1]).abs())
                        .max((n.z - texel[2]).abs());
                    worst = worst.max(d);
                }
            }
            assert!(
                worst <= NORMAL_TOLERANCE,
                "{} {}: normals differ by {worst}",
                case.name(),
                kind.name()
            );
            // The asynchronous read, polled as a frame loop would, gives the same texels.
            let pending = grid.read_normal_height_async().expect("start the read");
            let bytes = loop {
                gpu.device.poll(wgpu::PollType::Poll).expect("poll");
                if let Some(bytes) = pending.try_take() {
                    break bytes.expect("read");
                }
                std::thread::yield_now();
            };
            let texels: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
            assert_eq!(
                texels,
                surface.iter().flatten().copied().collect::<Vec<f32>>(),
                "{} {}: the asynchronous read differs",
                case.name(),
                kind.name()
            );
            assert!(
                surface.iter().any(|t| t[2] < 0.9999),
                "{}: the surface is not flat",
                case.name()
            );
        }
    }
}
