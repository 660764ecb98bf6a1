//! Water of varying depth against exact answers: long waves travel at the shallow-water speed
//! `c = sqrt(g d)`, grow up a gentle slope as Green's law `A ~ d^(-1/4)`, and bend at a depth
//! step as Snell's law `sin(theta2) / sin(theta1) = c2 / c1`.

mod support;

use std::f64::consts::PI;

use water_core::{
    Boundary, Damping, Depth, GridSize, GridWater, SignedGrid, WaterError, WaveParams,
    STANDARD_GRAVITY,
};

const G: f64 = STANDARD_GRAVITY;

/// Signed water over `depth` with Courant number `a` over its deepest cell, levels set to
/// `cur` and `old`.
fn water_over(
    depth: &Depth,
    cell: f64,
    a: f64,
    boundary: Boundary,
    cur: &[f32],
    old: &[f32],
) -> SignedGrid {
    let c_max = (G * f64::from(depth.deepest())).sqrt();
    let dt = a.sqrt() * cell / c_max;
    let params = WaveParams::shallow_water(cell, depth, G, dt, Damping::NONE).expect("stable");
    let mut water = SignedGrid::new(depth.size(), params, boundary);
    water.set_depth(depth).expect("same size");
    let (c, o) = water.field_mut().levels_mut();
    c.copy_from_slice(cur);
    o.copy_from_slice(old);
    water
}

/// A standing wave of 64 cells over a uniform depth oscillates at `omega = sqrt(g d) k`: its
/// measured phase speed is within 2% of `sqrt(g d)` at two depths (and so differs between
/// them by the factor 2 of the depths' square roots).
#[test]
fn long_waves_travel_at_the_shallow_water_speed() {
    let (w, h, cell) = (256usize, 4usize, 0.05f64);
    let size = GridSize::new(w, h).expect("size");
    let wavelength_cells = 64.0;
    let k = 2.0 * PI / (wavelength_cells * cell);
    for d in [0.5f32, 2.0] {
        let depth = Depth::uniform(size, d).expect("depth");
        let c = (G * f64::from(d)).sqrt();
        let a = 0.25f64;
        let dt = a.sqrt() * cell / c;
        let omega = c * k;
        let shape = |phase: f64| -> Vec<f32> {
            (0..w * h)
                .map(|i| ((k * (i % w) as f64 * cell).cos() * phase.cos()) as f32)
                .collect()
        };
        let mut water = water_over(
            &depth,
            cell,
            a,
            Boundary::Periodic,
            &shape(0.0),
            &shape(-omega * dt),
        );
        // Zero crossings of the cell at x = 0 (its first 2,000 steps, at least 10).
        let measured_omega = support::crossing_omega(&mut water, dt, 2_000, 10);
        let speed = measured_omega / k;
        let error = (speed - c).abs() / c;
        eprintln!("{d} m: phase speed {speed:.4} m/s, sqrt(g d) = {c:.4} m/s");
        assert!(
            error < 0.02,
            "{d} m: phase speed {speed:.4} m/s against sqrt(g d) = {c:.4} m/s ({:.2}%)",
            error * 100.0
        );
    }
}

/// A right-going pulse (not breaking, amplitude 1 cm) runs from 2 m of water up a 1:107
/// slope to 0.5 m: at each probe its peak has grown as `(d / d0)^(-1/4)` within 5%.
#[test]
fn shoaling_follows_greens_law() {
    let (w, h, cell) = (2_400usize, 3usize, 0.1f64);
    let size = GridSize::new(w, h).expect("size");
    let (d0, d1, slope_start, slope_end) = (2.0f64, 0.5f64, 300.0f64, 1_900.0f64);
    let depth_at = |x: f64| {
        let t = ((x - slope_start) / (slope_end - slope_start)).clamp(0.0, 1.0);
        d0 + (d1 - d0) * t
    };
    let metres = (0..w * h)
        .map(|i| depth_at((i % w) as f64) as f32)
        .collect();
    let depth = Depth::from_cells(size, metres).expect("depth");
    let a = 0.4f64;
    // Cells the pulse moves per step over the deep water: sqrt(a).
    let shift = a.sqrt();
    let (centre, sigma, amplitude) = (150.0, 20.0, 0.01);
    let pulse = |offset: f64| -> Vec<f32> {
        (0..w * h)
            .map(|i| {
                let x = (i % w) as f64 + offset - centre;
                (amplitude * (-x * x / (2.0 * sigma * sigma)).exp()) as f32
            })
            .collect()
    };
    // The previous level is the pulse one step back along its path: it runs right.
    let mut water = water_over(
        &depth,
        cell,
        a,
        Boundary::Reflective,
        &pulse(0.0),
        &pulse(shift),
    );
    let probes = [250usize, 700, 1_100, 1_500, 2_000, 2_100];
    let mut peaks = [0.0f32; 6];
    for _ in 0..5_400 {
        water.step();
        let row = &water.field().current()[w..2 * w];
        for (peak, &x) in peaks.iter_mut().zip(&probes) {
            *peak = peak.max(row[x]);
        }
    }
    let reference = f64::from(peaks[0]);
    for (&x, &peak) in probes.iter().zip(&peaks).skip(1) {
        let expected = (depth_at(x as f64) / d0).powf(-0.25);
        let growth = f64::from(peak) / reference;
        let error = (growth - expected).abs() / expected;
        eprintln!("x = {x}: growth {growth:.4}, Green's law {expected:.4}");
        assert!(
            error < 0.05,
            "x = {x}: depth {:.3} m, growth {growth:.4} against Green's {expected:.4} ({:.2}%)",
            depth_at(x as f64),
            error * 100.0
        );
    }
}

/// A beam meeting a straight step from 2 m to 0.5 m of water (speeds halve) at 30 degrees
/// leaves it at `asin(sin 30 / 2) = 14.48` degrees: the normal of the transmitted crest (a line
/// fitted through each row's highest point past the step) is within 2 degrees of that.
#[test]
fn a_depth_step_refracts_as_snells_law() {
    let (w, h, cell) = (900usize, 900usize, 0.1f64);
    let size = GridSize::new(w, h).expect("size");
    let step_x = 300usize;
    let (d1, d2) = (2.0f32, 0.5f32);
    let metres = (0..w * h)
        .map(|i| if i % w < step_x { d1 } else { d2 })
        .collect();
    let depth = Depth::from_cells(size, metres).expect("depth");
    let theta1 = 30f64.to_radians();
    let (dir_x, dir_y) = (theta1.cos(), theta1.sin());
    let a = 0.4f64;
    let shift = a.sqrt();
    let (cx, cy, along, across) = (150.0, 250.0, 10.0, 60.0);
    let beam = |back: f64| -> Vec<f32> {
        (0..w * h)
            .map(|i| {
                let (x, y) = ((i % w) as f64 - cx, (i / w) as f64 - cy);
                let s = x * dir_x + y * dir_y + back;
                let t = -x * dir_y + y * dir_x;
                (-(s * s) / (2.0 * along * along) - (t * t) / (2.0 * across * across)).exp() as f32
            })
            .collect()
    };
    let mut water = water_over(
        &depth,
        cell,
        a,
        Boundary::Absorbing,
        &beam(0.0),
        &beam(shift),
    );
    for _ in 0..900 {
        water.step();
    }
    let z = water.field().current();
    // Each row's crest past the step (its highest cell, refined by a parabola through it and
    // its neighbours), where the crest is at least half the beam's height.
    let start = step_x + 10;
    let crest = |y: usize| {
        let row = &z[y * w..(y + 1) * w];
        let x = (start..w - 1).max_by(|&i, &j| row[i].total_cmp(&row[j]))?;
        let (l, m, r) = (
            f64::from(row[x - 1]),
            f64::from(row[x]),
            f64::from(row[x + 1]),
        );
        let curvature = l - 2.0 * m + r;
        let offset = if curvature < 0.0 {
            0.5 * (l - r) / curvature
        } else {
            0.0
        };
        Some((x as f64 + offset, m))
    };
    let crests: Vec<(f64, f64, f64)> = (0..h)
        .filter_map(|y| crest(y).map(|(x, m)| (y as f64, x, m)))
        .collect();
    let top = crests.iter().fold(0.0f64, |t, c| t.max(c.2));
    let line: Vec<(f64, f64)> = crests
        .iter()
        .filter(|c| c.2 >= 0.5 * top)
        .map(|&(y, x, _)| (y, x))
        .collect();
    assert!(line.len() >= 50, "a crest of only {} rows", line.len());
    // Least squares x = x0 + slope y; the crest runs along (slope, 1), its normal at
    // atan(-slope) from the x axis.
    let measured = (-support::fitted_slope(&line)).atan().to_degrees();
    let mx = line.iter().map(|p| p.1).sum::<f64>() / line.len() as f64;
    let snell = (theta1.sin() * f64::from(d2 / d1).sqrt())
        .asin()
        .to_degrees();
    eprintln!("transmitted at {measured:.2} degrees, Snell's law {snell:.2}");
    assert!(
        (measured - snell).abs() < 2.0,
        "transmitted at {measured:.2} degrees, Snell's law {snell:.2} ({} rows, crest at x = \
         {mx:.0})",
        line.len()
    );
}

/// Cells at or below 0 m are land: they stay dry, and the shore reflects, so the volume and the
/// discrete energy (`discrete_energy_over_depth`) of a bump beside an island stay the same (the faces to dry cells carry nothing) up to f32
/// rounding: within 1e-4 of itself over 4,000 steps (1.6e-5 seen). The mean-level keeper, which
/// holds the level of land-free grids exactly, does not run where there is land, so the
/// rounding of `2z - z_old` is left to accumulate here.
#[test]
fn dry_cells_stay_dry_and_the_shore_keeps_the_water() {
    let (w, h) = (64usize, 48usize);
    let size = GridSize::new(w, h).expect("size");
    let metres: Vec<f32> = (0..w * h)
        .map(|i| {
            let (x, y) = ((i % w) as f32, (i / w) as f32);
            let r = ((x - 40.0).powi(2) + (y - 24.0).powi(2)).sqrt();
            // An island of radius 8 cells, its beach shoaling from 1 m over 6 cells.
            ((r - 8.0) / 6.0).clamp(-1.0, 1.0)
        })
        .collect();
    let depth = Depth::from_cells(size, metres.clone()).expect("depth");
    let bump: Vec<f32> = (0..w * h)
        .map(|i| {
            let (x, y) = ((i % w) as f32 - 16.0, (i / w) as f32 - 24.0);
            0.05 * (-(x * x + y * y) / 18.0).exp()
        })
        .collect();
    let mut water = water_over(&depth, 0.1, 0.45, Boundary::Reflective, &bump, &bump);
    let start = water.volume();
    let energy = water.energy();
    for _ in 0..4_000 {
        water.step();
    }
    let z = water.field().current();
    for (i, (&d, &height)) in metres.iter().zip(z).enumerate() {
        if d <= 0.0 {
            assert_eq!(height, 0.0, "dry cell {i} holds {height}");
        }
    }
    let end = water.volume();
    assert!(z.iter().any(|&v| v.abs() > 1e-3), "the waves died out");
    assert!(
        (end - start).abs() <= 1e-4 * start.abs(),
        "volume {start} -> {end}"
    );
    // Undamped over any depth, the face-weighted discrete energy is conserved.
    let energy_end = water.energy();
    assert!(
        (energy_end - energy).abs() <= 1e-4 * energy,
        "energy {energy} -> {energy_end}"
    );
}

/// The stability check is made for the deepest (fastest) cell: a step past `h / (c_max sqrt 2)`
/// is refused with that step named.
#[test]
fn stability_is_checked_for_the_deepest_cell() {
    let size = GridSize::new(16, 16).expect("size");
    let metres = (0..256).map(|i| 0.5 + (i % 16) as f32 * 0.25).collect();
    let depth = Depth::from_cells(size, metres).expect("depth");
    let c_max = (G * 4.25f64).sqrt();
    let limit = 0.1 / (c_max * 2f64.sqrt());
    assert!(WaveParams::shallow_water(0.1, &depth, G, limit * 0.999, Damping::NONE).is_ok());
    match WaveParams::shallow_water(0.1, &depth, G, limit * 1.01, Damping::NONE) {
        Err(WaterError::Unstable { max_stable_dt, .. }) => {
            assert!(
                (max_stable_dt - limit).abs() < 1e-12,
                "{max_stable_dt} vs {limit}"
            );
        }
        other => panic!("{other:?}"),
    }
    let bad = WaveParams::shallow_water(0.1, &depth, f64::NAN, 0.001, Damping::NONE);
    assert!(bad.unwrap_err().to_string().contains("gravity"));
}

/// A map with no wet cell is refused naming its deepest cell's depth (it said 0 for a map of
/// -5 m everywhere, a value no cell held).
#[test]
fn a_map_of_land_alone_is_refused_naming_its_deepest_cell() {
    let size = GridSize::new(4, 3).expect("size");
    let mut metres = vec![-5.0f32; size.cells()];
    metres[7] = -0.5;
    let e = Depth::from_cells(size, metres).expect_err("no water");
    assert!(
        matches!(e, WaterError::NotPositive { value, .. } if value == -0.5),
        "{e}"
    );
    assert!(e.to_string().contains("at or below 0 m are land"), "{e}");
}
