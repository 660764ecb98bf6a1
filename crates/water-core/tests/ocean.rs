//! The ambient sea against exact answers: its significant wave height against each spectrum's
//! own integral, each mode's frequency against Airy's relation (measured from snapshots), its
//! direction and spread against the cos^2s law, one seed one sea, and the choppy surface
//! against Gerstner's exact trochoid.

use std::f64::consts::{PI, TAU};

use glam::Vec2;
use rustfft::num_complex::Complex;
use water_core::ocean::{AmbientSea, OceanSpec, OceanTiling, WaveSpectrum};

const G: f64 = 9.81;

/// Heights of `frame` on the `n x n` lattice of spacing `step` m from the origin.
fn lattice(frame: &water_core::ocean::SeaFrame, n: usize, step: f64) -> Vec<f32> {
    let points: Vec<Vec2> = (0..n * n)
        .map(|i| {
            Vec2::new(
                ((i % n) as f64 * step) as f32,
                ((i / n) as f64 * step) as f32,
            )
        })
        .collect();
    frame.heights(&points)
}

fn hs_of(heights: &[f32]) -> f64 {
    let n = heights.len() as f64;
    let mean = heights.iter().map(|&h| f64::from(h)).sum::<f64>() / n;
    let var = heights
        .iter()
        .map(|&h| (f64::from(h) - mean).powi(2))
        .sum::<f64>()
        / n;
    4.0 * var.sqrt()
}

fn jonswap() -> WaveSpectrum {
    WaveSpectrum::Jonswap {
        wind_speed: 10.0,
        fetch: 5e4,
        peak_enhancement: 3.3,
    }
}

fn tma() -> WaveSpectrum {
    WaveSpectrum::Tma {
        wind_speed: 10.0,
        fetch: 5e4,
        peak_enhancement: 3.3,
        depth: 12.0,
    }
}

#[test]
fn significant_wave_height_matches_each_spectrums_integral_over_eight_seeds() {
    // Pierson-Moskowitz at 8 m/s: Hs = 0.2092 U^2 / g = 1.365 m, peak wavelength 53 m.
    let pm = WaveSpectrum::PiersonMoskowitz { wind_speed: 8.0 };
    let pm_exact = 0.2092 * 64.0 / G;
    assert!((4.0 * pm.variance(G).sqrt() / pm_exact - 1.0).abs() < 1e-3);
    for spectrum in [pm, jonswap(), tma()] {
        let expected = 4.0 * spectrum.variance(G).sqrt();
        let mut measured = 0.0;
        for seed in 0..8 {
            let spec = OceanSpec::new(spectrum)
                .with_seed(seed)
                .with_direction(25.0);
            let sea = AmbientSea::new(&spec, 1.0).expect("sea");
            assert_eq!(sea.tiles()[0].length, 512.0, "a 512 m first tile");
            let spectral = sea.hs_spectrum() / expected;
            assert!(
                (spectral - 1.0).abs() < 0.05,
                "{}: modes hold {spectral}",
                spectrum.name()
            );
            // The 512 m window at 1 m spacing.
            measured += hs_of(&lattice(&sea.frame(3.0), 512, 1.0)) / 8.0;
        }
        let ratio = measured / expected;
        eprintln!("{}: measured Hs / integral = {ratio:.4}", spectrum.name());
        assert!(
            (ratio - 1.0).abs() < 0.05,
            "{}: Hs {measured} m against the integral's {expected} m",
            spectrum.name()
        );
    }
}

/// The discrete Fourier coefficient of `heights` (an `n x n` lattice over one period) at bin
/// `(ix, iy)`.
fn coefficient(heights: &[f32], n: usize, ix: u32, iy: u32) -> Complex<f64> {
    let mut sum = Complex::new(0.0, 0.0);
    for y in 0..n {
        for x in 0..n {
            let phase = -TAU * (f64::from(ix) * x as f64 + f64::from(iy) * y as f64) / n as f64;
            sum += Complex::from_polar(f64::from(heights[y * n + x]), phase);
        }
    }
    sum / (n * n) as f64
}

/// One tile of 512 m at 128 samples (waves down to 2 cells of 16 m): the lattice is the
/// tile's own, so a snapshot's DFT separates the modes exactly.
fn one_tile_sea(spec: &OceanSpec) -> AmbientSea {
    let tiling = OceanTiling::new(512.0, 16.0, 128).expect("one tile");
    assert_eq!(tiling.len(), 1);
    AmbientSea::from_spectrum(spec, &tiling).expect("sea")
}

/// `cos(omega dt)` of the mode at each energetic bin, from three snapshots `dt` apart: a bin
/// holds `A e^{-i omega t} + B e^{+i omega t}`, so `F(0) + F(2 dt) = 2 cos(omega dt) F(dt)`.
fn measured_omegas(sea: &AmbientSea, dt: f64) -> Vec<(f64, f64)> {
    let n = 128;
    let snaps: Vec<Vec<f32>> = (0..3)
        .map(|s| lattice(&sea.frame(10.0 + dt * f64::from(s)), n, 4.0))
        .collect();
    let modes = &sea.tiles()[0].modes;
    let strongest = modes
        .iter()
        .map(|m| m.amplitude[0].hypot(m.amplitude[1]))
        .fold(0.0, f64::max);
    let mut out = Vec::new();
    for m in modes {
        if m.amplitude[0].hypot(m.amplitude[1]) < 0.3 * strongest {
            continue;
        }
        let f: Vec<Complex<f64>> = snaps
            .iter()
            .map(|s| coefficient(s, n, m.index.0, m.index.1))
            .collect();
        if f[1].norm() < 0.3 * f[0].norm().max(f[2].norm()) {
            continue;
        }
        let cos = ((f[0] + f[2]) / (2.0 * f[1])).re;
        out.push((m.k[0].hypot(m.k[1]), cos.clamp(-1.0, 1.0).acos() / dt));
    }
    assert!(out.len() >= 10, "{} energetic modes", out.len());
    out
}

#[test]
fn every_energetic_mode_advances_at_airys_omega_in_deep_and_shallow_water() {
    let deep = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 9.0 }).with_seed(4);
    for (k, omega) in measured_omegas(&one_tile_sea(&deep), 0.4) {
        let exact = (G * k).sqrt();
        eprintln!("deep k = {k:.4}: omega / Airy = {:.6}", omega / exact);
        assert!(
            (omega / exact - 1.0).abs() < 0.01,
            "deep k = {k}: {omega} vs {exact}"
        );
    }
    // 3 m deep: kd from 0.2 to 1.2, where tanh bends the relation by up to 40%.
    let shallow = deep.with_depth(3.0);
    for (k, omega) in measured_omegas(&one_tile_sea(&shallow), 0.4) {
        let exact = (G * k * (3.0 * k).tanh()).sqrt();
        assert!(
            (omega / exact - 1.0).abs() < 0.01,
            "3 m, k = {k}: {omega} vs {exact}"
        );
        assert!(
            omega < 0.97 * (G * k).sqrt(),
            "the depth is felt at k = {k}"
        );
    }
}

/// The energy of each travelling wave, recovered from two snapshots and Airy's omega:
/// `A = (F(dt) - F(0) e^{i omega dt}) / (e^{-i omega dt} - e^{i omega dt})`; `(direction, |A|^2)`.
fn wave_energies(sea: &AmbientSea) -> Vec<(f64, f64)> {
    let n = 128;
    let dt = 0.7;
    let f0 = lattice(&sea.frame(0.0), n, 4.0);
    let f1 = lattice(&sea.frame(dt), n, 4.0);
    let dk = TAU / 512.0;
    let mut out = Vec::new();
    for iy in 0..n as u32 {
        for ix in 0..n as u32 {
            let wrap = |i: u32| {
                if i as usize >= n / 2 {
                    f64::from(i) - n as f64
                } else {
                    f64::from(i)
                }
            };
            let k = [wrap(ix) * dk, wrap(iy) * dk];
            let km = k[0].hypot(k[1]);
            if km == 0.0 || km > PI / 16.0 {
                continue;
            }
            let w = (G * km).sqrt() * dt;
            let (a, b) = (coefficient(&f0, n, ix, iy), coefficient(&f1, n, ix, iy));
            let e = Complex::from_polar(1.0, w);
            let amp = (b - a * e) / (e.conj() - e);
            out.push((k[1].atan2(k[0]), amp.norm_sqr()));
        }
    }
    out
}

#[test]
fn the_mean_direction_and_the_spread_follow_the_cos_2s_law() {
    for s in [2.0, 12.0] {
        let (mut sx, mut sy, mut total, mut along) = (0.0, 0.0, 0.0, 0.0);
        let mean = 40f64.to_radians();
        for seed in 0..8 {
            let spec = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 9.0 })
                .with_direction(40.0)
                .with_spreading(s)
                .with_seed(seed);
            for (theta, e) in wave_energies(&one_tile_sea(&spec)) {
                sx += e * theta.cos();
                sy += e * theta.sin();
                along += e * (theta - mean).cos();
                total += e;
            }
        }
        let direction = sy.atan2(sx).to_degrees();
        assert!(
            (direction - 40.0).abs() < 3.0,
            "s = {s}: mean direction {direction}"
        );
        let m1 = along / total;
        let exact = s / (s + 1.0);
        eprintln!("s = {s}: direction {direction:.2} deg, first moment {m1:.4} vs {exact:.4}");
        assert!(
            (m1 - exact).abs() < 0.03,
            "s = {s}: first moment {m1} vs {exact}"
        );
    }
}

#[test]
fn one_seed_is_one_sea_bit_for_bit_on_any_thread_count() {
    let spec = OceanSpec::new(jonswap()).with_seed(99).with_choppiness(0.8);
    let points: Vec<Vec2> = (0..3000)
        .map(|i| Vec2::new(i as f32 * 1.37 - 900.0, (i as f32 * 0.61).sin() * 300.0))
        .collect();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        pool.install(|| {
            let sea = AmbientSea::new(&spec, 0.5).expect("sea");
            let frame = sea.frame(17.25);
            (frame.tiles().to_vec(), frame.heights(&points))
        })
    };
    let (tiles_1, heights_1) = run(1);
    let (tiles_3, heights_3) = run(3);
    assert!(
        tiles_1 == tiles_3,
        "the tiles differ between 1 and 3 threads"
    );
    assert_eq!(
        heights_1.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
        heights_3.iter().map(|h| h.to_bits()).collect::<Vec<_>>()
    );
    let other = AmbientSea::new(&spec.with_seed(100), 0.5)
        .expect("sea")
        .frame(17.25);
    assert_ne!(
        other.heights(&points),
        heights_1,
        "another seed, another sea"
    );
}

/// A frame written into an earlier frame's storage is the frame made fresh, bit for bit,
/// whatever sea the earlier frame showed (plain or choppy, another seed, fewer tiles).
#[test]
fn a_frame_made_in_reused_storage_is_the_fresh_frame_bit_for_bit() {
    let choppy = OceanSpec::new(jonswap()).with_seed(5).with_choppiness(0.8);
    let plain = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 4.0 }).with_seed(6);
    let seas = [
        AmbientSea::new(&choppy, 0.5).expect("sea"),
        AmbientSea::new(&plain, 0.5).expect("sea"),
        AmbientSea::new(&choppy, 0.05).expect("sea"),
    ];
    assert_ne!(
        seas[0].tiles().len(),
        seas[2].tiles().len(),
        "tile counts differ"
    );
    let points: Vec<Vec2> = (0..500)
        .map(|i| Vec2::new(i as f32 * 0.77 - 90.0, (i as f32 * 0.3).cos() * 40.0))
        .collect();
    let mut reused = seas[0].frame(1.0);
    for (i, sea) in seas.iter().chain(&seas).enumerate() {
        let t = 3.0 + i as f64 * 0.7;
        sea.frame_into(t, &mut reused);
        let fresh = sea.frame(t);
        assert!(reused == fresh, "sea {i}: the reused frame differs");
        assert_eq!(reused.time(), t);
        assert_eq!(
            reused
                .heights(&points)
                .iter()
                .map(|h| h.to_bits())
                .collect::<Vec<_>>(),
            fresh
                .heights(&points)
                .iter()
                .map(|h| h.to_bits())
                .collect::<Vec<_>>(),
        );
    }
}

/// The sea is answered at any finite point, however far: heights, normals and rates stay
/// finite out to `f32::MAX` (the tiles are periodic), plain and choppy.
#[test]
fn the_sea_is_finite_at_every_finite_point() {
    for choppiness in [0.0, 0.9] {
        let spec = OceanSpec::new(jonswap())
            .with_seed(8)
            .with_choppiness(choppiness);
        let frame = AmbientSea::new(&spec, 0.5).expect("sea").frame(4.0);
        for x in [f32::MAX, -f32::MAX, 1e30, -3e20, 9.1e15, 4.6e15, 1e7, -2.5] {
            for p in [Vec2::new(x, 3.0), Vec2::new(-7.0, x), Vec2::splat(x)] {
                let s = frame.sample(p);
                let finite = s.height.is_finite()
                    && s.normal.is_finite()
                    && s.vertical_velocity.is_finite()
                    && frame.height(p).is_finite();
                assert!(finite, "choppiness {choppiness} at {p}: {s:?}");
            }
        }
    }
}

#[test]
fn the_synthesised_tiles_match_the_direct_sum_between_their_samples() {
    let spec = OceanSpec::new(jonswap()).with_seed(5).with_direction(-60.0);
    let sea = AmbientSea::new(&spec, 0.5).expect("sea");
    assert!(sea.tiles().len() >= 3, "the band is split");
    let frame = sea.frame(41.0);
    let (mut err, mut norm) = (0.0, 0.0);
    for i in 0..300 {
        let p = Vec2::new(i as f32 * 7.31 - 1000.0, i as f32 * 3.17 + 250.0);
        let exact = sea.height_by_sum(p, 41.0);
        err += (f64::from(frame.height(p)) - exact).powi(2);
        norm += exact * exact;
    }
    let relative = (err / norm).sqrt();
    eprintln!("interpolation: {relative:.2e} RMS off the direct sum");
    assert!(
        relative < 0.01,
        "interpolated heights {relative} (RMS) off the sum"
    );
}

/// The exact trochoid `x = x0 - a sin(k x0 - omega t)`, `z = a cos(k x0 - omega t)` at the
/// fixed point `x` (bisection for `x0`: `x0 - a sin(...)` increases with `x0` for `k a < 1`).
fn trochoid_height(a: f64, k: f64, omega: f64, t: f64, x: f64) -> f64 {
    let (mut lo, mut hi) = (x - 2.0 * a, x + 2.0 * a);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if mid - a * (k * mid - omega * t).sin() < x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    a * (k * 0.5 * (lo + hi) - omega * t).cos()
}

#[test]
fn a_choppy_regular_wave_is_gerstners_trochoid_at_fixed_points() {
    let (a, wavelength) = (1.2, 24.0);
    let k = TAU / wavelength;
    let omega = (G * k).sqrt();
    let sea = AmbientSea::regular_wave(a, wavelength, G, None, 1.0).expect("wave");
    for t in [0.0, 1.3, 7.7] {
        let frame = sea.frame(t);
        let mut worst = 0.0f64;
        for i in 0..200 {
            let x = f64::from(i) * 0.37 - 30.0;
            let got = f64::from(frame.height(Vec2::new(x as f32, 5.0)));
            worst = worst.max((got - trochoid_height(a, k, omega, t, x)).abs());
        }
        eprintln!(
            "t = {t}: worst {:.2e} of the amplitude off the trochoid",
            worst / a
        );
        assert!(worst < 0.01 * a, "t = {t}: {worst} m off the trochoid");
        // Sharp crests: the crest stands higher above the mean than the trough falls.
        let heights: Vec<f32> = (0..480)
            .map(|i| frame.height(Vec2::new(i as f32 * 0.05, 0.0)))
            .collect();
        let mean = heights.iter().sum::<f32>() / heights.len() as f32;
        let top = heights.iter().copied().fold(f32::MIN, f32::max) - mean;
        let bottom = mean - heights.iter().copied().fold(f32::MAX, f32::min);
        assert!(top > 1.05 * bottom, "crest {top} m, trough {bottom} m");
    }
}

#[test]
fn normals_and_vertical_velocity_are_the_derivatives_of_the_fixed_point_height() {
    let spec = OceanSpec::new(jonswap()).with_seed(8).with_choppiness(0.9);
    let sea = AmbientSea::new(&spec, 0.5).expect("sea");
    let (t, e) = (20.0, 1e-3);
    let (now, before, after) = (sea.frame(t), sea.frame(t - e), sea.frame(t + e));
    let (mut slope_err, mut slope_norm, mut rate_err, mut rate_norm) = (0.0, 0.0, 0.0, 0.0);
    for i in 0..200 {
        let p = Vec2::new(i as f32 * 3.3 - 200.0, i as f32 * 1.9 - 90.0);
        let s = now.sample(p);
        assert!((s.height - now.height(p)).abs() < 1e-6);
        let d = 0.01f32;
        let fx = f64::from(now.height(p + Vec2::X * d) - now.height(p - Vec2::X * d))
            / (2.0 * f64::from(d));
        let fy = f64::from(now.height(p + Vec2::Y * d) - now.height(p - Vec2::Y * d))
            / (2.0 * f64::from(d));
        let gx = -f64::from(s.normal.x / s.normal.z);
        let gy = -f64::from(s.normal.y / s.normal.z);
        slope_err += (gx - fx).powi(2) + (gy - fy).powi(2);
        slope_norm += fx * fx + fy * fy;
        let rate = f64::from(after.height(p) - before.height(p)) / (2.0 * e);
        rate_err += (f64::from(s.vertical_velocity) - rate).powi(2);
        rate_norm += rate * rate;
    }
    let slope = (slope_err / slope_norm).sqrt();
    let rate = (rate_err / rate_norm).sqrt();
    eprintln!("slopes {slope:.2e}, vertical velocity {rate:.2e} (RMS, relative)");
    assert!(
        slope < 0.02,
        "normals {slope} (RMS) off the height's gradient"
    );
    assert!(
        rate < 0.02,
        "vertical velocity {rate} (RMS) off the height's rate"
    );
}

#[test]
fn bad_ocean_values_are_refused_by_key() {
    let cases = [
        (
            OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 0.0 }),
            "wind_speed",
        ),
        (OceanSpec::new(jonswap()).with_spreading(0.5), "spreading"),
        (OceanSpec::new(jonswap()).with_choppiness(2.5), "choppiness"),
        (
            OceanSpec::new(jonswap()).with_choppiness(f64::NAN),
            "choppiness",
        ),
        (OceanSpec::new(tma()).with_depth(30.0), "depth"),
    ];
    for (spec, key) in cases {
        let e = AmbientSea::new(&spec, 1.0).expect_err(key).to_string();
        assert!(e.contains(key), "{key}: {e}");
    }
}
