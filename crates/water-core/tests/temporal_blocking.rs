//! Determinism: multi-step runs (temporally blocked, pipelined over threads) give the same bits
//! as the same number of single steps.

mod support;

use glam::Vec2;
use water_core::kernels::temporal_blocking::steps_per_stage;
use water_core::{
    Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, LandMask, Parallelism,
    SignedGrid, SplitGrid, TemporalBlocking,
};

fn prepared(grid: &mut dyn GridWater, with_land: bool) {
    let size = grid.size();
    if with_land {
        let mut land = LandMask::empty(size);
        land.add_rect(
            size.width() / 3,
            size.height() / 4,
            size.width() / 3 + 2,
            size.height(),
        )
        .expect("land");
        grid.set_land(land).expect("land");
    }
    let c = Vec2::new(size.width() as f32 * 0.6, size.height() as f32 * 0.4);
    // Classic heights are integers: impulses of thousands of units, as in the original.
    let scale = if grid.mode() == water_core::GridMode::Classic {
        4000.0
    } else {
        1.0
    };
    grid.add_impulse(&Impulse::new(c, 4.0, 0.7 * scale, ImpulseShape::Cosine).expect("impulse"));
    grid.add_impulse(
        &Impulse::new(c * 0.5, 3.0, -0.4 * scale, ImpulseShape::Drop).expect("impulse"),
    );
    grid.step(); // start from a state whose two levels differ
}

fn bits(grid: &dyn GridWater) -> Vec<u32> {
    grid.heights().iter().map(|v| v.to_bits()).collect()
}

fn check(make: &dyn Fn() -> Box<dyn GridWater>, steps: u64, threads: usize, with_land: bool) {
    let mut single = make();
    prepared(single.as_mut(), with_land);
    single.set_parallelism(Parallelism::Serial);
    for _ in 0..steps {
        single.step();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let mut blocked = make();
    prepared(blocked.as_mut(), with_land);
    blocked.set_parallelism(Parallelism::Parallel);
    blocked.set_temporal_blocking(TemporalBlocking::Always);
    // A single step has nothing to block; every longer run here must really take the blocked
    // path, or the comparison below would be single steps against single steps.
    assert_eq!(
        blocked.blocks(steps),
        steps > 1,
        "{} {steps} steps",
        blocked.boundary()
    );
    pool.install(|| blocked.step_many(steps));
    let size = single.size();
    assert_eq!(blocked.steps_taken(), single.steps_taken());
    assert!(
        bits(single.as_ref()).iter().any(|&b| b != 0),
        "the test moves water"
    );
    assert_eq!(
        bits(blocked.as_ref()),
        bits(single.as_ref()),
        "{} {}x{} {steps} steps on {threads} threads, land {with_land}",
        single.boundary(),
        size.width(),
        size.height()
    );
    // And the previous level, which the next step needs, matches too: one more step agrees.
    single.step();
    blocked.step();
    assert_eq!(
        bits(blocked.as_ref()),
        bits(single.as_ref()),
        "after one more step"
    );
}

/// Periodic and absorbing grids never block (their edges read cells a wavefront has not
/// reached), so they are not in the bit-exactness test below: they take the single-step path.
#[test]
fn periodic_and_absorbing_grids_do_not_block() {
    let params = support::params_for(0.3, Damping::PerStep(0.997));
    let size = GridSize::new(64, 61).expect("size");
    for boundary in [Boundary::Periodic, Boundary::Absorbing] {
        let mut grid = SignedGrid::new(size, params, boundary);
        grid.set_temporal_blocking(TemporalBlocking::Always);
        assert!(!grid.blocks(40), "{boundary}");
    }
}

#[test]
fn blocked_runs_match_single_steps_bit_for_bit() {
    let params = support::params_for(0.3, Damping::PerStep(0.997));
    for boundary in [Boundary::Fixed, Boundary::Reflective] {
        for (w, h) in [(40, 3), (37, 4), (64, 61), (200, 90)] {
            let size = GridSize::new(w, h).expect("size");
            let signed =
                move || -> Box<dyn GridWater> { Box::new(SignedGrid::new(size, params, boundary)) };
            let split =
                move || -> Box<dyn GridWater> { Box::new(SplitGrid::new(size, params, boundary)) };
            for steps in [1, 2, 3, 17, 40] {
                for threads in [1, 2, 3] {
                    check(&signed, steps, threads, steps % 2 == 1);
                }
            }
            check(&split, 23, 2, true);
            if boundary == Boundary::Fixed {
                let classic = move || -> Box<dyn GridWater> {
                    Box::new(water_core::ClassicGrid::new(size, 1.0, Some(4)).expect("grid"))
                };
                for threads in [1, 2, 3] {
                    check(&classic, 29, threads, true);
                }
            }
        }
    }
}

#[test]
fn wide_rows_use_several_sweeps_and_still_match() {
    // 4096-cell rows allow only a few steps per stage, so 40 steps take several sweeps in which
    // the stages hand rows to each other across sweep boundaries.
    assert!(steps_per_stage(4096) < 10);
    let params = support::params_for(0.25, Damping::PerStep(0.999));
    let size = GridSize::new(4096, 12).expect("size");
    let make =
        move || -> Box<dyn GridWater> { Box::new(SignedGrid::new(size, params, Boundary::Fixed)) };
    for threads in [1, 2, 4] {
        check(&make, 40, threads, true);
    }
}

#[test]
fn auto_blocks_long_threaded_runs_and_grids_larger_than_the_caches() {
    use water_core::kernels::temporal_blocking::{
        AUTO_MIN_BYTES, AUTO_MIN_BYTES_THREADED, AUTO_MIN_THREADED_UPDATES,
    };
    let auto = TemporalBlocking::Auto;
    let f32_cells = |bytes: usize| bytes / 8; // cells whose two f32 levels take `bytes`
                                              // One thread: by size alone.
    let big = f32_cells(AUTO_MIN_BYTES);
    assert!(auto.applies(Boundary::Fixed, big, 4, 2, 1));
    assert!(!auto.applies(Boundary::Fixed, big - 1, 4, 1_000_000, 1));
    assert!(
        !auto.applies(Boundary::Fixed, big, 2, 10, 1),
        "i16 cells take half the bytes"
    );
    // Several threads: memory-sized grids always, smaller ones in long runs.
    let memory = f32_cells(AUTO_MIN_BYTES_THREADED);
    assert!(auto.applies(Boundary::Fixed, memory, 4, 2, 2));
    assert!(
        !auto.applies(Boundary::Fixed, big, 4, 16, 2),
        "short runs start no pipeline"
    );
    let small = 128 * 128;
    let long = AUTO_MIN_THREADED_UPDATES / small as u64;
    assert!(auto.applies(Boundary::Fixed, small, 4, long, 2));
    assert!(!auto.applies(Boundary::Fixed, small, 4, long - 1, 2));
    assert!(
        !auto.applies(Boundary::Periodic, memory, 4, 10, 2),
        "periodic is never blocked"
    );
    assert!(
        !auto.applies(Boundary::Reflective, memory, 4, 1, 2),
        "one step is a single step"
    );
    assert!(TemporalBlocking::Always.applies(Boundary::Reflective, 16, 4, 2, 1));
    assert!(!TemporalBlocking::Never.applies(Boundary::Reflective, memory, 4, 10, 2));
}

#[test]
fn grids_report_whether_their_multi_step_runs_block() {
    let size = GridSize::new(64, 64).expect("size");
    let params = support::params_for(0.25, Damping::PerStep(0.999));
    let mut signed = SignedGrid::new(size, params, Boundary::Fixed);
    signed.set_parallelism(Parallelism::Serial);
    assert!(!signed.blocks(10), "64² on one thread fits the L2");
    signed.set_temporal_blocking(TemporalBlocking::Always);
    assert!(signed.blocks(10));
    assert!(!signed.blocks(1));
    let mut classic = water_core::ClassicGrid::new(size, 1.0, Some(5)).expect("grid");
    classic.set_parallelism(Parallelism::Serial);
    assert!(!classic.blocks(10));
    classic.set_temporal_blocking(TemporalBlocking::Always);
    assert!(classic.blocks(10));
}
