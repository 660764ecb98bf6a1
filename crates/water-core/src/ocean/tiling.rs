//! [`OceanTiling`]: the periodic tiles that share the sea's wavenumber band.
//!
//! Tile `j` is a square of side `L_j` sampled at `N x N` points; `L_0` is the smallest power of
//! two metres at or above 8 peak wavelengths, and each next tile is [`TILE_RATIO`] times
//! smaller. Tile `j` holds the wavenumbers `c_j <= |k| < c_(j+1)` with `c_0 = 0` and `c_(j+1)`
//! a quarter of its Nyquist wavenumber (`pi N / (4 L_j)`): so no wavenumber is counted twice,
//! every wave a tile holds is sampled at 8 or more points a wavelength (what keeps the
//! Catmull-Rom interpolation between samples within 1%, `docs/math.md` section 14), and the
//! last tile stops at `pi / h`, the wave of 2 cells of the finest grid. The ratio is not an
//! integer, so the tiles' periods never line up and the sum does not repeat.

use crate::error::{Result, WaterError};

/// Samples along each side of every tile: a power of two for the FFT.
pub const OCEAN_TILE_CELLS: usize = 256;
/// The ratio of one tile's side to the next smaller one's.
pub const TILE_RATIO: f64 = 3.71;
/// The most tiles a sea is split into.
pub const MAX_OCEAN_TILES: usize = 8;
/// Tiles hold waves up to this fraction of their Nyquist wavenumber.
pub const BAND_FRACTION_OF_NYQUIST: f64 = 0.25;

/// The tiles of one sea.
#[derive(Debug, Clone, PartialEq)]
pub struct OceanTiling {
    cells: usize,
    lengths: Vec<f64>,
    band_edges: Vec<f64>,
}

impl OceanTiling {
    /// Tiles with `cells` samples a side that hold wavelengths from `longest` (m; the first
    /// tile's side is the power of two at or above it) down to `2 * cell_size` (m).
    ///
    /// # Errors
    /// [`WaterError::OceanBandTooWide`] when more than [`MAX_OCEAN_TILES`] would be needed;
    /// [`WaterError::NotPositive`] or [`WaterError::NotFinite`] for bad lengths;
    /// [`WaterError::OutOfRange`] for `cells` not a power of two in [16, 4096].
    pub fn new(longest: f64, cell_size: f64, cells: usize) -> Result<Self> {
        crate::error::positive("cell_size", cell_size)?;
        crate::error::positive("longest wavelength", longest)?;
        if !cells.is_power_of_two() || !(16..=4096).contains(&cells) {
            return Err(WaterError::OutOfRange {
                name: "tile cells",
                value: cells as f64,
                range: "powers of two in [16, 4096]",
            });
        }
        let first = 2f64.powf(longest.log2().ceil());
        let k_max = std::f64::consts::PI / cell_size;
        let n = cells as f64;
        let quarter_nyquist =
            |length: f64| BAND_FRACTION_OF_NYQUIST * std::f64::consts::PI * n / length;
        let mut lengths = vec![first];
        let mut band_edges = vec![0.0];
        while quarter_nyquist(*lengths.last().expect("one tile")) < k_max {
            if lengths.len() == MAX_OCEAN_TILES {
                let finest = first / TILE_RATIO.powi(MAX_OCEAN_TILES as i32 - 1);
                return Err(WaterError::OceanBandTooWide {
                    longest_m: longest,
                    shortest_m: 2.0 * cell_size,
                    cell_size,
                    max_tiles: MAX_OCEAN_TILES,
                    min_cell_size: std::f64::consts::PI / quarter_nyquist(finest),
                });
            }
            let last = *lengths.last().expect("one tile");
            band_edges.push(quarter_nyquist(last));
            lengths.push(last / TILE_RATIO);
        }
        band_edges.push(k_max);
        Ok(Self {
            cells,
            lengths,
            band_edges,
        })
    }

    /// Samples along each side of a tile.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The tiles' sides, m, largest first.
    #[must_use]
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }

    /// The wavenumber band of tile `j`: `[lower, upper)`, rad/m.
    #[must_use]
    pub fn band(&self, j: usize) -> (f64, f64) {
        (self.band_edges[j], self.band_edges[j + 1])
    }

    /// How many tiles.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Always false: a sea has at least one tile.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_meet_without_overlap_and_reach_two_cells() {
        let t = OceanTiling::new(480.0, 0.1, 256).expect("fits");
        assert_eq!(t.lengths()[0], 512.0);
        for j in 1..t.len() {
            assert_eq!(t.band(j - 1).1, t.band(j).0);
            assert!(t.band(j).1 <= std::f64::consts::PI * 256.0 / (4.0 * t.lengths()[j]) + 1e-9);
        }
        assert_eq!(t.band(t.len() - 1).1, std::f64::consts::PI / 0.1);
    }

    #[test]
    fn a_band_past_the_tiles_names_the_smallest_cell() {
        let e = OceanTiling::new(5000.0, 1e-4, 256)
            .expect_err("too wide")
            .to_string();
        assert!(e.contains("use cells of at least"), "{e}");
        // One line with single spaces (the message's source lines once ran into it with their
        // indentation).
        assert!(!e.contains("  ") && !e.contains('\n'), "{e}");
    }
}
