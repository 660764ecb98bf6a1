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
/// version; x86-64 CPUs with AVX2 use [`x86::wave_row_interior_avx2`], which gives the same bits.
#[inline(always)]
fn wave_row_interior_impl(
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

#[inline(always)]
fn classic_row_impl(up: &[i16], mid: &[i16], down: &[i16], out: &mut [i16], shift: Option<u32>) {
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

#[cfg(target_arch = "x86_64")]
mod x86 {
    #![allow(unsafe_code, reason = "target_feature functions are unsafe to call")]
    use std::arch::x86_64::{
        __m256, _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_storeu_ps,
        _mm256_sub_ps,
    };

    use super::{classic_row_impl, wave_row_interior_impl, StencilCoefficients};

    /// Eight cells starting at `x`, in the scalar kernel's exact operation order (no FMA).
    ///
    /// # Safety
    /// AVX2 must be available and `x - 1 .. x + 9` must lie inside all four rows.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn wave_eight(
        up: *const f32,
        mid: *const f32,
        down: *const f32,
        out: *const f32,
        x: usize,
        k: &Lanes,
    ) -> __m256 {
        // SAFETY: the caller guarantees the 8 lanes and their neighbours are in bounds.
        unsafe {
            let sum = _mm256_add_ps(
                _mm256_add_ps(
                    _mm256_add_ps(_mm256_loadu_ps(up.add(x)), _mm256_loadu_ps(down.add(x))),
                    _mm256_loadu_ps(mid.add(x + 1)),
                ),
                _mm256_loadu_ps(mid.add(x - 1)),
            );
            let v = _mm256_sub_ps(
                _mm256_add_ps(
                    _mm256_mul_ps(k.a, sum),
                    _mm256_mul_ps(k.b, _mm256_loadu_ps(mid.add(x))),
                ),
                _mm256_loadu_ps(out.add(x)),
            );
            if k.damped {
                _mm256_mul_ps(k.d, v)
            } else {
                v
            }
        }
    }

    /// The stencil coefficients broadcast to all lanes.
    struct Lanes {
        a: __m256,
        b: __m256,
        d: __m256,
        damped: bool,
    }

    /// [`super::wave_row_interior_impl`] with explicit AVX2 vectors, two per iteration. The
    /// cells left over at the row's end are one more vector aligned to the end, computed before
    /// the loop from the untouched `z_old` values and stored after it; it overlaps cells the loop
    /// also computes, to the same bits, so no cell takes a scalar path.
    ///
    /// # Safety
    /// AVX2 must be available.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn wave_row_interior_avx2(
        up: &[f32],
        mid: &[f32],
        down: &[f32],
        out: &mut [f32],
        k: StencilCoefficients,
    ) {
        let n = mid.len();
        assert!(
            up.len() >= n && down.len() >= n && out.len() >= n,
            "row lengths"
        );
        if n < 10 {
            wave_row_interior_impl(up, mid, down, out, k);
            return;
        }
        let lanes = Lanes {
            a: _mm256_set1_ps(k.a),
            b: _mm256_set1_ps(k.b),
            d: _mm256_set1_ps(k.d),
            // Multiplying by 1 is exact, so skipping it changes no bit.
            damped: k.d != 1.0,
        };
        let (u, m, d, o) = (up.as_ptr(), mid.as_ptr(), down.as_ptr(), out.as_mut_ptr());
        let last = n - 1; // first cell not updated
                          // SAFETY: every vector covers x..x+8 with x >= 1 and x + 8 <= last, so it and its
                          // neighbours x-1..x+9 lie in 0..n, the length of all four rows (asserted above).
        unsafe {
            let tail_x = last - 8;
            let tail = wave_eight(u, m, d, o, tail_x, &lanes);
            let mut x = 1;
            while x + 16 <= last {
                let v0 = wave_eight(u, m, d, o, x, &lanes);
                let v1 = wave_eight(u, m, d, o, x + 8, &lanes);
                _mm256_storeu_ps(o.add(x), v0);
                _mm256_storeu_ps(o.add(x + 8), v1);
                x += 16;
            }
            if x + 8 <= last {
                let v = wave_eight(u, m, d, o, x, &lanes);
                _mm256_storeu_ps(o.add(x), v);
            }
            _mm256_storeu_ps(o.add(tail_x), tail);
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn classic_row_avx2(
        up: &[i16],
        mid: &[i16],
        down: &[i16],
        out: &mut [i16],
        shift: Option<u32>,
    ) {
        classic_row_impl(up, mid, down, out, shift);
    }

    pub(super) fn has_avx2() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }
}

/// Signed stencil over cells `1..n-1` of one row (`n = mid.len()`); `up`, `down` and `out` must
/// be at least as long as `mid`.
#[inline]
pub(crate) fn wave_row_interior(
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    out: &mut [f32],
    k: StencilCoefficients,
) {
    #[cfg(target_arch = "x86_64")]
    if x86::has_avx2() {
        #[allow(unsafe_code, reason = "AVX2 support was checked on the line above")]
        // SAFETY: the CPU supports AVX2, the only requirement of this function.
        unsafe {
            x86::wave_row_interior_avx2(up, mid, down, out, k);
        }
        return;
    }
    wave_row_interior_impl(up, mid, down, out, k);
}

/// Classic ripple over cells `1..n-1` of one row.
#[inline]
pub(crate) fn classic_row(
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    shift: Option<u32>,
) {
    #[cfg(target_arch = "x86_64")]
    if x86::has_avx2() {
        #[allow(unsafe_code, reason = "AVX2 support was checked on the line above")]
        // SAFETY: the CPU supports AVX2, the only requirement of this function.
        unsafe {
            x86::classic_row_avx2(up, mid, down, out, shift);
        }
        return;
    }
    classic_row_impl(up, mid, down, out, shift);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simd_and_scalar_rows_agree_bit_for_bit() {
        let n = 67;
        let row = |s: f32| (0..n).map(|i| ((i as f32) * s).sin()).collect::<Vec<_>>();
        let (up, mid, down, old) = (row(0.3), row(0.7), row(1.1), row(0.05));
        let k = StencilCoefficients::new(0.3, 0.99);
        let mut fast = old.clone();
        wave_row_interior(&up, &mid, &down, &mut fast, k);
        let mut plain = old.clone();
        for x in 1..n - 1 {
            plain[x] = wave_cell(k, up[x], down[x], mid[x + 1], mid[x - 1], mid[x], old[x]);
        }
        assert_eq!(
            fast.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            plain.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
}
