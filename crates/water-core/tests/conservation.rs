//! Physics: the undamped stencil conserves its discrete energy and the water volume.

mod support;

use support::{bump, set_at_rest, signed};
use water_core::{Boundary, GridWater};

/// Runs an undamped basin from rest and returns
/// `(start energy, worst relative energy change, peak height, worst mean-level change,
///   worst per-step volume acceleration / its rounding bound)`.
fn run_and_track(boundary: Boundary, a: f64, steps: usize) -> (f64, f64, f64, f64, f64) {
    let mut grid = signed(24, 20, a, boundary);
    set_at_rest(&mut grid, bump(9.0, 8.0, 4.5));
    let cells = 24.0 * 20.0;
    let (e0, v0) = (grid.energy(), grid.volume());
    let (mut worst_e, mut worst_level, mut worst_accel) = (0.0f64, 0.0f64, 0.0f64);
    let (mut v_prev, mut v) = (v0, v0);
    for _ in 0..steps {
        grid.step();
        let v_next = grid.volume();
        worst_e = worst_e.max((grid.energy() / e0 - 1.0).abs());
        worst_level = worst_level.max((v_next - v0).abs() / cells);
        // In exact arithmetic V(n+1) - 2V(n) + V(n-1) = sum of a*K z = 0 every step; in f32
        // each cell's update rounds once per operation, at most an ulp of the largest height.
        let peak = grid.current().iter().fold(0.0f32, |m, z| m.max(z.abs()));
        let bound = cells * f64::from(peak.max(f32::MIN_POSITIVE)) * f64::from(f32::EPSILON) * 2.0;
        worst_accel = worst_accel.max((v_next - 2.0 * v + v_prev).abs() / bound);
        (v_prev, v) = (v, v_next);
    }
    (e0, worst_e, 1.0, worst_level, worst_accel)
}

#[test]
fn undamped_reflective_run_conserves_energy_within_one_percent_and_volume_over_1e5_steps() {
    let (e0, worst_e, peak, worst_level, worst_accel) =
        run_and_track(Boundary::Reflective, 0.25, 100_000);
    assert!(e0 > 0.0);
    assert!(worst_e < 0.01, "energy drifted by {worst_e:e} of {e0}");
    // Volume: no step creates or loses more than its own rounding...
    assert!(
        worst_accel <= 1.0,
        "a step changed the volume's rate by {worst_accel} rounding bounds"
    );
    // ...and over 10^5 steps those roundings (a random walk of the mean level's velocity, see
    // docs/math.md "Rounding and the mean level") move the mean level by under 1% of the wave.
    assert!(
        worst_level < 0.01 * peak,
        "mean level moved by {worst_level}"
    );
}

#[test]
fn energy_is_conserved_for_periodic_and_fixed_boundaries_too() {
    for boundary in [Boundary::Periodic, Boundary::Fixed] {
        let (_, worst_e, _, _, worst_accel) = run_and_track(boundary, 0.4, 20_000);
        assert!(worst_e < 0.01, "{boundary}: energy drift {worst_e:e}");
        if boundary == Boundary::Periodic {
            assert!(
                worst_accel <= 1.0,
                "periodic volume rate changed by {worst_accel}"
            );
        }
    }
}

#[test]
fn damping_removes_energy() {
    let mut grid = water_core::SignedGrid::new(
        water_core::GridSize::new(24, 20).expect("size"),
        support::params_for(0.25, water_core::Damping::PerStep(0.99)),
        Boundary::Reflective,
    );
    set_at_rest(&mut grid, bump(9.0, 8.0, 4.5));
    let e0 = grid.energy();
    for _ in 0..200 {
        grid.step();
    }
    assert!(grid.energy() < 0.5 * e0);
}

#[test]
fn damping_per_second_decays_the_same_physical_amount_for_any_dt() {
    // With damping every mode's two roots have modulus sqrt(d), so each mode is
    // A r^n cos(n theta + phi) with r = sqrt(d), and for such a sequence
    // x(n)^2 - x(n+1) x(n-1) = A^2 r^(2n) sin^2(theta). Summed over the grid (the modes are
    // orthogonal) Q(n) = sum z(n)^2 - z(n+1) z(n-1) therefore shrinks by exactly d per step:
    // Q after t seconds is D^(2t) of its start, whatever dt, if D is the amplitude kept per second.
    use water_core::{Damping, GridSize, SignedGrid, WaveParams};
    let q = |prev: &[f32], cur: &[f32], next: &[f32]| -> f64 {
        (0..cur.len())
            .map(|i| {
                let (a, b, c) = (f64::from(prev[i]), f64::from(cur[i]), f64::from(next[i]));
                b * b - c * a
            })
            .sum()
    };
    let q_fraction = |dt: f64| {
        let params = WaveParams::new(1.0, 1.0, dt, Damping::PerSecond(0.9)).expect("params");
        let mut grid = SignedGrid::new(
            GridSize::new(24, 20).expect("size"),
            params,
            Boundary::Periodic,
        );
        set_at_rest(&mut grid, bump(9.0, 8.0, 4.5));
        let z0 = grid.current().to_vec();
        grid.step();
        let z1 = grid.current().to_vec();
        grid.step();
        let q_start = q(&z0, &z1, grid.current());
        let steps = (5.0 / dt).round() as usize; // 5 s after the first measurement
        let mut before = z1;
        for _ in 0..steps {
            before = grid.field().previous().to_vec();
            grid.step();
        }
        q(&before, grid.field().previous(), grid.current()) / q_start
    };
    let expected = 0.9f64.powf(10.0);
    for dt in [0.5, 0.25, 0.1] {
        let fraction = q_fraction(dt);
        assert!(
            (fraction / expected - 1.0).abs() < 1e-3,
            "dt = {dt}: decay {fraction}, expected {expected}"
        );
    }
}
