//! Levels a caller sets by hand (the CPU grids' `field_mut` / `levels_mut`, the GPU grids'
//! uploads) follow DESIGN.md's rules from the next step on: a fixed grid's edge cells stay 0
//! and land stays dry, whatever was written there, on the CPU and both GPU backends alike.

use water_core::{
    Boundary, ClassicGrid, Damping, GridMode, GridSize, GridWater, LandMask, SignedGrid, WaveParams,
};
use water_gpu::GpuGridWater;
use water_gpu::GridSpec;
use water_testkit::setup::{gpu_grid_with_land, GPU_BACKENDS};
use water_testkit::{assert_f32_within, compare_exact_i16, gpu_or_return, F32_TOLERANCE};

const STEPS: u64 = 30;

/// A bumpy level that is non-zero everywhere, the rim and the land included.
fn bumpy(size: GridSize, phase: f32) -> Vec<f32> {
    (0..size.cells())
        .map(|i| 0.1 + 0.05 * ((i as f32) * 0.37 + phase).sin())
        .collect()
}

/// Whether every rim cell and land cell of `heights` is zero.
fn rim_and_land_dry(size: GridSize, land: &LandMask, heights: &[f32]) -> bool {
    let (w, h) = (size.width(), size.height());
    (0..size.cells()).all(|i| {
        let (x, y) = (i % w, i / w);
        let rim = x == 0 || y == 0 || x == w - 1 || y == h - 1;
        !(rim || land.cells()[i]) || heights[i] == 0.0
    })
}

#[test]
fn edited_rims_and_land_are_zeroed_alike_on_every_backend() {
    let gpu = gpu_or_return!("edited_rims_and_land_are_zeroed_alike_on_every_backend");
    let size = GridSize::new(40, 28).expect("size");
    let mut land = LandMask::empty(size);
    land.add_rect(10, 8, 16, 14).expect("island");
    let params = WaveParams::new(0.1, 1.0, 0.03, Damping::PerStep(0.999)).expect("params");
    let (cur, old) = (bumpy(size, 0.0), bumpy(size, 0.4));

    let mut cpu = SignedGrid::new(size, params, Boundary::Fixed);
    cpu.set_land(land.clone()).expect("land");
    let (c, o) = cpu.field_mut().levels_mut();
    c.copy_from_slice(&cur);
    o.copy_from_slice(&old);
    cpu.step_many(STEPS);
    let reference = cpu.heights();
    assert!(
        rim_and_land_dry(size, &land, &reference),
        "CPU rim and land"
    );
    assert!(reference.iter().any(|&z| z != 0.0));

    let spec = GridSpec::new(size, params, Boundary::Fixed, GridMode::Signed);
    for backend in GPU_BACKENDS {
        let mut grid = gpu_grid_with_land(&gpu, backend, spec, land.clone());
        grid.upload_f32(&cur, &old).expect("upload");
        grid.step_many(STEPS).expect("steps");
        let heights = grid.heights().expect("heights");
        assert!(
            rim_and_land_dry(size, &land, &heights),
            "{} rim and land",
            backend.name()
        );
        assert_f32_within(
            backend.name(),
            size.width(),
            &reference,
            &heights,
            F32_TOLERANCE,
        );
    }

    // Classic mode, bit for bit.
    let to_i16 = |v: &[f32]| {
        v.iter()
            .map(|z| (z * 20_000.0) as i16)
            .collect::<Vec<i16>>()
    };
    let (cur16, old16) = (to_i16(&cur), to_i16(&old));
    let mut classic = ClassicGrid::new(size, 1.0, Some(5)).expect("classic");
    classic.set_land(land.clone()).expect("land");
    let (c, o) = classic.levels_mut();
    c.copy_from_slice(&cur16);
    o.copy_from_slice(&old16);
    classic.step_many(STEPS);
    let want = classic.current().to_vec();
    let as_f32: Vec<f32> = want.iter().map(|&v| f32::from(v)).collect();
    assert!(
        rim_and_land_dry(size, &land, &as_f32),
        "classic rim and land"
    );
    let classic_spec = GridSpec::new(size, params, Boundary::Fixed, GridMode::Classic);
    for backend in GPU_BACKENDS {
        let mut grid = gpu_grid_with_land(&gpu, backend, classic_spec, land.clone());
        grid.upload_i16(&cur16, &old16).expect("upload");
        grid.step_many(STEPS).expect("steps");
        compare_exact_i16(
            backend.name(),
            size.width(),
            &want,
            &grid.classic_heights().expect("classic"),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    }
}
