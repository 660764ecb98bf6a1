//! [`AmbientSea`]: the sea around the interactive water, a pure function of its spec, its seed,
//! the world position and the time.
//!
//! Every Fourier mode `k` of every tile gets one complex amplitude `A(k)`, drawn once from the
//! seed (`seeded_normal.rs`) with `E|A|^2 = F(k) dk^2 / 2`, and the surface is
//! `eta(x, t) = sum_k 2 Re[A(k) e^{i (k.x - omega(k) t)}]`: each mode travels toward `+k` at
//! Airy's `omega(k) = sqrt(g k tanh(k d))`, and the variance is `sum F dk^2`, the spectrum's
//! integral over the band. [`AmbientSea::frame`] synthesises the tiles at one time by FFT
//! (`ocean_synthesis.rs`); the direct sums here are the reference that synthesis is
//! tested against.

use glam::Vec2;

use crate::airy::AiryDispersion;
use crate::error::{Result, WaterError};
use crate::ocean::ocean_spec::OceanSpec;
use crate::ocean::sea_frame::SeaFrame;
use crate::ocean::seeded_normal::mode_normals;
use crate::ocean::tile_spectrum::TileLayout;
use crate::ocean::tiling::{OceanTiling, OCEAN_TILE_CELLS};

/// One Fourier mode of one tile.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeaMode {
    /// FFT column and row of `k` in its tile (`0..N`; negative wavenumbers wrap).
    pub index: (u32, u32),
    /// The wavenumber vector, rad/m.
    pub k: [f64; 2],
    /// Airy's angular frequency at `|k|`, rad/s.
    pub omega: f64,
    /// The complex amplitude `A(k)` (real, imaginary), m.
    pub amplitude: [f64; 2],
}

/// The modes of one periodic tile.
#[derive(Debug, Clone, PartialEq)]
pub struct SeaTile {
    /// Side, m.
    pub length: f64,
    /// Samples along each side.
    pub cells: usize,
    /// Its modes with any energy.
    pub modes: Vec<SeaMode>,
}

/// The ambient sea.
///
/// ```
/// use glam::Vec2;
/// use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};
/// let spec = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 6.0 }).with_seed(1);
/// // Waves down to 2 cells of 0.5 m.
/// let sea = AmbientSea::new(&spec, 0.5)?;
/// let frame = sea.frame(12.5);
/// let here = frame.sample(Vec2::new(30.0, -4.0));
/// assert!(here.height.abs() < 3.0 && here.normal.z > 0.5);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AmbientSea {
    choppiness: f64,
    hs_spectrum: f64,
    tiles: Vec<SeaTile>,
    /// Where each tile's modes land in its transform, made once.
    layouts: Vec<TileLayout>,
}

impl AmbientSea {
    /// The sea of `spec`, with waves down to 2 cells of `cell_size` m (the finest grid's).
    ///
    /// # Errors
    /// As [`OceanSpec::validate`] and [`OceanTiling::new`];
    /// [`WaterError::OceanPeakUnresolved`] when the spectrum's peak wave is shorter than 2 cells.
    pub fn new(spec: &OceanSpec, cell_size: f64) -> Result<Self> {
        spec.validate()?;
        let g = spec.gravity;
        let airy = AiryDispersion::new(g, 0.0, crate::WATER_DENSITY, spec.dispersion_depth())?;
        let peak_wavelength =
            std::f64::consts::TAU / wavenumber_of(&airy, spec.spectrum.peak_omega(g));
        // NaN-safe: a peak that is not a finite length passes here and is refused by the tiling.
        if peak_wavelength < 2.0 * cell_size {
            return Err(WaterError::OceanPeakUnresolved {
                peak_wavelength_m: peak_wavelength,
                cell_size,
                max_cell_size: 0.5 * peak_wavelength,
            });
        }
        let tiling = OceanTiling::new(8.0 * peak_wavelength, cell_size, OCEAN_TILE_CELLS)?;
        Self::from_spectrum(spec, &tiling)
    }

    /// The sea of `spec` over the given tiles.
    ///
    /// # Errors
    /// As [`OceanSpec::validate`].
    pub fn from_spectrum(spec: &OceanSpec, tiling: &OceanTiling) -> Result<Self> {
        spec.validate()?;
        let g = spec.gravity;
        let depth = spec.dispersion_depth();
        let airy = AiryDispersion::new(g, 0.0, crate::WATER_DENSITY, depth)?;
        let spreading = spec.directional_spreading()?;
        let n = tiling.cells();
        let mut variance = 0.0;
        let mut tiles = Vec::with_capacity(tiling.len());
        for (j, &length) in tiling.lengths().iter().enumerate() {
            let (lower, upper) = tiling.band(j);
            let dk = std::f64::consts::TAU / length;
            let reach = (upper / dk).ceil() as i64;
            let mut modes = Vec::new();
            for my in -reach..=reach {
                for mx in -reach..=reach {
                    let k = [mx as f64 * dk, my as f64 * dk];
                    let km = k[0].hypot(k[1]);
                    if km == 0.0 || km < lower || km >= upper {
                        continue;
                    }
                    let omega = airy.omega(km);
                    // d omega / dk of omega^2 = g k tanh(k d).
                    let group = match depth {
                        None => g / (2.0 * omega),
                        Some(d) => {
                            let t = (km * d).tanh();
                            g * (t + km * d * (1.0 - t * t)) / (2.0 * omega)
                        }
                    };
                    let theta = k[1].atan2(k[0]);
                    let f = spec.spectrum.density(omega, g) * spreading.density(theta) * group / km;
                    let energy = f * dk * dk;
                    if energy.is_nan() || energy <= 0.0 {
                        continue;
                    }
                    variance += energy;
                    let index = (
                        mx.rem_euclid(n as i64) as u32,
                        my.rem_euclid(n as i64) as u32,
                    );
                    let (xi1, xi2) = mode_normals(spec.seed, j as u32, index.0, index.1);
                    let scale = (energy / 4.0).sqrt();
                    modes.push(SeaMode {
                        index,
                        k,
                        omega,
                        amplitude: [xi1 * scale, xi2 * scale],
                    });
                }
            }
            tiles.push(SeaTile {
                length,
                cells: n,
                modes,
            });
        }
        Ok(Self::of_tiles(
            spec.choppiness,
            4.0 * variance.sqrt(),
            tiles,
        ))
    }

    /// A single regular wave `amplitude cos(k x - omega t)` travelling toward +x, `wavelength`
    /// m long, over `depth` (m; `None`: deep water), under gravity `g`: the sea of tests and
    /// of a long swell. With `choppiness` it is Gerstner's trochoid.
    ///
    /// # Errors
    /// [`WaterError::NotPositive`] or [`WaterError::NotFinite`] naming a bad value;
    /// [`WaterError::OutOfRange`] for a choppiness outside [0, 2].
    pub fn regular_wave(
        amplitude: f64,
        wavelength: f64,
        gravity: f64,
        depth: Option<f64>,
        choppiness: f64,
    ) -> Result<Self> {
        crate::error::finite("amplitude", amplitude)?;
        crate::error::positive("wavelength", wavelength)?;
        crate::error::finite("choppiness", choppiness)?;
        crate::error::within("choppiness", choppiness, (0.0, 2.0), "[0, 2]")?;
        let airy = AiryDispersion::new(gravity, 0.0, crate::WATER_DENSITY, depth)?;
        let k = std::f64::consts::TAU / wavelength;
        Ok(Self::of_tiles(
            choppiness,
            4.0 * (amplitude * amplitude / 2.0).sqrt(),
            vec![SeaTile {
                length: wavelength,
                cells: 64,
                modes: vec![SeaMode {
                    index: (1, 0),
                    k: [k, 0.0],
                    omega: airy.omega(k),
                    amplitude: [amplitude / 2.0, 0.0],
                }],
            }],
        ))
    }

    /// `4 sqrt(sum over the synthesised modes of E|h(k)|^2)`, m: the significant wave height
    /// the synthesis is built to have (what `summary.json` reports as `ocean.hs_spectrum`).
    #[must_use]
    pub fn hs_spectrum(&self) -> f64 {
        self.hs_spectrum
    }

    /// The horizontal displacement's scale `lambda`.
    #[must_use]
    pub fn choppiness(&self) -> f64 {
        self.choppiness
    }

    fn of_tiles(choppiness: f64, hs_spectrum: f64, tiles: Vec<SeaTile>) -> Self {
        Self {
            choppiness,
            hs_spectrum,
            layouts: tiles.iter().map(TileLayout::new).collect(),
            tiles,
        }
    }

    /// Where each tile's modes land in its transform.
    pub(crate) fn layouts(&self) -> &[TileLayout] {
        &self.layouts
    }

    /// The tiles and their modes.
    #[must_use]
    pub fn tiles(&self) -> &[SeaTile] {
        &self.tiles
    }

    /// The sea at time `t` (s), synthesised into its tiles: what every query at that time
    /// reads. Costs a few inverse FFTs per tile; make one per time and query it many times.
    /// A NaN or infinite `t` has no phase: every field of its frame is NaN.
    #[must_use]
    pub fn frame(&self, t: f64) -> SeaFrame {
        SeaFrame::synthesise(self, t)
    }

    /// The sea at time `t` (s) written into `frame`, an earlier frame whose planes' storage is
    /// reused (what a game that makes a frame every step should call: equal to
    /// [`AmbientSea::frame`] bit for bit, without allocating a frame's planes again).
    pub fn frame_into(&self, t: f64, frame: &mut SeaFrame) {
        frame.resynthesise(self, t);
    }

    /// The height of the undisplaced surface `sum_k 2 Re[A e^{i(k.x - omega t)}]` at `x`
    /// (m) and `t` (s) by the direct sum over every mode: `O(modes)` a point, the reference
    /// the FFT synthesis and its interpolation are tested against.
    #[must_use]
    pub fn height_by_sum(&self, x: Vec2, t: f64) -> f64 {
        self.sum_modes(x, t, |_, re, _| re)
    }

    /// The horizontal displacement `lambda sum_k 2 Re[i k/|k| A e^{i(k.x - omega t)}]` at the
    /// undisplaced point `x` by the direct sum (reference, as [`AmbientSea::height_by_sum`]).
    #[must_use]
    pub fn displacement_by_sum(&self, x: Vec2, t: f64) -> [f64; 2] {
        let l = self.choppiness;
        [
            self.sum_modes(x, t, |m, _, im| -l * im * m.k[0] / m.k[0].hypot(m.k[1])),
            self.sum_modes(x, t, |m, _, im| -l * im * m.k[1] / m.k[0].hypot(m.k[1])),
        ]
    }

    fn sum_modes(&self, x: Vec2, t: f64, term: impl Fn(&SeaMode, f64, f64) -> f64) -> f64 {
        let (px, py) = (f64::from(x.x), f64::from(x.y));
        let mut total = 0.0;
        for tile in &self.tiles {
            for m in &tile.modes {
                let phase = m.k[0] * px + m.k[1] * py - m.omega * t;
                let (s, c) = phase.sin_cos();
                // A e^{i phase}.
                let re = m.amplitude[0] * c - m.amplitude[1] * s;
                let im = m.amplitude[0] * s + m.amplitude[1] * c;
                total += 2.0 * term(m, re, im);
            }
        }
        total
    }
}

/// The wavenumber (rad/m) at which `airy` oscillates at `omega` (rad/s), by bisection between
/// the deep-water and shallow-water bounds (`omega(k)` increases with `k`).
fn wavenumber_of(airy: &AiryDispersion, omega: f64) -> f64 {
    let g = airy.gravity();
    let mut lo = omega * omega / g;
    if let Some(d) = airy.depth() {
        lo = lo.max(omega / (g * d).sqrt());
    }
    let mut hi = lo;
    while airy.omega(hi) < omega {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if airy.omega(mid) < omega {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}
