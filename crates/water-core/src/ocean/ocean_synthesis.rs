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
    debug_assert_eq!(sea.tiles().len(), sea.layouts().len(), "a layout a tile");
    sea.tiles()
        .par_iter()
        .zip(sea.layouts())
        .zip(storage)
        .map(|((tile, layout), planes)| {
            // Each mode's `A e^{-i omega t}` and the tile's spectrum, once a tile, not once a
            // pair of fields (in profiles of a choppy frame made a pair at a time, the sines
            // and cosines were about a seventh of it and the multipliers a fifth).
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

/// `(sin, cos)` of `phase` (rad). The phase is taken in f64 to within half a turn of zero (it
/// grows with the time), and the sine and cosine of that are taken in f32: the angle, at most
/// pi, is cast within 1.2e-7 rad, and f32's sine and cosine cost about half what f64's do.
fn turned(phase: f64) -> (f64, f64) {
    let turns = phase / std::f64::consts::TAU;
    // Below 2^52 turns the integer part is exact and subtracting it leaves the fraction;
    // beyond, `rem_euclid` (and the phase has no fraction left to lose).
    let mut fraction = if turns.abs() < 4.5e15 {
        turns - (turns as i64) as f64
    } else {
        phase.rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU
    };
    // From (-1, 1) turns to [-1/2, 1/2] (no `round`: it is a library call where the target
    // lacks SSE4.1).
    if fraction > 0.5 {
        fraction -= 1.0;
    } else if fraction < -0.5 {
        fraction += 1.0;
    }
    let (sin, cos) = ((fraction * std::f64::consts::TAU) as f32).sin_cos();
    (f64::from(sin), f64::from(cos))
}

/// Buffers one thread reuses from pair to pair and frame to frame (a frame of 256² tiles would
/// otherwise map and fault in fresh pages for each), and its FFT plans.
struct SynthesisScratch {
    spectrum: Vec<Complex<f32>>,
    /// The transforms' inputs for each tile layout met so far (a sea's tiles differ in how far
    /// their modes reach: the swell's last tile reaches 12 bins, the others 31).
    inputs: Vec<TransformInputs>,
    /// The first pass's output.
    columns_out: Vec<Complex<f32>>,
    fft: Vec<Complex<f32>>,
    planner: FftPlanner<f32>,
}

/// The inputs of both passes for one tile layout. Both transforms leave their inputs as they
/// were and every pair writes the same occupied positions, so the zeros are written once, not
/// once a pair (they were a sixth of a choppy frame on two threads).
struct TransformInputs {
    /// The tile side and the occupied reaches along `kx` and `ky`.
    layout: (usize, usize, usize),
    /// The first pass's input: the occupied columns' bins along `ky`, zero where no mode is.
    columns_in: Vec<Complex<f32>>,
    /// The second pass's input: the plane's rows, zero in the empty columns.
    plane_in: Vec<Complex<f32>>,
}

impl SynthesisScratch {
    fn new() -> Self {
        Self {
            spectrum: Vec::new(),
            inputs: Vec::new(),
            columns_out: Vec::new(),
            fft: Vec::new(),
            planner: FftPlanner::new(),
        }
    }

    /// How many samples the buffers hold.
    fn samples(&self) -> usize {
        self.spectrum.capacity()
            + self.columns_out.capacity()
            + self
                .inputs
                .iter()
                .map(|i| i.columns_in.capacity() + i.plane_in.capacity())
                .sum::<usize>()
    }
}

impl TransformInputs {
    /// The inputs for `layout` among `inputs` (`columns` occupied columns of `n = layout.0`
    /// bins), made zero when first met.
    fn find(
        inputs: &mut Vec<TransformInputs>,
        layout: (usize, usize, usize),
        columns: usize,
    ) -> &mut TransformInputs {
        let at = match inputs.iter().position(|i| i.layout == layout) {
            Some(at) => at,
            None => {
                let n = layout.0;
                inputs.push(TransformInputs {
                    layout,
                    columns_in: vec![Complex::new(0.0, 0.0); columns * n],
                    plane_in: vec![Complex::new(0.0, 0.0); n * n],
                });
                inputs.len() - 1
            }
        };
        &mut inputs[at]
    }
}

thread_local! {
    // Borrowed only across serial code (`synthesise_pair` calls nothing that runs rayon work,
    // which could start another pair on this thread while the borrow is held).
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
    let SynthesisScratch {
        spectrum: compact,
        inputs,
        columns_out: rows,
        fft: work,
        planner,
    } = scratch;
    let layout = (n, columns.reach(), occupied_rows.reach());
    let input = TransformInputs::find(inputs, layout, columns.len());
    spectrum.pair_into(fields, lambda, compact);
    // `columns_in[c * n + ky]` holds the bin (columns[c], ky): each occupied column's bins
    // spread over its `n` rows (the others stay zero).
    let (r, taken) = (occupied_rows.reach(), occupied_rows.len());
    for (line, bins) in input
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
    let fft = planner.plan_fft_inverse(n);
    work.resize(fft.get_immutable_scratch_len(), zero);
    // Along ky: rows[c][y] = sum over ky of X[ky][columns[c]] e^{+2 pi i ky y / n}.
    rows.resize(columns.len() * n, zero);
    fft.process_immutable_with_scratch(&input.columns_in, rows, work);
    // The occupied columns scattered into the plane's rows (the empty ones stay zero). The
    // scatter is a transpose, done a band of `BAND` rows at a time: a column's run of the band
    // is read in order, and the band's rows stay in the L1 cache while every column is
    // written into them.
    const BAND: usize = 16;
    for (band, lines) in input.plane_in.chunks_mut(BAND * n).enumerate() {
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
    fft.process_immutable_with_scratch(&input.plane_in, &mut plane, work);
    // A thread keeps its scratch for the next frame, but not a large tile's (4096² would hold
    // 128 MiB a thread for its whole life in one plane's input).
    if scratch.samples() > SCRATCH_KEPT_SAMPLES {
        let planner = std::mem::replace(&mut scratch.planner, FftPlanner::new());
        *scratch = SynthesisScratch {
            planner,
            ..SynthesisScratch::new()
        };
    }
    plane
}

/// The most samples a thread's scratch keeps between pairs, 4 MiB: the swell's 256² tiles in
/// two layouts keep about 160,000; a 1024² tile's input alone is past it.
const SCRATCH_KEPT_SAMPLES: usize = 1 << 19;

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

    /// A tile of 16² whose modes reach `reach_x` bins from 0 along x and `reach_y` along y,
    /// with amplitudes from a fixed sequence started at `start`.
    fn tile_reaching(reach_x: i64, reach_y: i64, start: f64) -> SeaTile {
        let n = 16usize;
        let dk = std::f64::consts::TAU / 8.0;
        let mut modes = Vec::new();
        for my in -reach_y..=reach_y {
            for mx in -reach_x..=reach_x {
                if (mx, my) == (0, 0) {
                    continue;
                }
                let s = (start + modes.len() as f64 * 0.7).sin();
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

    /// Every field of `tile`, in the pairs a choppy sea makes and one alone, synthesised with
    /// `scratch` and compared with the full 2-D inverse transform.
    fn check_every_field(tile: &SeaTile, scratch: &mut SynthesisScratch, case: &str) {
        let rotated: Vec<C64> = tile
            .modes
            .iter()
            .map(|m| C64::new(m.amplitude[0], m.amplitude[1]))
            .collect();
        let layout = TileLayout::new(tile);
        let spectrum = TileSpectrum::new(tile, &layout, &rotated);
        let along_y_only = tile.modes.iter().all(|m| m.index.0 == 0);
        for fields in ALL_FIELDS.chunks(2).chain([&[SeaField::DyDy][..]]) {
            let got = synthesise_pair(
                &spectrum,
                tile.cells,
                fields,
                0.7,
                scratch,
                vec![Complex::new(9.0, 9.0); 3],
            );
            let want = full_inverse(tile, fields, 0.7);
            let scale = want.iter().fold(0.0f32, |m, c| m.max(c.norm()));
            // With every mode at kx = 0 the fields along x (Dx and its rates and gradients,
            // all proportional to kx) are still water, and must come out so.
            let along_x = |f: &SeaField| {
                matches!(
                    f,
                    SeaField::DisplacementX | SeaField::DxDx | SeaField::DxDy | SeaField::DxDt
                )
            };
            let scale = if along_y_only && fields.iter().all(along_x) {
                assert!(scale < 1e-9, "{case}, {fields:?}: still water, got {scale}");
                1.0
            } else {
                assert!(scale > 1e-3, "{case}, {fields:?}: a field with waves");
                scale
            };
            let worst = got
                .iter()
                .zip(&want)
                .fold(0.0f32, |m, (a, b)| m.max((a - b).norm()));
            assert!(
                worst <= 1e-5 * scale,
                "{case}, {fields:?}: off by {worst} of {scale}"
            );
        }
    }

    /// The transform over the occupied bins is the full 2-D inverse transform for every
    /// field: pruned (reach 0, 3 and 7 of 16 bins along x: 1, 7 and 15 columns), unpruned
    /// (reach 8: the modes reach the Nyquist bin, where `+k` and `-k` share a bin), and with
    /// the rows unpruned too. One scratch serves every case twice over, the second time with
    /// other amplitudes: inputs kept from a tile of another reach, or of the same reach with
    /// other modes, leave nothing behind.
    #[test]
    fn the_pruned_transform_is_the_full_inverse_transform() {
        let mut scratch = SynthesisScratch::new();
        for start in [0.0, 1.3] {
            for (reach_x, reach_y, columns) in [
                (0, 2, 1),
                (3, 2, 7),
                (7, 2, 15),
                (8, 2, 16),
                (3, 8, 7),
                (8, 8, 16),
                (3, 2, 7),
            ] {
                let tile = tile_reaching(reach_x, reach_y, start);
                assert_eq!(TileLayout::new(&tile).columns().len(), columns);
                let case = format!("reach {reach_x} x {reach_y}, amplitudes from {start}");
                check_every_field(&tile, &mut scratch, &case);
            }
        }
    }

    /// The phase is turned to within half a turn and its sine and cosine taken in f32: within
    /// 3e-7 of the f64 sine and cosine of the exactly reduced phase, plus the few ulps of the
    /// phase the reduction by division can lose, for phases of either sign and any size.
    #[test]
    fn a_turned_phase_has_the_sine_and_cosine_of_the_phase() {
        for phase in [
            -1e9,
            -3.0,
            -0.5,
            0.0,
            2.0,
            3.2,
            6.2,
            1e6,
            86_400.5 * 7.3,
            1e15,
            1e17,
        ] {
            let (sin, cos) = turned(phase);
            let (want_sin, want_cos) = phase.rem_euclid(std::f64::consts::TAU).sin_cos();
            let tolerance = 3e-7 + 4.0 * f64::EPSILON * f64::abs(phase);
            assert!(
                (sin - want_sin).abs() <= tolerance && (cos - want_cos).abs() <= tolerance,
                "phase {phase}: ({sin}, {cos}) against ({want_sin}, {want_cos})"
            );
        }
    }
}
