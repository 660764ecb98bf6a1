//! Helpers shared by the integration tests.
#![allow(dead_code, reason = "each test file uses a different subset")]

use water_core::{Boundary, Damping, GridSize, SignedGrid, WaveParams};

/// Parameters with `h = 1`, `c = 1` and the step that gives Courant number `a`.
pub fn params_for(a: f64, damping: Damping) -> WaveParams {
    WaveParams::new(1.0, 1.0, a.sqrt(), damping).expect("valid parameters")
}

/// A signed grid of `w x h` cells.
pub fn signed(w: usize, h: usize, a: f64, boundary: Boundary) -> SignedGrid {
    SignedGrid::new(
        GridSize::new(w, h).expect("valid size"),
        params_for(a, Damping::NONE),
        boundary,
    )
}

/// Sets both time levels to `f(x, y)`: the water starts at rest in that shape.
pub fn set_at_rest(grid: &mut SignedGrid, f: impl Fn(f64, f64) -> f64) {
    let w = grid.field().current().len() / grid_height(grid);
    let (cur, old) = grid.field_mut().levels_mut();
    for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
        let v = f((i % w) as f64, (i / w) as f64) as f32;
        *c = v;
        *o = v;
    }
}

fn grid_height(grid: &SignedGrid) -> usize {
    use water_core::GridWater;
    grid.size().height()
}

/// Cosine bump of radius `r` centred at `(cx, cy)`, peak 1.
pub fn bump(cx: f64, cy: f64, r: f64) -> impl Fn(f64, f64) -> f64 {
    move |x, y| {
        let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        if d < r {
            0.5 + 0.5 * (std::f64::consts::PI * d / r).cos()
        } else {
            0.0
        }
    }
}

/// Bits of a float buffer, for exact comparisons with readable failures.
pub fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The least-squares slope of `y` against `x` through `points` `(x, y)`.
pub fn fitted_slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x / n, b + y / n));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), &(x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    sxy / sxx
}

/// The angular frequency (rad/s) of cell 0 of `water` over `steps` steps of `dt` s, from its
/// zero crossings (interpolated within the step; consecutive ones are half a period apart).
///
/// # Panics
/// With fewer than `min_crossings` crossings.
pub fn crossing_omega(
    water: &mut dyn water_core::GridWater,
    dt: f64,
    steps: u32,
    min_crossings: usize,
) -> f64 {
    let mut crossings = Vec::new();
    let mut before = water.heights()[0];
    for n in 1..=steps {
        water.step();
        let now = water.heights()[0];
        if before.signum() != now.signum() {
            crossings.push((f64::from(n - 1) + f64::from(before / (before - now))) * dt);
        }
        before = now;
    }
    assert!(
        crossings.len() >= min_crossings,
        "only {} zero crossings",
        crossings.len()
    );
    std::f64::consts::PI * (crossings.len() - 1) as f64
        / (crossings[crossings.len() - 1] - crossings[0])
}

/// A packet travelling in +x on dispersive water, uniform across y: `z = A(x) cos(k x h - omega
/// t)` with a Gaussian envelope `A` of `sigma` cells around cell `centre`, set at `t = 0` (the
/// current level) and `t = -dt` (the previous), on a grid of cells `cell` metres wide.
pub fn set_travelling_packet(
    water: &mut water_core::DispersiveGrid,
    (k, omega): (f64, f64),
    (centre, sigma): (f64, f64),
    cell: f64,
    dt: f64,
) {
    use water_core::GridWater;
    let size = water.size();
    let (w, h) = (size.width(), size.height());
    let at = |t: f64| -> Vec<f32> {
        (0..w * h)
            .map(|i| {
                let x = (i % w) as f64;
                let envelope = (-(x - centre).powi(2) / (2.0 * sigma * sigma)).exp();
                (envelope * (k * x * cell - omega * t).cos()) as f32
            })
            .collect()
    };
    let (cur, old) = water.field_mut().levels_mut();
    cur.copy_from_slice(&at(0.0));
    old.copy_from_slice(&at(-dt));
}
