//! The reads of `lane_reads.rs` for one point in AVX2 vectors, for the queries of one point at
//! a time: each tile's four rows are loaded whole (four samples, two floats each) and turned so
//! that one vector holds a column's sample of every row, and each row's sum along the columns
//! is then one lane, both fields at once. Every lane makes the reference's operations in the
//! reference's order, and the rows enter the sums in the reference's pairs, so the reads give
//! the reference's bits (tested in `lane_reads_x86.rs`).

#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_castpd_ps, _mm256_castps256_ps128, _mm256_castps_pd,
    _mm256_extractf128_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_permute2f128_pd,
    _mm256_permute_ps, _mm256_permutevar8x32_ps, _mm256_set1_epi32, _mm256_set1_ps,
    _mm256_setr_epi32, _mm256_setr_ps, _mm256_unpackhi_pd, _mm256_unpacklo_pd, _mm_add_ps,
    _mm_cvtss_f32, _mm_setzero_ps, _mm_storeu_ps,
};

use crate::ocean::lane_reads::{Corner, WEIGHTS, WEIGHT_SLOPES};
use crate::ocean::ocean_synthesis::{SeaField, TileFields};
use crate::ocean::tile_taps::as_floats;
use crate::ocean::tile_taps_x86::Avx2;

/// `lane_reads::height_read`.
#[inline(always)]
pub(super) fn height_read(_: Avx2, tiles: &[TileFields], p: [f64; 2]) -> f32 {
    // SAFETY: an `Avx2` exists, so the CPU has AVX2.
    unsafe { height_read_avx2(tiles, p) }
}

/// `lane_reads::displacement_read`.
#[inline(always)]
pub(super) fn displacement_read(_: Avx2, tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3] {
    // SAFETY: an `Avx2` exists, so the CPU has AVX2.
    unsafe { displacement_read_avx2(tiles, p) }
}

/// [`height_read`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn height_read_avx2(tiles: &[TileFields], p: [f64; 2]) -> f32 {
    let mut height = _mm_setzero_ps();
    for tile in tiles {
        let corner = Corner::of(tile, p);
        let w = horner!(BOTH_WEIGHTS, corner);
        let floats = as_floats(tile.plane_of(SeaField::Height));
        let rows = along_rows!(w, columns!(floats, corner, tile.cells));
        height = _mm_add_ps(height, pairwise!(_mm256_mul_ps(paired!(w), rows)));
    }
    _mm_cvtss_f32(height)
}

/// [`displacement_read`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn displacement_read_avx2(tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3] {
    let mut sums = [_mm_setzero_ps(); 3];
    for tile in tiles {
        let corner = Corner::of(tile, p);
        let per_sample = _mm256_set1_ps((1.0 / tile.spacing) as f32);
        let w = horner!(BOTH_WEIGHTS, corner);
        let dw = _mm256_mul_ps(horner!(BOTH_SLOPES, corner), per_sample);
        let floats = as_floats(tile.plane_of(SeaField::DisplacementX));
        let columns = columns!(floats, corner, tile.cells);
        let (along, slope) = (along_rows!(w, columns), along_rows!(dw, columns));
        let (wy, dwy) = (paired!(w), paired!(dw));
        let products = [
            _mm256_mul_ps(wy, along),
            _mm256_mul_ps(wy, slope),
            _mm256_mul_ps(dwy, along),
        ];
        for (sum, product) in sums.iter_mut().zip(products) {
            *sum = _mm_add_ps(*sum, pairwise!(product));
        }
    }
    let mut out = [[0.0f32; 2]; 3];
    for (o, sum) in out.iter_mut().zip(sums) {
        let mut four = [0.0f32; 4];
        // SAFETY: `four` holds four floats.
        unsafe { _mm_storeu_ps(four.as_mut_ptr(), sum) };
        *o = [four[0], four[1]];
    }
    out
}

/// The coefficients of `lane_reads::WEIGHTS` by power (`f^3` first), once for x (lanes 0-3)
/// and once for y (4-7).
const BOTH_WEIGHTS: [[f32; 8]; 4] = by_power::<4>(WEIGHTS);
/// The same of `lane_reads::WEIGHT_SLOPES` (`f^2` first; the last row zero).
const BOTH_SLOPES: [[f32; 8]; 4] = by_power::<3>(WEIGHT_SLOPES);

/// `weights[k][p]` into row `p`, lanes `k` and `k + 4` (rows past `P` zero).
const fn by_power<const P: usize>(weights: [[f32; P]; 4]) -> [[f32; 8]; 4] {
    let mut out = [[0.0; 8]; 4];
    let mut p = 0;
    while p < P {
        let mut k = 0;
        while k < 4 {
            out[p][k] = weights[k][p];
            out[p][k + 4] = weights[k][p];
            k += 1;
        }
        p += 1;
    }
    out
}

// Macros rather than functions: a function of its own would need AVX2 enabled on it to inline
// the intrinsics, and is then left a call with its vectors passed through memory.

/// The 16 samples of a tile's plane (`&[f32]` of `n * n` samples, two floats each) around
/// `corner`, as four vectors, one a column: `[row 0's sample, row 1's, row 2's, row 3's]`,
/// both floats of each.
macro_rules! columns {
    ($floats:expr, $corner:expr, $n:expr) => {{
        let (floats, corner, n): (&[f32], Corner, u32) = ($floats, $corner, $n as u32);
        let mask = n - 1;
        let mut rows = [_mm256_set1_ps(0.0); 4];
        for (j, row) in rows.iter_mut().enumerate() {
            let line = ((corner.row + j as u32) & mask) * n;
            if corner.column + 3 < n {
                let start = 2 * (line + corner.column) as usize;
                let eight = &floats[start..start + 8];
                // SAFETY: `eight` is eight floats.
                *row = unsafe { _mm256_loadu_ps(eight.as_ptr()) };
            } else {
                let mut eight = [0.0f32; 8];
                for i in 0..4 {
                    let at = 2 * (line + ((corner.column + i) & mask)) as usize;
                    eight[2 * i as usize] = floats[at];
                    eight[2 * i as usize + 1] = floats[at + 1];
                }
                // SAFETY: `eight` is eight floats.
                *row = unsafe { _mm256_loadu_ps(eight.as_ptr()) };
            }
        }
        // A 4 x 4 turn of the samples (pairs of floats, as f64 lanes).
        let r = [
            _mm256_castps_pd(rows[0]),
            _mm256_castps_pd(rows[1]),
            _mm256_castps_pd(rows[2]),
            _mm256_castps_pd(rows[3]),
        ];
        let (t0, t1) = (
            _mm256_unpacklo_pd(r[0], r[1]),
            _mm256_unpackhi_pd(r[0], r[1]),
        );
        let (t2, t3) = (
            _mm256_unpacklo_pd(r[2], r[3]),
            _mm256_unpackhi_pd(r[2], r[3]),
        );
        [
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(t0, t2)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(t1, t3)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(t0, t2)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(t1, t3)),
        ]
    }};
}
use columns;

/// Each row's `weights · samples` (the weights of [`horner`], lanes 0-3 along x; the four
/// column vectors of [`columns`]), added left to right: lane `2 j + k` is row `j`'s sum of
/// field `k`.
macro_rules! along_rows {
    ($weights:expr, $columns:expr) => {{
        let (w, c): (__m256, [__m256; 4]) = ($weights, $columns);
        let mut column = [w; 4];
        for (i, column) in column.iter_mut().enumerate() {
            *column = _mm256_permutevar8x32_ps(w, _mm256_set1_epi32(i as i32));
        }
        let mut sum = _mm256_mul_ps(column[0], c[0]);
        for i in 1..4 {
            sum = _mm256_add_ps(sum, _mm256_mul_ps(column[i], c[i]));
        }
        sum
    }};
}
use along_rows;

/// The four weights along x (lanes 0-3) and along y (4-7) at `corner`'s fractions by Horner's
/// rule over `$powers` (`BOTH_WEIGHTS` or `BOTH_SLOPES`, whose last power is then zero and
/// adds nothing but a zero): `lane_reads::weights` or `weight_slopes` (before `per_sample`).
macro_rules! horner {
    ($powers:expr, $corner:expr) => {{
        let (fx, fy) = ($corner.fx, $corner.fy);
        let f = _mm256_setr_ps(fx, fx, fx, fx, fy, fy, fy, fy);
        let c: [[f32; 8]; 4] = $powers;
        let mut power = [f; 4];
        for (power, c) in power.iter_mut().zip(&c) {
            // SAFETY: each row is eight floats.
            *power = unsafe { _mm256_loadu_ps(c.as_ptr()) };
        }
        let w = _mm256_add_ps(_mm256_mul_ps(power[0], f), power[1]);
        let w = _mm256_add_ps(_mm256_mul_ps(w, f), power[2]);
        if c[3] == [0.0; 8] {
            w
        } else {
            _mm256_add_ps(_mm256_mul_ps(w, f), power[3])
        }
    }};
}
use horner;

/// Each row's weight along y (lanes 4-7 of [`horner`]'s) twice, once for each field:
/// `[w0, w0, w1, w1, w2, w2, w3, w3]`.
macro_rules! paired {
    ($weights:expr) => {
        _mm256_permutevar8x32_ps($weights, _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7))
    };
}
use paired;

/// `lane_reads::pairwise` of the four rows of each field (lane `2 j + k` row `j`'s of field
/// `k`): field `k`'s sum in lane `k` of a four-lane vector.
macro_rules! pairwise {
    ($rows:expr) => {{
        let r: __m256 = $rows;
        // Row 0 beside row 1 and row 2 beside row 3: swap the pairs of each half and add.
        let pairs = _mm256_add_ps(r, _mm256_permute_ps::<0x4E>(r));
        _mm_add_ps(
            _mm256_castps256_ps128(pairs),
            _mm256_extractf128_ps::<1>(pairs),
        )
    }};
}
use pairwise;
