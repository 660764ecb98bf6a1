//! How a compute grid stores its cells: f32, or IEEE binary16 ("f16") packed two to a `u32`
//! word, with all arithmetic in f32 either way.
//! GPU twin of the conversions: `shaders/shared/f16_packing.wgsl`.
//!
//! f16 storage halves the bytes a step moves per cell. It needs no device feature and no shader
//! capability: the buffers stay `array<u32>`, and the shaders convert with integer arithmetic
//! (`f32_to_f16` / `f16_to_f32` in each f16 shader, twins of the functions here). WGSL's own
//! `pack2x16float` was not used: naga refuses it without `SHADER_FLOAT16_IN_FLOAT32`, which
//! wgpu withholds from llvmpipe adapters that lack `SHADER_F16`, and WGSL lets each device pick
//! either neighbour of an inexact value. The cost is precision: every store rounds to 11
//! significant bits (docs/math.md, section 11, derives how that error grows over steps).
//!
//! **Layout.** A level holds `channels` planes of `height` rows each (split: `p` then `n`). An f16
//! row of `width` cells takes [`StorageFormat::words_per_row`] `= ceil(width / 2)` words: cell
//! `2k` in the low 16 bits of word `k`, cell `2k + 1` in the high 16 bits. When `width` is odd
//! the high half of a row's last word is padding, always +0, so no word holds cells of two rows
//! and one invocation owns every word it writes. Word of cell `(x, y)` in channel `c`:
//! `(c * height + y) * words_per_row + x / 2`.
//!
//! **Rounding.** Host and shaders round alike, bit for bit: to nearest, ties to even, f16
//! subnormals kept (not flushed), magnitudes from 65520 up to infinity. Widening f16 to f32 is
//! exact. Uploads beyond [`F16_MAX`] are refused ([`check_f16_range`]).

pub use crate::storage_format::StorageFormat;

use crate::error::GpuError;

/// Unit roundoff of an f16 store (round to nearest, 11 significant bits): storing an f32 value
/// `x` of magnitude at least [`F16_MIN_NORMAL`] keeps `x (1 + δ)` with `|δ| <= UNIT_ROUNDOFF`.
pub const UNIT_ROUNDOFF: f32 = 1.0 / 2048.0;

/// Largest finite f16 value; larger magnitudes cannot be stored.
pub const F16_MAX: f32 = 65504.0;

/// Smallest positive normal f16 value (`2^-14`). Below it the spacing is the fixed
/// [`F16_SUBNORMAL_SPACING`], so a store errs by at most half of that, absolutely.
pub const F16_MIN_NORMAL: f32 = 1.0 / 16384.0;

/// Spacing of f16 values below [`F16_MIN_NORMAL`] (`2^-24`).
pub const F16_SUBNORMAL_SPACING: f32 = 1.0 / 16_777_216.0;

/// The binary16 bits of `v`, rounded to nearest with ties to even; magnitudes from 65520 up
/// become infinities, NaN stays NaN, and values below the smallest subnormal round to zero.
#[must_use]
pub fn f32_to_f16(v: f32) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32;
    let mantissa = bits & 0x007f_ffff;
    if exponent == 0xff {
        // Keep NaNs quiet NaNs (the top payload bit set), infinities infinite.
        let nan = if mantissa == 0 { 0 } else { 0x0200 };
        return sign | 0x7c00 | nan;
    }
    // The f16 exponent field of a normal result; 0 or less means a subnormal (or zero) result.
    let e = exponent - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal result: the value in units of 2^-24, rounded. The 24-bit significand is
        // shifted right by 14 - e bits; from 25 bits on, every value is below half the smallest
        // subnormal and rounds to zero.
        let shift = (14 - e) as u32;
        if shift > 24 {
            return sign;
        }
        let significand = mantissa | 0x0080_0000;
        let kept = significand >> shift;
        let rest = significand & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let up = rest > half || (rest == half && kept & 1 == 1);
        // A carry out of the subnormal range gives 0x0400, the smallest normal: still correct.
        return sign | (kept + u32::from(up)) as u16;
    }
    let kept = (e as u32) << 10 | (mantissa >> 13);
    let rest = mantissa & 0x1fff;
    let up = rest > 0x1000 || (rest == 0x1000 && kept & 1 == 1);
    // A carry may ripple into the exponent (1.11..1 rounds to 2.0), or to infinity from the
    // largest binade: both are the correctly rounded results.
    sign | (kept + u32::from(up)) as u16
}

/// The value of binary16 bits `h` as f32 (exact: every f16 value is an f32 value).
#[must_use]
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exponent = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x03ff);
    let magnitude = match exponent {
        // Subnormal: mantissa * 2^-24, exact in f32.
        0 => return sign_of(h) * mantissa as f32 * F16_SUBNORMAL_SPACING,
        0x1f => 0x7f80_0000 | mantissa << 13,
        _ => (exponent + 127 - 15) << 23 | mantissa << 13,
    };
    f32::from_bits(sign | magnitude)
}

fn sign_of(h: u16) -> f32 {
    if h & 0x8000 == 0 {
        1.0
    } else {
        -1.0
    }
}

/// `v` rounded to the nearest f16 value, as f32: what an f16 grid keeps of `v`.
#[must_use]
pub fn round_to_f16(v: f32) -> f32 {
    f16_to_f32(f32_to_f16(v))
}

/// Packs rows of `width` values (any number of rows: planes of a level follow each other) into
/// f16 words, `ceil(width / 2)` per row, the padding half of odd rows zero.
///
/// # Panics
/// If `values.len()` is not a multiple of `width` (or `width` is 0).
#[must_use]
pub fn pack_f16_rows(values: &[f32], width: usize) -> Vec<u32> {
    assert!(
        width > 0 && values.len().is_multiple_of(width),
        "{} values are not rows of {width}",
        values.len()
    );
    let mut words = Vec::with_capacity(values.len() / width * width.div_ceil(2));
    for row in values.chunks_exact(width) {
        for pair in row.chunks(2) {
            let low = u32::from(f32_to_f16(pair[0]));
            let high = pair.get(1).map_or(0, |&v| u32::from(f32_to_f16(v)));
            words.push(low | high << 16);
        }
    }
    words
}

/// Unpacks f16 words laid out by [`pack_f16_rows`] into rows of `width` values, dropping the
/// padding halves.
///
/// # Panics
/// If `words.len()` is not a multiple of `ceil(width / 2)` (or `width` is 0).
#[must_use]
pub fn unpack_f16_rows(words: &[u32], width: usize) -> Vec<f32> {
    let row_words = width.div_ceil(2);
    assert!(
        width > 0 && words.len().is_multiple_of(row_words),
        "{} words are not rows of {row_words}",
        words.len()
    );
    let mut values = Vec::with_capacity(words.len() / row_words * width);
    for row in words.chunks_exact(row_words) {
        values.extend(
            row.iter()
                .flat_map(|&w| [f16_to_f32(w as u16), f16_to_f32((w >> 16) as u16)])
                .take(width),
        );
    }
    values
}

/// Checks that every value can be stored as a finite f16.
///
/// # Errors
/// [`GpuError::OutsideF16`] naming the first value that is not finite or whose magnitude
/// exceeds [`F16_MAX`], and its index.
pub fn check_f16_range(what: &str, values: &[f32]) -> Result<(), GpuError> {
    match values
        .iter()
        .position(|v| !v.is_finite() || v.abs() > F16_MAX)
    {
        None => Ok(()),
        Some(index) => Err(GpuError::OutsideF16 {
            what: what.to_owned(),
            index,
            value: values[index],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nearest f16 value to `v` by search over the finite f16 values in f64 (ties to the
    /// even bit pattern), as a reference for [`f32_to_f16`].
    fn nearest_by_search(v: f32) -> u16 {
        let target = f64::from(v);
        let mut best: Option<(f64, u16)> = None;
        for magnitude in 0..0x7c00u16 {
            let h = magnitude | if v.is_sign_negative() { 0x8000 } else { 0 };
            let d = (f64::from(f16_to_f32(h)) - target).abs();
            let better = match best {
                None => true,
                Some((bd, bh)) => d < bd || (d == bd && h & 1 == 0 && bh & 1 == 1),
            };
            if better {
                best = Some((d, h));
            }
        }
        best.expect("searched").1
    }

    #[test]
    fn every_f16_value_survives_the_round_trip() {
        for h in 0..=u16::MAX {
            let v = f16_to_f32(h);
            if v.is_nan() {
                assert!(f16_to_f32(f32_to_f16(v)).is_nan(), "{h:#06x}");
            } else {
                assert_eq!(f32_to_f16(v), h, "{h:#06x} = {v}");
            }
        }
    }

    #[test]
    fn known_values_convert_exactly() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.0), 0xc000);
        assert_eq!(f32_to_f16(F16_MAX), 0x7bff);
        assert_eq!(f32_to_f16(0.1), 0x2e66);
        assert_eq!(f32_to_f16(F16_MIN_NORMAL), 0x0400);
        assert_eq!(f32_to_f16(F16_SUBNORMAL_SPACING), 0x0001);
        assert_eq!(f16_to_f32(0x0001), F16_SUBNORMAL_SPACING);
        assert_eq!(f16_to_f32(0x83ff), -1023.0 * F16_SUBNORMAL_SPACING);
        // Ties go to the even neighbour: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
        assert_eq!(f32_to_f16(1.0 + UNIT_ROUNDOFF), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * UNIT_ROUNDOFF), 0x3c02);
        // Half the smallest subnormal is a tie between 0 and 2^-24: zero is even.
        assert_eq!(f32_to_f16(F16_SUBNORMAL_SPACING / 2.0), 0x0000);
        assert_eq!(f32_to_f16(F16_SUBNORMAL_SPACING * 0.75), 0x0001);
        assert_eq!(f32_to_f16(1e-10), 0x0000);
        assert_eq!(f32_to_f16(-1e-10), 0x8000);
        // 65520 is the tie between 65504 and the next binade's 65536: it overflows.
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f32_to_f16(f32::NEG_INFINITY), 0xfc00);
        assert!(f16_to_f32(f32_to_f16(f32::NAN)).is_nan());
    }

    #[test]
    fn rounding_is_to_nearest_even_across_the_range() {
        // A spread of f32 bit patterns from below the subnormals to beyond F16_MAX, both signs,
        // including many with exactly the tie bit set.
        let mut state = 0x9e37_79b9_u32;
        for k in 0..3000u32 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let exponent = 127 - 27 + (state % 44); // 2^-27 .. 2^16
            let mantissa = if k % 5 == 0 {
                (state >> 8) & 0x007f_e000 | 0x1000 // a tie at f16 precision
            } else {
                state >> 9
            };
            let v = f32::from_bits((k & 1) << 31 | exponent << 23 | mantissa);
            if v.abs() > F16_MAX {
                continue;
            }
            assert_eq!(
                f32_to_f16(v),
                nearest_by_search(v),
                "{v:e} ({:#010x})",
                v.to_bits()
            );
        }
    }

    #[test]
    fn the_error_of_a_store_is_within_the_unit_roundoff() {
        for i in 1..20_000 {
            let v = i as f32 * 0.013_7 - 137.0;
            let stored = round_to_f16(v);
            let bound = UNIT_ROUNDOFF * v.abs().max(F16_MIN_NORMAL);
            assert!((stored - v).abs() <= bound, "{v}: {stored}");
        }
    }

    #[test]
    fn odd_rows_pack_with_a_zero_padding_half() {
        // Two rows of three cells: words (a, b), (c, pad), (d, e), (f, pad).
        let values = [1.0, 2.0, 3.0, -1.0, -2.0, -3.0];
        let words = pack_f16_rows(&values, 3);
        assert_eq!(words.len(), 4);
        assert_eq!(words[0], 0x4000_3c00);
        assert_eq!(words[1], 0x0000_4200);
        assert_eq!(words[3] >> 16, 0, "padding half");
        assert_eq!(unpack_f16_rows(&words, 3), values);
        let even = [0.5, 0.25, 4.0, 8.0];
        assert_eq!(pack_f16_rows(&even, 2).len(), 2);
        assert_eq!(unpack_f16_rows(&pack_f16_rows(&even, 2), 2), even);
        assert_eq!(unpack_f16_rows(&pack_f16_rows(&[7.0], 1), 1), [7.0]);
    }

    #[test]
    fn level_bytes_count_the_padding() {
        let size = water_core::GridSize::new(5, 3).expect("size");
        assert_eq!(StorageFormat::F32.level_bytes(size, 2), 5 * 3 * 2 * 4);
        assert_eq!(StorageFormat::F16.level_bytes(size, 2), 3 * 3 * 2 * 4);
        assert_eq!(StorageFormat::F16.words_per_row(64), 32);
    }

    #[test]
    fn values_beyond_f16_are_refused_by_index() {
        assert!(check_f16_range("level", &[0.0, F16_MAX, -F16_MAX]).is_ok());
        let err = check_f16_range("level", &[0.0, 1.0, 70_000.0]).expect_err("too large");
        assert!(err.to_string().contains("index 2"), "{err}");
        assert!(check_f16_range("level", &[f32::NAN]).is_err());
    }
}
