//! Explicit-vector versions of the signed row kernel for x86-64: AVX-512 (16 lanes) and AVX2
//! (8 lanes), chosen at run time. They compute exactly what
//! [`super::rows::wave_cell`] computes, in the same order and without fused multiply-adds, so
//! every path gives the same bits.
//!
//! Each walks the row in vectors starting at cell `LANES`, which lies on a vector boundary when
//! the row starts on a cache line (grids keep their fields in 64-byte-aligned buffers). The first
//! cells (`1..LANES + 1`) and the last ones are one more unaligned vector each, computed before
//! the loop from the untouched `z_old` values and stored after it: they overlap cells the loop
//! also computes, to the same bits, so no cell takes a scalar path.
#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    __m256, __m512, _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps,
    _mm256_storeu_ps, _mm256_sub_ps, _mm512_add_ps, _mm512_alignr_epi32, _mm512_castps_si512,
    _mm512_castsi512_ps, _mm512_loadu_ps, _mm512_mul_ps, _mm512_set1_ps, _mm512_storeu_ps,
    _mm512_sub_ps,
};

use super::rows::RowKernel;
use crate::params::StencilCoefficients;

/// Walks cells `1..n - 1` of a row of `n >= lanes + 2` cells in vectors of `lanes` cells, as the
/// module docs describe: the last vector and the first (cells `1..lanes + 1`, unaligned, so the
/// loop starts at `x = lanes`, on a vector boundary of rows that start on one) are computed
/// before anything is stored, from the untouched old values; then the vectors from `lanes` on,
/// two at a time, each pair stored once both are computed, and one more where one fits; the
/// first and the last are stored after them.
///
/// `rows` are the pointers `(up, mid, down, out)` to the row and its neighbours, `out` holding
/// the old values on entry. `cells: |read, x| ...` is the vector of the cells from `x`, read
/// through `read` (the four pointers, `out`'s as `*const`); `store: |out, x, v| ...` stores `v`
/// at cell `x` through `out`. Both expand inside the caller's `unsafe` block, which answers for
/// their bounds.
///
/// A macro rather than a function, as the kernels' helpers are: it expands inside the
/// `#[target_feature]` function that walks the row, so the intrinsics inline and the vectors
/// stay in registers. The signed AVX2 kernel here and both classic kernels (`classic_rows_x86`)
/// walk their rows with it; the AVX-512 kernel, whose loop carries the centre row from one
/// vector to the next, walks its own.
macro_rules! walk_row {
    (
        $rows:expr, $n:expr, $lanes:expr,
        cells: |$read:ident, $x:ident| $cells:expr,
        store: |$out:ident, $at:ident, $v:ident| $store:expr $(,)?
    ) => {{
        let rows = $rows;
        let $read = (rows.0, rows.1, rows.2, rows.3.cast_const());
        let $out = rows.3;
        let lanes: usize = $lanes;
        let last: usize = $n - 1; // first cell not updated
        let tail_x = last - lanes;
        let tail = {
            let $x = tail_x;
            $cells
        };
        let head = {
            let $x = 1;
            $cells
        };
        let mut x = lanes;
        while x + 2 * lanes <= last {
            let v0 = {
                let $x = x;
                $cells
            };
            let v1 = {
                let $x = x + lanes;
                $cells
            };
            {
                let ($at, $v) = (x, v0);
                $store;
            }
            {
                let ($at, $v) = (x + lanes, v1);
                $store;
            }
            x += 2 * lanes;
        }
        if x + lanes <= last {
            let v = {
                let $x = x;
                $cells
            };
            let ($at, $v) = (x, v);
            $store;
        }
        {
            let ($at, $v) = (1, head);
            $store;
        }
        let ($at, $v) = (tail_x, tail);
        $store;
    }};
}
pub(super) use walk_row;

/// The body of a signed row kernel over `up`, `mid`, `down`, `out` with coefficients `k`
/// (the kernel's parameters, named by the caller): checks the rows' lengths, leaves rows too
/// short for one vector and its two neighbours to the scalar loop, and otherwise runs
/// `row::<DAMPED, UNIT_B>` (the kernel's row walk) with the two shortcuts this `k` allows.
/// A macro so that the coefficients are splatted inside the caller's `#[target_feature]`
/// function; the AVX2 and the AVX-512 kernels share it.
macro_rules! wave_row_dispatch {
    (
        $up:ident, $mid:ident, $down:ident, $out:ident, $k:ident;
        lanes: $lanes:expr, splat: $splat:ident, row: $row:ident
    ) => {{
        let n = $mid.len();
        assert!(
            $up.len() >= n && $down.len() >= n && $out.len() >= n,
            "row lengths"
        );
        if n < $lanes + 2 {
            super::rows::wave_row_interior_scalar($up, $mid, $down, $out, $k);
            return;
        }
        let coefficients = ($splat($k.a), $splat($k.b), $splat($k.d));
        let rows = (
            $up.as_ptr(),
            $mid.as_ptr(),
            $down.as_ptr(),
            $out.as_mut_ptr(),
        );
        // SAFETY: the caller has the row walk's target feature; n >= LANES + 2 was checked
        // above.
        unsafe {
            match ($k.d != 1.0, $k.b == 1.0) {
                (true, true) => $row::<true, true>(rows, n, coefficients),
                (true, false) => $row::<true, false>(rows, n, coefficients),
                (false, true) => $row::<false, true>(rows, n, coefficients),
                (false, false) => $row::<false, false>(rows, n, coefficients),
            }
        }
    }};
}

/// Generates one row kernel for one vector width.
///
/// `DAMPED = false` skips the multiplication by `d = 1`, and `UNIT_B = true` the one by
/// `b = 2 - 4a = 1` (at `a = 1/4`); multiplying by 1 is exact, so neither changes a bit.
macro_rules! wave_row_kernel {
    (
        $(#[$doc:meta])*
        $name:ident, $feature:literal, $vector:ty, $lanes:literal,
        load: $load:ident, store: $store:ident, add: $add:ident, sub: $sub:ident,
        mul: $mul:ident, splat: $splat:ident
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU must support the target feature named in the attribute, and `up`, `down` and
        /// `out` must be at least as long as `mid`.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name(
            up: &[f32],
            mid: &[f32],
            down: &[f32],
            out: &mut [f32],
            k: StencilCoefficients,
        ) {
            /// `LANES` cells starting at `x`.
            ///
            /// # Safety
            /// The feature is available and cells `x - 1 .. x + LANES + 1` are in all rows.
            #[target_feature(enable = $feature)]
            #[inline]
            unsafe fn cells<const DAMPED: bool, const UNIT_B: bool>(
                rows: (*const f32, *const f32, *const f32, *const f32),
                x: usize,
                (a, b, d): ($vector, $vector, $vector),
            ) -> $vector {
                let (up, mid, down, out) = rows;
                // SAFETY: the caller guarantees the lanes and their neighbours are in bounds.
                unsafe {
                    let sum = $add(
                        $add($add($load(up.add(x)), $load(down.add(x))), $load(mid.add(x + 1))),
                        $load(mid.add(x - 1)),
                    );
                    let centre = $load(mid.add(x));
                    let centre = if UNIT_B { centre } else { $mul(b, centre) };
                    let v = $sub($add($mul(a, sum), centre), $load(out.add(x)));
                    if DAMPED {
                        $mul(d, v)
                    } else {
                        v
                    }
                }
            }

            /// The whole row for one choice of the two shortcuts.
            ///
            /// # Safety
            /// The feature is available and `n >= LANES + 2` for all four rows.
            #[target_feature(enable = $feature)]
            unsafe fn row<const DAMPED: bool, const UNIT_B: bool>(
                rows: (*const f32, *const f32, *const f32, *mut f32),
                n: usize,
                coefficients: ($vector, $vector, $vector),
            ) {
                // SAFETY: every vector covers x..x+LANES with x >= 1 and x + LANES <= n - 1, so
                // it and its neighbours lie in 0..n.
                unsafe {
                    walk_row!(
                        rows, n, $lanes,
                        cells: |read, x| cells::<DAMPED, UNIT_B>(read, x, coefficients),
                        store: |out, x, v| $store(out.add(x), v),
                    );
                }
            }

            wave_row_dispatch!(up, mid, down, out, k; lanes: $lanes, splat: $splat, row: row);
        }
    };
}

wave_row_kernel!(
    /// Signed stencil over cells `1..n-1` of a row with 8-lane AVX2 vectors (six loads per
    /// vector: on CPUs with AVX2 two vector loads per cycle make that the cheaper form).
    wave_row_interior_avx2, "avx2", __m256, 8,
    load: _mm256_loadu_ps, store: _mm256_storeu_ps, add: _mm256_add_ps, sub: _mm256_sub_ps,
    mul: _mm256_mul_ps, splat: _mm256_set1_ps
);

/// Signed stencil over cells `1..n-1` of a row with 16-lane AVX-512 vectors.
///
/// The step is limited by loads: six per vector in the plain form. Here the centre row is
/// loaded once per vector and its east and west neighbours are cut from the current and the
/// adjacent vectors with `valignd`, which leaves four loads per 16 cells.
///
/// # Safety
/// The CPU must support AVX-512F, and `up`, `down` and `out` must be at least as long as `mid`.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn wave_row_interior_avx512(
    up: &[f32],
    mid: &[f32],
    down: &[f32],
    out: &mut [f32],
    k: StencilCoefficients,
) {
    wave_row_dispatch!(up, mid, down, out, k; lanes: 16, splat: _mm512_set1_ps, row: row512);
}

/// 16 cells at `x` from their four neighbour vectors, in the scalar kernel's order.
///
/// # Safety
/// AVX-512F must be available and cells `x..x + 16` must be in `up`, `down` and `out`.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn cells512<const DAMPED: bool, const UNIT_B: bool>(
    (up, down, out): (*const f32, *const f32, *const f32),
    x: usize,
    (west, centre, east): (__m512, __m512, __m512),
    (a, b, d): (__m512, __m512, __m512),
) -> __m512 {
    // SAFETY: the caller guarantees the 16 lanes are in bounds.
    unsafe {
        let sum = _mm512_add_ps(
            _mm512_add_ps(
                _mm512_add_ps(_mm512_loadu_ps(up.add(x)), _mm512_loadu_ps(down.add(x))),
                east,
            ),
            west,
        );
        let centre = if UNIT_B {
            centre
        } else {
            _mm512_mul_ps(b, centre)
        };
        let v = _mm512_sub_ps(
            _mm512_add_ps(_mm512_mul_ps(a, sum), centre),
            _mm512_loadu_ps(out.add(x)),
        );
        if DAMPED {
            _mm512_mul_ps(d, v)
        } else {
            v
        }
    }
}

/// Lanes `shift..shift + 16` of the 32 lanes `low ++ high`.
#[target_feature(enable = "avx512f")]
#[inline]
fn align512<const SHIFT: i32>(high: __m512, low: __m512) -> __m512 {
    _mm512_castsi512_ps(_mm512_alignr_epi32::<SHIFT>(
        _mm512_castps_si512(high),
        _mm512_castps_si512(low),
    ))
}

/// # Safety
/// AVX-512F must be available and `n >= 18` for all four rows.
#[target_feature(enable = "avx512f")]
unsafe fn row512<const DAMPED: bool, const UNIT_B: bool>(
    (up, mid, down, out): (*const f32, *const f32, *const f32, *mut f32),
    n: usize,
    coefficients: (__m512, __m512, __m512),
) {
    const LANES: usize = 16;
    let read = (up, down, out.cast_const());
    let last = n - 1; // first cell not updated
                      // SAFETY: every vector covers x..x+16 with x >= 1 and x + 16 <= last, so it and its
                      // neighbours x-1..x+17 lie in 0..n; `next` at x+16..x+32 is loaded only when x + 32 <= n.
    unsafe {
        let plain = |x: usize| {
            (
                _mm512_loadu_ps(mid.add(x - 1)),
                _mm512_loadu_ps(mid.add(x)),
                _mm512_loadu_ps(mid.add(x + 1)),
            )
        };
        let tail_x = last - LANES;
        let tail = cells512::<DAMPED, UNIT_B>(read, tail_x, plain(tail_x), coefficients);
        // Cells 1..17 as one unaligned vector, so the loop can start at x = 16: with rows that
        // start on a 64-byte boundary its loads and stores then never split a cache line.
        let head = cells512::<DAMPED, UNIT_B>(read, 1, plain(1), coefficients);
        let mut x = LANES;
        let mut west = _mm512_loadu_ps(mid.add(x - 1));
        let mut centre = _mm512_loadu_ps(mid.add(x));
        while x + 2 * LANES <= n {
            let next = _mm512_loadu_ps(mid.add(x + LANES));
            let east = align512::<1>(next, centre);
            let v = cells512::<DAMPED, UNIT_B>(read, x, (west, centre, east), coefficients);
            _mm512_storeu_ps(out.add(x), v);
            west = align512::<15>(next, centre);
            centre = next;
            x += LANES;
        }
        while x + LANES <= last {
            let v = cells512::<DAMPED, UNIT_B>(read, x, plain(x), coefficients);
            _mm512_storeu_ps(out.add(x), v);
            x += LANES;
        }
        _mm512_storeu_ps(out.add(1), head);
        _mm512_storeu_ps(out.add(tail_x), tail);
    }
}

impl RowKernel {
    /// Runs this kernel on the row: `wave_row_interior` of `rows` on x86-64.
    pub(super) fn wave_row_interior(
        self,
        up: &[f32],
        mid: &[f32],
        down: &[f32],
        out: &mut [f32],
        k: StencilCoefficients,
    ) {
        match self {
            // SAFETY: `RowKernel::detect` chose these only where the CPU has the feature.
            Self::Avx512 => unsafe { wave_row_interior_avx512(up, mid, down, out, k) },
            // SAFETY: as above.
            Self::Avx2 => unsafe { wave_row_interior_avx2(up, mid, down, out, k) },
            Self::Portable => super::rows::wave_row_interior_scalar(up, mid, down, out, k),
        }
    }
}
