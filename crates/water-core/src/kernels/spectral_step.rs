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
//! One forward and one inverse 2-D real FFT a step (rows real-to-complex, columns complex, both
//! split over threads), in three passes: the rows' transforms, written a block of 8 rows at a
//! time; each column gathered from the blocks, transformed, multiplied and transformed back;
//! and each block of rows gathered from the columns, transformed back and updated. The
//! transposes between rows and columns happen inside those passes, on data in cache, not as
//! passes of their own. Two-buffer scheme as [`super::grid_step`]: `out` holds `z^(n-1)` on
//! entry and `z^(n+1)` on exit.

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
    /// The spectrum column-major as `factors`: `W/2 + 1` columns of `H` values.
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
    /// factor and one complex f32 work array. The FFT plans' twiddles (`O(W + H)`) are not
    /// counted.
    #[must_use]
    pub fn table_bytes(size: GridSize) -> u64 {
        let values = (size.width() / 2 + 1) as u64 * size.height() as u64;
        values * (4 + 8)
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
        let mut spectrum = vec![Complex::default(); self.columns.len()];
        self.forward(z, &mut spectrum, false);
        spectrum
    }

    /// Each row's real-to-complex transform into the column-major `columns` (`W/2 + 1`
    /// columns of `H` values), a block of [`ROW_BLOCK`] rows at a time: a block's rows are
    /// transformed into the task's own buffer and written a column's run at a time, each run
    /// 64 bytes, so the turn from rows to columns happens in cache, not in a pass of its own.
    #[allow(
        unsafe_code,
        reason = "the row pass's tasks write disjoint runs of every column"
    )]
    fn transform_rows(&self, z: &[f32], columns: &mut [Complex<f32>], parallel: bool) {
        let (w, h) = (self.size.width(), self.size.height());
        let wc = w / 2 + 1;
        let forward = &self.rows_forward;
        let runs = ColumnRuns::new(columns, h);
        let init = || {
            let spectra = vec![Complex::default(); wc * ROW_BLOCK];
            (vec![0.0f32; w], spectra, forward.make_scratch_vec())
        };
        let block =
            |(input, spectra, scratch): &mut (Vec<f32>, Vec<Complex<f32>>, Vec<Complex<f32>>),
             b: usize| {
                let rows = b * ROW_BLOCK..h.min((b + 1) * ROW_BLOCK);
                for (spectrum, y) in spectra.chunks_exact_mut(wc).zip(rows.clone()) {
                    input.copy_from_slice(&z[y * w..(y + 1) * w]);
                    forward
                        .process_with_scratch(input, spectrum, scratch)
                        .expect("lengths from the plan");
                }
                // SAFETY: the blocks' row ranges are disjoint, and this task alone writes its own.
                unsafe { runs.write_rows(&spectra[..rows.len() * wc], rows) };
            };
        let blocks = h.div_ceil(ROW_BLOCK);
        if parallel {
            (0..blocks).into_par_iter().for_each_init(init, block);
        } else {
            let mut state = init();
            for b in 0..blocks {
                block(&mut state, b);
            }
        }
    }

    /// The unnormalised 2-D FFT of `z` into `spectrum`, column-major as the factors
    /// (`W/2 + 1` columns of `H` values).
    pub(crate) fn forward(&self, z: &[f32], spectrum: &mut [Complex<f32>], parallel: bool) {
        self.transform_rows(z, spectrum, parallel);
        transform_columns(
            &self.columns_forward,
            spectrum,
            self.size.height(),
            parallel,
        );
    }

    /// The unnormalised inverse of [`SpectralStep::forward`] into `out` (one value per cell);
    /// `spectrum` is used as scratch.
    #[cfg(test)]
    pub(crate) fn inverse(&self, spectrum: &mut [Complex<f32>], out: &mut [f32], parallel: bool) {
        self.inverse_with(
            spectrum,
            out,
            parallel,
            |_, _| {},
            |_, row, out_row| out_row.copy_from_slice(row),
        );
    }

    /// An inverse of [`SpectralStep::forward`] with a pass fused into each end: `fill(x,
    /// column)` writes column `x` of the column-major `spectrum` (`H` values; what it held
    /// before is there to read), the columns are transformed back in place, then each row `y`
    /// is transformed back (unnormalised, `W` values) and handed to `row(y, values, out_row)`
    /// with row `y` of `out`. The element-wise work before and after a transform is done on
    /// data the transform has just had in cache, not in passes of its own.
    pub(crate) fn inverse_with(
        &self,
        spectrum: &mut [Complex<f32>],
        out: &mut [f32],
        parallel: bool,
        fill: impl Fn(usize, &mut [Complex<f32>]) + Sync + Send,
        row: impl Fn(usize, &[f32], &mut [f32]) + Sync + Send,
    ) {
        let (w, h) = (self.size.width(), self.size.height());
        let columns = &self.columns_inverse;
        let scratch_len = columns.get_inplace_scratch_len();
        for_each_chunk(
            parallel,
            spectrum,
            h,
            || vec![Complex::default(); scratch_len],
            |scratch, x, column| {
                fill(x, column);
                columns.process_with_scratch(column, scratch);
            },
        );
        let inverse = self.rows_inverse.as_ref();
        inverse_rows(
            (spectrum, out),
            self.size,
            parallel,
            || (vec![0.0f32; w], inverse.make_scratch_vec()),
            |(values, scratch), y, row_spectrum, out_row| {
                inverse_row(inverse, row_spectrum, values, scratch);
                row(y, values, out_row);
            },
        );
    }

    /// `FFT(z)` into `columns`, each mode times its factor, and the column transforms back, so
    /// `columns` holds the column-major row spectra of the step's change.
    fn filtered_columns(&mut self, z: &[f32], parallel: bool) {
        let h = self.size.height();
        let mut columns = std::mem::take(&mut self.columns);
        self.transform_rows(z, &mut columns, parallel);
        let (fwd, inv) = (&self.columns_forward, &self.columns_inverse);
        let factors = &self.factors;
        let scratch_len = fwd
            .get_inplace_scratch_len()
            .max(inv.get_inplace_scratch_len());
        for_each_chunk(
            parallel,
            &mut columns,
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
        self.columns = columns;
    }
}

/// A column-major spectrum (`h` values a column) written by the row pass's tasks at once,
/// each into the runs of its own rows.
struct ColumnRuns<'a> {
    start: *mut Complex<f32>,
    len: usize,
    column_len: usize,
    spectrum: std::marker::PhantomData<&'a mut [Complex<f32>]>,
}

// SAFETY: the pointer comes from a live `&mut [Complex<f32>]` borrowed for the `ColumnRuns`'
// life, and `write_rows`' callers write disjoint row ranges.
#[allow(
    unsafe_code,
    reason = "the row pass's tasks write disjoint runs of every column"
)]
unsafe impl Sync for ColumnRuns<'_> {}

#[allow(
    unsafe_code,
    reason = "the row pass's tasks write disjoint runs of every column"
)]
impl<'a> ColumnRuns<'a> {
    fn new(columns: &'a mut [Complex<f32>], column_len: usize) -> Self {
        Self {
            start: columns.as_mut_ptr(),
            len: columns.len(),
            column_len,
            spectrum: std::marker::PhantomData,
        }
    }

    /// The block of rows `from` (row-major, `from.len() / rows.len()` values a row) into rows
    /// `rows` of every column: `column[x][y] = from[(y - rows.start) W' + x]`. A full block's
    /// run, [`ROW_BLOCK`] values, is written as one array.
    ///
    /// # Safety
    /// No other thread may read or write these rows of any column during the call.
    unsafe fn write_rows(&self, from: &[Complex<f32>], rows: std::ops::Range<usize>) {
        let n = rows.len();
        let stride = from.len() / n;
        assert!(rows.end <= self.column_len && stride * self.column_len <= self.len);
        let run = |x: usize| {
            // SAFETY: the run `x column_len + rows` lies inside the spectrum (asserted above);
            // exclusivity is the caller's.
            unsafe {
                std::slice::from_raw_parts_mut(self.start.add(x * self.column_len + rows.start), n)
            }
        };
        if n == ROW_BLOCK {
            let mut lines = from.chunks_exact(stride);
            let lines: [&[Complex<f32>]; ROW_BLOCK] =
                std::array::from_fn(|_| lines.next().expect("a full block"));
            #[allow(
                clippy::needless_range_loop,
                reason = "x picks one value from each of the 8 rows, not an item of one"
            )]
            for x in 0..stride {
                let whole: &mut [Complex<f32>; ROW_BLOCK] = run(x).try_into().expect("a full run");
                *whole = std::array::from_fn(|r| lines[r][x]);
            }
        } else {
            for x in 0..stride {
                for (v, line) in run(x).iter_mut().zip(from.chunks_exact(stride)) {
                    *v = line[x];
                }
            }
        }
    }
}

/// Each row of the column-major half spectrum `columns` gathered, [`ROW_BLOCK`] rows at a
/// time, and `row(state, y, row_spectrum, out_row)` called on it with row `y` of `out` (`W`
/// values; `row_spectrum` is scratch after the call). One `state` from `init` per worker.
fn inverse_rows<S>(
    (columns, out): (&[Complex<f32>], &mut [f32]),
    size: GridSize,
    parallel: bool,
    init: impl Fn() -> S + Sync + Send,
    row: impl Fn(&mut S, usize, &mut [Complex<f32>], &mut [f32]) + Sync + Send,
) {
    let (w, h) = (size.width(), size.height());
    let wc = w / 2 + 1;
    for_each_chunk(
        parallel,
        out,
        w * ROW_BLOCK,
        || (vec![Complex::default(); wc * ROW_BLOCK], init()),
        |(spectra, state), b, out_block| {
            let y0 = b * ROW_BLOCK;
            let rows = out_block.len() / w;
            runs_to_rows(&columns[y0..], h, rows, &mut spectra[..rows * wc]);
            for (r, (spectrum, out_row)) in spectra
                .chunks_mut(wc)
                .zip(out_block.chunks_mut(w))
                .enumerate()
            {
                row(state, y0 + r, spectrum, out_row);
            }
        },
    );
}

/// The inverse turn of [`ColumnRuns::write_rows`], from columns `column_len` values apart: the `rows`
/// values that start each column of `from` become the rows of `to` (`to[r W' + x] =
/// from[x column_len + r]`, `W' = to.len() / rows`).
fn runs_to_rows(from: &[Complex<f32>], column_len: usize, rows: usize, to: &mut [Complex<f32>]) {
    let stride = to.len() / rows;
    if rows == ROW_BLOCK {
        let mut lines = to.chunks_exact_mut(stride);
        let mut lines: [&mut [Complex<f32>]; ROW_BLOCK] =
            std::array::from_fn(|_| lines.next().expect("a full block"));
        for x in 0..stride {
            let start = x * column_len;
            let run: &[Complex<f32>; ROW_BLOCK] = from[start..start + ROW_BLOCK]
                .try_into()
                .expect("a whole run");
            for (line, &v) in lines.iter_mut().zip(run) {
                line[x] = v;
            }
        }
    } else {
        for x in 0..stride {
            let run = &from[x * column_len..x * column_len + rows];
            for (r, &v) in run.iter().enumerate() {
                to[r * stride + x] = v;
            }
        }
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

/// How many rows one task of the row passes transforms together. Their spectra are written
/// (forward) and read (inverse) a column's 8 complex values, 64 bytes, at a time, so a column's
/// part of a block is one cache line or two, moved whole. Passes of their own that turned the
/// whole half spectrum between rows and columns cost a quarter of a step's time; at 8 rows a
/// block, a 256-row grid splits into 32 even tasks.
const ROW_BLOCK: usize = 8;

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
    let parallel = parallelism.threads(size.cells()) > 1;
    step.filtered_columns(cur, parallel);
    let inverse = step.rows_inverse.as_ref();
    inverse_rows(
        (&step.columns, out),
        size,
        parallel,
        || (vec![0.0f32; w], inverse.make_scratch_vec()),
        |(change, scratch), y, spectrum, out_row| {
            inverse_row(inverse, spectrum, change, scratch);
            let cur_row = &cur[y * w..(y + 1) * w];
            for ((z_out, &g), &z) in out_row.iter_mut().zip(change.iter()).zip(cur_row) {
                let f = z + g;
                *z_out = damping * ((f + f) - *z_out);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use std::f64::consts::TAU;

    use realfft::num_complex::Complex;

    use super::SpectralStep;
    use crate::airy::AiryDispersion;
    use crate::size::GridSize;

    #[test]
    fn the_row_blocks_and_columns_make_the_two_dimensional_transform_and_its_inverse() {
        // Shapes whose rows leave a short last block (13 = 8 + 5, 21 = 2 x 8 + 5), odd and
        // even widths, one block alone: on one thread and on the pool, the forward transform is
        // the direct 2-D DFT `Z(x, y) = sum z(i, j) e^(-2 pi i (x i / W + y j / H))` (to f32
        // rounding of a sum of W H terms), the same bits both ways, and the inverse gives
        // `W H z` back.
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        for (w, h) in [(16, 13), (9, 21), (12, 8), (7, 3)] {
            let size = GridSize::new(w, h).expect("size");
            let z: Vec<f32> = (0..w * h)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) / 25.0)
                .collect();
            let wc = w / 2 + 1;
            let step = SpectralStep::new(size, 0.1, 0.01, &airy);
            let mut spectra = Vec::new();
            for parallel in [false, true] {
                let mut spectrum = vec![Complex::default(); wc * h];
                step.forward(&z, &mut spectrum, parallel);
                for x in 0..wc {
                    for y in 0..h {
                        let mut exact = (0.0f64, 0.0f64);
                        for j in 0..h {
                            for i in 0..w {
                                let phase =
                                    -TAU * ((x * i) as f64 / w as f64 + (y * j) as f64 / h as f64);
                                let v = f64::from(z[j * w + i]);
                                exact.0 += v * phase.cos();
                                exact.1 += v * phase.sin();
                            }
                        }
                        let got = spectrum[x * h + y];
                        let error =
                            (f64::from(got.re) - exact.0).hypot(f64::from(got.im) - exact.1);
                        // f32 rounding of sums of W H terms of size at most 2.
                        let tolerance = 8.0 * f64::from(f32::EPSILON) * (2 * w * h) as f64;
                        assert!(
                            error < tolerance,
                            "{w} x {h}, mode ({x}, {y}): {got} against {exact:?}"
                        );
                    }
                }
                let mut back = vec![0.0f32; w * h];
                step.inverse(&mut spectrum.clone(), &mut back, parallel);
                let cells = (w * h) as f32;
                for (b, &v) in back.iter().zip(&z) {
                    assert!(
                        (b / cells - v).abs() < 1e-5,
                        "{w} x {h}: {b} / {cells} against {v}"
                    );
                }
                spectra.push(spectrum);
            }
            assert_eq!(spectra[0], spectra[1], "{w} x {h}: one thread and the pool");
        }
    }
}
