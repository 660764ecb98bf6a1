//! `depth_step`: one step of the variable-coefficient wave stencil over a whole field, for water
//! whose depth (so whose speed `c = sqrt(g d)`) changes from cell to cell, every boundary. GPU
//! twins: the `depth_enabled` path of `shaders/grid_step.wgsl` and
//! `shaders/grid_step_fragment.wgsl`, with [`depth_cell`] in `shaders/shared/depth_cell.wgsl`
//! and the edges in `shaders/shared/boundary_rules.wgsl`.
//!
//! The flux form of `z_tt = div(c^2 grad z)`:
//!
//! ```text
//! z_new = d * ((2z - z_old) + ((aN (zN - z) + aS (zS - z)) + aE (zE - z)) + aW (zW - z))
//! ```
//!
//! with `aE` the Courant number `(c dt / h)^2` of the face between the cell and its east
//! neighbour, taken from the mean of the two cells' `c^2` (so `g` times their mean depth), and 0
//! where either cell is dry (the shore reflects). Each
//! face's flux leaves one cell and enters the other, so the volume is conserved on reflective
//! and periodic grids as on the five-point stencil, and a uniform depth gives the five-point
//! stencil's wave. Stable while every cell's four faces sum to at most 2, which holds when the
//! deepest cell's `a <= 1/2` (`docs/math.md`, "Depth").
//!
//! Edges: a reflective edge's outer face carries no flux; a periodic one wraps; fixed edges stay
//! 0; absorbing edges take Mur's condition ([`super::absorbing_edges`]) with each edge cell's own
//! `a`. Two-buffer scheme as [`super::grid_step`]: `out` holds `z^(n-1)` on entry and `z^(n+1)`
//! on exit.

use super::absorbing_edges::{mur_cell, mur_coefficient};
use super::float_mode::FlushDenormals;
use super::grid_step::row_neighbours;
use super::{for_each_stepped_row, Parallelism};
use crate::boundary::Boundary;
use crate::depth::Depth;
use crate::size::GridSize;

/// The per-face Courant numbers of a depth on a grid: what [`depth_step`] steps with.
#[derive(Debug, Clone, PartialEq)]
pub struct FaceCourants {
    size: GridSize,
    boundary: Boundary,
    /// Face between cell `i` and its east neighbour (wrapping on a periodic grid, else 0 past
    /// the last column).
    east: Vec<f32>,
    /// Face between cell `i` and its south neighbour (`y + 1`), likewise.
    south: Vec<f32>,
    /// Mur's coefficient of each cell's own `a` (used at absorbing edges).
    mur: Vec<f32>,
    /// A row of zero faces: north of row 0 on a reflective grid.
    no_faces: Vec<f32>,
}

impl FaceCourants {
    /// Faces of `depth` for a grid whose deepest cell has Courant number `deepest_courant`
    /// (`(c dt / h)^2` with `c = sqrt(g d_max)`), under `boundary`.
    ///
    /// # Panics
    /// If `deepest_courant` is not in `[0, 1/2]` (the grid types pass their checked
    /// coefficients).
    #[must_use]
    pub fn new(depth: &Depth, deepest_courant: f32, boundary: Boundary) -> Self {
        assert!(
            (0.0..=0.5).contains(&deepest_courant),
            "a = {deepest_courant} outside [0, 1/2]"
        );
        let size = depth.size();
        let (w, h) = (size.width(), size.height());
        let a = f64::from(deepest_courant);
        let ratio: Vec<f64> = depth.speed_squared_ratios().collect();
        let wraps = boundary == Boundary::Periodic;
        // A face to a dry cell (depth <= 0) carries nothing: the shore reflects, and the dry
        // cell (land) stays at 0 without draining its wet neighbour.
        let face = |i: usize, j: Option<usize>| match j {
            Some(j) if ratio[i] > 0.0 && ratio[j] > 0.0 => (a * 0.5 * (ratio[i] + ratio[j])) as f32,
            _ => 0.0,
        };
        let mut east = Vec::with_capacity(size.cells());
        let mut south = Vec::with_capacity(size.cells());
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                let e = if x + 1 < w {
                    Some(i + 1)
                } else {
                    wraps.then_some(y * w)
                };
                let s = if y + 1 < h {
                    Some(i + w)
                } else {
                    wraps.then_some(x)
                };
                east.push(face(i, e));
                south.push(face(i, s));
            }
        }
        let mur = ratio
            .iter()
            .map(|r| mur_coefficient((a * r) as f32))
            .collect();
        Self {
            size,
            boundary,
            east,
            south,
            mur,
            no_faces: vec![0.0; w],
        }
    }

    /// The grid size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The boundary the faces were made for.
    #[must_use]
    pub fn boundary(&self) -> Boundary {
        self.boundary
    }

    /// East faces, row-major (the GPU backends upload these).
    #[must_use]
    pub fn east(&self) -> &[f32] {
        &self.east
    }

    /// South faces, row-major.
    #[must_use]
    pub fn south(&self) -> &[f32] {
        &self.south
    }

    /// Mur's coefficient per cell, row-major.
    #[must_use]
    pub fn mur(&self) -> &[f32] {
        &self.mur
    }
}

/// One cell of the variable-coefficient stencil, in the canonical sum order.
#[inline(always)]
#[must_use]
pub fn depth_cell(
    damping: f32,
    [a_north, a_south, a_east, a_west]: [f32; 4],
    [north, south, east, west]: [f32; 4],
    (centre, old): (f32, f32),
) -> f32 {
    let flux = ((a_north * (north - centre) + a_south * (south - centre))
        + a_east * (east - centre))
        + a_west * (west - centre);
    damping * ((centre + centre - old) + flux)
}

/// Advances one field by one step over `faces` (see the module docs). `damping` is the
/// per-step factor `d`.
///
/// # Panics
/// If `cur` or `out` does not hold one value per cell of `faces`' grid.
pub fn depth_step(
    faces: &FaceCourants,
    damping: f32,
    cur: &[f32],
    out: &mut [f32],
    parallelism: Parallelism,
) {
    let size = faces.size;
    for_each_stepped_row(
        size,
        faces.boundary,
        (cur, out),
        parallelism,
        |y, out_row| {
            depth_row(faces, damping, cur, y, out_row);
        },
    );
    let (w, h) = (size.width(), size.height());
    if faces.boundary == Boundary::Absorbing {
        let _ftz = FlushDenormals::new();
        for (edge, inner) in [(0, 1), (h - 1, h - 2)] {
            for x in 0..w {
                let (e, i) = (edge * w + x, inner * w + x);
                out[e] = mur_cell(faces.mur[e], cur[i], cur[e], out[i]);
            }
        }
    }
}

/// Updates row `y` into `out_row` (`z_old` on entry).
fn depth_row(faces: &FaceCourants, damping: f32, cur: &[f32], y: usize, out_row: &mut [f32]) {
    let (w, h) = (faces.size.width(), faces.size.height());
    let (north, south) = row_neighbours(faces.boundary, y, h);
    let row = |r: usize| &cur[r * w..(r + 1) * w];
    let (up, mid, down) = (row(north), row(y), row(south));
    let east = &faces.east[y * w..(y + 1) * w];
    let south_faces = &faces.south[y * w..(y + 1) * w];
    // The face north of row y is the south face of row y-1: on row 0 that is the wrapped last
    // row (periodic) or no face at all (reflective; fixed and absorbing never step row 0).
    let north_faces = if y > 0 || faces.boundary == Boundary::Periodic {
        &faces.south[north * w..(north + 1) * w]
    } else {
        &faces.no_faces[..]
    };
    let cell = |x: usize, west: usize, east_x: usize, a_west: f32, old: f32| {
        depth_cell(
            damping,
            [north_faces[x], south_faces[x], east[x], a_west],
            [up[x], down[x], mid[east_x], mid[west]],
            (mid[x], old),
        )
    };
    // The interior, over slices of one length so that the loop vectorises (the same
    // operations in the same order as `cell`, so the same bits).
    {
        let inner = 1..w - 1;
        let (an, a_s) = (&north_faces[inner.clone()], &south_faces[inner.clone()]);
        let (ae, aw) = (&east[inner.clone()], &east[..w - 2]);
        let (u, d) = (&up[inner.clone()], &down[inner.clone()]);
        let (c, e, wv) = (&mid[inner.clone()], &mid[2..], &mid[..w - 2]);
        let out = &mut out_row[inner];
        for i in 0..out.len() {
            out[i] = depth_cell(
                damping,
                [an[i], a_s[i], ae[i], aw[i]],
                [u[i], d[i], e[i], wv[i]],
                (c[i], out[i]),
            );
        }
    }
    let last = w - 1;
    match faces.boundary {
        Boundary::Fixed => {}
        Boundary::Reflective => {
            // The outer faces carry nothing, so the missing neighbour's value does not matter.
            out_row[0] = cell(0, 0, 1, 0.0, out_row[0]);
            out_row[last] = cell(last, last - 1, last, east[last - 1], out_row[last]);
        }
        Boundary::Periodic => {
            out_row[0] = cell(0, last, 1, east[last], out_row[0]);
            out_row[last] = cell(last, last - 1, 0, east[last - 1], out_row[last]);
        }
        Boundary::Absorbing => {
            let k = &faces.mur[y * w..(y + 1) * w];
            out_row[0] = mur_cell(k[0], mid[1], mid[0], out_row[1]);
            out_row[last] = mur_cell(k[last], mid[last - 1], mid[last], out_row[last - 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::grid_step::grid_step;
    use crate::params::StencilCoefficients;

    /// Over a uniform depth every face has the deepest cell's `a`, so the step is the
    /// five-point stencil's up to rounding (the sum order differs).
    #[test]
    fn uniform_depth_steps_as_the_five_point_stencil() {
        let size = GridSize::new(24, 17).expect("size");
        let depth = Depth::uniform(size, 1.5).expect("depth");
        let k = StencilCoefficients::new(0.4, 0.999);
        let cur: Vec<f32> = (0..size.cells())
            .map(|i| ((i * 7919) % 97) as f32 / 97.0 - 0.5)
            .collect();
        let old: Vec<f32> = cur.iter().map(|z| 0.9 * z).collect();
        for boundary in Boundary::ALL {
            let faces = FaceCourants::new(&depth, k.a, boundary);
            let (mut a, mut b) = (old.clone(), old.clone());
            depth_step(&faces, k.d, &cur, &mut a, Parallelism::Serial);
            grid_step(size, k, boundary, &cur, &mut b, Parallelism::Serial);
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                assert!((x - y).abs() <= 4e-7, "{boundary}: cell {i}: {x} vs {y}");
            }
        }
    }

    /// Rows split over threads give the same bits as one thread.
    #[test]
    fn threads_do_not_change_the_bits() {
        let size = GridSize::new(200, 160).expect("size");
        let metres = (0..size.cells())
            .map(|i| 0.2 + (i % 200) as f32 / 100.0)
            .collect();
        let depth = Depth::from_cells(size, metres).expect("depth");
        let cur: Vec<f32> = (0..size.cells())
            .map(|i| ((i * 31) % 13) as f32 / 13.0)
            .collect();
        for boundary in Boundary::ALL {
            let faces = FaceCourants::new(&depth, 0.5, boundary);
            let (mut a, mut b) = (vec![0.1; size.cells()], vec![0.1; size.cells()]);
            depth_step(&faces, 1.0, &cur, &mut a, Parallelism::Serial);
            depth_step(&faces, 1.0, &cur, &mut b, Parallelism::Parallel);
            assert_eq!(a, b, "{boundary}");
        }
    }
}
