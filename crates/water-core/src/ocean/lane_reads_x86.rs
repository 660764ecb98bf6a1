//! The reads of `lane_reads.rs` for eight points at once: each AVX2 vector holds one number of
//! each of eight points, the samples come row by row, a load a point turned into one vector a
//! sample, and every lane makes the reference's `f32` operations in the reference's order with
//! no fused multiply-add, so it gives the bits `height_read` and `displacement_read` give for
//! its point (tested below).
//!
//! The two reads are the AVX2 functions; their helpers are `inline(always)` into them (a helper
//! with a `target_feature` of its own would be left a call, its vectors passed through memory).

#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    __m256, _mm256_add_epi32, _mm256_add_ps, _mm256_and_si256, _mm256_andnot_pd,
    _mm256_castsi256_ps, _mm256_cmp_pd, _mm256_cmpgt_epi32, _mm256_cvtpd_ps, _mm256_cvttpd_epi32,
    _mm256_floor_pd, _mm256_loadu_ps, _mm256_movemask_pd, _mm256_movemask_ps, _mm256_mul_pd,
    _mm256_mul_ps, _mm256_permute2f128_ps, _mm256_set1_epi32, _mm256_set1_pd, _mm256_set1_ps,
    _mm256_set_m128, _mm256_set_m128i, _mm256_set_pd, _mm256_setzero_ps, _mm256_shuffle_ps,
    _mm256_sllv_epi32, _mm256_storeu_ps, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_sub_pd,
    _mm256_unpackhi_ps, _mm256_unpacklo_ps, _mm_setzero_ps, _mm_setzero_si128, _CMP_LT_OQ,
};

use crate::ocean::lane_reads::{Corner, WEIGHTS, WEIGHT_SLOPES};
use crate::ocean::ocean_synthesis::{SeaField, TileFields};
use crate::ocean::tile_taps::as_floats;
use crate::ocean::tile_taps_x86::Avx2;

/// How many points a read takes at once: the `f32` lanes of an AVX2 vector.
pub(super) const LANES: usize = 8;

/// Eight points' heights at their undisplaced points `p` (as `height_read`).
#[inline(always)]
pub(super) fn height_reads(_: Avx2, tiles: &[TileFields], p: &[[f64; 2]; LANES]) -> [f32; LANES] {
    // SAFETY: an `Avx2` exists, so the CPU has AVX2.
    unsafe { height_reads_avx2(tiles, p) }
}

/// Eight points' displacements and their derivatives (as `displacement_read`), each of the
/// three a pair of lanes of eight: `[D, dD/dx, dD/dy]`, each `[x part, y part]`.
#[inline(always)]
pub(super) fn displacement_reads(
    _: Avx2,
    tiles: &[TileFields],
    p: &[[f64; 2]; LANES],
) -> [[[f32; LANES]; 2]; 3] {
    // SAFETY: an `Avx2` exists, so the CPU has AVX2.
    unsafe { displacement_reads_avx2(tiles, p) }
}

/// [`height_reads`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn height_reads_avx2(tiles: &[TileFields], p: &[[f64; 2]; LANES]) -> [f32; LANES] {
    let mut height = _mm256_setzero_ps();
    for tile in tiles {
        let corners = corners!(tile, p);
        let floats = as_floats(tile.plane_of(SeaField::Height));
        let (fx, fy) = (corners.fx, corners.fy);
        let (wx, wy) = (weights!(fx), weights!(fy));
        let mut rows = [_mm256_setzero_ps(); 4];
        for (j, row) in rows.iter_mut().enumerate() {
            let s = row_samples!(floats, corners, tile.cells, j);
            *row = _mm256_mul_ps(wy[j], dot!(wx, [s[0], s[2], s[4], s[6]]));
        }
        height = _mm256_add_ps(height, pairwise!(rows));
    }
    store(height)
}

/// [`displacement_reads`].
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn displacement_reads_avx2(
    tiles: &[TileFields],
    p: &[[f64; 2]; LANES],
) -> [[[f32; LANES]; 2]; 3] {
    let mut sums = [[_mm256_setzero_ps(); 2]; 3];
    for tile in tiles {
        let corners = corners!(tile, p);
        let floats = as_floats(tile.plane_of(SeaField::DisplacementX));
        let per_sample = _mm256_set1_ps((1.0 / tile.spacing) as f32);
        let (fx, fy) = (corners.fx, corners.fy);
        let (wx, wy) = (weights!(fx), weights!(fy));
        let (dwx, dwy) = (
            weight_slopes!(fx, per_sample),
            weight_slopes!(fy, per_sample),
        );
        // Row `j` of each quantity and field (`[D, dD/dx, dD/dy]`, each `[x, y]`), times its
        // row weight.
        macro_rules! row {
            ($j:expr) => {{
                let j: usize = $j;
                let s = row_samples!(floats, corners, tile.cells, j);
                // Written out, not `[0, 1].map(..)`: a closure left uninlined would run
                // without AVX2, its vectors through memory (seen: +25% of a step at sea).
                let x = [s[0], s[2], s[4], s[6]];
                let y = [s[1], s[3], s[5], s[7]];
                let (along, slope) = ([dot!(wx, x), dot!(wx, y)], [dot!(dwx, x), dot!(dwx, y)]);
                let quantities = [
                    [
                        _mm256_mul_ps(wy[j], along[0]),
                        _mm256_mul_ps(wy[j], along[1]),
                    ],
                    [
                        _mm256_mul_ps(wy[j], slope[0]),
                        _mm256_mul_ps(wy[j], slope[1]),
                    ],
                    [
                        _mm256_mul_ps(dwy[j], along[0]),
                        _mm256_mul_ps(dwy[j], along[1]),
                    ],
                ];
                quantities
            }};
        }
        // `pairwise`, `(r0 + r1) + (r2 + r3)`, each pair added as soon as it is read (an array
        // of all the rows would be zeroed through memory first).
        macro_rules! pair {
            ($a:expr, $b:expr) => {{
                let (mut a, b) = ($a, $b);
                for q in 0..3 {
                    for k in 0..2 {
                        a[q][k] = _mm256_add_ps(a[q][k], b[q][k]);
                    }
                }
                a
            }};
        }
        let low = pair!(row!(0), row!(1));
        let high = pair!(row!(2), row!(3));
        for q in 0..3 {
            for k in 0..2 {
                sums[q][k] = _mm256_add_ps(sums[q][k], _mm256_add_ps(low[q][k], high[q][k]));
            }
        }
    }
    let mut out = [[[0.0; LANES]; 2]; 3];
    for (o, sum) in out.iter_mut().zip(sums) {
        for k in 0..2 {
            o[k] = store(sum[k]);
        }
    }
    out
}

// The helpers below are macros, not functions: a function of its own would need AVX2 enabled
// on it to inline the intrinsics, and is then left a call with its vectors passed through
// memory (measured: about fifteen times slower).

/// `lane_reads::weights` in each lane of `f`: `[__m256; 4]`.
macro_rules! weights {
    ($f:expr) => {{
        let f = $f;
        let mut w = [_mm256_setzero_ps(); 4];
        for (w, [a, b, c, d]) in w.iter_mut().zip(WEIGHTS) {
            let v = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), f), _mm256_set1_ps(b));
            let v = _mm256_add_ps(_mm256_mul_ps(v, f), _mm256_set1_ps(c));
            *w = _mm256_add_ps(_mm256_mul_ps(v, f), _mm256_set1_ps(d));
        }
        w
    }};
}
use weights;

/// `lane_reads::weight_slopes` in each lane of `f`, times the lanes of `per_sample`.
macro_rules! weight_slopes {
    ($f:expr, $per_sample:expr) => {{
        let (f, per_sample) = ($f, $per_sample);
        let mut w = [_mm256_setzero_ps(); 4];
        for (w, [a, b, c]) in w.iter_mut().zip(WEIGHT_SLOPES) {
            let v = _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(a), f), _mm256_set1_ps(b));
            let v = _mm256_add_ps(_mm256_mul_ps(v, f), _mm256_set1_ps(c));
            *w = _mm256_mul_ps(v, per_sample);
        }
        w
    }};
}
use weight_slopes;

/// The four samples of row `j` around each lane's corner in `floats` (a tile's plane of `n * n`
/// samples, two floats each), as `[__m256; 8]`: both floats of the first sample of every lane,
/// then of the second, and so on. Each lane's eight floats are one load where its four columns
/// are consecutive (gathered around the tile's edge where not), and the eight lanes' loads are
/// turned into one vector a float.
macro_rules! row_samples {
    ($floats:expr, $corners:expr, $n:expr, $j:expr) => {{
        let (floats, n, j): (&[f32], u32, u32) = ($floats, $n as u32, $j as u32);
        let mask = n - 1;
        let mut rows = [_mm256_setzero_ps(); LANES];
        if $corners.consecutive {
            assert!(floats.len() >= 2 * (n * n) as usize, "a tile's plane");
            for (row, start) in rows.iter_mut().zip($corners.starts[j as usize]) {
                // SAFETY: `start` is `2 (line + column)` with `line <= (n - 1) n` and
                // `column + 3 < n`, so its eight floats end by `2 n^2`, within the plane.
                *row = unsafe { _mm256_loadu_ps(floats.as_ptr().add(start as usize)) };
            }
        } else {
            for (lane, row) in rows.iter_mut().enumerate() {
                let line = (($corners.row[lane] + j) & mask) * n;
                let column = $corners.column[lane];
                if column + 3 < n {
                    let start = 2 * (line + column) as usize;
                    let eight = &floats[start..start + 8];
                    // SAFETY: `eight` is eight floats.
                    *row = unsafe { _mm256_loadu_ps(eight.as_ptr()) };
                } else {
                    let mut eight = [0.0f32; 8];
                    for i in 0..4 {
                        let at = 2 * (line + ((column + i) & mask)) as usize;
                        eight[2 * i as usize] = floats[at];
                        eight[2 * i as usize + 1] = floats[at + 1];
                    }
                    // SAFETY: `eight` is eight floats.
                    *row = unsafe { _mm256_loadu_ps(eight.as_ptr()) };
                }
            }
        }
        transpose!(rows)
    }};
}
use row_samples;

/// The 8 x 8 transpose of eight vectors: lane `l` of vector `v` becomes lane `v` of vector `l`.
macro_rules! transpose {
    ($rows:expr) => {{
        let r = $rows;
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let t6 = _mm256_unpacklo_ps(r[6], r[7]);
        let t7 = _mm256_unpackhi_ps(r[6], r[7]);
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ]
    }};
}
use transpose;

/// `lane_reads::pairwise` in each lane.
macro_rules! pairwise {
    ($rows:expr) => {{
        let r: [__m256; 4] = $rows;
        _mm256_add_ps(_mm256_add_ps(r[0], r[1]), _mm256_add_ps(r[2], r[3]))
    }};
}
use pairwise;

/// `lane_reads::dot` in each lane: the products added left to right.
macro_rules! dot {
    ($weights:expr, $samples:expr) => {{
        let (w, s) = (&$weights, &$samples);
        let mut sum = _mm256_mul_ps(w[0], s[0]);
        for i in 1..4 {
            sum = _mm256_add_ps(sum, _mm256_mul_ps(w[i], s[i]));
        }
        sum
    }};
}
use dot;

/// Eight points' [`Corner`]s in one tile, by [`Corner::of`] one point at a time (so each lane's
/// are the reference's).
struct Corners {
    /// The columns before the points', wrapped.
    column: [u32; LANES],
    /// The rows before the points', wrapped.
    row: [u32; LANES],
    /// The fractions along x.
    fx: __m256,
    /// The fractions along y.
    fy: __m256,
    /// Where each of the four rows of each lane starts in a plane, in floats.
    starts: [[u32; LANES]; 4],
    /// Whether every lane's four columns are consecutive (none wraps around the tile's edge).
    consecutive: bool,
}

impl Corners {
    /// The corners of `tile`'s samples around each of `p`, by [`Corner::of`] one point at a time.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[inline(always)]
    unsafe fn one_at_a_time(tile: &TileFields, p: &[[f64; 2]; LANES]) -> Self {
        let (mut column, mut row) = ([0; LANES], [0; LANES]);
        let (mut fx, mut fy) = ([0.0; LANES], [0.0; LANES]);
        for (lane, p) in p.iter().enumerate() {
            let c = Corner::of(tile, *p);
            (column[lane], row[lane], fx[lane], fy[lane]) = (c.column, c.row, c.fx, c.fy);
        }
        // SAFETY: each array is eight floats; the caller vouches for AVX2.
        let (fx, fy) = unsafe { (_mm256_loadu_ps(fx.as_ptr()), _mm256_loadu_ps(fy.as_ptr())) };
        let n = tile.cells as u32;
        let mut starts = [[0; LANES]; 4];
        for (j, starts) in starts.iter_mut().enumerate() {
            for (lane, start) in starts.iter_mut().enumerate() {
                *start = 2 * (((row[lane] + j as u32) & (n - 1)) * n + column[lane]);
            }
        }
        let consecutive = column.iter().all(|c| c + 3 < n);
        Self {
            column,
            row,
            fx,
            fy,
            starts,
            consecutive,
        }
    }
}

/// [`Corners`] of a tile (`&TileFields`) around eight points (`&[[f64; 2]; LANES]`): four lanes
/// of `f64` at a time, each lane's the numbers [`Corner::of`] makes (the floor is exact; the
/// fraction is `u - floor(u)` rounded to `f64` and then to `f32` as there; the wrapped index is
/// the floor less its multiple of `n`, exact below 2^52); points beyond that reach, or not
/// finite, one at a time.
macro_rules! corners {
    ($tile:expr, $p:expr) => {{
        let (tile, p): (&TileFields, &[[f64; 2]; LANES]) = ($tile, $p);
        let per_sample = _mm256_set1_pd(1.0 / tile.spacing);
        let n = _mm256_set1_pd(tile.cells as f64);
        let per_n = _mm256_set1_pd(1.0 / tile.cells as f64);
        let reach = _mm256_set1_pd(4.5e15);
        let sign = _mm256_set1_pd(-0.0);
        let mut places = [[_mm_setzero_si128(); 2]; 2];
        let mut fractions = [[_mm_setzero_ps(); 2]; 2];
        let mut within = true;
        for axis in 0..2 {
            for half in 0..2 {
                let q = &p[4 * half..4 * half + 4];
                let u = _mm256_mul_pd(
                    _mm256_set_pd(q[3][axis], q[2][axis], q[1][axis], q[0][axis]),
                    per_sample,
                );
                let near = _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_andnot_pd(sign, u), reach);
                within &= _mm256_movemask_pd(near) == 0xF;
                let base = _mm256_floor_pd(u);
                fractions[axis][half] = _mm256_cvtpd_ps(_mm256_sub_pd(u, base));
                let periods = _mm256_floor_pd(_mm256_mul_pd(base, per_n));
                let wrapped = _mm256_sub_pd(base, _mm256_mul_pd(periods, n));
                places[axis][half] = _mm256_cvttpd_epi32(wrapped);
            }
        }
        if within {
            let mask = _mm256_set1_epi32(tile.cells as i32 - 1);
            let one = _mm256_set1_epi32(1);
            let mut before = [[0u32; LANES]; 2];
            for (out, [low, high]) in before.iter_mut().zip(places) {
                let v = _mm256_and_si256(_mm256_sub_epi32(_mm256_set_m128i(high, low), one), mask);
                // SAFETY: `out` is eight 32-bit lanes.
                unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) };
            }
            let [[x_low, x_high], [y_low, y_high]] = fractions;
            // Each row's start, `2 (((row + j) & mask) n + column)`, and whether every lane's
            // `column + 3` is below `n`.
            let (columns, rows) = (
                _mm256_and_si256(
                    _mm256_sub_epi32(_mm256_set_m128i(places[0][1], places[0][0]), one),
                    mask,
                ),
                _mm256_and_si256(
                    _mm256_sub_epi32(_mm256_set_m128i(places[1][1], places[1][0]), one),
                    mask,
                ),
            );
            let shift = _mm256_set1_epi32(tile.cells.trailing_zeros() as i32);
            let mut starts = [[0u32; LANES]; 4];
            for (j, out) in starts.iter_mut().enumerate() {
                let row =
                    _mm256_and_si256(_mm256_add_epi32(rows, _mm256_set1_epi32(j as i32)), mask);
                let start = _mm256_add_epi32(_mm256_sllv_epi32(row, shift), columns);
                // SAFETY: `out` is eight 32-bit lanes.
                unsafe {
                    _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_add_epi32(start, start))
                };
            }
            let last = _mm256_set1_epi32(tile.cells as i32 - 3);
            let consecutive =
                _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(last, columns))) == 0xFF;
            Corners {
                column: before[0],
                row: before[1],
                fx: _mm256_set_m128(x_high, x_low),
                fy: _mm256_set_m128(y_high, y_low),
                starts,
                consecutive,
            }
        } else {
            // SAFETY: the caller vouches for AVX2.
            unsafe { Corners::one_at_a_time(tile, p) }
        }
    }};
}
use corners;

/// A vector's eight lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn store(v: __m256) -> [f32; LANES] {
    let mut out = [0.0; LANES];
    // SAFETY: `out` holds eight floats.
    unsafe { _mm256_storeu_ps(out.as_mut_ptr(), v) };
    out
}

#[cfg(test)]
mod tests {
    use super::{displacement_reads, height_reads, LANES};
    use crate::ocean::lane_reads::{displacement_read, height_read};
    use crate::ocean::point_reads_x86;
    use crate::ocean::sea_frame::tests::choppy_frame;
    use crate::ocean::tile_taps::tests::scattered;
    use crate::ocean::tile_taps_x86::Avx2;

    #[test]
    fn each_lane_and_the_one_point_vector_reads_give_the_references_bits() {
        let Some(avx2) = Avx2::detect_or_say("there are no vector reads to hold to the reference")
        else {
            return;
        };
        let frame = choppy_frame();
        let tiles = frame.tiles();
        let side = tiles[0].spacing * tiles[0].cells as f64;
        // Scattered points, points on the tiles' edges (wrapped reads) and far ones.
        let mut points = scattered(side, 4000);
        for tile in tiles {
            let edge = tile.spacing * tile.cells as f64;
            points.extend((0..64).map(|i| [edge - 0.3 * tile.spacing * f64::from(i % 9), -edge]));
        }
        points.extend([[1e17, -3e16], [-2.5e15, 7.0], [4.4e15, 4.6e15]]);
        while !points.len().is_multiple_of(LANES) {
            points.push([0.5, 0.25]);
        }
        let bits = |v: f32| v.to_bits();
        for group in points.chunks_exact(LANES) {
            let group: [[f64; 2]; LANES] = group.try_into().expect("eight points");
            let heights = height_reads(avx2, tiles, &group);
            let displacements = displacement_reads(avx2, tiles, &group);
            for (lane, p) in group.iter().enumerate() {
                let height = height_read(tiles, *p);
                assert_eq!(bits(heights[lane]), bits(height), "h at {p:?}");
                let alone = displacement_read(tiles, *p);
                // The one-point vector reads too.
                let one = point_reads_x86::height_read(avx2, tiles, *p);
                assert_eq!(bits(one), bits(height), "h of one point at {p:?}");
                let vector = point_reads_x86::displacement_read(avx2, tiles, *p);
                let all_bits = |read: [[f32; 2]; 3]| read.map(|v| v.map(bits));
                assert_eq!(all_bits(vector), all_bits(alone), "D of one point at {p:?}");
                for (read, want) in displacements.iter().zip(alone) {
                    for k in 0..2 {
                        assert_eq!(bits(read[k][lane]), bits(want[k]), "D at {p:?}");
                    }
                }
            }
        }
    }
}
