//! A window shift on the GPU moves the water as the CPU grids' `shift_window` does
//! (`water_core::shift_cells` on both levels, land moved with the water, a fixed rim held at 0):
//! on both backends, in every mode, with f16 storage, by odd and even cells, past the edge.

use water_core::glam::{DVec2, I64Vec2};
use water_core::{
    clear_rim_moved_inside, shift_cells, Boundary, Damping, FollowingWindow, GridMode, GridSize,
    LandMask, WaveParams,
};
use water_gpu::{GpuBackend, GpuGridWater, GridSpec, StorageFormat};
use water_scene::{Backend, BackendGrid};
use water_scene::{Water as _, WaterGrid as _};
use water_testkit::scenario::impulse_amplitude;
use water_testkit::setup::{
    cosine_impulse, cpu_reference, gpu_grid_stored_with_land, GPU_BACKENDS,
};
use water_testkit::{assert_f32_within, gpu_or_return, submit_once, F32_TOLERANCE};

/// Shifts in turn: odd and even, every direction, and one past the whole width.
const SHIFTS: [(isize, isize); 4] = [(3, -2), (-5, 1), (1, 4), (-60, 0)];

/// `heights` moved as the CPU moves a level: `shift_cells`, then a fixed rim zeroed.
fn moved(
    heights: &[f32],
    size: GridSize,
    (dx, dy): (isize, isize),
    (zero_rim, mur_edges): (bool, bool),
) -> Vec<f32> {
    let mut out = heights.to_vec();
    shift_cells(&mut out, size, dx, dy, 0.0);
    if mur_edges {
        clear_rim_moved_inside(&mut out, size, dx, dy, 0.0);
    }
    if zero_rim {
        let (w, h) = (size.width(), size.height());
        for (i, v) in out.iter_mut().enumerate() {
            if i % w == 0 || i / w == 0 || i % w == w - 1 || i / w == h - 1 {
                *v = 0.0;
            }
        }
    }
    out
}

/// Fails naming how many cells of `got` differ from `expected` in their bits, and the first.
fn assert_same_bits(what: &str, got: &[f32], expected: &[f32]) {
    let differing: Vec<usize> = (0..got.len())
        .filter(|&i| got[i].to_bits() != expected[i].to_bits())
        .collect();
    if let Some(&i) = differing.first() {
        panic!(
            "{what}: {} cells differ, first cell {i}: {} where {} was expected",
            differing.len(),
            got[i],
            expected[i]
        );
    }
}

/// The water of every mode and boundary, on both backends and with f16 storage on the compute
/// one, rippled around a pier, stepped and shifted by each of [`SHIFTS`] in turn:
///
/// - right after each shift the GPU's heights are its own heights before it, moved, to the bit
///   (a shift moves stored words and re-pairs f16 halves; it computes nothing), and its land is
///   the pier moved alike;
/// - a step, a shift and a step recorded into one encoder do what the CPU does in that order;
/// - f32 and classic grids step on as the CPU reference shifted alike does (within the
///   project's f32 tolerance; classic to the bit), which needs both levels and the land moved;
///   after the last shift, past the whole width, new ripples run on still water as on the CPU.
#[test]
fn gpu_window_shifts_move_the_water_as_the_cpu_does() {
    let gpu = gpu_or_return!("gpu_window_shifts_move_the_water_as_the_cpu_does");
    // An odd width, so f16 rows end in a padding half.
    let size = GridSize::new(45, 30).expect("size");
    let params = WaveParams::new(0.1, 1.0, 0.03, Damping::NONE).expect("params");
    let mut pier = LandMask::empty(size);
    pier.add_rect(26, 8, 30, 20).expect("pier");
    let cases = [
        (GridMode::Signed, Boundary::Absorbing, StorageFormat::F32),
        (GridMode::Signed, Boundary::Fixed, StorageFormat::F32),
        (GridMode::Split, Boundary::Reflective, StorageFormat::F32),
        (GridMode::Classic, Boundary::Fixed, StorageFormat::F32),
        (GridMode::Signed, Boundary::Reflective, StorageFormat::F16),
        (GridMode::Split, Boundary::Fixed, StorageFormat::F16),
        (GridMode::Split, Boundary::Absorbing, StorageFormat::F16),
    ];
    let mut checked = 0;
    for (mode, boundary, storage) in cases {
        let spec = GridSpec::new(size, params, boundary, mode);
        let zero_rim = boundary == Boundary::Fixed || mode == GridMode::Classic;
        let mur_edges = boundary == Boundary::Absorbing && mode != GridMode::Classic;
        let amplitude = impulse_amplitude(mode);
        // A crest and a trough, so split mode fills both channels.
        let impulses = [
            cosine_impulse(14.0, 14.0, 5.0, amplitude),
            cosine_impulse(38.0, 22.0, 4.0, -amplitude),
        ];
        for backend in GPU_BACKENDS {
            if storage == StorageFormat::F16 && backend == GpuBackend::Fragment {
                continue; // f16 storage is the compute backend's
            }
            let name = format!("{mode:?} {boundary:?} {storage:?} on {}", backend.name());
            let mut cpu = cpu_reference(spec, pier.clone());
            let mut grid = gpu_grid_stored_with_land(&gpu, backend, spec, storage, pier.clone());
            let mut land = pier.clone();
            for impulse in &impulses {
                cpu.add_impulse(impulse);
                grid.add_impulse(impulse).expect("impulse");
            }
            for &(dx, dy) in &SHIFTS {
                cpu.step_many(9);
                grid.step_many(9).expect("steps");
                let before = grid.heights().expect("heights");
                assert!(before.iter().any(|&z| z != 0.0), "{name}: water to move");
                grid.shift_window(dx, dy).expect("shift");
                cpu.shift_window(dx, dy);
                land.shift(dx, dy);
                let after = grid.heights().expect("heights");
                assert_same_bits(
                    &format!("{name}: shift ({dx}, {dy})"),
                    &after,
                    &moved(&before, size, (dx, dy), (zero_rim, mur_edges)),
                );
                assert_eq!(grid.land(), &land, "{name}: the land after ({dx}, {dy})");
                if dx.unsigned_abs() >= size.width() {
                    // Still water everywhere: ripple it again.
                    for impulse in &impulses {
                        cpu.add_impulse(impulse);
                        grid.add_impulse(impulse).expect("impulse");
                    }
                }
                // A step, a shift back and a step, recorded into one encoder.
                submit_once(&gpu, |encoder| {
                    grid.encode_step_many(encoder, 1);
                    grid.encode_shift_window(encoder, -1, 2).expect("shift");
                    grid.encode_step_many(encoder, 1);
                });
                cpu.step();
                cpu.shift_window(-1, 2);
                cpu.step();
                land.shift(-1, 2);
            }
            cpu.step_many(20);
            grid.step_many(20).expect("steps");
            let (reference, heights) = (cpu.heights(), grid.heights().expect("heights"));
            match (mode, storage) {
                (GridMode::Classic, _) => {
                    assert_same_bits(&name, &heights, &reference);
                }
                (_, StorageFormat::F32) => {
                    assert_f32_within(&name, size.width(), &reference, &heights, F32_TOLERANCE);
                }
                // f16 rounds every stored level: its own bounds are gpu_f16_accuracy.rs's.
                (_, StorageFormat::F16) => {}
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 11, "cases run");
}

/// A window that follows a moving focus over the scene's backends
/// ([`FollowingWindow::follow_with`] shifting a [`BackendGrid`]): the wave model on the CPU and
/// both GPU backends (also over a beach with dry land, whose dry cells move with the water),
/// and the dispersive model on the CPU and the compute backend, each
/// following a boat that sails 0.7 cells a step along a diagonal from a splash. Each GPU
/// backend moves its window as the CPU does, and ends within the project's f32 tolerance of
/// it.
#[test]
fn a_following_window_over_each_backend_matches_the_cpu() {
    let gpu = gpu_or_return!("a_following_window_over_each_backend_matches_the_cpu");
    let wave = {
        let size = GridSize::new(72, 56).expect("size");
        let params = WaveParams::new(0.1, 2.0, 0.025, Damping::NONE).expect("params");
        GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed)
    };
    let dispersive = water_testkit::CrossCheck::dispersive(Boundary::Absorbing).spec;
    // A beach shoaling to dry land along the right edge, with a trench: the dry cells move
    // with the water, the wave speeds stay (on every backend alike).
    let beach = water_testkit::CrossCheck::new(GridMode::Signed, Boundary::Absorbing);
    let both = &[Backend::Gpu, Backend::GpuFragment][..];
    for (spec, depth, gpu_backends) in [
        (wave, None, both),
        (beach.spec, Some(beach.depth()), both),
        (dispersive, None, &[Backend::Gpu][..]),
    ] {
        let cell = spec.params.cell_size();
        let run = |backend: Backend| {
            let size = spec.size;
            let mut pier = LandMask::empty(size);
            pier.add_rect(40, 4, 44, 20).expect("pier");
            let mut water = BackendGrid::new(spec, pier, backend, Some(&gpu)).expect("water");
            if let Some(depth) = &depth {
                water.set_depth(depth).expect("depth");
            }
            let mut window = FollowingWindow::new(size, cell).expect("window");
            water
                .add_impulse(&cosine_impulse(30.0, 24.0, 5.0, 0.3))
                .expect("splash");
            let mut moves = 0;
            for step in 0..80u32 {
                water.step_many(1).expect("step");
                let sailed = 0.7 * f64::from(step) * cell;
                let boat = DVec2::new(36.5 * cell + sailed, 28.5 * cell + 0.5 * sailed);
                let by = window
                    .follow_with(boat, |dx, dy| water.shift_window(dx, dy))
                    .expect("follow");
                moves += i64::from(by != I64Vec2::ZERO);
            }
            (
                water.heights().expect("heights"),
                window.origin_cells(),
                moves,
            )
        };
        let (reference, origin, moves) = run(Backend::Cpu);
        assert!(
            moves > 20 && origin.x > 40,
            "the window moved {moves} times to {origin}"
        );
        for &backend in gpu_backends {
            let (heights, gpu_origin, _) = run(backend);
            assert_eq!(gpu_origin, origin, "{backend:?}");
            let name = format!(
                "{backend:?}, {} model{}, window at {origin}",
                if spec.dispersion.is_some() {
                    "dispersive"
                } else {
                    "wave"
                },
                if depth.is_some() { " over a beach" } else { "" }
            );
            assert_f32_within(
                &name,
                spec.size.width(),
                &reference,
                &heights,
                F32_TOLERANCE,
            );
        }
    }
}
