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

use crate::ocean::ambient_sea::AmbientSea;
use crate::ocean::tile_spectrum::TileSpectrum;

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
    // (Not `hypot`: this runs for every mode of every field of every frame, and `k` is far
    // from overflow.)
    let km = (k[0] * k[0] + k[1] * k[1]).sqrt();
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

/// The fields of one tile at one time, sample `y * cells + x` at world `(x, y) * spacing`.
///
/// The fields are kept as synthesised, two to a complex plane (the first field of a pair in
/// the real part, the second in the imaginary), so no pass copies them apart and a query reads
/// each pair from one place.
#[derive(Debug, Clone, PartialEq)]
pub struct TileFields {
    /// Distance between samples, m.
    pub spacing: f64,
    /// Samples along each side.
    pub cells: usize,
    field_count: usize,
    planes: Vec<Vec<Complex<f32>>>,
}

impl TileFields {
    /// How many fields the tile holds: [`PLAIN_FIELDS`] or [`CHOPPY_FIELDS`], the first that
    /// many of [`SeaField`]'s order.
    #[must_use]
    pub fn field_count(&self) -> usize {
        self.field_count
    }

    /// `field` at row-major sample `index`; `None` for a field this sea does not synthesise.
    ///
    /// # Panics
    /// If `index` is not below `cells * cells`.
    #[must_use]
    pub fn value(&self, field: SeaField, index: usize) -> Option<f32> {
        let f = field as usize;
        (f < self.field_count).then(|| lane(self.planes[f / 2][index], f))
    }

    /// `field` as a row-major array of `cells * cells` samples (a copy); `None` for a field
    /// this sea does not synthesise.
    #[must_use]
    pub fn field(&self, field: SeaField) -> Option<Vec<f32>> {
        let f = field as usize;
        (f < self.field_count).then(|| self.planes[f / 2].iter().map(|&c| lane(c, f)).collect())
    }

    /// Every field the tile holds, in [`SeaField`]'s order (copies).
    #[must_use]
    pub fn fields(&self) -> Vec<Vec<f32>> {
        ALL_FIELDS[..self.field_count]
            .iter()
            .filter_map(|&f| self.field(f))
            .collect()
    }

    /// The plane holding `field` (real part for an even [`SeaField`], imaginary for an odd):
    /// what a query walks.
    pub(crate) fn plane_of(&self, field: SeaField) -> &[Complex<f32>] {
        let f = field as usize;
        assert!(
            f < self.field_count,
            "{field:?} is not synthesised for this sea"
        );
        &self.planes[f / 2]
    }
}

/// The real part of a plane's sample for an even field, the imaginary for an odd one.
fn lane(c: Complex<f32>, field: usize) -> f32 {
    if field.is_multiple_of(2) {
        c.re
    } else {
        c.im
    }
}

/// Synthesises every tile of `sea` at time `t` (s). Tiles and field pairs run in parallel;
/// each transform is serial, so the result does not depend on the thread count.
#[must_use]
pub fn ocean_synthesis(sea: &AmbientSea, t: f64) -> Vec<TileFields> {
    ocean_synthesis_reusing(sea, t, Vec::new())
}

/// As [`ocean_synthesis`], writing into the planes of `spent` (an earlier frame's tiles) where
/// there are any: a choppy frame of four 256² tiles is 12 MiB, and faulting in that much fresh
/// memory a frame cost as much as the transforms in one measured run (choppy, one thread;
/// `docs/benchmarks.md`).
pub(crate) fn ocean_synthesis_reusing(
    sea: &AmbientSea,
    t: f64,
    spent: Vec<TileFields>,
) -> Vec<TileFields> {
    let count = if sea.choppiness() > 0.0 {
        CHOPPY_FIELDS
    } else {
        PLAIN_FIELDS
    };
    let pairs = count.div_ceil(2);
    // The spent planes, a tile's together (a plane for every pair of every tile, fresh
    // where the spent frame had fewer).
    let mut storage = spent.into_iter().flat_map(|tile| tile.planes);
    let storage: Vec<Vec<Vec<Complex<f32>>>> = sea
        .tiles()
        .iter()
        .map(|_| {
            (0..pairs)
                .map(|_| storage.next().unwrap_or_default())
                .collect()
        })
        .collect();
    // Each tile's pairs start as soon as its spectrum is made, not once every tile's is: on
    // two threads the wait for the slowest tile was idle time.
    sea.tiles()
        .par_iter()
        .zip(sea.layouts())
        .zip(storage)
        .map(|((tile, layout), planes)| {
            // Each mode's `A e^{-i omega t}` and the tile's spectrum, once a tile (not once a
            // pair: the sine and cosine were a seventh of a choppy frame, the multipliers a
            // fifth).
            let rotated: Vec<C64> = tile
                .modes
                .iter()
                .map(|m| {
                    let (sin, cos) = turned(m.omega * t);
                    C64::new(m.amplitude[0], m.amplitude[1]) * C64::new(cos, -sin)
                })
                .collect();
            let spectrum = TileSpectrum::new(tile, layout, &rotated);
            let planes = planes
                .into_par_iter()
                .enumerate()
                .map(|(pair, plane)| {
                    let fields = &ALL_FIELDS[2 * pair..(2 * pair + 2).min(count)];
                    SCRATCH.with(|scratch| {
                        synthesise_pair(
                            &spectrum,
                            tile.cells,
                            fields,
                            sea.choppiness(),
                            &mut scratch.borrow_mut(),
                            plane,
                        )
                    })
                })
                .collect();
            TileFields {
                spacing: tile.length / tile.cells as f64,
                cells: tile.cells,
                field_count: count,
                planes,
            }
        })
        .collect()
}

/// `(sin, cos)` of `phase` (rad). The phase is taken to one turn in f64 (it grows with the
/// time), and the sine and cosine of that are taken in f32, which holds them to 2e-7 and costs
/// half what f64's do (with the f64 remainder they were a sixth of a choppy frame).
fn turned(phase: f64) -> (f64, f64) {
    let turns = phase / std::f64::consts::TAU;
    // Below 2^52 turns the integer part is exact and subtracting it leaves the fraction;
    // beyond, `rem_euclid` (and the phase has no fraction left to lose).
    let fraction = if turns.abs() < 4.5e15 {
        turns - (turns as i64) as f64
    } else {
        phase.rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU
    };
    let (sin, cos) = ((fraction * std::f64::consts::TAU) as f32).sin_cos();
    (f64::from(sin), f64::from(cos))
}

/// Buffers one thread reuses from pair to pair and frame to frame (a frame of 256² tiles would
/// otherwise map and fault in fresh pages for each), and its FFT plans.
struct SynthesisScratch {
    spectrum: Vec<Complex<f32>>,
    /// The first pass's input: the occupied columns' bins along `ky`, zero where no mode is.
    columns_in: Vec<Complex<f32>>,
    /// The first pass's output.
    columns_out: Vec<Complex<f32>>,
    /// The second pass's input: the plane's rows, zero in the empty columns.
    plane_in: Vec<Complex<f32>>,
    /// The tile side and the occupied reaches along `kx` and `ky` whose zeros the inputs hold:
    /// both transforms leave their inputs as they were, so the zeros are written once, not
    /// once a pair (they were a sixth of a choppy frame on two threads).
    zeros_for: Option<(usize, usize, usize)>,
    fft: Vec<Complex<f32>>,
    planner: FftPlanner<f32>,
}

impl SynthesisScratch {
    fn new() -> Self {
        Self {
            spectrum: Vec::new(),
            columns_in: Vec::new(),
            columns_out: Vec::new(),
            plane_in: Vec::new(),
            zeros_for: None,
            fft: Vec::new(),
            planner: FftPlanner::new(),
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<SynthesisScratch> =
        std::cell::RefCell::new(SynthesisScratch::new());
}

/// One or two fields of one tile of `n²` samples whose spectrum at this time is `spectrum`,
/// transformed together in `plane` (any earlier contents and length are replaced) as one
/// complex plane: `fields[0]` in the real part, `fields[1]` (if any) in the imaginary.
///
/// A tile's modes fill only the bins with `|kx|, |ky| <= reach` (a quarter of the Nyquist
/// band, `tiling.rs`), so the transform skips the empty columns: the spectrum is laid out
/// transposed, one row per occupied `kx`; each row is transformed along `ky`, the rows are
/// scattered into the plane's occupied columns (one transpose, not two), and the plane's rows
/// are transformed along `kx`. The sums are those of the full 2-D transform.
fn synthesise_pair(
    spectrum: &TileSpectrum,
    n: usize,
    fields: &[SeaField],
    lambda: f64,
    scratch: &mut SynthesisScratch,
    mut plane: Vec<Complex<f32>>,
) -> Vec<Complex<f32>> {
    let (columns, occupied_rows) = (spectrum.columns(), spectrum.rows());
    let zero = Complex::new(0.0, 0.0);
    let layout = (n, columns.reach(), occupied_rows.reach());
    if scratch.zeros_for != Some(layout) {
        scratch.columns_in.clear();
        scratch.columns_in.resize(columns.len() * n, zero);
        scratch.columns_out.resize(columns.len() * n, zero);
        scratch.plane_in.clear();
        scratch.plane_in.resize(n * n, zero);
        scratch.zeros_for = Some(layout);
    }
    let compact = &mut scratch.spectrum;
    spectrum.pair_into(fields, lambda, compact);
    // `columns_in[c * n + ky]` holds the bin (columns[c], ky): each occupied column's bins
    // spread over its `n` rows (the others stay zero).
    let (r, taken) = (occupied_rows.reach(), occupied_rows.len());
    for (line, bins) in scratch
        .columns_in
        .chunks_exact_mut(n)
        .zip(compact.chunks_exact(taken))
    {
        if occupied_rows.all() {
            line.copy_from_slice(bins);
        } else {
            line[..=r].copy_from_slice(&bins[..=r]);
            line[n - r..].copy_from_slice(&bins[r + 1..]);
        }
    }
    let fft = scratch.planner.plan_fft_inverse(n);
    let work = &mut scratch.fft;
    work.resize(fft.get_immutable_scratch_len(), zero);
    // Along ky: columns_out[c][y] = sum over ky of X[ky][columns[c]] e^{+2 pi i ky y / n}.
    let rows = &mut scratch.columns_out;
    fft.process_immutable_with_scratch(&scratch.columns_in, rows, work);
    // The occupied columns scattered into the plane's rows (the empty ones stay zero). The
    // scatter is a transpose, done a band of `BAND` rows at a time: a column's run of the band
    // is read in order, and the band's rows stay in the L1 cache while every column is
    // written into them.
    const BAND: usize = 16;
    for (band, lines) in scratch.plane_in.chunks_mut(BAND * n).enumerate() {
        let y0 = band * BAND;
        let height = lines.len() / n;
        for (c, bin) in columns.bins().enumerate() {
            let run = &rows[c * n + y0..c * n + y0 + height];
            for (y, &value) in run.iter().enumerate() {
                lines[y * n + bin] = value;
            }
        }
    }
    // Along kx: plane[y][x], unnormalised, every sample written.
    plane.resize(n * n, zero);
    fft.process_immutable_with_scratch(&scratch.plane_in, &mut plane, work);
    // A thread keeps its scratch for the next frame, but not a large tile's (4096² would hold
    // about 100 MiB a thread for its whole life).
    if scratch.columns_in.capacity() > SCRATCH_KEPT_BINS {
        scratch.spectrum = Vec::new();
        scratch.columns_in = Vec::new();
        scratch.columns_out = Vec::new();
        scratch.plane_in = Vec::new();
        scratch.zeros_for = None;
    }
    plane
}

/// The most spectrum bins a thread's scratch keeps between pairs (256² tiles use 63 x 256).
const SCRATCH_KEPT_BINS: usize = 1 << 17;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocean::ambient_sea::{SeaMode, SeaTile};
    use crate::ocean::tile_spectrum::TileLayout;

    /// The two bins `(kx, ky)` a mode whose `A e^{-i omega t}` is `c` adds to, and what it adds
    /// there to the plane of `fields` (the first in the real part, the second in the imaginary):
    /// `c` at `k` (time factor `e^{-i omega t}`) and `conj(c)` at `-k` (`e^{+i omega t}`).
    fn mode_terms(
        m: &SeaMode,
        c: C64,
        n: usize,
        fields: &[SeaField],
        lambda: f64,
    ) -> [((usize, usize), C64); 2] {
        let i = C64::new(0.0, 1.0);
        let (ix, iy) = (m.index.0 as usize, m.index.1 as usize);
        let term = |c: C64, k: [f64; 2], tau: C64| {
            fields
                .iter()
                .enumerate()
                .map(|(slot, &field)| {
                    let value = field_multiplier(field, k, tau, lambda) * c;
                    if slot == 0 {
                        value
                    } else {
                        i * value
                    }
                })
                .fold(C64::new(0.0, 0.0), |sum, v| sum + v)
        };
        [
            ((ix, iy), term(c, m.k, C64::new(0.0, -m.omega))),
            (
                ((n - ix) % n, (n - iy) % n),
                term(c.conj(), [-m.k[0], -m.k[1]], C64::new(0.0, m.omega)),
            ),
        ]
    }

    /// The full 2-D inverse transform of the two fields' spectrum, with no pruning: every bin,
    /// every row and every column.
    fn full_inverse(tile: &SeaTile, fields: &[SeaField], lambda: f64) -> Vec<Complex<f32>> {
        let n = tile.cells;
        let mut spectrum = vec![C64::new(0.0, 0.0); n * n];
        for m in &tile.modes {
            let c = C64::new(m.amplitude[0], m.amplitude[1]);
            for ((x, y), value) in mode_terms(m, c, n, fields, lambda) {
                spectrum[y * n + x] += value;
            }
        }
        let mut spectrum: Vec<Complex<f32>> = spectrum
            .iter()
            .map(|c| Complex::new(c.re as f32, c.im as f32))
            .collect();
        let fft = FftPlanner::<f32>::new().plan_fft_inverse(n);
        let transpose = |data: &mut Vec<Complex<f32>>| {
            let copy = data.clone();
            for y in 0..n {
                for x in 0..n {
                    data[x * n + y] = copy[y * n + x];
                }
            }
        };
        fft.process(&mut spectrum);
        transpose(&mut spectrum);
        fft.process(&mut spectrum);
        transpose(&mut spectrum);
        spectrum
    }

    /// A tile of 16² whose modes reach `reach` bins from 0 along x (and 2 along y), with
    /// amplitudes from a fixed sequence.
    fn tile_reaching(reach: i64) -> SeaTile {
        let n = 16usize;
        let dk = std::f64::consts::TAU / 8.0;
        let mut modes = Vec::new();
        for my in -2i64..=2 {
            for mx in -reach..=reach {
                if (mx, my) == (0, 0) {
                    continue;
                }
                let s = (modes.len() as f64 * 0.7).sin();
                modes.push(SeaMode {
                    index: (
                        mx.rem_euclid(n as i64) as u32,
                        my.rem_euclid(n as i64) as u32,
                    ),
                    k: [mx as f64 * dk, my as f64 * dk],
                    omega: 1.0 + modes.len() as f64 * 0.1,
                    amplitude: [0.01 * s, 0.02 * (1.0 - s)],
                });
            }
        }
        SeaTile {
            length: 8.0,
            cells: n,
            modes,
        }
    }

    /// The transform over the occupied columns is the full 2-D inverse transform: pruned
    /// (reach 0, 3 and 7 of 16 bins: 1, 7 and 15 columns) and unpruned (reach 8: the modes
    /// reach the Nyquist bin, every column is taken).
    #[test]
    fn the_pruned_transform_is_the_full_inverse_transform() {
        for (reach, expected_columns) in [(0, 1), (3, 7), (7, 15), (8, 16)] {
            let tile = tile_reaching(reach);
            let rotated: Vec<C64> = tile
                .modes
                .iter()
                .map(|m| C64::new(m.amplitude[0], m.amplitude[1]))
                .collect();
            let layout = TileLayout::new(&tile);
            let spectrum = TileSpectrum::new(&tile, &layout, &rotated);
            assert_eq!(spectrum.columns().len(), expected_columns, "reach {reach}");
            // Every field, in the pairs a choppy sea makes, and one alone.
            for fields in ALL_FIELDS.chunks(2).chain([&[SeaField::DyDy][..]]) {
                let mut scratch = SynthesisScratch::new();
                let got = synthesise_pair(
                    &spectrum,
                    tile.cells,
                    fields,
                    0.7,
                    &mut scratch,
                    vec![Complex::new(9.0, 9.0); 3],
                );
                let want = full_inverse(&tile, fields, 0.7);
                let scale = want.iter().fold(0.0f32, |m, c| m.max(c.norm()));
                // With every mode at kx = 0 the fields along x (Dx and its rates and
                // gradients, all proportional to kx) are still water, and must come out so.
                let along_x = |f: &SeaField| {
                    matches!(
                        f,
                        SeaField::DisplacementX | SeaField::DxDx | SeaField::DxDy | SeaField::DxDt
                    )
                };
                let scale = if reach == 0 && fields.iter().all(along_x) {
                    assert!(
                        scale < 1e-9,
                        "reach 0, {fields:?}: still water, got {scale}"
                    );
                    1.0
                } else {
                    assert!(
                        scale > 1e-3,
                        "reach {reach}, {fields:?}: a field with waves"
                    );
                    scale
                };
                let worst = got
                    .iter()
                    .zip(&want)
                    .fold(0.0f32, |m, (a, b)| m.max((a - b).norm()));
                assert!(
                    worst <= 1e-5 * scale,
                    "reach {reach}, {fields:?}: off by {worst} of {scale}"
                );
            }
        }
    }
}
