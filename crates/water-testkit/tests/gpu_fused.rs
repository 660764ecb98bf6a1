//! The fused compute kernel (FUSED_STEPS steps per dispatch in workgroup memory) computes what
//! the same number of single-step dispatches compute, on every boundary it serves, with land.

use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_gpu::Comparison;
use water_gpu::GpuGridWater;
use water_gpu::FUSED_STEPS;
use water_gpu::{ComputeGrid, GridSpec};
use water_testkit::setup::{cosine_impulse, step_fused_or_singly};
use water_testkit::{gpu_or_return, F32_TOLERANCE};

#[test]
fn fused_dispatches_match_single_steps() {
    let gpu = gpu_or_return!("fused_dispatches_match_single_steps");
    // 70 x 45 is not a multiple of the 16-cell tile, so partial tiles and their halos are tested.
    let size = GridSize::new(70, 45).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.03, Damping::PerStep(0.997)).expect("params");
    let mut land = LandMask::empty(size);
    land.add_rect(30, 10, 34, 45).expect("land");
    for mode in [GridMode::Signed, GridMode::Split] {
        for boundary in [Boundary::Fixed, Boundary::Reflective, Boundary::Periodic] {
            let spec = GridSpec::new(size, params, boundary, mode);
            let run = |fused: bool| {
                let mut g = ComputeGrid::new(&gpu.device, &gpu.queue, spec).expect("grid");
                g.set_land(land.clone()).expect("land");
                for (x, y, amp) in [(12.0, 20.0, 0.8), (60.0, 4.0, -0.5)] {
                    g.add_impulse(&cosine_impulse(x, y, 6.0, amp))
                        .expect("impulse");
                }
                step_fused_or_singly(&mut g, 10 * FUSED_STEPS + 3, fused);
                g.heights().expect("heights")
            };
            let (single, fused) = (run(false), run(true));
            let c = Comparison::measure(&single, &fused);
            assert!(c.scale > 0.1, "{mode} {boundary}: the waves moved");
            assert!(
                c.within(F32_TOLERANCE),
                "{mode} {boundary}: fused differs by {:.3e} at cell {} (scale {})",
                c.max_abs,
                c.worst_cell,
                c.scale
            );
        }
    }
}
