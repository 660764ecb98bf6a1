//! [`Taps`]: the 16 Catmull-Rom samples of one tile around one point, and the reads a
//! [`SeaSample`](crate::ocean::SeaSample) makes through them of every plane it needs (periodic
//! bicubic interpolation of a plane). The heights and the inversion read through
//! `lane_reads.rs` instead, which reads one field at many points at once.
//!
//! A plane holds two fields a sample (one complex number), so four neighbouring samples of a
//! row are eight consecutive `f32`s. A read is then four rows of eight lanes, each multiplied
//! by its row's weights (`wy * wx` of each sample, once per field) and added lane by lane, and
//! at the end the lanes of each field summed. The reads here go one lane at a time and are the
//! reference; `tile_taps_x86.rs` makes the same reads in AVX2 vectors. The order of every
//! operation is fixed and no multiply-add is fused, so on every target with IEEE single
//! precision (x86-64's SSE, AArch64) both give the same bits.

#![allow(unsafe_code, reason = "a plane's complex samples read as floats")]

use rustfft::num_complex::Complex;

use crate::ocean::lane_reads::{self, Corner};
use crate::ocean::ocean_synthesis::TileFields;

/// The weights and wrapped places of one tile's 16 samples around one point.
#[derive(Debug, Clone, Copy)]
pub(super) struct Taps {
    /// Where each of the four rows starts in a plane (`row * cells`).
    pub(super) lines: [usize; 4],
    /// The four columns, wrapped into the tile.
    pub(super) columns: [usize; 4],
    /// Whether the four columns are consecutive (no wrap between them).
    pub(super) contiguous: bool,
    /// The columns' weights, each twice (once for each field of a sample): `wx[2k]` and
    /// `wx[2k + 1]` for column `k`.
    pub(super) wx: [f32; 8],
    /// The rows' weights, each twice like `wx`.
    pub(super) wy: [f32; 8],
}

/// Catmull-Rom's weights of the four samples around fraction `f` are cubics in `f`; these are
/// their coefficients, for Horner's rule (`CUBIC[0]`, of `f^3`, first; `CUBIC[3]` the constant),
/// each column twice like [`Taps::wx`].
const CUBIC: [[f32; 8]; 4] = [
    [-0.5, -0.5, 1.5, 1.5, -1.5, -1.5, 0.5, 0.5],
    [1.0, 1.0, -2.5, -2.5, 2.0, 2.0, -0.5, -0.5],
    [-0.5, -0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0],
    [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
];

/// Catmull-Rom weights at fraction `f` in `[0, 1)`, laid out like [`Taps::wx`]. WGSL twin:
/// `catmull_rom_weights` in `shaders/shared/sea_taps.wgsl`, whose `sea_tile_catmull_rom` reads
/// the drawn sea's geometry as [`Taps`] read a plane.
#[inline(always)]
fn catmull_rom(f: f32) -> [f32; 8] {
    std::array::from_fn(|i| ((CUBIC[0][i] * f + CUBIC[1][i]) * f + CUBIC[2][i]) * f + CUBIC[3][i])
}

impl Taps {
    /// Taps of no point (weights zero), to fill an array before use.
    pub(super) const UNSET: Self = Self {
        lines: [0; 4],
        columns: [0, 1, 2, 3],
        contiguous: true,
        wx: [0.0; 8],
        wy: [0.0; 8],
    };

    /// The taps of `tile` around world point `p` (m).
    #[inline(always)]
    pub(super) fn around(tile: &TileFields, p: [f64; 2]) -> Self {
        let n = tile.cells;
        // The places and fractions the height and displacement reads take (`lane_reads.rs`).
        let corner = Corner::of(tile, p);
        let wrap = |first: u32| [0, 1, 2, 3].map(|k| (first as usize + k) & (n - 1));
        let (columns, rows) = (wrap(corner.column), wrap(corner.row));
        Self {
            lines: rows.map(|r| r * n),
            columns,
            contiguous: columns[0] + 3 == columns[3],
            wx: catmull_rom(corner.fx),
            wy: catmull_rom(corner.fy),
        }
    }

    /// Row `r`'s four samples of `plane`: eight floats, the two fields of each in turn.
    #[inline(always)]
    fn row(&self, plane: &[Complex<f32>], r: usize) -> [f32; 8] {
        let line = self.lines[r];
        if self.contiguous {
            let start = 2 * (line + self.columns[0]);
            as_floats(plane)[start..start + 8]
                .try_into()
                .expect("eight floats")
        } else {
            let [a, b, c, d] = self.columns.map(|column| plane[line + column]);
            [a.re, a.im, b.re, b.im, c.re, c.im, d.re, d.im]
        }
    }

    /// The plane's two fields interpolated at the taps' point, one lane at a time: the
    /// reference for the vector reads (tile_taps_x86.rs), which give the same bits.
    #[inline(always)]
    pub(super) fn read_portable(&self, plane: &[Complex<f32>]) -> [f32; 2] {
        // Each row times its weights (`wy * wx`, rounded), the rows added in turn, the halves
        // added, then the two samples of each field in each half.
        let product = |r: usize| -> [f32; 8] {
            let row = self.row(plane, r);
            std::array::from_fn(|i| (self.wy[2 * r] * self.wx[i]) * row[i])
        };
        let mut lanes = product(0);
        for r in 1..4 {
            for (l, p) in lanes.iter_mut().zip(product(r)) {
                *l += p;
            }
        }
        reduce(lanes)
    }
}

/// How a query reads its taps: [`Portable`] on any CPU, or in vectors where a value of the
/// vector kind exists (`tile_taps_x86::Avx2`, made only where the CPU has AVX2). Every kind
/// gives the same bits.
pub(super) trait Lanes: Copy {
    /// [`Taps::read_portable`]'s answer.
    fn read(self, taps: &Taps, plane: &[Complex<f32>]) -> [f32; 2];
    /// `lane_reads::height_read`'s answer.
    fn height_read(self, tiles: &[TileFields], p: [f64; 2]) -> f32;
    /// `lane_reads::displacement_read`'s answer.
    fn displacement_read(self, tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3];
}

/// Reads one lane at a time, on any CPU.
#[derive(Debug, Clone, Copy)]
pub(super) struct Portable;

impl Lanes for Portable {
    #[inline(always)]
    fn read(self, taps: &Taps, plane: &[Complex<f32>]) -> [f32; 2] {
        taps.read_portable(plane)
    }

    #[inline(always)]
    fn height_read(self, tiles: &[TileFields], p: [f64; 2]) -> f32 {
        lane_reads::height_read(tiles, p)
    }

    #[inline(always)]
    fn displacement_read(self, tiles: &[TileFields], p: [f64; 2]) -> [[f32; 2]; 3] {
        lane_reads::displacement_read(tiles, p)
    }
}

/// The eight lanes of two interleaved fields summed to the pair: the halves added, then the
/// two samples of each field left in each half (the order of `tile_taps_x86::reduce`).
#[inline(always)]
fn reduce(lanes: [f32; 8]) -> [f32; 2] {
    let half: [f32; 4] = std::array::from_fn(|i| lanes[i] + lanes[i + 4]);
    [half[0] + half[2], half[1] + half[3]]
}

/// A plane's samples as floats: the real and imaginary part of each in turn.
#[inline(always)]
pub(super) fn as_floats(plane: &[Complex<f32>]) -> &[f32] {
    // SAFETY: `Complex<f32>` is `#[repr(C)]` with fields `re` then `im`, two `f32`s with no
    // padding, so `len` of them are `2 * len` `f32`s at the same address, equally aligned.
    unsafe { std::slice::from_raw_parts(plane.as_ptr().cast::<f32>(), plane.len() * 2) }
}

#[cfg(test)]
pub(super) mod tests {
    use super::{Lanes, Portable, Taps};
    use crate::ocean::ocean_synthesis::TileFields;
    use crate::ocean::sea_frame::tests::choppy_frame;
    use crate::ocean::SeaField;

    /// Periodic Catmull-Rom interpolation of `field` at `p`, in f64 straight from the
    /// formula and the tile's samples: the reference the reads are held to.
    pub(in crate::ocean) fn reference(tile: &TileFields, field: SeaField, p: [f64; 2]) -> f64 {
        let n = tile.cells as i64;
        let weights = |f: f64| {
            let (f2, f3) = (f * f, f * f * f);
            [
                0.5 * (-f3 + 2.0 * f2 - f),
                0.5 * (3.0 * f3 - 5.0 * f2 + 2.0),
                0.5 * (-3.0 * f3 + 4.0 * f2 + f),
                0.5 * (f3 - f2),
            ]
        };
        let (u, v) = (p[0] / tile.spacing, p[1] / tile.spacing);
        let (bx, by) = (u.floor(), v.floor());
        let (wx, wy) = (weights(u - bx), weights(v - by));
        let mut sum = 0.0;
        for (j, wy) in wy.iter().enumerate() {
            for (i, wx) in wx.iter().enumerate() {
                let x = (bx as i64 - 1 + i as i64).rem_euclid(n);
                let y = (by as i64 - 1 + j as i64).rem_euclid(n);
                let value = tile.value(field, (y * n + x) as usize).expect("a field");
                sum += wy * wx * f64::from(value);
            }
        }
        sum
    }

    /// `count` points scattered over `[-side, 2 side) x [0, side)`: three tiles of side `side`
    /// across, the first at negative coordinates (where the reads wrap).
    pub(in crate::ocean) fn scattered(side: f64, count: u32) -> Vec<[f64; 2]> {
        (0..count)
            .map(|i| {
                let i = f64::from(i);
                [
                    (i * 0.618).fract() * 3.0 * side - side,
                    (i * 0.414).fract() * side,
                ]
            })
            .collect()
    }

    /// Points over each tile and across its edges: negative coordinates, and the last and first
    /// samples of a row or column (where the four columns or rows wrap).
    fn places(tile: &TileFields) -> Vec<[f64; 2]> {
        let side = tile.spacing * tile.cells as f64;
        let mut places = scattered(side, 400);
        for k in 0..40 {
            let along = f64::from(k) / 40.0 * side;
            let edge = side - (f64::from(k % 8) - 3.5) * 0.4 * tile.spacing;
            places.extend([[edge, along], [along, edge], [edge - side, -along]]);
        }
        places
    }

    #[test]
    fn reads_are_periodic_catmull_rom_across_the_tiles_edges() {
        let frame = choppy_frame();
        let mut wrapped = 0;
        for tile in frame.tiles() {
            for p in places(tile) {
                let taps = Taps::around(tile, p);
                wrapped += usize::from(!taps.contiguous);
                for field in [SeaField::Height, SeaField::DxDx] {
                    let [a, b] = Portable.read(&taps, tile.plane_of(field));
                    let next = if field == SeaField::Height {
                        SeaField::HeightRate
                    } else {
                        SeaField::DyDy
                    };
                    for (got, field) in [(a, field), (b, next)] {
                        let want = reference(tile, field, p);
                        let scale = (0..tile.cells * tile.cells)
                            .map(|i| tile.value(field, i).expect("a field").abs())
                            .fold(0.0f32, f32::max);
                        assert!(
                            (f64::from(got) - want).abs() < 1e-5 * f64::from(scale),
                            "{field:?} at {p:?}: {got} read, {want} by the formula"
                        );
                    }
                }
            }
        }
        assert!(wrapped > 100, "{wrapped} reads wrapped around a tile");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_reads_give_the_lane_by_lane_bits() {
        use crate::ocean::tile_taps_x86::Avx2;
        let Some(avx2) = Avx2::detect_or_say("only the lane-by-lane reads run here") else {
            return;
        };
        let frame = choppy_frame();
        let mut contiguous = 0;
        for tile in frame.tiles() {
            for p in places(tile) {
                let taps = Taps::around(tile, p);
                contiguous += usize::from(taps.contiguous);
                for field in [SeaField::Height, SeaField::DisplacementX, SeaField::DxDy] {
                    let plane = tile.plane_of(field);
                    let bits = |pair: [f32; 2]| pair.map(f32::to_bits);
                    assert_eq!(
                        bits(avx2.read(&taps, plane)),
                        bits(Portable.read(&taps, plane)),
                        "{field:?} at {p:?}"
                    );
                }
            }
        }
        assert!(contiguous > 1000, "{contiguous} reads in vectors");
    }
}
