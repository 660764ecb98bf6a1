//! The sea's random numbers: a pair of standard normal deviates for each Fourier mode, a pure
//! function of `(seed, tile, mode index)`, so a seed is the same sea on every machine, thread
//! count and backend (GPU backends upload the amplitudes this produces).
//!
//! The generator is SplitMix64 (Steele, Lea & Flood 2014) keyed by the mode: the state is
//! `seed + 0x9E3779B97F4A7C15 * (1 + key)` with `key = (tile << 40) | (iy << 20) | ix`, and two
//! outputs give two uniforms `u = (bits >> 11 + 0.5) / 2^53` in (0, 1). Box-Muller turns them
//! into two independent N(0, 1) deviates: `r = sqrt(-2 ln u1)`, `(r cos 2 pi u2, r sin 2 pi u2)`.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// One SplitMix64 output from `state`, advancing it.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform deviate in the open interval (0, 1) from 53 random bits.
fn open_unit(bits: u64) -> f64 {
    ((bits >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// Two independent standard normal deviates for mode `(ix, iy)` (FFT indices, each below
/// 2^20) of tile `tile` under `seed`.
#[must_use]
pub fn mode_normals(seed: u64, tile: u32, ix: u32, iy: u32) -> (f64, f64) {
    let key = (u64::from(tile) << 40) | (u64::from(iy) << 20) | u64::from(ix);
    let mut state = seed.wrapping_add(GOLDEN.wrapping_mul(key.wrapping_add(1)));
    let u1 = open_unit(split_mix(&mut state));
    let u2 = open_unit(split_mix(&mut state));
    let r = (-2.0 * u1.ln()).sqrt();
    let (s, c) = (std::f64::consts::TAU * u2).sin_cos();
    (r * c, r * s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deviates_have_zero_mean_unit_variance_and_no_correlation() {
        let (mut m, mut v, mut c) = (0.0, 0.0, 0.0);
        let n = 200_000u32;
        for i in 0..n {
            let (a, b) = mode_normals(7, i % 3, i % 511, i / 511);
            m += a + b;
            v += a * a + b * b;
            c += a * b;
        }
        let n = f64::from(2 * n);
        assert!((m / n).abs() < 0.01, "mean {}", m / n);
        assert!((v / n - 1.0).abs() < 0.01, "variance {}", v / n);
        assert!((c / n).abs() < 0.01, "correlation {}", c / n);
    }

    #[test]
    fn a_seed_is_one_sequence_and_another_seed_another() {
        assert_eq!(mode_normals(3, 1, 5, 9), mode_normals(3, 1, 5, 9));
        assert_ne!(mode_normals(3, 1, 5, 9), mode_normals(4, 1, 5, 9));
        assert_ne!(mode_normals(3, 1, 5, 9), mode_normals(3, 2, 5, 9));
        assert_ne!(mode_normals(3, 1, 5, 9), mode_normals(3, 1, 9, 5));
    }
}
