//! The reads the fixed-point heights make of one point: the sea's height, and its displacement
//! with the interpolant's own gradient (what each Newton step of the inversion needs), each
//! summed over the tiles by periodic Catmull-Rom interpolation.
//!
//! These are the reference: `lane_reads_x86.rs` makes the same reads for eight points at once,
//! one point a lane of each AVX2 vector, with the same `f32` operations in the same order and no
//! fused multiply-add, so every lane gives the bits these give (tested there). Along each row
//! the four samples times their column weights are added left to right; each row times its row
//! weight, the four are added in pairs (`pairwise`), and the tiles' sums in turn.

use crate::ocean::ocean_synthesis::{SeaField, TileFields};
use crate::ocean::tile_taps::as_floats;

/// Catmull-Rom's weight of each of the four samples around fraction `f`, as cubics in `f`:
/// `WEIGHTS[k]` holds weight `k`'s coefficients of `f^3`, `f^2`, `f` and 1.
pub(super) const WEIGHTS: [[f32; 4]; 4] = [
    [-0.5, 1.0, -0.5, 0.0],
    [1.5, -2.5, 0.0, 1.0],
    [-1.5, 2.0, 0.5, 0.0],
    [0.5, -0.5, 0.0, 0.0],
];

/// The weights' derivatives in `f`: `WEIGHT_SLOPES[k]` holds the coefficients of `f^2`, `f`
/// and 1.
pub(super) const WEIGHT_SLOPES: [[f32; 3]; 4] = [
    [-1.5, 2.0, -0.5],
    [4.5, -5.0, 0.0],
    [-4.5, 4.0, 0.5],
    [1.5, -1.0, 0.0],
];

/// Where one tile's 16 samples around a point start, and the fractions past the second row and
/// column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Corner {
    /// The column before the point's, wrapped into the tile.
    pub(super) column: u32,
    /// The row before the point's, wrapped into the tile.
    pub(super) row: u32,
    /// The fraction along x past the point's column, in `[0, 1]` (1 only where a coordinate
    /// just below a sample rounds up to it).
    pub(super) fx: f32,
    /// The fraction along y past the point's row.
    pub(super) fy: f32,
}

impl Corner {
    /// The corner of `tile`'s samples around world point `p` (m).
    #[inline(always)]
    pub(super) fn of(tile: &TileFields, p: [f64; 2]) -> Self {
        let n = tile.cells;
        debug_assert!(
            n.is_power_of_two() && (4..=1 << 15).contains(&n),
            "tiles are powers of two a side"
        );
        let per_sample = 1.0 / tile.spacing;
        let (column, fx) = axis(p[0], per_sample, n);
        let (row, fy) = axis(p[1], per_sample, n);
        Self {
            column,
            row,
            fx,
            fy,
        }
    }
}

/// The sample before `coordinate * per_sample` (`per_sample` = 1 / spacing) along one axis of a
/// tile of `n` samples, wrapped (the first of the four a read takes, minus one), and the
/// fraction past the point's sample.
#[inline(always)]
fn axis(coordinate: f64, per_sample: f64, n: usize) -> (u32, f32) {
    let u = coordinate * per_sample;
    // The tile is periodic: a coordinate past 2^52 samples (where an f64 holds no fraction, and
    // past 2^63 the cast below saturates) is folded into one period first.
    let u = if u.abs() < 4.5e15 {
        u
    } else {
        u.rem_euclid(n as f64)
    };
    // `floor` without the library call (it is one where the target lacks SSE4.1).
    let truncated = u as i64;
    let base = truncated - i64::from(truncated as f64 > u);
    // Tiles are powers of two a side (at most 2^15, so twice a sample's index fits a u32): a
    // mask wraps without a division. The fraction is in [0, 1] from an f64 position (1 where a
    // coordinate a hair below a sample rounds up): as an f32 it is within 6e-8 of a sample
    // spacing, far below the interpolation's own error.
    (
        ((base - 1) & (n as i64 - 1)) as u32,
        (u - base as f64) as f32,
    )
}

/// Catmull-Rom's four weights at fraction `f`, by Horner's rule.
#[inline(always)]
pub(super) fn weights(f: f32) -> [f32; 4] {
    WEIGHTS.map(|[a, b, c, d]| ((a * f + b) * f + c) * f + d)
}

/// The four weights' derivatives along the axis at fraction `f`, per m (`per_sample` = 1 /
/// spacing).
#[inline(always)]
pub(super) fn weight_slopes(f: f32, per_sample: f32) -> [f32; 4] {
    WEIGHT_SLOPES.map(|[a, b, c]| ((a * f + b) * f + c) * per_sample)
}

/// Float `k` of each of the four samples of row `j` around `corner` in a tile's plane of
/// `n * n` samples (two floats each: `k` 0 the plane's first field, 1 its second).
#[inline(always)]
fn row_samples(floats: &[f32], corner: Corner, n: u32, j: u32, k: usize) -> [f32; 4] {
    let mask = n - 1;
    let line = ((corner.row + j) & mask) * n;
    [0, 1, 2, 3].map(|i| floats[2 * (line + ((corner.column + i) & mask)) as usize + k])
}

/// A tile's four rows (each times its row weight) added in pairs, `(r0 + r1) + (r2 + r3)`, as
/// they enter a sum: a short chain of additions for a query that waits on it.
#[inline(always)]
pub(super) fn pairwise(rows: [f32; 4]) -> f32 {
    (rows[0] + rows[1]) + (rows[2] + rows[3])
}

/// `weights · samples`, added left to right.
#[inline(always)]
fn dot(weights: [f32; 4], samples: [f32; 4]) -> f32 {
    let mut sum = weights[0] * samples[0];
    for i in 1..4 {
        sum += weights[i] * samples[i];
    }
    sum
}

/// The height `h` (m) at the undisplaced point `p`, summed over `tiles`.
#[inline(always)]
pub(super) fn height_read(tiles: &[TileFields], p: [f64; 2]) -> f32 {
    let mut height = 0.0f32;
    for tile in tiles {
        let corner = Corner::of(tile, p);
        let (wx, wy) = (weights(corner.fx), weights(corner.fy));
        let floats = as_floats(tile.plane_of(SeaField::Height));
        let n = tile.cells as u32;
        let rows: [f32; 4] =
            std::array::from_fn(|j| wy[j] * dot(wx, row_samples(floats, corner, n, j as u32, 0)));
        height += pairwise(rows);
    }
    height
}

/// The displacement at the undisplaced point `p` and the interpolant's derivatives, summed over
/// the tiles: `[D, dD/dx, dD/dy]`, each `(x part, y part)`, m and m per m.
#[inline(always)]
pub(super) fn displacement_read(tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3] {
    // Per field: the sums of D, dD/dx and dD/dy.
    let mut sums = [[0.0f32; 3]; 2];
    for tile in tiles {
        let corner = Corner::of(tile, p);
        let per_sample = (1.0 / tile.spacing) as f32;
        let (wx, wy) = (weights(corner.fx), weights(corner.fy));
        let (dwx, dwy) = (
            weight_slopes(corner.fx, per_sample),
            weight_slopes(corner.fy, per_sample),
        );
        let floats = as_floats(tile.plane_of(SeaField::DisplacementX));
        let n = tile.cells as u32;
        for (k, sum) in sums.iter_mut().enumerate() {
            let mut rows = [[0.0f32; 4]; 3];
            for j in 0..4 {
                let samples = row_samples(floats, corner, n, j as u32, k);
                let (along, slope) = (dot(wx, samples), dot(dwx, samples));
                rows[0][j] = wy[j] * along;
                rows[1][j] = wy[j] * slope;
                rows[2][j] = dwy[j] * along;
            }
            for (sum, rows) in sum.iter_mut().zip(rows) {
                *sum += pairwise(rows);
            }
        }
    }
    let [x, y] = sums;
    [[x[0], y[0]], [x[1], y[1]], [x[2], y[2]]]
}

#[cfg(test)]
mod tests {
    use super::{displacement_read, height_read};
    use crate::ocean::sea_frame::tests::choppy_frame;
    use crate::ocean::tile_taps::tests::reference;
    use crate::ocean::SeaField;

    #[test]
    fn reads_are_periodic_catmull_rom_summed_over_the_tiles() {
        // Held to the interpolation formula in f64 over every tile's samples, at points over
        // the tiles and across their edges (negative coordinates wrap too); the slopes are the
        // derivatives of the same interpolant, checked by differences in `sea_frame/inversion.rs`.
        let frame = choppy_frame();
        let tiles = frame.tiles();
        let side = tiles[0].spacing * tiles[0].cells as f64;
        let scale = |field: SeaField| {
            tiles
                .iter()
                .flat_map(|t| {
                    (0..t.cells * t.cells).map(|i| t.value(field, i).expect("a field").abs())
                })
                .fold(0.0f32, f32::max)
        };
        let fields = [
            SeaField::Height,
            SeaField::DisplacementX,
            SeaField::DisplacementY,
        ];
        let scales = fields.map(|f| f64::from(scale(f)));
        for i in 0..2000 {
            let i = f64::from(i);
            let p = [
                (i * 0.618).fract() * 2.0 * side - side,
                (i * 0.414).fract() * side - 0.5,
            ];
            let want = fields.map(|f| tiles.iter().map(|t| reference(t, f, p)).sum::<f64>());
            let [d, _, _] = displacement_read(tiles, p);
            let got = [height_read(tiles, p), d[0], d[1]].map(f64::from);
            for ((got, want), scale) in got.iter().zip(want).zip(scales) {
                assert!(
                    (got - want).abs() < 1e-5 * scale,
                    "at {p:?}: {got} read, {want} by the formula"
                );
            }
        }
    }
}
