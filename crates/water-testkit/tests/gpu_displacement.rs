//! Displacement impulses on the GPU (DESIGN.md, "Impulses": with `displacement = true` the
//! amounts are added to the previous level z^(s-1) as well, so the bump starts at rest) agree
//! with the CPU reference on both backends, in every mode and boundary: f32 modes within
//! F32_TOLERANCE, classic bit for bit; f16 storage within one binary16 step after a step.

use glam::Vec2;
use water_core::{
    Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaveParams,
};
use water_gpu::{GpuBackend, GpuGridWater, GridSpec, StorageFormat};
use water_testkit::scenario::impulse_amplitude;
use water_testkit::setup::{
    cpu_reference, gpu_grid_stored_with_land, gpu_grid_with_land, GPU_BACKENDS,
};
use water_testkit::{assert_f32_within, compare_f32, gpu_or_return, F32_TOLERANCE};

const W: usize = 64;
const H: usize = 48;

/// Relative spacing of binary16 numbers: 11 significant bits, so neighbouring values differ by
/// 2^-10 of the binade's lower end. A level stored as f16 after one step holds the f32 result
/// rounded once (half a step) from inputs that were themselves rounded (half a step): one step
/// covers both.
const F16_STEP: f32 = 1.0 / 1024.0;

fn spec(mode: GridMode, boundary: Boundary) -> GridSpec {
    let size = GridSize::new(W, H).expect("size");
    let params = WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.998)).expect("stable");
    GridSpec::new(size, params, boundary, mode)
}

fn land(size: GridSize) -> LandMask {
    let mut land = LandMask::empty(size);
    land.add_rect(W / 2 - 3, 0, W / 2 + 3, H / 3).expect("pier");
    land
}

/// A positive bump, a negative one next to the pier and a drop clipped at the rim, all
/// displacements.
fn impulses(mode: GridMode) -> Vec<Impulse> {
    let amp = impulse_amplitude(mode);
    [
        (Vec2::new(20.0, 20.0), 6.0, amp, ImpulseShape::Cosine),
        (
            Vec2::new(W as f32 / 2.0 + 5.0, 8.0),
            5.0,
            -0.6 * amp,
            ImpulseShape::Linear,
        ),
        (Vec2::new(1.0, 30.0), 7.0, 0.8 * amp, ImpulseShape::Drop),
    ]
    .into_iter()
    .map(|(centre, radius, amplitude, shape)| {
        Impulse::new(centre, radius, amplitude, shape)
            .expect("impulse")
            .with_displacement(true)
    })
    .collect()
}

#[test]
fn displacement_impulses_agree_with_the_cpu_reference() {
    let gpu = gpu_or_return!("displacement_impulses");
    let mut failures = Vec::new();
    for mode in GridMode::ALL {
        for boundary in Boundary::ALL {
            if mode == GridMode::Classic && boundary != Boundary::Fixed {
                continue;
            }
            let spec = spec(mode, boundary);
            let mut cpu = cpu_reference(spec, land(spec.size));
            for impulse in impulses(mode) {
                cpu.add_impulse(&impulse);
                cpu.step_many(25);
            }
            let reference = cpu.heights();
            for backend in GPU_BACKENDS {
                let name = format!(
                    "displacement-{}-{}-{}",
                    mode.name(),
                    boundary.name(),
                    backend.name()
                );
                let mut grid = gpu_grid_with_land(&gpu, backend, spec, land(spec.size));
                for impulse in impulses(mode) {
                    grid.add_impulse(&impulse).expect("impulse");
                    grid.step_many(25).expect("steps");
                }
                let heights = grid.heights().expect("heights");
                if mode == GridMode::Classic {
                    if heights != reference {
                        failures.push(format!("{name}: classic heights differ from the CPU"));
                    }
                } else if let Err(e) = compare_f32(&name, W, &reference, &heights, F32_TOLERANCE) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_displaced_bump_starts_at_rest_and_a_kicked_one_does_not() {
    // One step after a displacement the bump has barely moved (zero initial velocity: z1 is
    // z0 plus a Laplacian term); after a kick of the same amounts it nearly doubles (z1 = 2 z0 -
    // 0 + ...). The CPU computes both; every GPU grid, f16 storage included, must match it.
    let gpu = gpu_or_return!("displaced_bump_at_rest");
    for mode in [GridMode::Signed, GridMode::Split] {
        let grids = [
            (GpuBackend::Compute, StorageFormat::F32),
            (GpuBackend::Fragment, StorageFormat::F32),
            (GpuBackend::Compute, StorageFormat::F16),
        ];
        for displacement in [true, false] {
            let base = spec(mode, Boundary::Reflective);
            let impulse = Impulse::new(Vec2::new(20.0, 24.0), 8.0, 0.5, ImpulseShape::Cosine)
                .expect("impulse")
                .with_displacement(displacement);
            let mut cpu = cpu_reference(base, land(base.size));
            cpu.add_impulse(&impulse);
            cpu.step();
            let reference = cpu.heights();
            let peak = reference.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            // The physics, on the CPU: a bump at rest stays near 0.5 m, a kicked one nears 1 m.
            if displacement {
                assert!((0.4..0.55).contains(&peak), "displaced peak {peak}");
            } else {
                assert!(peak > 0.8, "kicked peak {peak}");
            }
            for &(backend, storage) in &grids {
                let spec = base;
                let name = format!(
                    "bump-{}-{}-{storage}-{displacement}",
                    mode.name(),
                    backend.name()
                );
                let mut grid =
                    gpu_grid_stored_with_land(&gpu, backend, spec, storage, land(spec.size));
                grid.add_impulse(&impulse).expect("impulse");
                grid.step().expect("step");
                let tolerance = if storage == StorageFormat::F16 {
                    F16_STEP
                } else {
                    F32_TOLERANCE
                };
                assert_f32_within(
                    &name,
                    W,
                    &reference,
                    &grid.heights().expect("heights"),
                    tolerance,
                );
            }
        }
    }
}
