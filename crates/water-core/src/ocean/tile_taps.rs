//! [`Taps`]: the 16 Catmull-Rom samples of one tile around one point, and the reads a query
//! makes through them (periodic bicubic interpolation of a plane).
//!
//! A plane holds two fields a sample (one complex number), so four neighbouring samples of a
//! row are eight consecutive `f32`s. A read is then four rows of eight lanes, each multiplied
//! by its row's weights (`wy * wx` of each sample, once per field) and added lane by lane, and
//! at the end the lanes of each field summed. Written as lane arrays, it compiles to vector
//! instructions; the order of every operation is fixed (and no multiply-add is fused), so
//! every CPU and every vector width gives the same bits.

#![allow(unsafe_code, reason = "a plane's complex samples read as floats")]

use rustfft::num_complex::Complex;

use crate::ocean::ocean_synthesis::TileFields;

/// The weights and wrapped places of one tile's 16 samples around one point.
#[derive(Debug, Clone, Copy)]
pub(super) struct Taps {
    /// Where each of the four rows starts in a plane (`row * cells`).
    lines: [usize; 4],
    /// The four columns, wrapped into the tile.
    columns: [usize; 4],
    /// Whether the four columns are consecutive (no wrap between them).
    contiguous: bool,
    /// The columns' weights, each twice (once for each field of a sample): `wx[2k]` and
    /// `wx[2k + 1]` for column `k`.
    wx: [f32; 8],
    /// The rows' weights, each twice like `wx`.
    wy: [f32; 8],
    /// `d wx / dx`, per m, like `wx`.
    dwx: [f32; 8],
    /// `d wy / dy`, per m, like `wy`.
    dwy: [f32; 8],
}

/// Catmull-Rom's weights of the four samples around fraction `f` are cubics in `f`; these are
/// their coefficients (`CUBIC[3]` of `f^3` first, for Horner's rule), each twice like
/// [`Taps::wx`].
const CUBIC: [[f32; 8]; 4] = [
    [-0.5, -0.5, 1.5, 1.5, -1.5, -1.5, 0.5, 0.5],
    [1.0, 1.0, -2.5, -2.5, 2.0, 2.0, -0.5, -0.5],
    [-0.5, -0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0],
    [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
];

/// The cubics' derivatives in `f` (`SLOPE[2]` of `f^2` first).
const SLOPE: [[f32; 8]; 3] = [
    [-1.5, -1.5, 4.5, 4.5, -4.5, -4.5, 1.5, 1.5],
    [2.0, 2.0, -5.0, -5.0, 4.0, 4.0, -1.0, -1.0],
    [-0.5, -0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0],
];

/// Catmull-Rom weights at fraction `f` in `[0, 1)`, laid out like [`Taps::wx`].
#[inline(always)]
fn catmull_rom(f: f32) -> [f32; 8] {
    std::array::from_fn(|i| ((CUBIC[0][i] * f + CUBIC[1][i]) * f + CUBIC[2][i]) * f + CUBIC[3][i])
}

/// The weights' derivatives along the axis at fraction `f`, per m (`per_sample` = 1 / spacing).
#[inline(always)]
fn catmull_rom_slopes(f: f32, per_sample: f32) -> [f32; 8] {
    std::array::from_fn(|i| ((SLOPE[0][i] * f + SLOPE[1][i]) * f + SLOPE[2][i]) * per_sample)
}

/// The four wrapped sample indices along one axis of a tile of `n` samples (a power of two,
/// `tiling.rs`) at `coordinate * per_sample` (`per_sample` = 1 / spacing), and the fraction
/// past the second of them.
#[inline(always)]
fn axis(coordinate: f64, per_sample: f64, n: usize) -> ([usize; 4], f32) {
    let u = coordinate * per_sample;
    // The tile is periodic: a coordinate past 2^52 samples (where an f64 holds no fraction, and
    // past 2^63 the cast below saturates) is folded into one period first.
    let u = if u.abs() < 4.5e15 {
        u
    } else {
        u.rem_euclid(n as f64)
    };
    // `floor` without the library call (it is one where the target lacks SSE4.1).
    let truncated = u as i64;
    let base = truncated - i64::from(truncated as f64 > u);
    // Tiles are powers of two a side: a mask wraps without a division.
    let mask = n as i64 - 1;
    let idx = [0, 1, 2, 3].map(|k| ((base - 1 + k) & mask) as usize);
    // The fraction is in [0, 1) from an f64 position: as an f32 it is within 6e-8 of a sample
    // spacing, far below the interpolation's own error.
    (idx, (u - base as f64) as f32)
}

impl Taps {
    /// Taps of no point (weights zero), to fill an array before use.
    pub(super) const UNSET: Self = Self {
        lines: [0; 4],
        columns: [0, 1, 2, 3],
        contiguous: true,
        wx: [0.0; 8],
        wy: [0.0; 8],
        dwx: [0.0; 8],
        dwy: [0.0; 8],
    };

    /// The taps of `tile` around world point `p` (m), with the weights' derivatives where
    /// `SLOPES` (for [`Taps::read_with_slopes`]; zeros otherwise).
    #[inline(always)]
    pub(super) fn around<const SLOPES: bool>(tile: &TileFields, p: [f64; 2]) -> Self {
        let n = tile.cells;
        debug_assert!(
            n.is_power_of_two() && n >= 4,
            "tiles are powers of two a side"
        );
        let per_sample = 1.0 / tile.spacing;
        let (columns, fx) = axis(p[0], per_sample, n);
        let (rows, fy) = axis(p[1], per_sample, n);
        let (dwx, dwy) = if SLOPES {
            let per_sample = per_sample as f32;
            (
                catmull_rom_slopes(fx, per_sample),
                catmull_rom_slopes(fy, per_sample),
            )
        } else {
            ([0.0; 8], [0.0; 8])
        };
        Self {
            lines: rows.map(|r| r * n),
            columns,
            contiguous: columns[0] + 3 == columns[3],
            wx: catmull_rom(fx),
            wy: catmull_rom(fy),
            dwx,
            dwy,
        }
    }

    /// Row `r`'s four samples of `plane`: eight floats, the two fields of each in turn.
    #[inline(always)]
    fn row(&self, plane: &[Complex<f32>], r: usize) -> [f32; 8] {
        let line = self.lines[r];
        if self.contiguous {
            let start = 2 * (line + self.columns[0]);
            as_floats(plane)[start..start + 8]
                .try_into()
                .expect("eight floats")
        } else {
            let [a, b, c, d] = self.columns.map(|column| plane[line + column]);
            [a.re, a.im, b.re, b.im, c.re, c.im, d.re, d.im]
        }
    }

    /// The plane's two fields interpolated at the taps' point; `AVX2` only where the caller
    /// was compiled for AVX2 ([`avx2_available`] said so), which gives the same bits.
    #[inline(always)]
    pub(super) fn read<const AVX2: bool>(&self, plane: &[Complex<f32>]) -> [f32; 2] {
        #[cfg(target_arch = "x86_64")]
        if AVX2 && self.contiguous {
            // SAFETY: `AVX2` is true only in code compiled for AVX2 and entered after
            // `avx2_available()` (`SeaFrame`'s batch functions).
            return unsafe { self.read_avx2(as_floats(plane)) };
        }
        // The order of `read_avx2`: each row times its weights (`wy * wx`, rounded), the rows
        // added in turn, the halves added, then the two samples of each field in each half.
        let product = |r: usize| -> [f32; 8] {
            let row = self.row(plane, r);
            std::array::from_fn(|i| (self.wy[2 * r] * self.wx[i]) * row[i])
        };
        let mut lanes = product(0);
        for r in 1..4 {
            for (l, p) in lanes.iter_mut().zip(product(r)) {
                *l += p;
            }
        }
        reduce(lanes)
    }

    /// [`Taps::read`] of contiguous taps in AVX2 vectors: a row of four samples is one vector.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn read_avx2(&self, floats: &[f32]) -> [f32; 2] {
        use std::arch::x86_64::{_mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps};
        let column = self.columns[0];
        // SAFETY: `wx` is eight floats; the caller vouches for AVX2.
        let wx = unsafe { _mm256_loadu_ps(self.wx.as_ptr()) };
        let product = |r: usize| {
            let start = 2 * (self.lines[r] + column);
            let row = &floats[start..start + 8];
            let weights = _mm256_mul_ps(_mm256_set1_ps(self.wy[2 * r]), wx);
            // SAFETY: `row` is eight floats; the caller vouches for AVX2.
            unsafe { _mm256_mul_ps(weights, _mm256_loadu_ps(row.as_ptr())) }
        };
        let mut lanes = product(0);
        for r in 1..4 {
            lanes = _mm256_add_ps(lanes, product(r));
        }
        reduce_avx2(lanes)
    }

    /// The plane's two fields and their derivatives along x and y (per m) of the interpolant
    /// itself, at the taps' point: `[value, d/dx, d/dy]`, each a pair. One pass over the 16
    /// samples; `AVX2` as in [`Taps::read`].
    #[inline(always)]
    pub(super) fn read_with_slopes<const AVX2: bool>(
        &self,
        plane: &[Complex<f32>],
    ) -> [[f32; 2]; 3] {
        #[cfg(target_arch = "x86_64")]
        if AVX2 && self.contiguous {
            // SAFETY: as in `Taps::read`.
            return unsafe { self.read_with_slopes_avx2(as_floats(plane)) };
        }
        // The order of `read_with_slopes_avx2`, as `read`'s is `read_avx2`'s.
        let products = |r: usize| -> [[f32; 8]; 3] {
            let row = self.row(plane, r);
            [
                std::array::from_fn(|i| (self.wy[2 * r] * self.wx[i]) * row[i]),
                std::array::from_fn(|i| (self.wy[2 * r] * self.dwx[i]) * row[i]),
                std::array::from_fn(|i| (self.dwy[2 * r] * self.wx[i]) * row[i]),
            ]
        };
        let mut lanes = products(0);
        for r in 1..4 {
            for (lane, product) in lanes.iter_mut().zip(products(r)) {
                for (l, p) in lane.iter_mut().zip(product) {
                    *l += p;
                }
            }
        }
        lanes.map(reduce)
    }

    /// [`Taps::read_with_slopes`] of contiguous taps in AVX2 vectors.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn read_with_slopes_avx2(&self, floats: &[f32]) -> [[f32; 2]; 3] {
        use std::arch::x86_64::{_mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps};
        let column = self.columns[0];
        // SAFETY: `wx` and `dwx` are eight floats each; the caller vouches for AVX2.
        let (wx, dwx) = unsafe {
            (
                _mm256_loadu_ps(self.wx.as_ptr()),
                _mm256_loadu_ps(self.dwx.as_ptr()),
            )
        };
        let products = |r: usize| {
            let start = 2 * (self.lines[r] + column);
            let row = &floats[start..start + 8];
            // SAFETY: `row` is eight floats; the caller vouches for AVX2.
            let row = unsafe { _mm256_loadu_ps(row.as_ptr()) };
            let (wy, dwy) = (
                _mm256_set1_ps(self.wy[2 * r]),
                _mm256_set1_ps(self.dwy[2 * r]),
            );
            [
                _mm256_mul_ps(_mm256_mul_ps(wy, wx), row),
                _mm256_mul_ps(_mm256_mul_ps(wy, dwx), row),
                _mm256_mul_ps(_mm256_mul_ps(dwy, wx), row),
            ]
        };
        let [mut v, mut gx, mut gy] = products(0);
        for r in 1..4 {
            let [pv, px, py] = products(r);
            v = _mm256_add_ps(v, pv);
            gx = _mm256_add_ps(gx, px);
            gy = _mm256_add_ps(gy, py);
        }
        [reduce_avx2(v), reduce_avx2(gx), reduce_avx2(gy)]
    }
}

/// The eight lanes of two interleaved fields summed to the pair: the halves added, then the
/// two samples of each field left in each half (the order of [`reduce_avx2`]).
#[inline(always)]
fn reduce(lanes: [f32; 8]) -> [f32; 2] {
    let half: [f32; 4] = std::array::from_fn(|i| lanes[i] + lanes[i + 4]);
    [half[0] + half[2], half[1] + half[3]]
}

/// The eight lanes of two interleaved fields summed to the pair: the halves added, then the
/// two samples of each field left in each half.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn reduce_avx2(lanes: std::arch::x86_64::__m256) -> [f32; 2] {
    use std::arch::x86_64::{
        _mm256_castps256_ps128, _mm256_extractf128_ps, _mm_add_ps, _mm_movehl_ps, _mm_storeu_ps,
    };
    let half = _mm_add_ps(
        _mm256_castps256_ps128(lanes),
        _mm256_extractf128_ps::<1>(lanes),
    );
    let sum = _mm_add_ps(half, _mm_movehl_ps(half, half));
    let mut out = [0.0; 4];
    // SAFETY: `out` holds four floats.
    unsafe { _mm_storeu_ps(out.as_mut_ptr(), sum) };
    [out[0], out[1]]
}

/// Whether this CPU runs [`Taps::read`]'s AVX2 path.
#[inline]
pub(super) fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A plane's samples as floats: the real and imaginary part of each in turn.
#[inline(always)]
fn as_floats(plane: &[Complex<f32>]) -> &[f32] {
    // SAFETY: `Complex<f32>` is `#[repr(C)]` with fields `re` then `im`, two `f32`s with no
    // padding, so `len` of them are `2 * len` `f32`s at the same address, equally aligned.
    unsafe { std::slice::from_raw_parts(plane.as_ptr().cast::<f32>(), plane.len() * 2) }
}
