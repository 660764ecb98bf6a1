//! The reads of [`Taps`] in AVX2 vectors: a row of four samples (eight floats) is one vector.
//! They make exactly the operations of `Taps::read_portable`, in the same order and with no
//! fused multiply-add, so they give the same bits (tested in `tile_taps.rs`). And [`Avx2`], the
//! proof that the CPU has AVX2 that every vector read here and in `lane_reads_x86.rs` takes.
#![allow(unsafe_code, reason = "SIMD intrinsics and target_feature functions")]

use std::arch::x86_64::{
    __m256, _mm256_add_ps, _mm256_castps256_ps128, _mm256_extractf128_ps, _mm256_loadu_ps,
    _mm256_mul_ps, _mm256_set1_ps, _mm_add_ps, _mm_movehl_ps, _mm_storeu_ps,
};

use rustfft::num_complex::Complex;

use crate::ocean::ocean_synthesis::TileFields;
use crate::ocean::point_reads_x86;
use crate::ocean::tile_taps::{as_floats, Lanes, Taps};

/// Proof that this CPU has AVX2: a value exists only where [`Avx2::detect`] found it, so a
/// read through it never runs an instruction the CPU lacks.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// `Some` where this CPU has AVX2.
    #[inline]
    pub(super) fn detect() -> Option<Self> {
        std::arch::is_x86_feature_detected!("avx2").then_some(Self(()))
    }

    /// [`Avx2::detect`] for a test, which says on stderr what it skips (`skipped`) where this
    /// CPU has no AVX2.
    #[cfg(test)]
    pub(super) fn detect_or_say(skipped: &str) -> Option<Self> {
        let avx2 = Self::detect();
        if avx2.is_none() {
            eprintln!("this CPU has no AVX2: {skipped}");
        }
        avx2
    }
}

impl Lanes for Avx2 {
    #[inline(always)]
    fn height_read(self, tiles: &[TileFields], p: [f64; 2]) -> f32 {
        point_reads_x86::height_read(self, tiles, p)
    }

    #[inline(always)]
    fn displacement_read(self, tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3] {
        point_reads_x86::displacement_read(self, tiles, p)
    }

    #[inline(always)]
    fn read(self, taps: &Taps, plane: &[Complex<f32>]) -> [f32; 2] {
        if taps.contiguous {
            // SAFETY: `self` exists, so the CPU has AVX2.
            unsafe { read(taps, as_floats(plane)) }
        } else {
            taps.read_portable(plane)
        }
    }
}

/// `Taps::read_portable` of contiguous taps.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn read(taps: &Taps, floats: &[f32]) -> [f32; 2] {
    let column = taps.columns[0];
    // SAFETY: `wx` is eight floats; the caller vouches for AVX2.
    let wx = unsafe { _mm256_loadu_ps(taps.wx.as_ptr()) };
    let product = |r: usize| {
        let start = 2 * (taps.lines[r] + column);
        let row = &floats[start..start + 8];
        let weights = _mm256_mul_ps(_mm256_set1_ps(taps.wy[2 * r]), wx);
        // SAFETY: `row` is eight floats; the caller vouches for AVX2.
        unsafe { _mm256_mul_ps(weights, _mm256_loadu_ps(row.as_ptr())) }
    };
    let mut lanes = product(0);
    for r in 1..4 {
        lanes = _mm256_add_ps(lanes, product(r));
    }
    reduce(lanes)
}

/// The eight lanes of two interleaved fields summed to the pair: the halves added, then the
/// two samples of each field left in each half (the order of `tile_taps::reduce`).
#[target_feature(enable = "avx2")]
#[inline]
fn reduce(lanes: __m256) -> [f32; 2] {
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
