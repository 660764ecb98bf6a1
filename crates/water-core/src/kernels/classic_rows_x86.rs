//! Explicit-vector versions of Hugo Elias's i16 ripple row for x86-64: AVX-512BW (32 lanes) and
//! AVX2 (16 lanes), chosen at run time. They give the bits of
//! [`super::rows::classic_cell`] for every input, including sums that leave the i16 range.
//!
//! # Why 16-bit lanes are exact
//! The scalar cell sums four i16 values in i32 and halves the sum: `(w + e + n + s) >> 1`. The
//! sum needs 18 bits, but its floor half always fits i16 (`-65536 >> 1 = -32768`,
//! `65534 >> 1 = 32767`). Each pair is halved without overflow as
//! `(w & e) + ((w ^ e) >> 1)`, which is `floor((w + e) / 2)` since `w + e = 2 (w & e) + (w ^ e)`.
//! The two halved pairs lose one half each when the pair's sum is odd, that is when the low bit
//! of `w ^ e` is set, so
//!
//! ```text
//! (w + e + n + s) >> 1 = floor((w + e) / 2) + floor((n + s) / 2) + ((w ^ e) & (n ^ s) & 1)
//! ```
//!
//! The adds on the right may wrap in 16 bits on the way, but wrapping arithmetic is exact modulo
//! 2^16 and the final value lies in the i16 range, so it comes out right. The scalar cell then
//! subtracts `old` and stores with a wrap to i16, which is what a wrapping 16-bit subtract does;
//! the damping `v - (v >> k)` never leaves the i16 range.
//!
//! Rows are walked as the signed kernels in `rows_x86` walk them, by its `walk_row!`: the first
//! and the last vector of the row are computed from the untouched `old` values before the loop
//! and stored after it.
#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    __m256i, __m512i, _mm256_add_epi16, _mm256_and_si256, _mm256_loadu_si256, _mm256_set1_epi16,
    _mm256_sra_epi16, _mm256_srai_epi16, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_xor_si256,
    _mm512_add_epi16, _mm512_and_si512, _mm512_loadu_si512, _mm512_set1_epi16, _mm512_sra_epi16,
    _mm512_srai_epi16, _mm512_storeu_si512, _mm512_sub_epi16, _mm512_xor_si512, _mm_cvtsi32_si128,
};

use super::rows_x86::walk_row;

/// Generates one classic row kernel for one vector width.
macro_rules! classic_row_kernel {
    (
        $(#[$doc:meta])*
        $name:ident, $feature:literal, $vector:ty, $lanes:literal,
        load: $load:ident, store: $store:ident, add: $add:ident, sub: $sub:ident,
        and: $and:ident, xor: $xor:ident, shift_by: $sra:ident, shift_one: $srai:ident,
        splat: $splat:ident
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU must support the target features named in the attribute, and `up`, `down`
        /// and `out` must be at least as long as `mid`.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn $name(
            up: &[i16],
            mid: &[i16],
            down: &[i16],
            out: &mut [i16],
            shift: Option<u32>,
        ) {
            /// `LANES` cells starting at `x`, as the scalar `classic_cell` computes them.
            ///
            /// # Safety
            /// The features are available and cells `x - 1 .. x + LANES + 1` are in all rows.
            #[target_feature(enable = $feature)]
            #[inline]
            unsafe fn cells<const DAMPED: bool>(
                (up, mid, down, out): (*const i16, *const i16, *const i16, *const i16),
                x: usize,
                (one, shift): ($vector, std::arch::x86_64::__m128i),
            ) -> $vector {
                // SAFETY: the caller guarantees the lanes and their neighbours are in bounds.
                unsafe {
                    let west = $load(mid.add(x - 1).cast());
                    let east = $load(mid.add(x + 1).cast());
                    let north = $load(up.add(x).cast());
                    let south = $load(down.add(x).cast());
                    let old = $load(out.add(x).cast());
                    let odd_we = $xor(west, east);
                    let odd_ns = $xor(north, south);
                    let half_we = $add($and(west, east), $srai::<1>(odd_we));
                    let half_ns = $add($and(north, south), $srai::<1>(odd_ns));
                    let lost_halves = $and($and(odd_we, odd_ns), one);
                    let half = $add($add(half_we, half_ns), lost_halves);
                    let v = $sub(half, old);
                    if DAMPED {
                        $sub(v, $sra(v, shift))
                    } else {
                        v
                    }
                }
            }

            /// The whole row, damped or not.
            ///
            /// # Safety
            /// The features are available and `n >= LANES + 2` for all four rows.
            #[target_feature(enable = $feature)]
            unsafe fn row<const DAMPED: bool>(
                rows: (*const i16, *const i16, *const i16, *mut i16),
                n: usize,
                constants: ($vector, std::arch::x86_64::__m128i),
            ) {
                // SAFETY: every vector covers x..x+LANES with x >= 1 and x + LANES <= n - 1, so
                // it and its neighbours lie in 0..n.
                unsafe {
                    walk_row!(
                        rows, n, $lanes,
                        cells: |read, x| cells::<DAMPED>(read, x, constants),
                        store: |out, x, v| $store(out.add(x).cast(), v),
                    );
                }
            }

            let n = mid.len();
            assert!(up.len() >= n && down.len() >= n && out.len() >= n, "row lengths");
            if n < $lanes + 2 {
                super::rows::classic_row_portable(up, mid, down, out, shift);
                return;
            }
            // A shift count above 15 fills with the sign bit, as i32 >> k does for i16 values;
            // the grid only allows 1..=15 anyway.
            let count = _mm_cvtsi32_si128(shift.map_or(0, |k| k.min(31) as i32));
            let constants = ($splat(1), count);
            let rows = (up.as_ptr(), mid.as_ptr(), down.as_ptr(), out.as_mut_ptr());
            // SAFETY: same features as this function; n >= LANES + 2 was checked above.
            unsafe {
                if shift.is_some() {
                    row::<true>(rows, n, constants);
                } else {
                    row::<false>(rows, n, constants);
                }
            }
        }
    };
}

classic_row_kernel!(
    /// Classic ripple over cells `1..n-1` of a row with 32-lane AVX-512BW vectors.
    classic_row_avx512, "avx512f,avx512bw", __m512i, 32,
    load: _mm512_loadu_si512, store: _mm512_storeu_si512, add: _mm512_add_epi16,
    sub: _mm512_sub_epi16, and: _mm512_and_si512, xor: _mm512_xor_si512,
    shift_by: _mm512_sra_epi16, shift_one: _mm512_srai_epi16, splat: _mm512_set1_epi16
);

classic_row_kernel!(
    /// Classic ripple over cells `1..n-1` of a row with 16-lane AVX2 vectors.
    classic_row_avx2, "avx2", __m256i, 16,
    load: _mm256_loadu_si256, store: _mm256_storeu_si256, add: _mm256_add_epi16,
    sub: _mm256_sub_epi16, and: _mm256_and_si256, xor: _mm256_xor_si256,
    shift_by: _mm256_sra_epi16, shift_one: _mm256_srai_epi16, splat: _mm256_set1_epi16
);

/// Which classic row kernel this CPU runs: the widest it has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClassicKernel {
    /// 32 i16 lanes (AVX-512BW).
    Avx512,
    /// 16 i16 lanes (AVX2).
    Avx2,
    /// The portable loop.
    Portable,
}

impl ClassicKernel {
    /// The widest kernel the CPU supports (the standard library caches the CPU's features).
    pub(super) fn detect() -> Self {
        if std::arch::is_x86_feature_detected!("avx512bw") {
            Self::Avx512
        } else if std::arch::is_x86_feature_detected!("avx2") {
            Self::Avx2
        } else {
            Self::Portable
        }
    }

    /// Whether this CPU can run the kernel.
    #[cfg(test)]
    fn available(self) -> bool {
        match self {
            Self::Avx512 => std::arch::is_x86_feature_detected!("avx512bw"),
            Self::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            Self::Portable => true,
        }
    }
}

/// Runs `kernel` on the row.
pub(super) fn classic_row_with(
    kernel: ClassicKernel,
    up: &[i16],
    mid: &[i16],
    down: &[i16],
    out: &mut [i16],
    shift: Option<u32>,
) {
    match kernel {
        // SAFETY: `ClassicKernel::detect` chose these only where the CPU has the features.
        ClassicKernel::Avx512 => unsafe { classic_row_avx512(up, mid, down, out, shift) },
        // SAFETY: as above.
        ClassicKernel::Avx2 => unsafe { classic_row_avx2(up, mid, down, out, shift) },
        ClassicKernel::Portable => super::rows::classic_row_portable(up, mid, down, out, shift),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::rows::classic_cell;

    /// A small xorshift generator: the test needs many values, not a crate.
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        /// Values that reach both ends of i16, whose sums of four leave the i16 range.
        fn row(&mut self, n: usize) -> Vec<i16> {
            (0..n)
                .map(|_| match self.next() % 8 {
                    0 => i16::MIN,
                    1 => i16::MAX,
                    2 => i16::MIN + 1,
                    3 => -1,
                    4 => (self.next() % 64) as i16 - 32,
                    _ => self.next() as i16,
                })
                .collect()
        }
    }

    #[test]
    fn vector_kernels_give_the_scalar_cells_bits_even_where_sums_overflow_i16() {
        let mut bits = Bits(0x9E37_79B9_7F4A_7C15);
        let kernels = [
            ClassicKernel::Avx512,
            ClassicKernel::Avx2,
            ClassicKernel::Portable,
        ];
        for n in [3, 17, 18, 19, 33, 34, 35, 63, 64, 66, 67, 100, 257, 1024] {
            for _ in 0..40 {
                let (up, mid, down, old) = (bits.row(n), bits.row(n), bits.row(n), bits.row(n));
                for shift in [None, Some(1), Some(4), Some(5), Some(15)] {
                    let mut expected = old.clone();
                    for x in 1..n - 1 {
                        expected[x] =
                            classic_cell(up[x], down[x], mid[x + 1], mid[x - 1], old[x], shift);
                    }
                    for kernel in kernels.into_iter().filter(|k| k.available()) {
                        let mut out = old.clone();
                        classic_row_with(kernel, &up, &mid, &down, &mut out, shift);
                        assert_eq!(out, expected, "{kernel:?}, n = {n}, shift = {shift:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_pair_halving_identity_holds_for_every_pair_of_i16() {
        // The identity the vector kernels rest on, checked exhaustively for one pair and
        // against the i32 sum: floor((a + b) / 2) = (a & b) + ((a ^ b) >> 1).
        for a in (i16::MIN..=i16::MAX).step_by(7) {
            for b in (i16::MIN..=i16::MAX).step_by(5) {
                let exact = (i32::from(a) + i32::from(b)) >> 1;
                let halved = i32::from((a & b).wrapping_add((a ^ b) >> 1));
                assert_eq!(halved, exact, "a = {a}, b = {b}");
            }
        }
    }
}
