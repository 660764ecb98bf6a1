//! [`TileSpectrum`]: one tile's height spectrum at one time over the bins its modes occupy,
//! from which every field's spectrum is one multiply per bin (`ocean_synthesis.rs` transforms
//! them). GPU twin: `ocean_spectrum` in `shaders/ocean_synthesis.wgsl`, which makes each
//! bin's fields from the bin's mode directly (one mode a bin: its tiles' modes stay below the
//! Nyquist band, where no two terms share a bin with different `k`).
//!
//! A mode with `c = A e^{-i omega t}` puts `c` at its bin `k` (time factor `e^{-i omega t}`)
//! and `conj(c)` at `-k` (`e^{+i omega t}`). A field whose multiplier does not depend on the
//! time factor (height, slopes, displacement and its gradient) is that multiplier times the
//! bin's sum `S = sum c`; one whose multiplier is linear in it (the rates) is its other factor
//! times `R = sum tau c` (`tau = -i omega` at `k`, `+i omega` at `-k`). So the modes are
//! walked once a tile, not once a pair of fields, and each field costs a multiply per bin.

use rustfft::num_complex::Complex;

use crate::ocean::ambient_sea::SeaTile;
use crate::ocean::ocean_synthesis::{field_multiplier, SeaField};

type C64 = Complex<f64>;

/// The bins along one axis that hold a mode or its mirror, in the order `0, 1, .., reach,
/// n - reach, .., n - 1` (every bin when the modes reach the Nyquist band).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OccupiedBins {
    n: usize,
    reach: usize,
}

impl OccupiedBins {
    /// The bins of `n` whose `min(i, n - i)` is at most `reach`.
    fn new(n: usize, reach: usize) -> Self {
        let reach = if 2 * reach + 1 >= n { n } else { reach };
        Self { n, reach }
    }

    /// How many bins are occupied.
    pub(crate) fn len(&self) -> usize {
        if self.reach == self.n {
            self.n
        } else {
            2 * self.reach + 1
        }
    }

    /// Whether every bin is occupied.
    pub(crate) fn all(&self) -> bool {
        self.reach == self.n
    }

    /// The highest `|bin|` occupied (`n` when all are).
    pub(crate) fn reach(&self) -> usize {
        self.reach
    }

    /// The occupied bins in order.
    pub(crate) fn bins(&self) -> impl Iterator<Item = usize> + '_ {
        let (low, high) = if self.all() {
            (self.n - 1, self.n)
        } else {
            (self.reach, self.n - self.reach)
        };
        (0..=low).chain(high..self.n)
    }

    /// The place of occupied `bin` in [`OccupiedBins::bins`].
    fn place(&self, bin: usize) -> usize {
        if self.all() || bin <= self.reach {
            bin
        } else {
            bin + self.len() - self.n
        }
    }
}

/// Where each mode of a tile lands, fixed for the sea's life: the occupied bins, each bin's
/// wave, and each mode's bin and its mirror's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TileLayout {
    columns: OccupiedBins,
    rows: OccupiedBins,
    /// The bin's `[kx, ky, kx / |k|, ky / |k|]`, rad/m and unit, bin `(columns[c], rows[r])`
    /// at `[c * rows.len() + r]`.
    wave: Vec<[f32; 4]>,
    /// Each mode's bin and its mirror's, with [`ALIASED`] set on a term whose `k` is not its
    /// bin's: a Nyquist bin holds `+k` and `-k` alike, and there the multipliers differ (only
    /// when the modes reach the Nyquist band).
    places: Vec<[u32; 2]>,
}

/// The flag on a place whose term is kept apart from its bin's sums.
const ALIASED: u32 = 1 << 31;

impl TileLayout {
    /// The layout of `tile`'s modes.
    pub(crate) fn new(tile: &SeaTile) -> Self {
        let n = tile.cells;
        let reach = |axis: fn(&(u32, u32)) -> u32| {
            tile.modes
                .iter()
                .map(|m| {
                    let i = axis(&m.index) as usize;
                    i.min(n - i)
                })
                .max()
                .unwrap_or(0)
        };
        let columns = OccupiedBins::new(n, reach(|i| i.0));
        let rows = OccupiedBins::new(n, reach(|i| i.1));
        let bins = columns.len() * rows.len();
        let mut wave = vec![[0.0f32; 4]; bins];
        let mut taken = vec![false; bins];
        let at = |x: usize, y: usize| columns.place(x) * rows.len() + rows.place(y);
        let places = tile
            .modes
            .iter()
            .map(|m| {
                let (ix, iy) = (m.index.0 as usize, m.index.1 as usize);
                // As `field_multiplier` takes it.
                let km = (m.k[0] * m.k[0] + m.k[1] * m.k[1]).sqrt();
                let w = [m.k[0], m.k[1], m.k[0] / km, m.k[1] / km].map(|v| v as f32);
                let terms = [
                    (at(ix, iy), w),
                    (at((n - ix) % n, (n - iy) % n), w.map(|v| -v)),
                ];
                terms.map(|(bin, w)| {
                    if !taken[bin] {
                        taken[bin] = true;
                        wave[bin] = w;
                    }
                    // Bins are at most 4096² = 2^24: the flag bit is free.
                    let place = bin as u32;
                    if wave[bin] == w {
                        place
                    } else {
                        place | ALIASED
                    }
                })
            })
            .collect();
        Self {
            columns,
            rows,
            wave,
            places,
        }
    }

    /// The occupied `kx` columns.
    pub(crate) fn columns(&self) -> &OccupiedBins {
        &self.columns
    }

    /// The occupied `ky` rows.
    pub(crate) fn rows(&self) -> &OccupiedBins {
        &self.rows
    }
}

/// One tile's spectrum at one time over its occupied bins (laid out as its [`TileLayout`]).
#[derive(Debug, Clone)]
pub(crate) struct TileSpectrum<'a> {
    layout: &'a TileLayout,
    /// `S`: the height's spectrum.
    height: Vec<Complex<f32>>,
    /// `R`: the spectrum of `dh/dt`.
    rate: Vec<Complex<f32>>,
    /// The terms kept apart from their bins' sums.
    aliased: Vec<AliasedTerm>,
}

/// A term kept apart from its bin's sums: bin, `c`, its time factor and its `k`.
#[derive(Debug, Clone, Copy)]
struct AliasedTerm {
    bin: usize,
    c: C64,
    tau: C64,
    k: [f64; 2],
}

impl<'a> TileSpectrum<'a> {
    /// `tile`'s spectrum (laid out as `layout`, made from `tile`) where its modes'
    /// `A e^{-i omega t}` are `rotated`. A bin takes a mode's term and the mirror of the mode
    /// at `-k` (a Nyquist bin up to four, two of them kept apart), each made in f64 and added
    /// in f32.
    pub(crate) fn new(tile: &SeaTile, layout: &'a TileLayout, rotated: &[C64]) -> Self {
        debug_assert_eq!(
            tile.modes.len(),
            layout.places.len(),
            "the tile's own layout"
        );
        debug_assert_eq!(tile.modes.len(), rotated.len(), "a rotation a mode");
        let zero = Complex::new(0.0f32, 0.0);
        let bins = layout.wave.len();
        let (mut height, mut rate) = (vec![zero; bins], vec![zero; bins]);
        let mut aliased = Vec::new();
        let narrow = |c: C64| Complex::new(c.re as f32, c.im as f32);
        for ((m, &c), places) in tile.modes.iter().zip(rotated).zip(&layout.places) {
            let terms = [
                (places[0], c, C64::new(0.0, -m.omega), m.k),
                (
                    places[1],
                    c.conj(),
                    C64::new(0.0, m.omega),
                    [-m.k[0], -m.k[1]],
                ),
            ];
            for (place, c, tau, k) in terms {
                let bin = (place & !ALIASED) as usize;
                if place & ALIASED == 0 {
                    height[bin] += narrow(c);
                    rate[bin] += narrow(tau * c);
                } else {
                    aliased.push(AliasedTerm { bin, c, tau, k });
                }
            }
        }
        Self {
            layout,
            height,
            rate,
            aliased,
        }
    }

    /// The occupied `kx` columns.
    pub(crate) fn columns(&self) -> &OccupiedBins {
        self.layout.columns()
    }

    /// The occupied `ky` rows.
    pub(crate) fn rows(&self) -> &OccupiedBins {
        self.layout.rows()
    }

    /// Writes the spectrum of the plane of `fields` (the first in the real part, the second,
    /// if any, in the imaginary) over the occupied bins into `out`, with choppiness `lambda`.
    pub(crate) fn pair_into(&self, fields: &[SeaField], lambda: f64, out: &mut Vec<Complex<f32>>) {
        out.clear();
        out.resize(self.height.len(), Complex::new(0.0, 0.0));
        let i = C64::new(0.0, 1.0);
        for (slot, &field) in fields.iter().enumerate() {
            self.add_field(field, slot == 1, lambda as f32, out);
            for term in &self.aliased {
                let mut value = field_multiplier(field, term.k, term.tau, lambda) * term.c;
                if slot == 1 {
                    value *= i;
                }
                out[term.bin] += Complex::new(value.re as f32, value.im as f32);
            }
        }
    }

    /// Adds `field`'s spectrum (times `i` for the imaginary slot) to `out`: `S` or `R` times
    /// the field's real factor of the bin's wave and a quarter turn for each `i`, as
    /// [`field_multiplier`] has them.
    fn add_field(&self, field: SeaField, imaginary: bool, lambda: f32, out: &mut [Complex<f32>]) {
        use SeaField as F;
        let (source, turns) = match field {
            F::Height | F::DxDx | F::DyDy | F::DxDy => (&self.height, 0),
            F::SlopeX | F::SlopeY | F::DisplacementX | F::DisplacementY => (&self.height, 1),
            F::HeightRate => (&self.rate, 0),
            F::DxDt | F::DyDt => (&self.rate, 1),
        };
        let turns = turns + u8::from(imaginary);
        // Each arm a loop of its own, so the factor is no branch inside it.
        let w = &self.layout.wave;
        match field {
            F::Height | F::HeightRate => add_scaled(out, source, w, |_| 1.0, turns),
            F::SlopeX => add_scaled(out, source, w, |w| w[0], turns),
            F::SlopeY => add_scaled(out, source, w, |w| w[1], turns),
            F::DisplacementX | F::DxDt => add_scaled(out, source, w, |w| lambda * w[2], turns),
            F::DisplacementY | F::DyDt => add_scaled(out, source, w, |w| lambda * w[3], turns),
            F::DxDx => add_scaled(out, source, w, |w| -lambda * w[0] * w[2], turns),
            F::DyDy => add_scaled(out, source, w, |w| -lambda * w[1] * w[3], turns),
            F::DxDy => add_scaled(out, source, w, |w| -lambda * w[0] * w[3], turns),
        }
    }
}

/// `out[b] += factor(wave[b]) * i^turns * source[b]` for every bin.
fn add_scaled(
    out: &mut [Complex<f32>],
    source: &[Complex<f32>],
    wave: &[[f32; 4]],
    factor: impl Fn([f32; 4]) -> f32,
    turns: u8,
) {
    let (cos, sin) = match turns % 4 {
        0 => (1.0, 0.0),
        1 => (0.0, 1.0),
        2 => (-1.0, 0.0),
        _ => (0.0, -1.0),
    };
    for ((o, s), &w) in out.iter_mut().zip(source).zip(wave) {
        let f = factor(w);
        o.re += f * (s.re * cos - s.im * sin);
        o.im += f * (s.re * sin + s.im * cos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occupied_bins_are_both_ends_of_the_axis_in_order() {
        let bins = OccupiedBins::new(16, 3);
        assert_eq!(bins.bins().collect::<Vec<_>>(), [0, 1, 2, 3, 13, 14, 15]);
        assert_eq!(
            bins.bins().map(|b| bins.place(b)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5, 6]
        );
        let all = OccupiedBins::new(16, 8);
        assert!(all.all() && all.len() == 16);
        assert_eq!(all.bins().collect::<Vec<_>>(), (0..16).collect::<Vec<_>>());
        assert_eq!(OccupiedBins::new(16, 0).bins().collect::<Vec<_>>(), [0]);
    }
}
