//! A window that follows a wave packet by whole cells computes the same water as a still grid
//! large enough to hold the whole run: shifting moves both time levels, so the leapfrog step
//! cannot tell a moved window from a larger grid, away from the absorbing rim where the two
//! grids' edges differ.

mod support;

use support::params_for;
use water_core::glam::{DVec2, I64Vec2};
use water_core::{Boundary, Damping, FollowingWindow, GridSize, GridWater, SignedGrid};

/// Cells between the window's rim and the cells compared with the large grid. What the rim
/// does differently (Mur's condition against the large grid's interior stencil) reaches
/// inwards as the packet's discretisation residue, which moves against the window.
const RIM_MARGIN: usize = 16;

/// A packet of wavelength 10 cells under a cosine-squared envelope of radius 12 cells (zero
/// beyond), centred at `(cx, cy)`, travelling in +x: the previous level is the shape a step
/// of `c dt = 0.5` cells further back.
fn packet(cx: f64, cy: f64) -> impl Fn(f64, f64, f64) -> f64 {
    move |x, y, back| {
        let (dx, dy) = (x + back - cx, y - cy);
        let r = dx.hypot(dy);
        if r >= 12.0 {
            return 0.0;
        }
        let envelope = (std::f64::consts::FRAC_PI_2 * r / 12.0).cos().powi(2);
        0.2 * envelope * (std::f64::consts::TAU * dx / 10.0).cos()
    }
}

fn grid_with_packet(w: usize, h: usize, cx: f64, cy: f64) -> SignedGrid {
    // h = c = 1, dt = 0.5: the packet moves 0.5 cells a step.
    let mut grid = SignedGrid::new(
        GridSize::new(w, h).expect("size"),
        params_for(0.25, Damping::NONE),
        Boundary::Absorbing,
    );
    let f = packet(cx, cy);
    let (cur, old) = grid.field_mut().levels_mut();
    for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
        let (x, y) = ((i % w) as f64, (i / w) as f64);
        *c = f(x, y, 0.0) as f32;
        *o = f(x, y, 0.5) as f32;
    }
    grid
}

/// The wave model: a 160 x 224 window that follows a packet moving at 0.5 cells a step (so
/// it moves one cell every other step), against a 280 x 256 grid holding the whole 160-step
/// run. Every cell at least [`RIM_MARGIN`] cells inside the window's rim must equal the large
/// grid's cell at the same world place to the bit, and those cells must hold at least 90% of
/// the large grid's energy (so the comparison is of the packet, not of still water).
#[test]
fn a_window_moved_by_whole_cells_equals_a_still_grid_bit_for_bit_away_from_its_rim() {
    let (ww, wh) = (160usize, 224usize);
    let (bw, bh) = (280usize, 256usize);
    // World positions are the large grid's (cells of 1 m); the window starts 16 rows up it.
    let mut follower = FollowingWindow::new(GridSize::new(ww, wh).expect("size"), 1.0)
        .expect("window")
        .with_origin_cells(I64Vec2::new(0, 16))
        .expect("origin");
    let mut window = grid_with_packet(ww, wh, 100.0, 112.0);
    let mut large = grid_with_packet(bw, bh, 100.0, 128.0);
    // The focus is the packet's centre, 0.5 cells a step along +x.
    let focus = |step: f64| DVec2::new(100.5 + 0.5 * step, 128.5);
    follower.follow(&mut window, focus(0.0)).expect("follow");
    for step in 1..=160 {
        window.step();
        large.step();
        follower
            .follow(&mut window, focus(f64::from(step)))
            .expect("follow");
    }
    let origin = follower.origin_cells();
    assert_eq!(origin, I64Vec2::new(100, 16), "the window moved 100 cells");
    let (ox, oy) = (origin.x as usize, origin.y as usize);
    let (w, l) = (window.current(), large.current());
    let mut mismatches = Vec::new();
    let (mut compared_energy, mut compared) = (0.0_f64, 0usize);
    for y in RIM_MARGIN..wh - RIM_MARGIN {
        for x in RIM_MARGIN..ww - RIM_MARGIN {
            let a = w[y * ww + x];
            let b = l[(y + oy) * bw + x + ox];
            if a.to_bits() != b.to_bits() {
                mismatches.push((x, y, a, b));
            }
            compared_energy += f64::from(b) * f64::from(b);
            compared += 1;
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {compared} cells differ from the still grid, first {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    let total: f64 = l.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    assert!(
        compared_energy >= 0.9 * total,
        "the compared cells hold {compared_energy:.4e} of {total:.4e}: the packet left them"
    );
}

/// The dispersive model (deep water, Airy): a 192 x 128 window that follows a packet of
/// 16-cell waves at the packet's group speed, by whole cells, against a 384 x 128
/// grid holding the whole run (both with the absorbing sponge, the packet uniform across y).
/// The spectral step is global, so the window's own sponge and periodic images touch every
/// cell a little; between the window's sponges and away from the top and bottom ones, the
/// window must match the large grid within 1% of the packet's amplitude, the sponge's
/// documented reflection for 16-cell waves (`docs/math.md`, section on dispersion).
#[test]
fn a_dispersive_window_following_a_packet_matches_a_still_grid_within_the_sponges_error() {
    use std::f64::consts::TAU;
    use water_core::{AiryDispersion, DispersiveGrid};
    let (ww, bw, h) = (192usize, 384usize, 128usize);
    let cell = 0.1;
    let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
    let grid = |w: usize, dt: f64| {
        DispersiveGrid::new(
            GridSize::new(w, h).expect("size"),
            cell,
            dt,
            Damping::NONE,
            airy,
            Boundary::Absorbing,
        )
        .expect("grid")
    };
    let dt = 0.3 * grid(ww, 1e-9).max_stable_dt();
    let k = TAU / (16.0 * cell);
    let omega = airy.omega(k);
    // Cells a step the packet's envelope moves: deep water's group speed is half the phase's.
    let group_cells = 0.5 * omega / k * dt / cell;
    let (start, sigma) = (96.0, 16.0);
    let (mut window, mut large) = (grid(ww, dt), grid(bw, dt));
    for water in [&mut window, &mut large] {
        support::set_travelling_packet(water, (k, omega), (start, sigma), cell, dt);
    }
    // World positions are the large grid's; the window's centre cell (96, 64) starts on the
    // packet's centre and follows it at the group speed.
    let mut follower =
        FollowingWindow::new(GridSize::new(ww, h).expect("size"), cell).expect("window");
    for step in 1..=400u32 {
        window.step();
        large.step();
        let centre = (start + 0.5 + group_cells * f64::from(step)) * cell;
        follower
            .follow(
                &mut window,
                DVec2::new(centre, (h / 2) as f64 * cell + 0.5 * cell),
            )
            .expect("follow");
    }
    let ox = follower.origin_cells().x as usize;
    assert_eq!(follower.origin_cells().y, 0);
    let (w, l) = (window.field().current(), large.field().current());
    let peak = l.iter().fold(0.0_f32, |m, v| m.max(v.abs()));
    let mut worst = 0.0_f32;
    for y in h / 2 - 16..h / 2 + 16 {
        for x in 24..ww - 24 {
            let difference = (w[y * ww + x] - l[y * bw + x + ox]).abs();
            // NaN counts as the worst (`f32::max` would pass over it).
            if difference.is_nan() || difference > worst {
                worst = difference;
            }
        }
    }
    eprintln!(
        "dispersive window: moved {ox} cells, largest difference {:.3}% of the packet's peak",
        100.0 * worst / peak
    );
    assert!(
        worst <= 0.01 * peak, // false for NaN
        "the window differs by {worst:e} from the still grid, over 1% of the packet's {peak:e}"
    );
}

/// A focus that outruns the window (seven cells in one step) is followed at once, and one
/// shift of seven cells leaves both time levels exactly as seven shifts of one do.
#[test]
fn a_focus_that_jumps_is_followed_as_by_single_cells() {
    let size = GridSize::new(48, 40).expect("size");
    let start = || {
        let mut grid = grid_with_packet(48, 40, 20.0, 20.0);
        grid.step_many(5);
        grid
    };
    let (mut jumped, mut walked) = (start(), start());
    let mut at_once = FollowingWindow::new(size, 1.0).expect("window");
    let mut by_ones = at_once;
    let focus = |x: f64| DVec2::new(x, 20.5);
    assert_eq!(
        at_once.follow(&mut jumped, focus(31.5)).expect("follow"),
        I64Vec2::new(7, 0)
    );
    for x in 25..=31 {
        by_ones
            .follow(&mut walked, focus(f64::from(x) + 0.5))
            .expect("follow");
    }
    assert_eq!(at_once.origin_cells(), by_ones.origin_cells());
    for (a, b) in [
        (jumped.field().current(), walked.field().current()),
        (jumped.field().previous(), walked.field().previous()),
    ] {
        assert_eq!(support::bits(a), support::bits(b));
    }
    // A jump past the whole window leaves only still water, and is no error.
    at_once.follow(&mut jumped, focus(1e6)).expect("follow");
    assert!(jumped.field().current().iter().all(|&z| z == 0.0));
    assert!(jumped.field().previous().iter().all(|&z| z == 0.0));
    assert_eq!(at_once.origin_cells().x, 1_000_000 - 24);
}

/// A focus that is not a finite world position is refused by name, and the water stays put.
#[test]
fn a_focus_that_is_not_a_place_is_refused_and_nothing_moves() {
    let mut grid = grid_with_packet(48, 40, 20.0, 20.0);
    let before = support::bits(grid.field().current());
    let mut window =
        FollowingWindow::new(GridSize::new(48, 40).expect("size"), 1.0).expect("window");
    for (focus, name) in [
        (DVec2::new(f64::NAN, 3.0), "focus x"),
        (DVec2::new(3.0, f64::INFINITY), "focus y"),
        (DVec2::new(-1e13, 3.0), "focus x"),
    ] {
        let e = window.follow(&mut grid, focus).expect_err("refused");
        assert_eq!(e.parameter(), Some(name), "{e}");
    }
    assert_eq!(window.origin_cells(), I64Vec2::ZERO);
    assert_eq!(support::bits(grid.field().current()), before);
    // Water that could not move (a GPU that failed): the window stays where the water is.
    let failed = window.follow_with(DVec2::new(40.0, 3.0), |_, _| {
        Err(water_core::WaterError::NotFinite {
            name: "a shift that failed",
            value: 0.0,
        })
    });
    assert!(failed.is_err());
    assert_eq!(window.origin_cells(), I64Vec2::ZERO);
}
