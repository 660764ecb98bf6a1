//! Impulses that mean what they say: a displacement sets the surface's shape at rest with the
//! asked height, and a drop adds exactly zero volume for every radius, position and land.

mod support;

use glam::Vec2;
use water_core::diagnostics::volume;
use water_core::{
    Boundary, ClassicGrid, Damping, GridSize, GridWater, Impulse, ImpulseShape, LandMask, SplitGrid,
};

const W: usize = 32;

fn size() -> GridSize {
    GridSize::new(W, W).expect("size")
}

fn impulse(centre: Vec2, radius: f32, amp: f32, shape: ImpulseShape) -> Impulse {
    Impulse::new(centre, radius, amp, shape).expect("impulse")
}

/// The `(index, amount)` pairs `for_each_cell` reports.
fn amounts(imp: &Impulse, interior_only: bool, land: Option<&LandMask>) -> Vec<(usize, f32)> {
    let mut out = Vec::new();
    imp.for_each_cell(size(), interior_only, land, |i, v| out.push((i, v)));
    out
}

/// Land on the columns `x < 12`.
fn left_land() -> LandMask {
    let mut land = LandMask::empty(size());
    land.add_rect(0, 0, 12, W).expect("land");
    land
}

#[test]
fn a_drop_sums_to_zero_for_every_radius_and_place() {
    // A drop is a crest and a trough of equal volume: its amounts over the cells that hold
    // water sum to zero, whether the grid resolves its ring (R >= ~1.5) or not (R <= 1: the
    // ring falls between cell centres), on a cell or between cells, clipped by the grid's edge,
    // a corner, the fixed rim, or land.
    let land = left_land();
    let centres = [
        Vec2::new(16.0, 16.0), // on a cell
        Vec2::new(16.5, 16.5), // between four cells
        Vec2::new(16.5, 16.0), // between two cells
        Vec2::new(16.3, 15.8), // anywhere
        Vec2::new(0.0, 10.0),  // on the edge
        Vec2::new(0.5, 10.3),  // next to the edge
        Vec2::new(0.0, 0.0),   // a corner
        Vec2::new(31.4, 0.2),  // near the opposite corner
        Vec2::new(12.0, 16.0), // the first water column next to land
        Vec2::new(11.5, 16.5), // half over land
        Vec2::new(10.0, 16.0), // over land, reaching water
        Vec2::new(-2.0, 16.0), // off the grid
    ];
    let amp = 0.7f32;
    let mut checked = 0;
    for radius in [0.3f32, 0.5, 1.0, 1.5, 2.0, 3.0, 7.5, 20.0] {
        for centre in centres {
            for interior_only in [false, true] {
                for land in [None, Some(&land)] {
                    let drop = impulse(centre, radius, amp, ImpulseShape::Drop);
                    let cells = amounts(&drop, interior_only, land);
                    let sum: f64 = cells.iter().map(|&(_, v)| f64::from(v)).sum();
                    let n = cells.len().max(1) as f64;
                    let at = format!(
                        "R {radius} at {centre}, interior_only {interior_only}, land {}",
                        land.is_some()
                    );
                    assert!(
                        sum.abs() <= 1e-6 * f64::from(amp) * n,
                        "drop sum {sum} over {} cells: {at}",
                        cells.len()
                    );
                    for &(i, _) in &cells {
                        let (x, y) = (i % W, i / W);
                        assert!(
                            !land.is_some_and(|l| l.is_land(x, y)),
                            "amount on land: {at}"
                        );
                        let rim = x == 0 || y == 0 || x == W - 1 || y == W - 1;
                        assert!(!(interior_only && rim), "amount on the fixed rim: {at}");
                    }
                    // The drop is never silently empty: it adds something exactly where a
                    // cosine impulse of the same radius would.
                    let cosine = impulse(centre, radius, amp, ImpulseShape::Cosine);
                    let bump = amounts(&cosine, interior_only, land);
                    let adds = |c: &[(usize, f32)]| c.iter().any(|&(_, v)| v != 0.0);
                    assert_eq!(adds(&cells), adds(&bump), "{at}");
                    checked += usize::from(adds(&cells));
                }
            }
        }
    }
    assert!(checked > 250, "most cases add a drop ({checked})");
}

#[test]
fn a_sub_cell_drop_is_a_crest_with_its_neighbours_as_trough() {
    // R = 1 on a cell: the ring's cells (at r = R) have weight 0, so the trough goes to the
    // four neighbours, a quarter of the crest each: the discrete Laplacian's shape.
    let c = 16 * W + 16;
    let cells = amounts(
        &impulse(Vec2::new(16.0, 16.0), 1.0, 0.4, ImpulseShape::Drop),
        false,
        None,
    );
    let at = |i: usize| {
        cells
            .iter()
            .find(|&&(j, _)| j == i)
            .map_or(0.0, |&(_, v)| v)
    };
    assert_eq!(at(c), 0.4);
    for n in [c - 1, c + 1, c - W, c + W] {
        assert_eq!(at(n), -0.1);
    }
    assert_eq!(cells.iter().filter(|&&(_, v)| v != 0.0).count(), 5);
}

#[test]
fn a_drop_keeps_the_volume_through_a_step() {
    // On a reflective boundary the stencil conserves sum(z) - sum(z_old), so the volume after
    // a step is sum(z_1) = 2 sum(z_0) - sum(z_-1) = 2V: zero only if the drop added none. A
    // cosine kick, for contrast, doubles its volume in that step.
    for (radius, centre) in [
        (0.5f32, Vec2::new(10.0, 10.0)),
        (1.0, Vec2::new(16.0, 16.0)),
        (1.0, Vec2::new(0.0, 0.0)),
        (3.0, Vec2::new(16.5, 16.5)),
        (7.5, Vec2::new(31.0, 4.2)),
        (20.0, Vec2::new(8.0, 8.0)),
    ] {
        let mut grid = support::signed(W, W, 0.25, Boundary::Reflective);
        grid.add_impulse(&impulse(centre, radius, 0.5, ImpulseShape::Drop));
        grid.step();
        let v = volume(grid.current(), 1.0);
        assert!(
            v.abs() <= 1e-6 * 0.5 * (W * W) as f64,
            "R {radius} at {centre}: volume {v}"
        );
    }
    let mut kicked = support::signed(W, W, 0.25, Boundary::Reflective);
    let bump = impulse(Vec2::new(16.0, 16.0), 1.0, 0.5, ImpulseShape::Cosine);
    kicked.add_impulse(&bump);
    kicked.step();
    assert!((volume(kicked.current(), 1.0) - 1.0).abs() < 1e-6);
}

#[test]
fn a_drop_next_to_land_or_the_fixed_rim_leaves_zero_volume_on_the_grid() {
    // Amounts given to land or to the fixed rim are wiped, so they must not count in the
    // drop's balance: the heights the grid keeps sum to zero.
    let mut grid = support::signed(W, W, 0.25, Boundary::Fixed);
    grid.set_land(left_land()).expect("land");
    for centre in [
        Vec2::new(12.0, 16.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(20.0, 0.5),
    ] {
        grid.add_impulse(&impulse(centre, 4.0, 0.5, ImpulseShape::Drop));
    }
    let land = left_land();
    for (i, &z) in grid.current().iter().enumerate() {
        let (x, y) = (i % W, i / W);
        let rim = x == 0 || y == 0 || x == W - 1 || y == W - 1;
        if rim || land.is_land(x, y) {
            assert_eq!(z, 0.0, "land and the fixed rim hold no water ({x}, {y})");
        }
    }
    let sum: f64 = grid.current().iter().map(|&v| f64::from(v)).sum();
    assert!(sum.abs() < 1e-6, "sum {sum}");
    assert!(
        grid.current().iter().any(|&v| v > 0.1),
        "the drops are there"
    );
}

fn cosine_at(amp: f32, r: f32, radius: f32) -> f32 {
    amp * ImpulseShape::Cosine.profile(r / radius)
}

#[test]
fn a_displacement_sets_the_shape_at_rest_with_the_asked_height() {
    // Right after a displacement both levels hold amp * f: the bump is `amp` high at its
    // centre and has zero velocity (z - z_old = 0).
    let (amp, radius) = (0.3f32, 5.0f32);
    let mut grid = support::signed(W, W, 0.25, Boundary::Reflective);
    grid.add_impulse(
        &impulse(Vec2::new(16.0, 16.0), radius, amp, ImpulseShape::Cosine).with_displacement(true),
    );
    let (cur, old) = (grid.field().current(), grid.field().previous());
    assert_eq!(cur[16 * W + 16], amp);
    assert_eq!(cur[16 * W + 19], cosine_at(amp, 3.0, radius));
    assert_eq!(cur[20 * W + 19], cosine_at(amp, 5.0, radius)); // r = R: 0
    assert_eq!(cur, old);
    let peak = cur.iter().copied().fold(f32::MIN, f32::max);
    assert_eq!(peak, amp);

    // A linear cone has the same peak.
    let mut cone = support::signed(W, W, 0.25, Boundary::Reflective);
    cone.add_impulse(
        &impulse(Vec2::new(9.0, 7.0), 4.0, amp, ImpulseShape::Linear).with_displacement(true),
    );
    assert_eq!(cone.current().iter().copied().fold(f32::MIN, f32::max), amp);
    assert_eq!(cone.current(), cone.field().previous());
}

#[test]
fn a_wide_displacement_barely_moves_in_one_step_but_a_kick_jumps() {
    // From rest, one leapfrog step gives z_1 = z_0 + a * lap(z_0). At the centre of a cosine
    // bump of radius R each neighbour holds amp (1 + cos(pi/R))/2, so the peak becomes
    // amp - 2 a amp (1 - cos(pi/R)): a change of O(a amp (pi/R)^2), tiny for R >> 1. A kick
    // (z_-1 = 0) instead gives z_1 = 2 z_0 - 0 + a lap: the peak jumps by about amp.
    let (amp, radius, a) = (0.5f32, 12.0f32, 0.25f32);
    let centre = Vec2::new(16.0, 16.0);
    let peak_after_one_step = |displacement: bool| {
        let mut grid = support::signed(W, W, f64::from(a), Boundary::Reflective);
        grid.add_impulse(
            &impulse(centre, radius, amp, ImpulseShape::Cosine).with_displacement(displacement),
        );
        grid.step();
        grid.current()[16 * W + 16]
    };
    let expected = amp - 2.0 * a * amp * (1.0 - (std::f32::consts::PI / radius).cos());
    let displaced = peak_after_one_step(true);
    assert!(
        (displaced - expected).abs() < 1e-6,
        "{displaced} vs {expected}"
    );
    assert!((displaced - amp).abs() < 0.02 * amp, "the bump stays put");
    let kicked = peak_after_one_step(false);
    assert!(
        kicked - amp > 0.9 * amp,
        "a kick rises by ~amp in one step: {kicked}"
    );
}

#[test]
fn a_displaced_bump_never_rises_above_its_height() {
    // Released from rest, a bump spreads out as a ring: energy moves outward and the surface
    // never climbs above the initial peak (reflections from the walls come back spread over
    // the whole grid). A kick of the same amplitude, for contrast, overshoots it.
    let (amp, radius) = (0.2f32, 6.0f32);
    let highest = |displacement: bool| {
        let mut grid = support::signed(64, 64, 0.25, Boundary::Reflective);
        grid.add_impulse(
            &impulse(Vec2::new(30.0, 33.0), radius, amp, ImpulseShape::Cosine)
                .with_displacement(displacement),
        );
        let mut highest = f32::MIN;
        for _ in 0..600 {
            grid.step();
            highest = highest.max(grid.current().iter().copied().fold(f32::MIN, f32::max));
        }
        highest
    };
    let displaced = highest(true);
    assert!(
        displaced <= amp * (1.0 + 1e-5),
        "peak {displaced} above {amp}"
    );
    let kicked = highest(false);
    assert!(kicked > 2.0 * amp, "a kick peaks at {kicked}");
}

#[test]
fn split_mode_displaces_each_channel_at_rest() {
    // Positive amounts go to both levels of p, negative ones (as magnitudes) to both levels
    // of n: the height p - n is the drop's shape and each channel starts at rest.
    let mut grid = SplitGrid::new(
        size(),
        support::params_for(0.25, Damping::NONE),
        Boundary::Reflective,
    );
    let drop = impulse(Vec2::new(15.0, 17.0), 6.0, 0.4, ImpulseShape::Drop);
    grid.add_impulse(&drop.with_displacement(true));
    let mut expected = vec![0.0f32; W * W];
    drop.for_each_cell(size(), false, None, |i, v| expected[i] += v);
    assert_eq!(grid.heights(), expected);
    assert_eq!(grid.positive().current(), grid.positive().previous());
    assert_eq!(grid.negative().current(), grid.negative().previous());
    assert!(grid.negative().current().iter().all(|&v| v >= 0.0));
    assert_eq!(grid.positive().current()[17 * W + 15], 0.4);

    // Without displacement only the current levels move.
    let mut kicked = SplitGrid::new(
        size(),
        support::params_for(0.25, Damping::NONE),
        Boundary::Reflective,
    );
    kicked.add_impulse(&drop);
    assert_eq!(kicked.heights(), expected);
    assert!(kicked.positive().previous().iter().all(|&v| v == 0.0));
    assert!(kicked.negative().previous().iter().all(|&v| v == 0.0));
}

#[test]
fn classic_displacement_rounds_into_both_levels() {
    // Classic mode adds round(amp f) to both i16 levels; one step then follows Hugo Elias's
    // rule exactly: peak = ((sum of 4 neighbours) >> 1) - old, then damping `-= >> 5`.
    let mut grid = ClassicGrid::new(size(), 1.0, Some(5)).expect("classic");
    let (amp, radius) = (1000.0f32, 12.0f32);
    grid.add_impulse(
        &impulse(Vec2::new(16.0, 16.0), radius, amp, ImpulseShape::Cosine).with_displacement(true),
    );
    let c = 16 * W + 16;
    assert_eq!(grid.current()[c], 1000);
    let side = cosine_at(amp, 1.0, radius).round() as i16;
    assert_eq!(grid.current()[c + 1], side);
    assert_eq!(grid.current(), grid.previous());
    grid.step();
    let mut expected = ((i32::from(side) * 4) >> 1) - 1000;
    expected -= expected >> 5;
    assert_eq!(i32::from(grid.current()[c]), expected);
    assert!(
        (expected - 1000).abs() < 100,
        "the bump stays near 1000, not ~2000"
    );
}
