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

/// The window moves every mode's water and its land alike: split mode's two channels, classic
/// mode's integers and a pier of land all move by the same cells, entering cells are still
/// water, and the land stays dry at its new place (and only there) as the water steps on.
#[test]
fn window_shift_moves_every_mode_and_its_land() {
    use glam::Vec2;
    use water_core::{
        ClassicGrid, Damping, GridSize, Impulse, ImpulseShape, LandMask, SignedGrid, SplitGrid,
        WaveParams,
    };
    let size = GridSize::new(40, 30).expect("size");
    let params = WaveParams::new(0.1, 1.0, 0.05, Damping::NONE).expect("params");
    let grids: Vec<Box<dyn GridWater>> = vec![
        Box::new(SignedGrid::new(size, params, Boundary::Reflective)),
        Box::new(SplitGrid::new(size, params, Boundary::Reflective)),
        Box::new(ClassicGrid::new(size, 1.0, None).expect("classic")),
    ];
    let (dx, dy) = (4isize, -3isize);
    for mut grid in grids {
        let mode = grid.mode();
        let mut land = LandMask::empty(size);
        land.add_rect(20, 10, 24, 18).expect("pier");
        grid.set_land(land).expect("land");
        let amp = if mode.name() == "classic" {
            2000.0
        } else {
            0.3
        };
        // A crest and a trough, so split mode fills both channels.
        for (x, a) in [(12.0, amp), (30.0, -amp)] {
            grid.add_impulse(
                &Impulse::new(Vec2::new(x, 15.0), 5.0, a, ImpulseShape::Cosine).expect("impulse"),
            );
        }
        grid.step_many(6);
        let before = grid.heights();
        grid.shift_window(dx, dy);
        let after = grid.heights();
        let inside = |x: isize, y: isize| (0..40).contains(&x) && (0..30).contains(&y);
        let rim = |x: isize, y: isize| {
            mode.name() == "classic" && (x == 0 || y == 0 || x == 39 || y == 29)
        };
        let was_land = |x: isize, y: isize| (20..24).contains(&x) && (10..18).contains(&y);
        for y in 0..30isize {
            for x in 0..40isize {
                let (sx, sy) = (x + dx, y + dy);
                let now = after[(y * 40 + x) as usize];
                if inside(sx, sy) && !rim(x, y) && !was_land(x + dx, y + dy) {
                    assert_eq!(
                        now,
                        before[(sy * 40 + sx) as usize],
                        "{mode:?} cell ({x}, {y})"
                    );
                } else if !inside(sx, sy) {
                    assert_eq!(
                        now, 0.0,
                        "{mode:?}: entering cell ({x}, {y}) is still water"
                    );
                }
            }
        }
        // The pier now stands at [16, 20) x [13, 21): dry however long the water runs.
        grid.step_many(40);
        let later = grid.heights();
        let mut wet_at_old_place = false;
        for y in 0..30usize {
            for x in 0..40usize {
                let moved = (16..20).contains(&x) && (13..21).contains(&y);
                if moved {
                    assert_eq!(
                        later[y * 40 + x],
                        0.0,
                        "{mode:?}: land at ({x}, {y}) stays dry"
                    );
                } else if (20..24).contains(&x) && (10..18).contains(&y) && later[y * 40 + x] != 0.0
                {
                    wet_at_old_place = true;
                }
            }
        }
        assert!(
            wet_at_old_place,
            "{mode:?}: water flows where the pier stood"
        );
    }
}
