//! `inversion_step` (`sea_frame/inversion.rs`) for eight points at once, four lanes of `f64` at
//! a time: the same operations in the same order (IEEE's, so each lane gives the bits the
//! one-point step gives; tested through the batch heights in `sea_frame.rs`).

#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    _mm256_add_pd, _mm256_and_pd, _mm256_blendv_pd, _mm256_castps256_ps128, _mm256_cmp_pd,
    _mm256_cvtps_pd, _mm256_div_pd, _mm256_extractf128_ps, _mm256_loadu_ps, _mm256_movemask_pd,
    _mm256_mul_pd, _mm256_set1_pd, _mm256_set_pd, _mm256_storeu_pd, _mm256_sub_pd, _CMP_GT_OQ,
    _CMP_LT_OQ,
};

use crate::ocean::lane_reads_x86::LANES;
use crate::ocean::sea_frame::{INVERSION_TOLERANCE, NEWTON_MIN_DETERMINANT};
use crate::ocean::tile_taps_x86::Avx2;

/// One step of the inversion in every lane still `live`, from `x0` where the reads found
/// `[D, dD/dx, dD/dy]` (each `[x part, y part]` of eight lanes): a lane within the tolerance is
/// no longer live; any other moves to its next `x0`, and is no longer live where that was a
/// Newton step shorter than `landing` (m; landed).
#[inline(always)]
pub(super) fn inversion_steps(
    _: Avx2,
    p: &[[f64; 2]; LANES],
    x0: &mut [[f64; 2]; LANES],
    live: &mut [bool; LANES],
    reads: &[[[f32; LANES]; 2]; 3],
    landing: f64,
) {
    // SAFETY: an `Avx2` exists, so the CPU has AVX2.
    unsafe { inversion_steps_avx2(p, x0, live, reads, landing) }
}

/// [`inversion_steps`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn inversion_steps_avx2(
    p: &[[f64; 2]; LANES],
    x0: &mut [[f64; 2]; LANES],
    live: &mut [bool; LANES],
    [d, d_x, d_y]: &[[[f32; LANES]; 2]; 3],
    landing: f64,
) {
    let tolerance = _mm256_set1_pd(INVERSION_TOLERANCE * INVERSION_TOLERANCE);
    let one = _mm256_set1_pd(1.0);
    let newton_floor = _mm256_set1_pd(NEWTON_MIN_DETERMINANT);
    let landing = _mm256_set1_pd(landing * landing);
    for half in 0..2 {
        let lanes = 4 * half..4 * half + 4;
        let q = &p[lanes.clone()];
        let x = &x0[lanes.clone()];
        let (px, py) = (
            _mm256_set_pd(q[3][0], q[2][0], q[1][0], q[0][0]),
            _mm256_set_pd(q[3][1], q[2][1], q[1][1], q[0][1]),
        );
        let (xx, xy) = (
            _mm256_set_pd(x[3][0], x[2][0], x[1][0], x[0][0]),
            _mm256_set_pd(x[3][1], x[2][1], x[1][1], x[0][1]),
        );
        // The reads' four lanes of this half, widened exactly to f64.
        macro_rules! wide {
            ($v:expr) => {{
                // SAFETY: `$v` is eight floats.
                let all = unsafe { _mm256_loadu_ps($v.as_ptr()) };
                _mm256_cvtps_pd(if half == 0 {
                    _mm256_castps256_ps128(all)
                } else {
                    _mm256_extractf128_ps::<1>(all)
                })
            }};
        }
        let (dx, dy) = (wide!(d[0]), wide!(d[1]));
        let r0 = _mm256_sub_pd(_mm256_add_pd(xx, dx), px);
        let r1 = _mm256_sub_pd(_mm256_add_pd(xy, dy), py);
        let residual = _mm256_add_pd(_mm256_mul_pd(r0, r0), _mm256_mul_pd(r1, r1));
        let converged = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(residual, tolerance));
        let (a, b) = (_mm256_add_pd(one, wide!(d_x[0])), wide!(d_y[0]));
        let (c, e) = (wide!(d_x[1]), _mm256_add_pd(one, wide!(d_y[1])));
        let det = _mm256_sub_pd(_mm256_mul_pd(a, e), _mm256_mul_pd(b, c));
        let step = [
            _mm256_div_pd(
                _mm256_sub_pd(_mm256_mul_pd(e, r0), _mm256_mul_pd(b, r1)),
                det,
            ),
            _mm256_div_pd(
                _mm256_sub_pd(_mm256_mul_pd(a, r1), _mm256_mul_pd(c, r0)),
                det,
            ),
        ];
        let newton = [_mm256_sub_pd(xx, step[0]), _mm256_sub_pd(xy, step[1])];
        let fixed = [_mm256_sub_pd(px, dx), _mm256_sub_pd(py, dy)];
        let use_newton = _mm256_cmp_pd::<_CMP_GT_OQ>(det, newton_floor);
        let step_squared = _mm256_add_pd(
            _mm256_mul_pd(step[0], step[0]),
            _mm256_mul_pd(step[1], step[1]),
        );
        let landed = _mm256_movemask_pd(_mm256_and_pd(
            use_newton,
            _mm256_cmp_pd::<_CMP_LT_OQ>(step_squared, landing),
        ));
        let mut next = [[0.0; 4]; 2];
        for (out, (fixed, newton)) in next.iter_mut().zip(fixed.into_iter().zip(newton)) {
            // SAFETY: `out` holds four f64.
            unsafe {
                _mm256_storeu_pd(
                    out.as_mut_ptr(),
                    _mm256_blendv_pd(fixed, newton, use_newton),
                );
            }
        }
        let [next_x, next_y] = next;
        for (k, (x, y)) in next_x.into_iter().zip(next_y).enumerate() {
            let lane = 4 * half + k;
            if live[lane] {
                if converged & (1 << k) != 0 {
                    live[lane] = false;
                } else {
                    x0[lane] = [x, y];
                    live[lane] = landed & (1 << k) == 0;
                }
            }
        }
    }
}
