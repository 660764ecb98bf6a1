//! Physics: a pulse on the grid travels at the wave speed `c`.

mod support;

use support::{set_at_rest, signed};
use water_core::{Boundary, GridWater};

/// Position (cells) of the leading edge of the right-moving half of a plane pulse: where, coming
/// from the right, |z| first reaches half of the half-pulse's peak (linearly interpolated
/// between cells). Numerical dispersion leaves a trailing ripple behind the pulse; the leading
/// half-maximum point is what an observer sees arrive.
fn right_front(heights: &[f32], width: usize, row: usize, from: usize) -> f64 {
    let line: Vec<f64> = heights[row * width..(row + 1) * width]
        .iter()
        .map(|&z| f64::from(z.abs()))
        .collect();
    let peak = line[from..].iter().copied().fold(0.0, f64::max);
    let half = 0.5 * peak;
    let x = (from..width - 1)
        .rev()
        .find(|&x| line[x] >= half)
        .expect("the pulse is on the grid");
    // line[x] >= half > line[x + 1]
    x as f64 + (line[x] - half) / (line[x] - line[x + 1])
}

/// A plane cosine pulse spanning `span` cells (x only) in a reflective channel: it splits in two
/// halves that move at +-c. Returns the measured speed / c.
fn measured_speed_ratio(a: f64, span: f64) -> f64 {
    // Long enough that neither half reaches an edge, or crosses x0, while measured.
    let (w, h) = (1400, 4);
    let x0 = 700.0;
    let mut grid = signed(w, h, a, Boundary::Reflective);
    set_at_rest(&mut grid, |x, _| support::bump(x0, 0.0, span / 2.0)(x, 0.0));
    let dt_cells = a.sqrt(); // c*dt/h: cells travelled per step at the exact speed
    let start_steps = (100.0 / dt_cells).round() as usize; // let the halves separate first
    for _ in 0..start_steps {
        grid.step();
    }
    let p0 = right_front(grid.current(), w, 1, x0 as usize);
    let more = (500.0 / dt_cells).round() as usize;
    for _ in 0..more {
        grid.step();
    }
    let p1 = right_front(grid.current(), w, 1, x0 as usize);
    (p1 - p0) / (more as f64 * dt_cells)
}

#[test]
fn pulses_spanning_ten_or_more_cells_move_within_two_percent_of_c() {
    for span in [10.0, 20.0, 40.0] {
        for a in [0.125, 0.25, 0.5] {
            let ratio = measured_speed_ratio(a, span);
            assert!(
                (ratio - 1.0).abs() < 0.02,
                "a = {a}, span {span} cells: measured speed {ratio:.4} c"
            );
        }
    }
}

#[test]
fn circular_front_reaches_the_predicted_radius() {
    // 2-D check: a point-like bump's ring reaches radius c*t along the axis and the diagonal.
    let (n, a) = (301, 0.25);
    let mut grid = signed(n, n, a, Boundary::Absorbing);
    let c0 = 150.0;
    set_at_rest(&mut grid, support::bump(c0, c0, 6.0));
    let steps = 200; // t*c = steps * sqrt(a) = 100 cells
    for _ in 0..steps {
        grid.step();
    }
    let z = grid.current();
    // Leading edge: the outermost cell where |z| exceeds 1% of the ring's peak along a ray.
    let leading = |dx: f64, dy: f64| {
        let samples: Vec<(f64, f64)> = (0..140)
            .map(|r| {
                let r = r as f64;
                let (x, y) = (c0 + r * dx, c0 + r * dy);
                let i = (y.round() as usize) * n + x.round() as usize;
                (r, f64::from(z[i].abs()))
            })
            .collect();
        let peak = samples.iter().map(|s| s.1).fold(0.0, f64::max);
        samples
            .iter()
            .filter(|s| s.1 > 0.01 * peak)
            .map(|s| s.0)
            .fold(0.0, f64::max)
    };
    let expected = steps as f64 * a.sqrt() + 6.0; // front of a bump of radius 6
    let s = std::f64::consts::FRAC_1_SQRT_2;
    for (name, r) in [("axis", leading(1.0, 0.0)), ("diagonal", leading(s, s))] {
        assert!(
            (r - expected).abs() <= 3.0,
            "{name}: front at {r} cells, expected about {expected}"
        );
    }
}
