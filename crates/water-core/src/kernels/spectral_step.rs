//! `spectral_step`: one step of linear water waves that is exact for every Fourier mode of a
//! periodic grid, whatever its dispersion relation (`docs/math.md`, section 13). GPU twin:
//! `shaders/spectral_step.wgsl` (complex radix-2 FFTs in workgroup memory, power-of-two sides;
//! `crates/water-gpu/src/compute_grid/spectral.rs` records it).
//!
//! Each mode `Z_k` of a linear, undamped wave equation oscillates as `cos(omega_k t)`, so its
//! samples obey `Z^(n+1) = 2 cos(omega_k dt) Z^n - Z^(n-1)` exactly. In real space:
//!
//! ```text
//! z_new = d * (2 IFFT(cos(omega_k dt) FFT(z)) - z_old)
//!       = d * (2 (z + IFFT((cos(omega_k dt) - 1) FFT(z))) - z_old)
//! ```
//!
//! in the second form: the transforms carry the step's change, not the heights, so their
//! rounding is relative to the change. Slow modes (`omega dt` small: shallow water, long
//! waves) change little a step and sit near the recurrence's double root, which amplifies a
//! step's rounding by about `1 / (omega dt)`; in the first form that rounding is relative to
//! the heights and grows past the CPU/GPU tolerance over a few hundred steps.
//!
//! one forward and one inverse 2-D real FFT a step (rows real-to-complex, columns complex, both
//! split over threads). Two-buffer scheme as [`super::grid_step`]: `out` holds `z^(n-1)` on entry
//! and `z^(n+1)` on exit.

use std::f64::consts::{PI, TAU};
use std::sync::Arc;

use rayon::prelude::*;
use realfft::num_complex::Complex;
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftPlanner};

use super::Parallelism;
use crate::airy::AiryDispersion;
use crate::size::GridSize;

/// The plans, the per-mode factors and the spectra of a [`spectral_step`] on one grid.
pub struct SpectralStep {
    size: GridSize,
    rows_forward: Arc<dyn RealToComplex<f32>>,
    rows_inverse: Arc<dyn ComplexToReal<f32>>,
    columns_forward: Arc<dyn Fft<f32>>,
    columns_inverse: Arc<dyn Fft<f32>>,
    /// `(cos(omega_k dt) - 1) / (W H)` per mode ([`mode_factor`]), column-major: `[x * H + y]`
    /// for the spectrum's column `x` (`0..=W/2`) and row `y`.
    factors: Vec<f32>,
    /// The row transforms, `H` rows of `W/2 + 1` values.
    rows: Vec<Complex<f32>>,
    /// The same, transposed: `W/2 + 1` columns of `H` values.
    columns: Vec<Complex<f32>>,
    omega_max: f64,
}

impl std::fmt::Debug for SpectralStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpectralStep")
            .field("size", &self.size)
            .field("omega_max", &self.omega_max)
            .finish_non_exhaustive()
    }
}

impl Clone for SpectralStep {
    fn clone(&self) -> Self {
        Self {
            size: self.size,
            rows_forward: Arc::clone(&self.rows_forward),
            rows_inverse: Arc::clone(&self.rows_inverse),
            columns_forward: Arc::clone(&self.columns_forward),
            columns_inverse: Arc::clone(&self.columns_inverse),
            factors: self.factors.clone(),
            rows: self.rows.clone(),
            columns: self.columns.clone(),
            omega_max: self.omega_max,
        }
    }
}

/// The wavenumber (rad/m) of spectral cell `(x, y)` (`x` in `0..=W/2`, `y` in `0..H`, the
/// upper half of `y` standing for negative frequencies) of a `W x H` grid of `h` m cells.
#[must_use]
pub fn mode_wavenumber(size: GridSize, cell_size: f64, x: usize, y: usize) -> f64 {
    let (w, h) = (size.width() as f64, size.height() as f64);
    let fy = if y <= size.height() / 2 {
        y as f64
    } else {
        y as f64 - h
    };
    let kx = TAU * x as f64 / (w * cell_size);
    let ky = TAU * fy / (h * cell_size);
    kx.hypot(ky)
}

/// The factor [`spectral_step`] multiplies spectral cell `(x, y)` by:
/// `(cos(omega(k) dt) - 1) / (W H) = -2 sin^2(omega dt / 2) / (W H)` (the change a step makes,
/// the inverse transform's normalisation folded in), for `x` in `0..W` (columns past `W/2`
/// stand for negative frequencies, mirror images of `W - x`) and `y` in `0..H`. The CPU uses
/// the columns `0..=W/2` of its real transforms, the GPU's complex transforms all `W`.
#[must_use]
pub fn mode_factor(
    size: GridSize,
    cell_size: f64,
    dt: f64,
    airy: &AiryDispersion,
    x: usize,
    y: usize,
) -> f32 {
    let x = x.min(size.width() - x);
    let k = mode_wavenumber(size, cell_size, x, y);
    let norm = 1.0 / size.cells() as f64;
    let half = (0.5 * airy.omega(k) * dt).sin();
    (-2.0 * half * half * norm) as f32
}

/// The largest wavenumber a grid of `h` m cells resolves, rad/m: the diagonal Nyquist mode,
/// `pi sqrt 2 / h`.
#[must_use]
pub fn largest_wavenumber(cell_size: f64) -> f64 {
    PI * std::f64::consts::SQRT_2 / cell_size
}

impl SpectralStep {
    /// Bytes of a `size` grid's tables: per spectrum value (`(W/2 + 1) H` of them) one f32
    /// factor and two complex f32 work arrays. The FFT plans' twiddles (`O(W + H)`) are not
    /// counted.
    #[must_use]
    pub fn table_bytes(size: GridSize) -> u64 {
        let values = (size.width() / 2 + 1) as u64 * size.height() as u64;
        values * (4 + 2 * 8)
    }

    /// Plans and factors for a `size` grid of `cell_size` m cells stepped by `dt` s under
    /// `airy`.
    #[must_use]
    pub fn new(size: GridSize, cell_size: f64, dt: f64, airy: &AiryDispersion) -> Self {
        let (w, h) = (size.width(), size.height());
        let wc = w / 2 + 1;
        let mut real = RealFftPlanner::<f32>::new();
        let mut complex = FftPlanner::<f32>::new();
        let mut factors = Vec::with_capacity(wc * h);
        for x in 0..wc {
            for y in 0..h {
                factors.push(mode_factor(size, cell_size, dt, airy, x, y));
            }
        }
        Self {
            size,
            rows_forward: real.plan_fft_forward(w),
            rows_inverse: real.plan_fft_inverse(w),
            columns_forward: complex.plan_fft_forward(h),
            columns_inverse: complex.plan_fft_inverse(h),
            factors,
            rows: vec![Complex::default(); wc * h],
            columns: vec![Complex::default(); wc * h],
            omega_max: airy.omega(largest_wavenumber(cell_size)),
        }
    }

    /// The grid size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The fastest angular frequency the grid resolves, rad/s (its diagonal Nyquist mode's).
    #[must_use]
    pub fn omega_max(&self) -> f64 {
        self.omega_max
    }

    /// The conserved energy of levels `cur` and `old` (m^2, summed over cells as
    /// [`crate::diagnostics::discrete_energy`]): each mode's
    /// `1/2 |Z - Z_old|^2 + (1 - cos(omega dt)) Re(Z conj Z_old)`, which the exact recurrence
    /// keeps, summed by Parseval's theorem (`docs/math.md`, section 13).
    ///
    /// # Panics
    /// If `cur` or `old` does not hold one value per cell.
    #[must_use]
    pub fn energy(&self, cur: &[f32], old: &[f32]) -> f64 {
        let (w, h) = (self.size.width(), self.size.height());
        let wc = w / 2 + 1;
        let (zc, zo) = (self.spectrum(cur), self.spectrum(old));
        let cells = (w * h) as f64;
        let mut total = 0.0;
        for x in 0..wc {
            // The half spectrum of a real field stands for its mirror image too, but for the
            // columns that are their own mirror (0, and W/2 for even W).
            let weight = if x == 0 || (w.is_multiple_of(2) && x == wc - 1) {
                1.0
            } else {
                2.0
            };
            for y in 0..h {
                let i = x * h + y;
                // The factor is `(cos - 1) / cells`.
                let one_minus_cos = -f64::from(self.factors[i]) * cells;
                let (a, b) = (zc[i], zo[i]);
                let (ar, ai, br, bi) = (
                    f64::from(a.re),
                    f64::from(a.im),
                    f64::from(b.re),
                    f64::from(b.im),
                );
                let kinetic = 0.5 * ((ar - br).powi(2) + (ai - bi).powi(2));
                let potential = one_minus_cos * (ar * br + ai * bi);
                total += weight * (kinetic + potential);
            }
        }
        total / cells
    }

    /// The 2-D FFT of `z`, column-major as `factors` (serial: for diagnostics).
    fn spectrum(&self, z: &[f32]) -> Vec<Complex<f32>> {
        assert_eq!(z.len(), self.size.cells(), "one value per cell");
        let mut spectrum = vec![Complex::default(); self.rows.len()];
        self.clone().forward(z, &mut spectrum, false);
        spectrum
    }

    /// Each row's real-to-complex transform into `rows`.
    fn transform_rows(&mut self, z: &[f32], parallel: bool) {
        let w = self.size.width();
        let forward = &self.rows_forward;
        for_each_chunk(
            parallel,
            &mut self.rows,
            w / 2 + 1,
            || (vec![0.0f32; w], forward.make_scratch_vec()),
            |(input, scratch), y, row| {
                input.copy_from_slice(&z[y * w..(y + 1) * w]);
                forward
                    .process_with_scratch(input, row, scratch)
                    .expect("lengths from the plan");
            },
        );
    }

    /// The unnormalised 2-D FFT of `z` into `spectrum`, column-major as the factors
    /// (`W/2 + 1` columns of `H` values).
    pub(crate) fn forward(&mut self, z: &[f32], spectrum: &mut [Complex<f32>], parallel: bool) {
        let (w, h) = (self.size.width(), self.size.height());
        let wc = w / 2 + 1;
        self.transform_rows(z, parallel);
        transpose(&self.rows, spectrum, h, wc, parallel);
        transform_columns(&self.columns_forward, spectrum, h, parallel);
    }

    /// The unnormalised inverse of [`SpectralStep::forward`] into `out` (one value per cell);
    /// `spectrum` is used as scratch.
    pub(crate) fn inverse(
        &mut self,
        spectrum: &mut [Complex<f32>],
        out: &mut [f32],
        parallel: bool,
    ) {
        let (w, h) = (self.size.width(), self.size.height());
        let wc = w / 2 + 1;
        transform_columns(&self.columns_inverse, spectrum, h, parallel);
        transpose(spectrum, &mut self.rows, wc, h, parallel);
        let inverse = &self.rows_inverse;
        let row_inverse = |scratch: &mut Vec<Complex<f32>>, (spectrum, out_row): RowPair<'_>| {
            inverse_row(inverse.as_ref(), spectrum, out_row, scratch);
        };
        if parallel {
            self.rows
                .par_chunks_mut(wc)
                .zip(out.par_chunks_mut(w))
                .for_each_init(|| inverse.make_scratch_vec(), row_inverse);
        } else {
            let mut scratch = inverse.make_scratch_vec();
            for pair in self.rows.chunks_mut(wc).zip(out.chunks_mut(w)) {
                row_inverse(&mut scratch, pair);
            }
        }
    }

    /// `FFT(z)` into the row spectra, each mode times its factor, and the column transforms
    /// back, so `rows` holds the row spectra of the step's change.
    fn filtered_rows(&mut self, z: &[f32], parallel: bool) {
        let (w, h) = (self.size.width(), self.size.height());
        let wc = w / 2 + 1;
        self.transform_rows(z, parallel);
        transpose(&self.rows, &mut self.columns, h, wc, parallel);
        let (fwd, inv) = (&self.columns_forward, &self.columns_inverse);
        let factors = &self.factors;
        let scratch_len = fwd
            .get_inplace_scratch_len()
            .max(inv.get_inplace_scratch_len());
        for_each_chunk(
            parallel,
            &mut self.columns,
            h,
            || vec![Complex::default(); scratch_len],
            |scratch, x, values| {
                fwd.process_with_scratch(values, scratch);
                for (v, &f) in values.iter_mut().zip(&factors[x * h..(x + 1) * h]) {
                    *v *= f;
                }
                inv.process_with_scratch(values, scratch);
            },
        );
        transpose(&self.columns, &mut self.rows, wc, h, parallel);
    }
}

/// Calls `f(state, index, chunk)` on each `len`-long chunk of `data`, on the rayon pool when
/// `parallel` (each worker with a `state` from `init`: its scratch buffers).
fn for_each_chunk<T: Send, S>(
    parallel: bool,
    data: &mut [T],
    len: usize,
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, usize, &mut [T]) + Sync + Send,
) {
    if parallel {
        data.par_chunks_mut(len)
            .enumerate()
            .for_each_init(&init, |state, (i, chunk)| f(state, i, chunk));
    } else {
        let mut state = init();
        for (i, chunk) in data.chunks_mut(len).enumerate() {
            f(&mut state, i, chunk);
        }
    }
}

/// `plan` over each `h`-long column of the column-major `spectrum`, in place.
fn transform_columns(
    plan: &Arc<dyn Fft<f32>>,
    spectrum: &mut [Complex<f32>],
    h: usize,
    parallel: bool,
) {
    let scratch_len = plan.get_inplace_scratch_len();
    for_each_chunk(
        parallel,
        spectrum,
        h,
        || vec![Complex::default(); scratch_len],
        |scratch, _, column| plan.process_with_scratch(column, scratch),
    );
}

/// How many columns of `from` one pass of [`transpose`] moves: 8 complex values, 64 bytes of
/// each row (one or two cache lines) read together. Column by column, every value read was a
/// line of its own, and where a row is a power of two long the rows' lines fall in one cache
/// set and evict each other.
const TRANSPOSE_BLOCK: usize = 8;

/// `to[c * rows + r] = from[r * cols + c]` for a `rows x cols` row-major `from`, a block of
/// [`TRANSPOSE_BLOCK`] columns at a time.
fn transpose(
    from: &[Complex<f32>],
    to: &mut [Complex<f32>],
    rows: usize,
    cols: usize,
    parallel: bool,
) {
    for_each_chunk(
        parallel,
        to,
        rows * TRANSPOSE_BLOCK,
        || (),
        |(), b, block| {
            let first = b * TRANSPOSE_BLOCK;
            let width = block.len() / rows;
            for r in 0..rows {
                let line = &from[r * cols + first..r * cols + first + width];
                for (c, &v) in line.iter().enumerate() {
                    block[c * rows + r] = v;
                }
            }
        },
    );
}

/// The real row whose half spectrum is `spectrum` (used as scratch) into `out_row`, unnormalised.
fn inverse_row(
    inverse: &dyn ComplexToReal<f32>,
    spectrum: &mut [Complex<f32>],
    out_row: &mut [f32],
    scratch: &mut [Complex<f32>],
) {
    // A real row's transform has real DC and (even widths) Nyquist terms; rounding leaves a
    // trace of imaginary part there, which the inverse would refuse.
    spectrum[0].im = 0.0;
    if out_row.len().is_multiple_of(2) {
        spectrum[spectrum.len() - 1].im = 0.0;
    }
    inverse
        .process_with_scratch(spectrum, out_row, scratch)
        .expect("lengths from the plan, real end terms");
}

/// A row's spectrum and the row of the new level it becomes.
type RowPair<'a> = (&'a mut [Complex<f32>], &'a mut [f32]);

/// Advances `cur` by one step into `out` (`z_old` on entry, `z_new` on exit) with `step`'s
/// plans and factors: see the module docs. `damping` is the per-step factor `d`.
///
/// # Panics
/// If `cur` or `out` does not hold one value per cell of `step`'s grid.
pub fn spectral_step(
    step: &mut SpectralStep,
    (cur, out): (&[f32], &mut [f32]),
    damping: f32,
    parallelism: Parallelism,
) {
    let size = step.size;
    assert_eq!(
        (cur.len(), out.len()),
        (size.cells(), size.cells()),
        "level sizes"
    );
    let w = size.width();
    let wc = w / 2 + 1;
    let parallel = parallelism.threads(size.cells()) > 1;
    step.filtered_rows(cur, parallel);
    let inverse = &step.rows_inverse;
    let rows = &mut step.rows;
    let row_inverse =
        |(change, scratch): &mut (Vec<f32>, Vec<Complex<f32>>),
         ((spectrum, out_row), cur_row): (RowPair<'_>, &[f32])| {
            inverse_row(inverse.as_ref(), spectrum, change, scratch);
            for ((z_out, &g), &z) in out_row.iter_mut().zip(change.iter()).zip(cur_row) {
                let f = z + g;
                *z_out = damping * ((f + f) - *z_out);
            }
        };
    let init = || (vec![0.0f32; w], inverse.make_scratch_vec());
    if parallel {
        rows.par_chunks_mut(wc)
            .zip(out.par_chunks_mut(w))
            .zip(cur.par_chunks(w))
            .for_each_init(init, row_inverse);
    } else {
        let mut state = init();
        for pair in rows
            .chunks_mut(wc)
            .zip(out.chunks_mut(w))
            .zip(cur.chunks(w))
        {
            row_inverse(&mut state, pair);
        }
    }
}

#[cfg(test)]
mod tests {
    use realfft::num_complex::Complex;

    use super::transpose;

    #[test]
    fn the_blocked_transpose_moves_every_value_to_its_mirror_place() {
        // Shapes whose column counts leave a short last block (129 = 16 x 8 + 1, and 13, 5),
        // both directions of the step's two passes, on one thread and on the pool: each value
        // lands where the element-by-element definition puts it, and a round trip is the
        // identity.
        for (rows, cols) in [(5, 13), (13, 5), (256, 129), (129, 257), (8, 8), (1, 3)] {
            let from: Vec<Complex<f32>> = (0..rows * cols)
                .map(|i| Complex::new(i as f32, -(i as f32) * 0.5))
                .collect();
            for parallel in [false, true] {
                let mut to = vec![Complex::default(); rows * cols];
                transpose(&from, &mut to, rows, cols, parallel);
                for r in 0..rows {
                    for c in 0..cols {
                        assert_eq!(to[c * rows + r], from[r * cols + c], "{rows} x {cols}");
                    }
                }
                let mut back = vec![Complex::default(); rows * cols];
                transpose(&to, &mut back, cols, rows, parallel);
                assert_eq!(back, from, "{rows} x {cols} and back");
            }
        }
    }
}
