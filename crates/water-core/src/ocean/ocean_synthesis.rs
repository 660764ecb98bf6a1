//! `ocean_synthesis`: the sea's tiles at one time, by inverse FFT of each field's spectrum.
//! GPU twin: `shaders/ocean_synthesis.wgsl` (host `water_gpu::OceanSynthesis`).
//!
//! For every mode `A` at bin `k` the spectrum of the height gets `A e^{-i omega t}` at `k` and
//! `conj(A) e^{+i omega t}` at `-k` (so the field is real and each mode travels toward `+k`);
//! every other field is the height's spectrum times its multiplier ([`field_multiplier`]).
//! Two real fields travel in one complex FFT (the first as the real part, the second as the
//! imaginary part), so the eleven fields of a choppy sea take six transforms a tile and the
//! four of a sea without displacement take two.

use rayon::prelude::*;
use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

use crate::ocean::ambient_sea::{AmbientSea, SeaTile};

/// The fields synthesised for every tile, in storage order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(usize)]
pub enum SeaField {
    /// `h`, m.
    Height,
    /// `dh/dt` at the undisplaced point, m/s.
    HeightRate,
    /// `dh/dx`.
    SlopeX,
    /// `dh/dy`.
    SlopeY,
    /// Horizontal displacement `Dx`, m.
    DisplacementX,
    /// `Dy`, m.
    DisplacementY,
    /// `dDx/dx`.
    DxDx,
    /// `dDy/dy`.
    DyDy,
    /// `dDx/dy` (= `dDy/dx`: the displacement is a gradient).
    DxDy,
    /// `dDx/dt`, m/s.
    DxDt,
    /// `dDy/dt`, m/s.
    DyDt,
}

/// How many fields a sea without displacement synthesises (height, its rate, its slopes).
pub const PLAIN_FIELDS: usize = 4;
/// How many fields a choppy sea synthesises.
pub const CHOPPY_FIELDS: usize = 11;

const ALL_FIELDS: [SeaField; CHOPPY_FIELDS] = [
    SeaField::Height,
    SeaField::HeightRate,
    SeaField::SlopeX,
    SeaField::SlopeY,
    SeaField::DisplacementX,
    SeaField::DisplacementY,
    SeaField::DxDx,
    SeaField::DyDy,
    SeaField::DxDy,
    SeaField::DxDt,
    SeaField::DyDt,
];

type C64 = Complex<f64>;

/// The multiplier of `field` on a term `c` of the height's spectrum at wavenumber `k` whose
/// time factor is `e^{tau t}` (`tau = -i omega` or `+i omega`), with choppiness `lambda`.
#[must_use]
pub fn field_multiplier(field: SeaField, k: [f64; 2], tau: C64, lambda: f64) -> C64 {
    let i = C64::new(0.0, 1.0);
    let km = k[0].hypot(k[1]);
    let (ux, uy) = (k[0] / km, k[1] / km);
    match field {
        SeaField::Height => C64::new(1.0, 0.0),
        SeaField::HeightRate => tau,
        SeaField::SlopeX => i * k[0],
        SeaField::SlopeY => i * k[1],
        SeaField::DisplacementX => i * (lambda * ux),
        SeaField::DisplacementY => i * (lambda * uy),
        SeaField::DxDx => C64::new(-lambda * k[0] * ux, 0.0),
        SeaField::DyDy => C64::new(-lambda * k[1] * uy, 0.0),
        SeaField::DxDy => C64::new(-lambda * k[0] * uy, 0.0),
        SeaField::DxDt => i * (lambda * ux) * tau,
        SeaField::DyDt => i * (lambda * uy) * tau,
    }
}

/// The fields of one tile at one time: `fields[f][y * cells + x]` at world `(x, y) * spacing`.
#[derive(Debug, Clone, PartialEq)]
pub struct TileFields {
    /// Distance between samples, m.
    pub spacing: f64,
    /// Samples along each side.
    pub cells: usize,
    /// One row-major array per [`SeaField`], in its order ([`PLAIN_FIELDS`] or
    /// [`CHOPPY_FIELDS`] of them).
    pub fields: Vec<Vec<f32>>,
}

/// Synthesises every tile of `sea` at time `t` (s). Tiles and field pairs run in parallel;
/// each transform is serial, so the result does not depend on the thread count.
#[must_use]
pub fn ocean_synthesis(sea: &AmbientSea, t: f64) -> Vec<TileFields> {
    let count = if sea.choppiness() > 0.0 {
        CHOPPY_FIELDS
    } else {
        PLAIN_FIELDS
    };
    let pairs = count.div_ceil(2);
    let jobs: Vec<(usize, usize)> = (0..sea.tiles().len())
        .flat_map(|tile| (0..pairs).map(move |pair| (tile, pair)))
        .collect();
    let planes: Vec<Vec<Complex<f32>>> = jobs
        .par_iter()
        .map(|&(tile, pair)| {
            let fields = &ALL_FIELDS[2 * pair..(2 * pair + 2).min(count)];
            synthesise_pair(&sea.tiles()[tile], fields, t, sea.choppiness())
        })
        .collect();
    let mut planes = planes.into_iter();
    sea.tiles()
        .iter()
        .map(|tile| {
            let mut fields = Vec::with_capacity(count);
            for pair in 0..pairs {
                let plane = planes.next().expect("one plane per job");
                fields.push(plane.iter().map(|c| c.re).collect());
                if 2 * pair + 1 < count {
                    fields.push(plane.iter().map(|c| c.im).collect());
                }
            }
            TileFields {
                spacing: tile.length / tile.cells as f64,
                cells: tile.cells,
                fields,
            }
        })
        .collect()
}

/// One complex plane: `fields[0]` in the real part, `fields[1]` (if any) in the imaginary.
fn synthesise_pair(tile: &SeaTile, fields: &[SeaField], t: f64, lambda: f64) -> Vec<Complex<f32>> {
    let n = tile.cells;
    let mut spectrum = vec![C64::new(0.0, 0.0); n * n];
    let i = C64::new(0.0, 1.0);
    for m in &tile.modes {
        let a = C64::new(m.amplitude[0], m.amplitude[1]);
        let phase = (m.omega * t).rem_euclid(std::f64::consts::TAU);
        let turn = C64::from_polar(1.0, -phase);
        let (ix, iy) = (m.index.0 as usize, m.index.1 as usize);
        let mirror = ((n - ix) % n, (n - iy) % n);
        let terms = [
            (iy * n + ix, a * turn, m.k, C64::new(0.0, -m.omega)),
            (
                mirror.1 * n + mirror.0,
                a.conj() * turn.conj(),
                [-m.k[0], -m.k[1]],
                C64::new(0.0, m.omega),
            ),
        ];
        for (bin, c, k, tau) in terms {
            for (slot, &field) in fields.iter().enumerate() {
                let value = field_multiplier(field, k, tau, lambda) * c;
                spectrum[bin] += if slot == 0 { value } else { i * value };
            }
        }
    }
    let mut plane: Vec<Complex<f32>> = spectrum
        .iter()
        .map(|c| Complex::new(c.re as f32, c.im as f32))
        .collect();
    inverse_fft_2d(&mut plane, n);
    plane
}

/// `x[y][x] = sum over (ky, kx) of X e^{+2 pi i (kx x + ky y) / n}`, unnormalised, in place.
fn inverse_fft_2d(data: &mut [Complex<f32>], n: usize) {
    let fft = FftPlanner::<f32>::new().plan_fft_inverse(n);
    let mut scratch = vec![Complex::new(0.0, 0.0); fft.get_inplace_scratch_len()];
    fft.process_with_scratch(data, &mut scratch);
    transpose_square(data, n);
    fft.process_with_scratch(data, &mut scratch);
    transpose_square(data, n);
}

fn transpose_square(data: &mut [Complex<f32>], n: usize) {
    for y in 0..n {
        for x in (y + 1)..n {
            data.swap(y * n + x, x * n + y);
        }
    }
}
