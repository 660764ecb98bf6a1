//! The expected error of f16 storage against f32, from first principles (docs/math.md,
//! section 11): every stored level rounds each cell independently to nearest f16, and the
//! linear scheme carries those errors on like any other disturbance.
//!
//! The error `e = z_f16 − z_f32` obeys the scheme itself plus the rounding of each store:
//!
//! ```text
//! eⁿ⁺¹ = d (L eⁿ − eⁿ⁻¹) + rⁿ⁺¹,      L = a S + b   (S: neighbour sum with the boundary)
//! ```
//!
//! For the fixed, reflective and periodic boundaries without land, `L` has a known orthonormal
//! eigenbasis `φ_k` (sines, cosines, Fourier modes) with eigenvalues `λ_k`, so each mode's
//! error evolves on its own. A rounding error uniform in `±ulp/2` has variance `ulp²/12`, so a
//! store injects into mode `k` the variance `q_k = Σ_i φ_k(i)² ulp(z_i)²/12`. The model tracks
//! each mode's 2 x 2 covariance of (current, previous) error through the steps and stores, and
//! its trace gives the expected mean-square error over the grid.

use water_core::{Boundary, GridMode};
use water_gpu::GridSpec;
use water_gpu::{F16_MIN_NORMAL, F16_SUBNORMAL_SPACING};

/// Which time level a store rounds: the current one, or (for the fused kernel, which rounds its
/// two newest levels when it writes them) the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The newest level.
    Current,
    /// The level before it.
    Previous,
}

/// Error covariance of one mode: `(⟨c²⟩, ⟨c o⟩, ⟨o²⟩)` of its current and previous error.
type Covariance = [f64; 3];

/// Expected f16-against-f32 error of a grid's run, mode by mode.
#[derive(Debug, Clone)]
pub struct F16ErrorModel {
    width: usize,
    height: usize,
    /// `φ_p(x)²` of the x basis, `[p][x]`; empty for the periodic grid (all `1/W`).
    basis_x: Vec<Vec<f64>>,
    /// `φ_q(y)²` of the y basis, `[q][y]`; empty for the periodic grid.
    basis_y: Vec<Vec<f64>>,
    /// `λ_k`, row-major over `(q, p)`.
    lambda: Vec<f64>,
    d: f64,
    /// Per mode, with the injections the stores really make.
    actual: Vec<Covariance>,
    /// Per mode, as if every cell of every store had the largest variance of that store: an
    /// upper bound on every cell's error variance.
    worst: Vec<Covariance>,
    /// The largest `φ_k(i)²` over modes and cells, for [`F16ErrorModel::cell_variance_bound`].
    max_basis_square: f64,
}

/// The variance of rounding `v` to nearest f16, if the part lost is uniform over half an ulp
/// either way; 0 for 0, which rounds exactly.
#[must_use]
pub fn rounding_variance(v: f32) -> f64 {
    if v == 0.0 {
        return 0.0;
    }
    let magnitude = f64::from(v.abs());
    let ulp = if magnitude < f64::from(F16_MIN_NORMAL) {
        f64::from(F16_SUBNORMAL_SPACING)
    } else {
        // 10 fraction bits: the spacing in [2^e, 2^(e+1)) is 2^(e-10).
        (magnitude.log2().floor() - 10.0).exp2()
    };
    ulp * ulp / 12.0
}

impl F16ErrorModel {
    /// A model of `spec`'s grid, no error yet (the run starts from f16-exact levels).
    ///
    /// # Errors
    /// The absorbing boundary and classic mode, which the model does not cover (no symmetric
    /// eigenbasis; no f16 storage).
    pub fn new(spec: &GridSpec) -> Result<Self, String> {
        if spec.mode == GridMode::Classic {
            return Err("classic grids have no f16 storage".into());
        }
        let (w, h) = (spec.size.width(), spec.size.height());
        let coefficients = spec.coefficients();
        let (a, b, d) = (
            f64::from(coefficients.a),
            f64::from(coefficients.b),
            f64::from(coefficients.d),
        );
        // Eigenvalues of the 1-D neighbour sum and the squared basis vectors, per boundary.
        let (lambda_x, basis_x, lambda_y, basis_y, max_basis_square) = match spec.boundary {
            Boundary::Periodic => {
                let lx = (0..w).map(|p| 2.0 * (std::f64::consts::TAU * p as f64 / w as f64).cos());
                let ly = (0..h).map(|q| 2.0 * (std::f64::consts::TAU * q as f64 / h as f64).cos());
                (
                    lx.collect::<Vec<_>>(),
                    Vec::new(),
                    ly.collect::<Vec<_>>(),
                    Vec::new(),
                    1.0 / (w * h) as f64,
                )
            }
            Boundary::Reflective => {
                let (lx, bx) = cosine_basis(w);
                let (ly, by) = cosine_basis(h);
                (lx, bx, ly, by, 4.0 / (w * h) as f64)
            }
            Boundary::Fixed => {
                let (lx, bx) = sine_basis(w);
                let (ly, by) = sine_basis(h);
                (lx, bx, ly, by, 4.0 / ((w - 1) * (h - 1)) as f64)
            }
            Boundary::Absorbing => {
                return Err("the absorbing boundary has no symmetric eigenbasis".into());
            }
        };
        let lambda: Vec<f64> = lambda_y
            .iter()
            .flat_map(|&ly| lambda_x.iter().map(move |&lx| b + a * (lx + ly)))
            .collect();
        let modes = lambda.len();
        Ok(Self {
            width: w,
            height: h,
            basis_x,
            basis_y,
            lambda,
            d,
            actual: vec![[0.0; 3]; modes],
            worst: vec![[0.0; 3]; modes],
            max_basis_square,
        })
    }

    /// One step of the scheme, applied to every mode's error covariance.
    pub fn step(&mut self) {
        let d = self.d;
        for covs in [&mut self.actual, &mut self.worst] {
            for (c, &l) in covs.iter_mut().zip(&self.lambda) {
                let [cc, co, oo] = *c;
                *c = [
                    d * d * (l * l * cc - 2.0 * l * co + oo),
                    d * (l * cc - co),
                    cc,
                ];
            }
        }
    }

    /// The rounding of one stored level into `slot`: `channels` planes of cells (split grids:
    /// `p` then `n`, whose errors both enter the height `p − n`), valued as the f32 run has them.
    ///
    /// # Panics
    /// If `level` is not a whole number of planes of the grid.
    pub fn store(&mut self, level: &[f32], slot: Slot) {
        let cells = self.width * self.height;
        assert!(
            !level.is_empty() && level.len().is_multiple_of(cells),
            "a level of {} values on a grid of {cells} cells",
            level.len()
        );
        // Both channels' errors add into the height's (they are independent roundings).
        let mut variance = vec![0.0f64; cells];
        for plane in level.chunks_exact(cells) {
            for (v, &z) in variance.iter_mut().zip(plane) {
                *v += rounding_variance(z);
            }
        }
        let largest = variance.iter().fold(0.0f64, |m, &v| m.max(v));
        let injected = self.project(&variance);
        let index = match slot {
            Slot::Current => 0,
            Slot::Previous => 2,
        };
        for ((actual, worst), q) in self.actual.iter_mut().zip(&mut self.worst).zip(injected) {
            actual[index] += q;
            worst[index] += largest;
        }
    }

    /// `q_k = Σ_i φ_k(i)² v_i` for every mode.
    fn project(&self, variance: &[f64]) -> Vec<f64> {
        let (w, h) = (self.width, self.height);
        if self.basis_x.is_empty() {
            // Fourier modes: |φ_k(i)|² = 1/N for every cell and mode.
            let mean = variance.iter().sum::<f64>() / (w * h) as f64;
            return vec![mean; self.lambda.len()];
        }
        // Separable: first along x for every row, then along y.
        let along_x: Vec<Vec<f64>> = (0..h)
            .map(|y| {
                let row = &variance[y * w..(y + 1) * w];
                self.basis_x
                    .iter()
                    .map(|bx| bx.iter().zip(row).map(|(b, v)| b * v).sum())
                    .collect()
            })
            .collect();
        let along_x = &along_x;
        self.basis_y
            .iter()
            .flat_map(|by| {
                (0..self.basis_x.len()).map(move |p| {
                    by.iter()
                        .zip(along_x)
                        .map(|(b, row)| b * row[p])
                        .sum::<f64>()
                })
            })
            .collect()
    }

    /// Expected mean over all cells of the squared height error.
    #[must_use]
    pub fn mean_square(&self) -> f64 {
        self.actual.iter().map(|c| c[0]).sum::<f64>() / (self.width * self.height) as f64
    }

    /// Standard deviation of a measured mean-square error around [`F16ErrorModel::mean_square`]
    /// if the modes' errors were independent Gaussians (each a sum of many roundings). The
    /// modes share the cells' variances, so the true spread can be somewhat larger.
    #[must_use]
    pub fn mean_square_spread(&self) -> f64 {
        let sum_sq: f64 = self.actual.iter().map(|c| c[0] * c[0]).sum();
        (2.0 * sum_sq).sqrt() / (self.width * self.height) as f64
    }

    /// An upper bound on any one cell's error variance: every store's injection replaced by its
    /// largest cell variance (which dominates the true injection), and every basis vector's
    /// square by its largest value (`1/(WH)` for Fourier modes, `4/(WH)` for cosines,
    /// `4/((W−1)(H−1))` for sines).
    #[must_use]
    pub fn cell_variance_bound(&self) -> f64 {
        self.max_basis_square * self.worst.iter().map(|c| c[0]).sum::<f64>()
    }
}

/// Eigenvalues of the clamped (reflective) 1-D neighbour sum over `n` cells, `2 cos(πp/n)`, and
/// the squares of its orthonormal eigenvectors `cos(πp(x + 1/2)/n)` (DCT-II), `[p][x]`.
fn cosine_basis(n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    let nf = n as f64;
    let lambda = (0..n)
        .map(|p| 2.0 * (std::f64::consts::PI * p as f64 / nf).cos())
        .collect();
    let basis = (0..n)
        .map(|p| {
            let weight = if p == 0 { 1.0 / nf } else { 2.0 / nf };
            (0..n)
                .map(|x| {
                    let c = (std::f64::consts::PI * p as f64 * (x as f64 + 0.5) / nf).cos();
                    weight * c * c
                })
                .collect()
        })
        .collect();
    (lambda, basis)
}

/// Eigenvalues of the 1-D neighbour sum over the `n − 2` interior cells of a fixed grid (edge
/// cells held at 0), `2 cos(πp/(n−1))`, and the squares of its orthonormal eigenvectors
/// `sin(πpx/(n−1))`, `[p][x]` over all `n` cells (0 on the edges).
fn sine_basis(n: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = (n - 1) as f64;
    let lambda = (1..n - 1)
        .map(|p| 2.0 * (std::f64::consts::PI * p as f64 / m).cos())
        .collect();
    let basis = (1..n - 1)
        .map(|p| {
            (0..n)
                .map(|x| {
                    let s = (std::f64::consts::PI * p as f64 * x as f64 / m).sin();
                    2.0 / m * s * s
                })
                .collect()
        })
        .collect();
    (lambda, basis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use water_core::{Damping, GridSize, WaveParams};

    fn spec(boundary: Boundary, w: usize, h: usize) -> GridSpec {
        let params = WaveParams::new(0.1, 2.0, 0.03, Damping::PerStep(0.99)).expect("params");
        GridSpec::new(
            GridSize::new(w, h).expect("size"),
            params,
            boundary,
            GridMode::Signed,
        )
    }

    #[test]
    fn the_bases_are_orthonormal() {
        for (lambda, basis) in [cosine_basis(7), sine_basis(9)] {
            assert_eq!(lambda.len(), basis.len());
            for squares in &basis {
                let norm: f64 = squares.iter().sum();
                assert!((norm - 1.0).abs() < 1e-12, "{norm}");
            }
        }
    }

    #[test]
    fn one_store_of_uniform_variance_is_the_mean_square() {
        // A single store with the same variance everywhere (interior only on a fixed grid)
        // gives exactly that mean square, whatever the basis.
        for boundary in [Boundary::Periodic, Boundary::Reflective, Boundary::Fixed] {
            let (w, h) = (11, 6);
            let mut model = F16ErrorModel::new(&spec(boundary, w, h)).expect("model");
            let mut level = vec![1.0f32; w * h];
            if boundary == Boundary::Fixed {
                for (i, v) in level.iter_mut().enumerate() {
                    let (x, y) = (i % w, i / w);
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        *v = 0.0;
                    }
                }
            }
            model.store(&level, Slot::Current);
            let nonzero = level.iter().filter(|&&v| v != 0.0).count() as f64;
            let expected = rounding_variance(1.0) * nonzero / (w * h) as f64;
            assert!(
                (model.mean_square() - expected).abs() < 1e-12 * expected,
                "{boundary}: {} against {expected}",
                model.mean_square()
            );
        }
    }

    #[test]
    fn an_undamped_uniform_error_grows_as_the_still_water_mode_predicts() {
        // On a periodic grid the uniform mode has λ = 2: an error injected into the current level
        // only is a "velocity" that adds itself every step (section 2's double root g = 1).
        let params = WaveParams::new(0.1, 2.0, 0.03, Damping::NONE).expect("params");
        let spec = GridSpec::new(
            GridSize::new(4, 4).expect("size"),
            params,
            Boundary::Periodic,
            GridMode::Signed,
        );
        let mut model = F16ErrorModel::new(&spec).expect("model");
        model.store(&[1.0; 16], Slot::Current);
        let q = rounding_variance(1.0);
        for _ in 0..5 {
            model.step();
        }
        // Mode 0 (uniform): amplitude 6 after 5 steps, so variance 36 q; other modes oscillate.
        let uniform = model.actual[0][0];
        assert!((uniform - 36.0 * q).abs() < 1e-9 * q, "{uniform}");
    }

    #[test]
    fn the_modes_carry_errors_as_the_cpu_stepper_does() {
        // Brute force: the response of the CPU reference to a unit error in one cell, for every
        // cell, weighted by that cell's variance, against the model's mode sums; for an error in
        // the current level and in the previous one, with damping, on every boundary it covers.
        use water_core::{GridWater, SignedGrid};
        let (w, h, steps) = (7, 5, 6);
        for boundary in [Boundary::Periodic, Boundary::Reflective, Boundary::Fixed] {
            let spec = spec(boundary, w, h);
            // Cell values whose rounding variances differ from cell to cell (0 on a fixed rim).
            let level: Vec<f32> = (0..w * h)
                .map(|i| {
                    let (x, y) = (i % w, i / w);
                    let rim = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                    if boundary == Boundary::Fixed && rim {
                        0.0
                    } else {
                        0.3 + i as f32 * 0.7
                    }
                })
                .collect();
            for slot in [Slot::Current, Slot::Previous] {
                let mut model = F16ErrorModel::new(&spec).expect("model");
                model.store(&level, slot);
                for _ in 0..steps {
                    model.step();
                }
                let mut expected = 0.0;
                for (i, &z) in level.iter().enumerate() {
                    let mut grid = SignedGrid::new(spec.size, spec.params, boundary);
                    let (cur, old) = grid.field_mut().levels_mut();
                    match slot {
                        Slot::Current => cur[i] = 1.0,
                        Slot::Previous => old[i] = 1.0,
                    }
                    grid.step_many(steps);
                    let energy: f64 = grid.heights().iter().map(|&v| f64::from(v).powi(2)).sum();
                    expected += rounding_variance(z) * energy;
                }
                expected /= (w * h) as f64;
                let got = model.mean_square();
                assert!(
                    (got - expected).abs() <= 1e-5 * expected,
                    "{boundary} {slot:?}: model {got:e}, stepper {expected:e}"
                );
                // The per-cell bound holds for the worst cell here too.
                assert!(model.cell_variance_bound() * (w * h) as f64 >= expected);
            }
        }
    }

    #[test]
    fn rounding_variance_follows_the_binade() {
        let one = rounding_variance(1.0);
        assert!((one - (2.0f64.powi(-10)).powi(2) / 12.0).abs() < 1e-24);
        assert_eq!(rounding_variance(1.5), one);
        assert_eq!(rounding_variance(-2.0), 4.0 * one);
        assert_eq!(rounding_variance(0.0), 0.0);
        let tiny = f64::from(F16_SUBNORMAL_SPACING).powi(2) / 12.0;
        assert_eq!(rounding_variance(1e-6), tiny);
    }
}
