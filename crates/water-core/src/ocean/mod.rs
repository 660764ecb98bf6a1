//! The ambient sea: a wind sea to the horizon around the interactive water, the same
//! deterministic function of `(spec, seed, x, y, t)` wherever it is asked for.
//!
//! * [`OceanSpec`] — a spectrum ([`WaveSpectrum`]: Pierson-Moskowitz, JONSWAP, TMA), its
//!   directional spreading ([`DirectionalSpreading`]), seed and choppiness.
//! * [`AmbientSea`] — the seeded Fourier amplitudes over periodic tiles that split the
//!   wavenumber band ([`OceanTiling`]), each mode at Airy's `omega(k)`.
//! * [`SeaFrame`] — the tiles synthesised at one time by inverse FFT
//!   ([`ocean_synthesis`](fn@ocean_synthesis)), queried at any world point: height at a fixed
//!   point (inverting the choppy displacement), normal, vertical velocity; one point or a
//!   slice of them.
//! * [`SeaWithWater`] — the sea plus the interactive water: what users see and bodies float on.
//!
//! The derivations (spectra, amplitudes, displacement, inversion) are in `docs/math.md`,
//! section 14.

mod ambient_sea;
#[cfg(target_arch = "x86_64")]
mod inversion_steps_x86;
mod lane_reads;
#[cfg(target_arch = "x86_64")]
mod lane_reads_x86;
mod ocean_spec;
mod ocean_synthesis;
#[cfg(target_arch = "x86_64")]
mod point_reads_x86;
mod sea_frame;
mod sea_with_water;
mod seeded_normal;
mod spectrum;
mod spreading;
mod tile_spectrum;
mod tile_taps;
#[cfg(target_arch = "x86_64")]
mod tile_taps_x86;
mod tiling;

pub use ambient_sea::{AmbientSea, SeaMode, SeaTile};
pub use ocean_spec::{OceanSpec, CHOPPINESS_RANGE};
pub use ocean_synthesis::{
    field_multiplier, ocean_synthesis, SeaField, TileFields, CHOPPY_FIELDS, PLAIN_FIELDS,
};
pub use sea_frame::{
    SeaFrame, SeaSample, INVERSION_TOLERANCE, MAX_INVERSION_ITERATIONS, NEWTON_LANDING_SCALE,
    NEWTON_MIN_DETERMINANT,
};
pub use sea_with_water::SeaWithWater;
pub use seeded_normal::mode_normals;
pub use spectrum::{
    kitaigorodskii, WaveSpectrum, DEFAULT_PEAK_ENHANCEMENT, FETCH_RANGE, PEAK_ENHANCEMENT_RANGE,
    PIERSON_MOSKOWITZ_ALPHA, PIERSON_MOSKOWITZ_BETA, WIND_SPEED_RANGE,
};
pub use spreading::{DirectionalSpreading, DEFAULT_SPREADING, SPREADING_RANGE};
pub use tiling::{
    OceanTiling, BAND_FRACTION_OF_NYQUIST, MAX_OCEAN_TILES, OCEAN_TILE_CELLS, TILE_RATIO,
};
