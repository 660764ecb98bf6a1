//! The fixed-step clock makes runs independent of frame rate; the moving window shifts water.

mod support;

use support::{bump, set_at_rest, signed};
use water_core::{Boundary, FixedStepClock, GridWater};

/// Runs 1.5 s of simulated time at `fps` frames per second with a fixed-step clock.
fn surface_after(fps: f64) -> (u64, Vec<f32>) {
    let a = 0.3f64;
    let mut grid = signed(48, 40, a, Boundary::Reflective);
    set_at_rest(&mut grid, bump(20.0, 18.0, 6.0));
    let dt = a.sqrt(); // h = c = 1
    let mut clock = FixedStepClock::new(dt / 20.0 * 20.0 / 17.0).expect("clock");
    let frames = (1.5 * fps).round() as usize;
    for _ in 0..frames {
        let frame = clock.advance(1.0 / fps).expect("frame");
        assert!((0.0..=1.0).contains(&frame.alpha));
        assert_eq!(frame.dropped_seconds, 0.0);
        for _ in 0..frame.steps {
            grid.step();
        }
    }
    (clock.total_steps(), grid.current().to_vec())
}

#[test]
fn same_scenario_at_30_60_and_144_fps_gives_the_same_surface() {
    // Tolerance: zero. The clock hands out floor(T/dt) steps at every frame rate, so the
    // surfaces must be identical, not merely close.
    let (steps30, z30) = surface_after(30.0);
    for fps in [60.0, 144.0] {
        let (steps, z) = surface_after(fps);
        assert_eq!(steps, steps30, "{fps} fps ran a different number of steps");
        assert_eq!(
            support::bits(&z),
            support::bits(&z30),
            "{fps} fps surface differs"
        );
    }
}

#[test]
fn a_long_stall_is_capped_and_reported() {
    let mut clock = FixedStepClock::new(0.01)
        .expect("clock")
        .with_max_steps_per_frame(10)
        .expect("cap");
    let frame = clock.advance(0.5).expect("frame");
    assert_eq!(frame.steps, 10);
    assert!((frame.dropped_seconds - 0.4).abs() < 1e-9, "{frame:?}");
    let next = clock.advance(0.015).expect("frame");
    assert_eq!(next.steps, 1);
    assert!((next.alpha - 0.5).abs() < 1e-6);
}

#[test]
fn window_shift_moves_water_and_brings_in_still_water() {
    let mut grid = signed(30, 20, 0.25, Boundary::Reflective);
    set_at_rest(&mut grid, bump(15.0, 10.0, 4.0));
    for _ in 0..5 {
        grid.step();
    }
    let before_cur = grid.current().to_vec();
    let before_old = grid.field().previous().to_vec();
    grid.shift_window(3, -2);
    let (cur, old) = (grid.current(), grid.field().previous());
    for y in 0..20i32 {
        for x in 0..30i32 {
            let i = (y * 30 + x) as usize;
            let (sx, sy) = (x + 3, y - 2);
            if (0..30).contains(&sx) && (0..20).contains(&sy) {
                let j = (sy * 30 + sx) as usize;
                assert_eq!((cur[i], old[i]), (before_cur[j], before_old[j]));
            } else {
                assert_eq!(
                    (cur[i], old[i]),
                    (0.0, 0.0),
                    "entering cell ({x}, {y}) at rest"
                );
            }
        }
    }
    let e = grid.energy();
    grid.step();
    assert!(grid.energy().is_finite() && e > 0.0);
}
