//! A grid that keeps moving behind Mur's absorbing edges stays bounded: the old edge cells a
//! shift carries inside come in still (`water_core::clear_rim_moved_inside`), so the edge takes
//! waves as it does at rest. Carried in as water, they pumped a short wave trapped at the
//! leading edge by about 12% a shift, up to overflow (`docs/math.md`, section 15).

use glam::Vec2;
use water_core::{
    Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, SignedGrid, SplitGrid,
    WaveParams,
};

/// Cell size (m) and step (s) of every run; the wave speed sets the Courant number `s`.
const CELL: f64 = 0.25;
const DT: f64 = 0.05;
/// Height of each drop (m).
const DROP: f32 = 0.05;
/// How far the moving grid's highest wave may pass the still grid's: the drops' own waves,
/// reflected a little differently by an edge that moves, never grow.
const OVERSHOOT: f32 = 1.1;

fn params(courant: f64) -> WaveParams {
    WaveParams::new(CELL, courant * CELL / DT, DT, Damping::PerSecond(0.95)).expect("params")
}

/// The largest |z| over `steps` steps of a grid moved by `(dx, dy)` every `every` steps (never
/// for `every = 0`), a drop landing near its leading side every 400 steps; NaN if any height
/// was NaN.
fn largest_height(
    water: &mut dyn GridWater,
    every: u64,
    (dx, dy): (isize, isize),
    steps: u64,
) -> f32 {
    let size = water.size();
    let (w, h) = (size.width() as f32, size.height() as f32);
    // Near the leading side, so the waves meet the edge the grid moves into.
    let centre = Vec2::new(
        w / 2.0 + w / 4.0 * dx.signum() as f32,
        h / 2.0 + h / 4.0 * dy.signum() as f32,
    );
    let drop = Impulse::new(centre, 3.0, DROP, ImpulseShape::Cosine).expect("drop");
    let mut largest = 0.0f32;
    for step in 0..steps {
        if step % 400 == 100 {
            water.add_impulse(&drop);
        }
        if every > 0 && step > 0 && step % every == 0 {
            water.shift_window(dx, dy);
        }
        water.step();
        for z in water.heights() {
            if z.is_nan() {
                return f32::NAN;
            }
            largest = largest.max(z.abs());
        }
    }
    largest
}

#[test]
fn a_grid_moving_at_any_speed_and_courant_number_stays_below_its_drops() {
    let size = GridSize::new(64, 48).expect("size");
    let mut failures = Vec::new();
    for courant in [0.2, 0.4, 0.7] {
        let still = |shift| {
            largest_height(
                &mut SignedGrid::new(size, params(courant), Boundary::Absorbing),
                0,
                shift,
                1_000,
            )
        };
        // One cell every 2 to 9 steps: 0.5 to 0.11 cells a step, each unstable for one Courant
        // number or more before the fix.
        for every in [2, 3, 5, 9] {
            for shift in [(1, 0), (-1, 0), (0, -1), (1, 1), (2, -1)] {
                let mut grid = SignedGrid::new(size, params(courant), Boundary::Absorbing);
                let largest = largest_height(&mut grid, every, shift, 12_000);
                let bound = still(shift) * OVERSHOOT;
                if largest.is_nan() || largest > bound {
                    failures.push(format!(
                        "s = {courant}, a shift of {shift:?} every {every} steps: max |z| = {largest:e}, still grid's x 1.1 = {bound:e}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "grew past the drops:\n{}",
        failures.join("\n")
    );
}

#[test]
fn a_split_grid_moving_for_100_000_steps_stays_below_its_drops() {
    // The case the bug was found in: 64 x 64 at s = 0.4, 0.2 cells a step, here ten times as
    // long; the split grid carries both its channels the same way.
    let size = GridSize::new(64, 64).expect("size");
    let new_signed = || SignedGrid::new(size, params(0.4), Boundary::Absorbing);
    let new_split = || SplitGrid::new(size, params(0.4), Boundary::Absorbing);
    let bound = largest_height(&mut new_signed(), 0, (1, 0), 1_000) * OVERSHOOT;
    let largest = largest_height(&mut new_signed(), 5, (1, 0), 100_000);
    assert!(
        largest <= bound,
        "signed grid: max |z| = {largest:e}, bound {bound:e}"
    );
    let bound = largest_height(&mut new_split(), 0, (1, 0), 1_000) * OVERSHOOT;
    let largest = largest_height(&mut new_split(), 5, (1, 0), 100_000);
    assert!(
        largest <= bound,
        "split grid: max |z| = {largest:e}, bound {bound:e}"
    );
}
