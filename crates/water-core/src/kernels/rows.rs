//! Inner loops over one row, written so that the compiler vectorises them, and compiled twice:
//! once for the baseline target and once with AVX2 enabled, chosen at run time.
//!
//! No fused multiply-add is used anywhere: every backend computes the same rounded products
//! and sums in the same order, so the SIMD and scalar paths agree bit for bit.

use crate::params::StencilCoefficients;

/// One cell of the signed stencil, in the canonical sum order `((N + S) + E) + W`.
#[inline(always)]
pub(crate) fn wave_cell(
    k: StencilCoefficients,
    north: f32,
    south: f32,
    east: f32,
    west: f32,
    centre: f32,
    old: f32,
) -> f32 {
    k.d * (k.a * (north + south + east + west) + k.b * centre - old)
}

/// Cells `1..n-1` of a row: `out` holds `z_old` on entry and `z_new` on exit. Portable
/// version; x86-64 CPUs with AVX2 or AVX-512 use the explicit vectors of `rows_x86`, which give
/// the same bits.
#[inline(always)]
pub(crate) fn wave_row_interior_scalar(
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    out: &mut [f32],
    k: StencilCoefficients,
) {
    let n = mid.len();
    let (up, down, out) = (&up[..n], &down[..n], &mut out[..n]);
    for x in 1..n - 1 {
        out[x] = wave_cell(k, up[x], down[x], mid[x + 1], mid[x - 1], mid[x], out[x]);
    }
}

/// One cell of Hugo Elias's ripple, in i32 arithmetic with i16 stores that wrap as C's do.
#[inline(always)]
pub(crate) fn classic_cell(
    north: i16,
    south: i16,
    east: i16,
    west: i16,
    old: i16,
    shift: Option<u32>,
) -> i16 {
    let sum = i32::from(west) + i32::from(east) + i32::from(north) + i32::from(south);
    let v = ((sum >> 1) - i32::from(old)) as i16;
    match shift {
        // |v - (v >> k)| <= |v| for k >= 1, so this never leaves the i16 range.
        Some(k) => (i32::from(v) - (i32::from(v) >> k)) as i16,
        None => v,
    }
}

/// Classic ripple over cells `1..n-1`, portable: the definition the vector kernels match.
#[inline(always)]
pub(crate) fn classic_row_portable(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    shift: Option<u32>,
) {
    let n = mid.len();
    let (up, down, out) = (&up[..n], &down[..n], &mut out[..n]);
    match shift {
        Some(k) => {
            for x in 1..n - 1 {
                out[x] = classic_cell(up[x], down[x], mid[x + 1], mid[x - 1], out[x], Some(k));
            }
        }
        None => {
            for x in 1..n - 1 {
                out[x] = classic_cell(up[x], down[x], mid[x + 1], mid[x - 1], out[x], None);
            }
        }
    }
}

/// Signed stencil over cells `1..n-1` of one row (`n = mid.len()`); `up`, `down` and `out` must
/// be at least as long as `mid`.
/// Which row kernel to run: the widest this CPU has. Detect once per step, not per row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RowKernel {
    /// 16-lane AVX-512 vectors (x86-64).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code, reason = "x86-64 only"))]
    Avx512,
    /// 8-lane AVX2 vectors (x86-64).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code, reason = "x86-64 only"))]
    Avx2,
    /// Plain Rust, vectorised by the compiler for the baseline target.
    Portable,
}

impl RowKernel {
    /// The widest kernel the CPU supports (the standard library caches the CPU's features).
    #[must_use]
    pub(crate) fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Self::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Portable
    }
}

/// Signed stencil over cells `1..n-1` of one row (`n = mid.len()`) with `kernel`; `up`, `down`
/// and `out` must be at least as long as `mid`.
#[inline]
pub(crate) fn wave_row_interior(
    kernel: RowKernel,
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    out: &mut [f32],
    k: StencilCoefficients,
) {
    #[cfg(target_arch = "x86_64")]
    kernel.wave_row_interior(up, mid, down, out, k);
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = kernel;
        wave_row_interior_scalar(up, mid, down, out, k);
    }
}

/// Classic ripple over cells `1..n-1` of one row, with the widest vectors the CPU has (32 or 16
/// i16 lanes on x86-64, `classic_rows_x86`), which give the portable loop's bits.
#[inline]
pub(crate) fn classic_row(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    shift: Option<u32>,
) {
    #[cfg(target_arch = "x86_64")]
    {
        use super::classic_rows_x86::{classic_row_with, ClassicKernel};
        classic_row_with(ClassicKernel::detect(), up, mid, down, out, shift);
    }
    #[cfg(not(target_arch = "x86_64"))]
    classic_row_portable(up, mid, down, out, shift);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize, s: f32) -> Vec<f32> {
        (0..n).map(|i| ((i as f32) * s).sin()).collect()
    }

    #[test]
    fn every_simd_kernel_gives_the_scalar_bits() {
        for n in [3, 9, 10, 17, 18, 33, 34, 67, 256, 1000] {
            let (up, mid, down, old) = (row(n, 0.3), row(n, 0.7), row(n, 1.1), row(n, 0.05));
            // Damped and undamped, a = 1/4 (b = 1 exactly) and a general a.
            for (a, d) in [
                (0.3, 0.99),
                (0.25, 1.0),
                (0.25, 0.999),
                (0.5, 1.0),
                (0.1, 0.9),
            ] {
                let k = StencilCoefficients::new(a, d);
                let mut plain = old.clone();
                for x in 1..n - 1 {
                    plain[x] = wave_cell(k, up[x], down[x], mid[x + 1], mid[x - 1], mid[x], old[x]);
                }
                let plain: Vec<u32> = plain.iter().map(|v| v.to_bits()).collect();
                let mut fast = old.clone();
                wave_row_interior(RowKernel::detect(), &up, &mid, &down, &mut fast, k);
                assert_eq!(fast.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), plain);
                #[cfg(target_arch = "x86_64")]
                for kernel in [RowKernel::Avx512, RowKernel::Avx2, RowKernel::Portable] {
                    let available = match kernel {
                        RowKernel::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
                        RowKernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
                        RowKernel::Portable => true,
                    };
                    if available {
                        let mut fast = old.clone();
                        kernel.wave_row_interior(&up, &mid, &down, &mut fast, k);
                        let bits: Vec<u32> = fast.iter().map(|v| v.to_bits()).collect();
                        assert_eq!(bits, plain, "{kernel:?}, n = {n}, a = {a}, d = {d}");
                    }
                }
            }
        }
    }
}
