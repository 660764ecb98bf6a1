//! Land stops waves; bad input gives errors or documented behaviour, never a panic.

mod support;

use glam::Vec2;
use support::{bump, set_at_rest, signed};
use water_core::{
    Boundary, Damping, FixedStepClock, GridSize, GridWater, HeightView, Impulse, ImpulseShape,
    LandMask, SignedGrid, SplitGrid, WaterError, WaveParams,
};

#[test]
fn a_land_wall_lets_no_wave_through_and_land_cells_stay_zero() {
    for boundary in Boundary::ALL {
        let mut grid = signed(40, 30, 0.25, boundary);
        let size = grid.size();
        let mut land = LandMask::empty(size);
        // Two walls across the grid enclose x in 20..36, even when the grid wraps around.
        land.add_rect(18, 0, 20, 30).expect("wall");
        land.add_rect(36, 0, 38, 30).expect("wall");
        set_at_rest(&mut grid, bump(8.0, 15.0, 5.0));
        grid.set_land(land.clone()).expect("land");
        for step in 0..2_000 {
            grid.step();
            let z = grid.current();
            for y in 0..30 {
                for x in (18..20).chain(36..38) {
                    assert_eq!(
                        z[size.index(x, y)],
                        0.0,
                        "{boundary}: land ({x}, {y}) at {step}"
                    );
                }
                for x in 20..36 {
                    assert_eq!(
                        z[size.index(x, y)],
                        0.0,
                        "{boundary}: leak at ({x}, {y}) step {step}"
                    );
                }
            }
        }
        assert!(
            grid.energy() > 0.0,
            "{boundary}: the wave is still on the near side"
        );
    }
}

#[test]
fn land_from_a_per_cell_mask_equals_land_from_rectangles() {
    let size = GridSize::new(12, 10).expect("size");
    let mut from_rect = LandMask::empty(size);
    from_rect.add_rect(2, 3, 5, 20).expect("rect"); // clipped at the bottom
    let cells: Vec<bool> = (0..size.cells())
        .map(|i| (2..5).contains(&(i % 12)) && i / 12 >= 3)
        .collect();
    let from_cells = LandMask::from_cells(size, cells).expect("mask");
    assert_eq!(from_rect, from_cells);
    assert_eq!(from_rect.land_cells(), 21);
    assert!(from_rect.is_land(3, 9) && !from_rect.is_land(5, 9) && !from_rect.is_land(99, 99));
}

#[test]
fn sizes_out_of_range_are_errors_naming_the_limit() {
    for (w, h) in [(0, 10), (10, 0), (2, 10), (1 << 20, 4), (65_536, 65_536)] {
        let err = GridSize::new(w, h).expect_err("bad size");
        let msg = err.to_string();
        assert!(msg.contains("65536") || msg.contains("1073741824"), "{msg}");
    }
    assert!(matches!(
        GridSize::new(65_536, 65_536),
        Err(WaterError::TooManyCells { .. })
    ));
}

#[test]
fn masks_of_another_size_are_refused() {
    let size = GridSize::new(10, 10).expect("size");
    let err = LandMask::from_cells(size, vec![false; 99]).expect_err("short mask");
    assert!(
        err.to_string().contains("99") && err.to_string().contains("100"),
        "{err}"
    );
    let other = LandMask::empty(GridSize::new(11, 10).expect("size"));
    let mut grid = signed(10, 10, 0.25, Boundary::Fixed);
    assert!(grid.set_land(other).is_err());
    assert!(HeightView::new(size, 1.0, &[0.0; 3]).is_err());
    assert!(
        LandMask::empty(size).add_rect(5, 5, 5, 9).is_err(),
        "empty rectangle"
    );
}

#[test]
fn nan_infinite_and_non_positive_parameters_are_errors() {
    let nan = f64::NAN;
    let cases = [
        (nan, 1.0, 0.1, Damping::NONE, "cell_size"),
        (1.0, f64::INFINITY, 0.1, Damping::NONE, "wave_speed"),
        (1.0, 1.0, 0.0, Damping::NONE, "dt"),
        (1.0, 1.0, -0.1, Damping::NONE, "dt"),
        (-1.0, 1.0, 0.1, Damping::NONE, "cell_size"),
        (1.0, 1.0, 0.1, Damping::PerStep(nan), "damping"),
        (1.0, 1.0, 0.1, Damping::PerStep(1.5), "damping"),
        (1.0, 1.0, 0.1, Damping::PerSecond(0.0), "damping_per_second"),
    ];
    for (h, c, dt, d, name) in cases {
        let err = WaveParams::new(h, c, dt, d).expect_err("bad parameters");
        assert!(err.to_string().starts_with(name), "{name}: {err}");
    }
    assert!(Impulse::new(Vec2::new(1.0, 1.0), f32::NAN, 1.0, ImpulseShape::Cosine).is_err());
    assert!(Impulse::new(Vec2::new(1.0, 1.0), 0.0, 1.0, ImpulseShape::Linear).is_err());
    assert!(Impulse::new(
        Vec2::new(1.0, 1.0),
        2.0,
        f32::INFINITY,
        ImpulseShape::Linear
    )
    .is_err());
}

#[test]
fn impulses_outside_the_grid_are_clipped() {
    let size = GridSize::new(16, 16).expect("size");
    for shape in ImpulseShape::ALL {
        let mut grid = SplitGrid::new(
            size,
            support::params_for(0.25, Damping::NONE),
            Boundary::Reflective,
        );
        // Wholly outside: nothing changes.
        grid.add_impulse(&Impulse::new(Vec2::new(-40.0, 5.0), 6.0, 1.0, shape).expect("impulse"));
        grid.add_impulse(&Impulse::new(Vec2::new(5.0, 1e9), 6.0, 1.0, shape).expect("impulse"));
        assert!(grid.heights().iter().all(|&z| z == 0.0), "{shape}");
        // Partly outside: only the covered cells inside change, and stepping is fine.
        grid.add_impulse(&Impulse::new(Vec2::new(-2.0, 8.0), 6.0, 1.0, shape).expect("impulse"));
        let touched = grid.heights().iter().filter(|&&z| z != 0.0).count();
        if shape != ImpulseShape::Point {
            assert!(touched > 0, "{shape}: clipped impulse left nothing");
        }
        grid.step();
    }
}

#[test]
fn fixed_boundary_rim_stays_zero_even_when_an_impulse_covers_it() {
    let size = GridSize::new(16, 16).expect("size");
    let mut grid = SignedGrid::new(
        size,
        support::params_for(0.25, Damping::NONE),
        Boundary::Fixed,
    );
    grid.add_impulse(
        &Impulse::new(Vec2::new(0.0, 0.0), 5.0, 1.0, ImpulseShape::Cosine).expect("impulse"),
    );
    for _ in 0..50 {
        grid.step();
        let z = grid.current();
        assert!((0..16).all(|i| z[i] == 0.0 && z[i * 16] == 0.0 && z[i * 16 + 15] == 0.0));
    }
}

#[test]
fn clock_refuses_bad_frame_times() {
    let mut clock = FixedStepClock::new(0.01).expect("clock");
    assert!(clock.advance(f64::NAN).is_err());
    assert!(clock.advance(-0.1).is_err());
    assert!(FixedStepClock::new(0.0).is_err());
    assert!(clock.clone().with_max_steps_per_frame(0).is_err());
}

#[test]
fn sampling_outside_returns_none() {
    let grid = signed(8, 6, 0.25, Boundary::Fixed);
    let view = grid.view();
    for p in [
        Vec2::new(-0.01, 1.0),
        Vec2::new(8.0, 1.0),
        Vec2::new(1.0, 6.0),
        Vec2::new(f32::NAN, 1.0),
    ] {
        assert_eq!(view.nearest(p), None);
        assert_eq!(view.bilinear(p), None);
        assert_eq!(view.normal(p), None);
    }
}
