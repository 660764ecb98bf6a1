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

/// Cells `1..n-1` of a row: `out` holds `z_old` on entry and `z_new` on exit.
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
    if k.d == 1.0 {
        // Multiplying by 1 is exact, so skipping it changes no bit and saves one op per cell.
        for x in 1..n - 1 {
            out[x] = k.a * (up[x] + down[x] + mid[x + 1] + mid[x - 1]) + k.b * mid[x] - out[x];
        }
    } else {
        for x in 1..n - 1 {
            out[x] = wave_cell(k, up[x], down[x], mid[x + 1], mid[x - 1], mid[x], out[x]);
        }
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
    use super::{classic_row_impl, wave_row_interior_impl, StencilCoefficients};

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn wave_row_interior_avx2(
        up: &[f32],
        mid: &[f32],
        down: &[f32],
        out: &mut [f32],
        k: StencilCoefficients,
    ) {
        wave_row_interior_impl(up, mid, down, out, k);
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
