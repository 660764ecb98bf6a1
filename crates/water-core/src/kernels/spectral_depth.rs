//! `spectral_depth_step`: the dispersive model over a varying depth (`docs/math.md`,
//! section 13). GPU twin: the `depth_*` kernels of `shaders/spectral_step.wgsl` (which take the
//! face differences before the transforms, here after them: the same operator).
//!
//! Over a uniform depth the spectral step is `z_new = d (2 C z - z_old)` with
//! `C = cos(omega dt)` per mode, i.e. `2 (z - L z) - z_old` with `L = 1 - cos(omega dt)`.
//! Over a varying depth `L` is written as a flux divergence, `L z = D^T W M D z`:
//!
//! - `D`, the difference across each cell face (`z(x+1) - z(x)`, and along y), local, so
//!   a face's flux touches only its two cells; on the periodic grid it is a convolution (its
//!   symbol is `S_x(k) = e^(i k_x h) - 1`, likewise along y) and commutes with `M_j`, so
//!   `M_j D z = D IFFT(M_j FFT z)`: the differences are taken after the transform;
//! - `M_j = L_j(k) / |D(k)|^2` for a few reference depths `d_j` (the nodes), applied to each
//!   gradient component by FFT (`|D(k)|^2 = 4 sin^2(k_x h/2) + 4 sin^2(k_y h/2)`, the symbol of
//!   `D^T D`, positive for every mode but the mean);
//! - `W`, each face's weights of the nodes: fitted to the face's depth over the grid's
//!   wavenumbers from the nodes around it (`depth_nodes.rs`), 0 on faces touching dry cells (a
//!   shore that passes no water);
//! - `D^T`, minus the difference back (the adjoint of `D`): a cell's net flux.
//!
//! Where the depth is uniform, `D^T M_j D = L_j` mode by mode, so the step is the uniform one
//! with `L` made from the nodes' by the weights; the nodes are placed until that is within
//! [`NODE_TOLERANCE`] of Airy's omega for every mode of wavelength 4 cells or more
//! ([`SpectralDepth::interpolation_error`]). For long waves `M_j -> g d_j dt^2 / (2 h^2)` and the
//! step becomes the flux form of the shallow-water equation, `div(g d grad z)` (section 12).
//! Every face's flux leaves one cell and enters the next, and a dry cell's faces pass nothing:
//! the volume is kept to rounding, shore included.
//!
//! Rounding: a difference of long waves taken after the transform would cancel the digits of a
//! field as large as the heights, so each multiplier is split into its long-wave limit and the
//! rest, `M_j = M_j(0) + R_j`: the limit makes each face's shallow-water flux
//! `(sum_j W_j M_j(0)) D z` from the heights' own differences, and only `R_j` (0 as `k -> 0`)
//! is transformed, so the transforms carry the part of the step that is not shallow water.
//!
//! Cost: one forward transform (the heights') and one inverse one per node: `K + 1` transforms
//! a step against the uniform step's 2. Each node's correction is applied as its inverse
//! transform fills its columns; then each row's `L z` is made from its own and its neighbours'
//! rows of heights, corrections and weights, and updated in the same pass (no flux is stored).

use std::f64::consts::TAU;

use rayon::prelude::*;
use realfft::num_complex::Complex;

use super::depth_nodes::{one_minus_cos, place_nodes, regime_limits, NodeWeights};
pub use super::depth_nodes::{LOWEST_WEIGHT, MAX_NODES, NODE_TOLERANCE};
use super::spectral_step::{mode_wavenumber, SpectralStep};
use crate::airy::AiryDispersion;
use crate::depth::Depth;
use crate::error::{Result, WaterError};
use crate::size::GridSize;

/// A grid's faces, nodes and multipliers for [`spectral_depth_step`].
#[derive(Debug, Clone)]
pub struct SpectralDepth {
    size: GridSize,
    /// The reference depths, m, ascending.
    nodes: Vec<f64>,
    /// Per node and gradient component (x-faces, y-faces): each face's weight, row-major by
    /// the cell west of (north of) the face.
    weights: Vec<[Vec<f32>; 2]>,
    /// Per node: `M_j(k) / (W H)` per spectral cell, column-major (what the GPU twin applies).
    multipliers: Vec<Vec<f32>>,
    /// Per node: `(M_j(k) - M_j(0)) / (W H)` per spectral cell, column-major as the spectral
    /// step's: the multiplier less its long-wave limit, which the faces' `shallow` applies.
    corrections: Vec<Vec<f32>>,
    /// Per gradient component: each face's `sum_j W_j M_j(0)`, the shallow-water coefficient
    /// `g d dt^2 / (2 h^2)` its weights make of the nodes' limits.
    shallow: [Vec<f32>; 2],
    interpolation_error: f64,
    // Scratch: the heights' transform, one spectrum, each node's correction to the heights.
    z_hat: Vec<Complex<f32>>,
    work: Vec<Complex<f32>>,
    corrected: Vec<Vec<f32>>,
}

/// Each face's depth (m), east faces then south faces, row-major by the cell west of (north
/// of) the face: the mean of its two cells', or `None` beside a dry cell.
fn face_depths(depth: &Depth) -> [Vec<Option<f64>>; 2] {
    let size = depth.size();
    let (w, h) = (size.width(), size.height());
    let metres = depth.cells();
    let face = |a: usize, b: usize| -> Option<f64> {
        let (da, db) = (f64::from(metres[a]), f64::from(metres[b]));
        (da > 0.0 && db > 0.0).then_some(0.5 * (da + db))
    };
    [
        (0..size.cells())
            .map(|i| face(i, (i / w) * w + (i % w + 1) % w))
            .collect(),
        (0..size.cells())
            .map(|i| face(i, ((i / w + 1) % h) * w + i % w))
            .collect(),
    ]
}

/// What placing a map's reference depths needs: its wet faces' depth range, the wavenumbers
/// checked and the regime limits. Cheap: no multipliers are built.
struct NodePlan<'a> {
    airy: &'a AiryDispersion,
    range: (f64, f64),
    ks: Vec<f64>,
    limits: (f64, f64),
}

impl<'a> NodePlan<'a> {
    fn of(
        depth: &Depth,
        faces: &[Vec<Option<f64>>; 2],
        cell_size: f64,
        airy: &'a AiryDispersion,
    ) -> Self {
        let size = depth.size();
        let (w, h) = (size.width(), size.height());
        let wet = faces.iter().flatten().flatten().copied();
        let (shallowest, deepest) = wet.fold((f64::INFINITY, 0.0f64), |(lo, hi), d| {
            (lo.min(d), hi.max(d))
        });
        let range = if deepest > 0.0 {
            (shallowest, deepest)
        } else {
            // No wet face: nothing moves; one node keeps the shapes simple.
            let d = f64::from(depth.deepest());
            (d, d)
        };
        // Every resolved wavelength, 4 cells to the grid's longest side.
        let (k_lo, k_hi) = (TAU / (w.max(h) as f64 * cell_size), TAU / (4.0 * cell_size));
        let ks = (0..48)
            .map(|i| k_lo * (k_hi / k_lo).powf(f64::from(i) / 47.0))
            .collect();
        Self {
            airy,
            range,
            ks,
            limits: regime_limits(k_lo, k_hi),
        }
    }

    /// The nodes and their error at step `dt`, or [`WaterError::DepthRangeTooWide`] naming the
    /// largest step at which [`MAX_NODES`] would do.
    fn nodes(&self, dt: f64) -> Result<(NodeWeights, f64)> {
        let (nodes, error) = place_nodes(self.airy, self.range, self.limits, &self.ks, dt);
        if error <= NODE_TOLERANCE {
            return Ok((nodes, error));
        }
        Err(WaterError::DepthRangeTooWide {
            shallowest: self.range.0,
            deepest: self.range.1,
            nodes: nodes.nodes().len(),
            error_percent: 100.0 * error,
            tolerance_percent: 100.0 * NODE_TOLERANCE,
            dt,
            largest_dt: self.largest_dt(dt),
        })
    }

    /// The largest step below `dt` (to 0.1%) at which the nodes keep omega within tolerance,
    /// or `None` when not even a step a millionth as long does: the interpolation's error
    /// grows with `omega dt`, so it is found by bisection.
    fn largest_dt(&self, dt: f64) -> Option<f64> {
        let fits = |t: f64| {
            place_nodes(self.airy, self.range, self.limits, &self.ks, t).1 <= NODE_TOLERANCE
        };
        let (mut lo, mut hi) = (dt * 1e-6, dt);
        if !fits(lo) {
            return None;
        }
        while hi - lo > 1e-3 * hi {
            let mid = 0.5 * (lo + hi);
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    }
}

/// Checks that `depth` on a grid of `cell_size` m cells can be stepped by the dispersive model
/// at `dt` s under `airy` within [`NODE_TOLERANCE`] (what [`SpectralDepth::new`] requires),
/// without building its tables: for a scenario's reader to refuse the step at its key.
///
/// # Errors
/// [`WaterError::DepthRangeTooWide`] naming the largest step that would do.
pub fn check_depth_nodes(
    depth: &Depth,
    cell_size: f64,
    dt: f64,
    airy: &AiryDispersion,
) -> Result<usize> {
    let faces = face_depths(depth);
    let (nodes, _) = NodePlan::of(depth, &faces, cell_size, airy).nodes(dt)?;
    Ok(nodes.nodes().len())
}

impl SpectralDepth {
    /// Faces, nodes and multipliers for `depth` on a `depth.size()` grid of `cell_size` m
    /// cells stepped by `dt` s under `airy` (whose own depth the map replaces).
    ///
    /// # Errors
    /// [`WaterError::DepthRangeTooWide`] when [`MAX_NODES`] reference depths cannot keep the
    /// interpolation within [`NODE_TOLERANCE`] at this `dt`, naming the largest step at which
    /// they do ([`check_depth_nodes`] asks the same without building anything). The error
    /// grows as the fastest mode's `omega dt` nears `pi`, where `omega` changes fastest with
    /// `L`: a map can need a step below the stability limit.
    pub fn new(depth: &Depth, cell_size: f64, dt: f64, airy: &AiryDispersion) -> Result<Self> {
        let size = depth.size();
        let (w, h) = (size.width(), size.height());
        let wc = w / 2 + 1;
        let faces = face_depths(depth);
        let (rule, interpolation_error) = NodePlan::of(depth, &faces, cell_size, airy).nodes(dt)?;
        let mut weights =
            vec![[vec![0.0f32; size.cells()], vec![0.0f32; size.cells()]]; rule.nodes().len()];
        for (c, component) in faces.iter().enumerate() {
            for (i, d) in component.iter().enumerate() {
                if let Some(d) = *d {
                    for (j, wgt) in rule.of(d) {
                        weights[j][c][i] = wgt as f32;
                    }
                }
            }
        }
        let nodes = rule.nodes().to_vec();
        let nodes_len = nodes.len();
        let norm = 1.0 / size.cells() as f64;
        // Each node's `M_j(k)` in f64, then as the GPU applies it and less its long-wave limit.
        let (mut multipliers, mut corrections) = (Vec::new(), Vec::new());
        for &d in &nodes {
            let limit = long_wave_multiplier(airy, d, cell_size, dt);
            let exact: Vec<f64> = (0..wc)
                .flat_map(|x| (0..h).map(move |y| (x, y)))
                .map(|(x, y)| {
                    let faces = difference_symbol(size, x, y);
                    if faces == 0.0 {
                        limit
                    } else {
                        let k = mode_wavenumber(size, cell_size, x, y);
                        one_minus_cos(airy, d, k, dt) / faces
                    }
                })
                .collect();
            // The mean mode passes no flux (`D` of a constant is 0): 0 in both.
            let mean = |m: f64, i: usize| if i == 0 { 0.0 } else { m };
            multipliers.push(
                exact
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| mean(m * norm, i) as f32)
                    .collect(),
            );
            corrections.push(
                exact
                    .iter()
                    .enumerate()
                    .map(|(i, &m)| mean((m - limit) * norm, i) as f32)
                    .collect(),
            );
        }
        let shallow = [0, 1].map(|c| {
            (0..size.cells())
                .map(|i| {
                    let limits = nodes.iter().enumerate().map(|(j, &d)| {
                        f64::from(weights[j][c][i]) * long_wave_multiplier(airy, d, cell_size, dt)
                    });
                    limits.sum::<f64>() as f32
                })
                .collect()
        });
        let spectrum = vec![Complex::default(); wc * h];
        Ok(Self {
            size,
            nodes,
            weights,
            multipliers,
            corrections,
            shallow,
            interpolation_error,
            z_hat: spectrum.clone(),
            work: spectrum,
            corrected: vec![vec![0.0; size.cells()]; nodes_len],
        })
    }

    /// [`SpectralDepth::new`] after checking that `dt` is below `pi / omega_max` at the map's
    /// deepest cell (deeper water is faster): what the CPU and GPU grids both call.
    ///
    /// # Errors
    /// [`crate::WaterError::DispersiveUnstable`] naming the limit; a relation the map's deepest
    /// cell makes invalid (depth above the largest offered).
    pub fn checked(depth: &Depth, cell_size: f64, dt: f64, airy: &AiryDispersion) -> Result<Self> {
        let deepest = AiryDispersion::new(
            airy.gravity(),
            airy.surface_tension(),
            airy.density(),
            Some(f64::from(depth.deepest())),
        )?;
        crate::dispersive_grid::check_dispersive_dt(cell_size, dt, &deepest)?;
        Self::new(depth, cell_size, dt, airy)
    }

    /// Reference depth `j`'s weight on each cell's east face and south face, row-major.
    ///
    /// # Panics
    /// If `j` is not below the number of reference depths.
    #[must_use]
    pub fn face_weights(&self, j: usize) -> [&[f32]; 2] {
        let [x, y] = &self.weights[j];
        [x, y]
    }

    /// Reference depth `j`'s multiplier `M_j(k) / (W H)` at spectral cell `(x, y)`, `x` in
    /// `0..W` (past `W/2` the mirror image of `W - x`), `y` in `0..H`.
    ///
    /// # Panics
    /// If `j`, `x` or `y` is out of range.
    #[must_use]
    pub fn multiplier(&self, j: usize, x: usize, y: usize) -> f32 {
        let x = x.min(self.size.width() - x);
        self.multipliers[j][x * self.size.height() + y]
    }

    /// The reference depths, m, ascending.
    #[must_use]
    pub fn nodes(&self) -> &[f64] {
        &self.nodes
    }

    /// The largest relative error in omega that interpolating between the nodes leaves, over
    /// every mode of wavelength 4 cells or more at every depth between the shallowest and the
    /// deepest wet face (at most [`NODE_TOLERANCE`] unless [`MAX_NODES`] ran out).
    #[must_use]
    pub fn interpolation_error(&self) -> f64 {
        self.interpolation_error
    }

    /// `L z` into `out`: the flux divergence of the module docs.
    ///
    /// # Panics
    /// If `z` or `out` does not hold one value per cell.
    pub fn apply(&mut self, plan: &mut SpectralStep, z: &[f32], out: &mut [f32], parallel: bool) {
        assert_eq!((z.len(), out.len()), (self.size.cells(), self.size.cells()));
        self.transform_corrections(plan, z, parallel);
        let faces = self.faces(z);
        for_each_row(parallel, out, faces.w, |y, fresh, scratch, row| {
            faces.net_flux_row(y, fresh, scratch, row);
        });
    }

    /// Each node's correction to the heights, `IFFT(R_j FFT(z))` with `R_j` the multiplier
    /// less its long-wave limit, into `self.corrected`: one forward transform and one inverse
    /// transform a node (`M_j` and `D` commute, both being mode by mode on the periodic grid,
    /// so the faces' differences are taken after the transform, where they are local).
    fn transform_corrections(&mut self, plan: &mut SpectralStep, z: &[f32], parallel: bool) {
        let h = self.size.height();
        plan.forward(z, &mut self.z_hat, parallel);
        for (corrections, corrected) in self.corrections.iter().zip(&mut self.corrected) {
            let z_hat = &self.z_hat;
            let fill = |x: usize, column: &mut [Complex<f32>]| {
                let range = x * h..(x + 1) * h;
                let values = column.iter_mut().zip(&z_hat[range.clone()]);
                for ((v, &zh), &r) in values.zip(&corrections[range]) {
                    *v = zh * r;
                }
            };
            let keep = |_: usize, values: &[f32], row: &mut [f32]| row.copy_from_slice(values);
            plan.inverse_with(&mut self.work, corrected, parallel, fill, keep);
        }
    }

    /// The faces' flux over heights `z`, once the corrections of `z` are transformed.
    fn faces<'a>(&'a self, z: &'a [f32]) -> Faces<'a> {
        Faces {
            w: self.size.width(),
            h: self.size.height(),
            z,
            shallow: &self.shallow,
            weights: &self.weights,
            corrected: &self.corrected,
        }
    }
}

/// The faces' flux `W M D z` of the module docs, row by row: the shallow-water flux
/// `shallow D z` plus each node's weights times the differences of its correction. Each row's
/// `L z` reads its own row and the rows beside it, and writes nothing but the row: no flux is
/// stored, so a step reads each array once.
struct Faces<'a> {
    w: usize,
    h: usize,
    z: &'a [f32],
    shallow: &'a [Vec<f32>; 2],
    weights: &'a [[Vec<f32>; 2]],
    corrected: &'a [Vec<f32>],
}

/// A worker's rows of flux: row `y`'s east faces, and the south faces of the rows above it
/// and of `y`; and a row for the step's `L z`.
struct RowScratch {
    east: Vec<f32>,
    south_above: Vec<f32>,
    south: Vec<f32>,
    lz: Vec<f32>,
}

impl RowScratch {
    fn new(w: usize) -> Self {
        Self {
            east: vec![0.0; w],
            south_above: vec![0.0; w],
            south: vec![0.0; w],
            lz: vec![0.0; w],
        }
    }
}

impl Faces<'_> {
    /// Row `y`'s east faces' flux (the last face wraps around to the row's first cell).
    /// Written over plain slices, the wrapping face on its own, so the loops vectorise.
    fn east_row(&self, y: usize, out: &mut [f32]) {
        let (w, row) = (self.w, y * self.w..(y + 1) * self.w);
        let last = w - 1;
        let (z, a) = (&self.z[row.clone()], &self.shallow[0][row.clone()]);
        for x in 0..last {
            out[x] = a[x] * (z[x + 1] - z[x]);
        }
        out[last] = a[last] * (z[0] - z[last]);
        for (weights, corrected) in self.weights.iter().zip(self.corrected) {
            let (wgt, r) = (&weights[0][row.clone()], &corrected[row.clone()]);
            for x in 0..last {
                out[x] += wgt[x] * (r[x + 1] - r[x]);
            }
            out[last] += wgt[last] * (r[0] - r[last]);
        }
    }

    /// Row `y`'s south faces' flux (row `y + 1` wraps around to the first).
    fn south_row(&self, y: usize, out: &mut [f32]) {
        let (w, row) = (self.w, y * self.w..(y + 1) * self.w);
        let below = (y + 1) % self.h * w..((y + 1) % self.h + 1) * w;
        let (z, z_below) = (&self.z[row.clone()], &self.z[below.clone()]);
        let a = &self.shallow[1][row.clone()];
        for x in 0..w {
            out[x] = a[x] * (z_below[x] - z[x]);
        }
        for (weights, corrected) in self.weights.iter().zip(self.corrected) {
            let wgt = &weights[1][row.clone()];
            let (r, r_below) = (&corrected[row.clone()], &corrected[below.clone()]);
            for x in 0..w {
                out[x] += wgt[x] * (r_below[x] - r[x]);
            }
        }
    }

    /// Row `y`'s `L z` into `out` (`D^T` of the faces' flux): what leaves each cell by its east
    /// and south faces minus what comes in by its west and north ones, the west of the row's
    /// first cell and the north of the first row wrapping around. The south faces of the row
    /// above are those the scratch kept from row `y - 1`, unless `fresh` (a block's first row).
    fn net_flux_row(&self, y: usize, fresh: bool, scratch: &mut RowScratch, out: &mut [f32]) {
        let RowScratch {
            east,
            south_above,
            south,
            ..
        } = scratch;
        self.east_row(y, east);
        if fresh {
            self.south_row((y + self.h - 1) % self.h, south_above);
        }
        self.south_row(y, south);
        let last = self.w - 1;
        out[0] = (east[last] - east[0]) + (south_above[0] - south[0]);
        for x in 1..self.w {
            out[x] = (east[x - 1] - east[x]) + (south_above[x] - south[x]);
        }
        // Row `y`'s south faces are the next row's north ones.
        std::mem::swap(south_above, south);
    }
}

/// Rows a worker takes at a time: each block's rows after its first reuse the south faces of
/// the row before.
const ROWS_A_TASK: usize = 16;

/// Calls `f(y, fresh, scratch, row)` on each `w`-long row of `data` in order within blocks of
/// [`ROWS_A_TASK`] rows (`fresh` on each block's first), the blocks on the rayon pool when
/// `parallel`, with a [`RowScratch`] per worker.
fn for_each_row(
    parallel: bool,
    data: &mut [f32],
    w: usize,
    f: impl Fn(usize, bool, &mut RowScratch, &mut [f32]) + Sync + Send,
) {
    let block = |scratch: &mut RowScratch, (b, rows): (usize, &mut [f32])| {
        for (r, row) in rows.chunks_mut(w).enumerate() {
            f(b * ROWS_A_TASK + r, r == 0, scratch, row);
        }
    };
    if parallel {
        data.par_chunks_mut(w * ROWS_A_TASK)
            .enumerate()
            .for_each_init(|| RowScratch::new(w), block);
    } else {
        let mut scratch = RowScratch::new(w);
        for rows in data.chunks_mut(w * ROWS_A_TASK).enumerate() {
            block(&mut scratch, rows);
        }
    }
}

/// `M_j`'s limit for long waves, `g d dt^2 / (2 h^2)`: `1 - cos(omega dt)` tends to
/// `g d k^2 dt^2 / 2` and `|D(k)|^2` to `k^2 h^2` (surface tension vanishes there too).
fn long_wave_multiplier(airy: &AiryDispersion, d: f64, cell_size: f64, dt: f64) -> f64 {
    airy.gravity() * d * dt * dt / (2.0 * cell_size * cell_size)
}

/// `|D(k)|^2 = 4 sin^2(pi f_x / W) + 4 sin^2(pi f_y / H)` of spectral cell `(x, y)`: the symbol
/// of `D^T D`, the face differences and their adjoint (0 only for the mean).
fn difference_symbol(size: GridSize, x: usize, y: usize) -> f64 {
    let (w, h) = (size.width() as f64, size.height() as f64);
    let sx = (std::f64::consts::PI * x as f64 / w).sin();
    let sy = (std::f64::consts::PI * y as f64 / h).sin();
    4.0 * (sx * sx + sy * sy)
}

/// Advances `cur` by one step into `out` (`z_old` on entry, `z_new` on exit) over `depth`:
/// `z_new = d (2 (z - L z) - z_old)` (module docs). `damping` is the per-step factor `d`.
///
/// # Panics
/// If `cur` or `out` does not hold one value per cell.
pub fn spectral_depth_step(
    plan: &mut SpectralStep,
    depth: &mut SpectralDepth,
    (cur, out): (&[f32], &mut [f32]),
    damping: f32,
    parallel: bool,
) {
    let cells = depth.size.cells();
    assert_eq!((cur.len(), out.len()), (cells, cells));
    depth.transform_corrections(plan, cur, parallel);
    let faces = depth.faces(cur);
    let w = faces.w;
    // Row by row, each row's `L z` updated while in cache.
    for_each_row(parallel, out, w, |y, fresh, scratch, z_out| {
        let mut lz = std::mem::take(&mut scratch.lz);
        faces.net_flux_row(y, fresh, scratch, &mut lz);
        for ((z_out, &z), &l) in z_out.iter_mut().zip(&cur[y * w..(y + 1) * w]).zip(&lz) {
            let f = z - l;
            *z_out = damping * ((f + f) - *z_out);
        }
        scratch.lz = lz;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `L z` is the net flux of the faces (`D^T`, each cell's west and north neighbours
    /// wrapping around), and the step is `z_new = d (2 (z - L z) - z_old)` with that `L z`, to
    /// the bit, on one thread and on the pool: the row-by-row net flux and the update fused
    /// after it change no arithmetic (a 24 x 20 slope from 0.3 m to 2 m with a dry
    /// strip, rough heights).
    #[test]
    fn the_step_is_the_flux_divergence_update_on_one_thread_and_many() {
        let size = GridSize::new(24, 20).expect("size");
        let metres = (0..size.cells())
            .map(|i| {
                if i % 24 < 2 {
                    0.0
                } else {
                    0.3 + 1.7 * (i / 24) as f32 / 19.0
                }
            })
            .collect();
        let depth = Depth::from_cells(size, metres).expect("depth");
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        let (cell, dt, damping) = (0.1, 0.02, 0.999_f32);
        let rough = |seed: usize| -> Vec<f32> {
            (0..size.cells())
                .map(|i| ((i * 7919 + seed) % 1013) as f32 / 1013.0 - 0.5)
                .collect()
        };
        let (cur, old) = (rough(1), rough(5));
        let mut plan = SpectralStep::new(size, cell, dt, &airy);
        let mut map = SpectralDepth::checked(&depth, cell, dt, &airy).expect("map");
        let mut lz = vec![0.0; size.cells()];
        map.apply(&mut plan, &cur, &mut lz, false);
        // `D^T` cell by cell from its definition: east and south faces out, west and north in.
        let (w, h) = (24, 20);
        let faces = map.faces(&cur);
        let (mut fx, mut fy) = (vec![0.0; size.cells()], vec![0.0; size.cells()]);
        for (row, (e, s)) in fx.chunks_mut(w).zip(fy.chunks_mut(w)).enumerate() {
            faces.east_row(row, e);
            faces.south_row(row, s);
        }
        for (i, &l) in lz.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            let west = y * w + (x + w - 1) % w;
            let north = ((y + h - 1) % h) * w + x;
            assert_eq!(
                l,
                (fx[west] - fx[i]) + (fy[north] - fy[i]),
                "cell ({x}, {y})"
            );
        }
        let expected: Vec<f32> = cur
            .iter()
            .zip(&lz)
            .zip(&old)
            .map(|((&z, &l), &o)| {
                let f = z - l;
                damping * ((f + f) - o)
            })
            .collect();
        for parallel in [false, true] {
            let mut out = old.clone();
            spectral_depth_step(&mut plan, &mut map, (&cur, &mut out), damping, parallel);
            assert_eq!(out, expected, "parallel {parallel}");
        }
        assert!(lz.iter().any(|&l| l != 0.0), "the heights move");
    }

    /// `L z = D^T W M D z` with each node's flux `IFFT(M_j S_c FFT(z))` evaluated in f64 by
    /// the plain sums of the transforms (the differences before the multipliers, as the GPU
    /// twin takes them): the step's shallow-water flux plus corrections, the differences taken
    /// after the transform, is the same operator, within f32 rounding (a 12 x 10 map from
    /// 0.2 m to 3 m with a dry cell, two reference depths or more).
    #[test]
    fn the_flux_is_the_multiplied_differences_of_the_heights() {
        let (w, h) = (12usize, 10usize);
        let size = GridSize::new(w, h).expect("size");
        let metres = (0..w * h)
            .map(|i| {
                if i == 37 {
                    0.0
                } else {
                    0.2 + 2.8 * (i % w) as f32 / 11.0
                }
            })
            .collect();
        let depth = Depth::from_cells(size, metres).expect("depth");
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        let (cell, dt) = (0.1, 0.03);
        let z: Vec<f32> = (0..w * h)
            .map(|i| ((i * 7919 + 3) % 1013) as f32 / 1013.0 - 0.5)
            .collect();
        let mut plan = SpectralStep::new(size, cell, dt, &airy);
        let mut map = SpectralDepth::checked(&depth, cell, dt, &airy).expect("map");
        assert!(map.nodes().len() >= 2, "{:?}", map.nodes());
        let mut lz = vec![0.0; w * h];
        map.apply(&mut plan, &z, &mut lz, false);
        // The plain sums, in f64: the heights' spectrum, then each node's two fluxes.
        let phase = |kx: usize, ky: usize, x: usize, y: usize| {
            TAU * ((kx * x) as f64 / w as f64 + (ky * y) as f64 / h as f64)
        };
        let mut z_hat = vec![Complex::<f64>::default(); w * h];
        for (k, v) in z_hat.iter_mut().enumerate() {
            for (i, &zi) in z.iter().enumerate() {
                *v += Complex::from_polar(f64::from(zi), -phase(k % w, k / w, i % w, i / w));
            }
        }
        let symbol = |k: usize, n: usize| Complex::from_polar(1.0, TAU * k as f64 / n as f64) - 1.0;
        let mut flux = [vec![0.0f64; w * h], vec![0.0f64; w * h]];
        for j in 0..map.nodes().len() {
            let weights = map.face_weights(j);
            for (c, flux) in flux.iter_mut().enumerate() {
                for (i, f) in flux.iter_mut().enumerate() {
                    let mut g = Complex::<f64>::default();
                    for (k, &zh) in z_hat.iter().enumerate() {
                        let (kx, ky) = (k % w, k / w);
                        let s = if c == 0 { symbol(kx, w) } else { symbol(ky, h) };
                        let m = f64::from(map.multiplier(j, kx, ky));
                        g += zh * s * m * Complex::from_polar(1.0, phase(kx, ky, i % w, i / w));
                    }
                    *f += f64::from(weights[c][i]) * g.re;
                }
            }
        }
        let largest = lz.iter().fold(0.0f32, |m, l| m.max(l.abs()));
        for (i, &l) in lz.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            let west = y * w + (x + w - 1) % w;
            let north = ((y + h - 1) % h) * w + x;
            let exact = (flux[0][west] - flux[0][i]) + (flux[1][north] - flux[1][i]);
            assert!(
                (f64::from(l) - exact).abs() <= 1e-5 * f64::from(largest),
                "cell ({x}, {y}): {l} against {exact} (largest {largest})"
            );
        }
    }

    /// A map of one depth behaves as that depth: one reference depth, the depth itself, and
    /// no interpolation error, at a nanosecond step as at a long one (16 x 16 cells of 1 cm,
    /// where 2 m is past the deep limit of 0.1 m, so nodes would otherwise stop there).
    #[test]
    fn a_uniform_map_needs_one_reference_depth_at_any_step() {
        let size = GridSize::new(16, 16).expect("size");
        let depth = Depth::uniform(size, 2.0).expect("depth");
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        for dt in [1e-9, 1e-4, 0.02] {
            let map = SpectralDepth::checked(&depth, 0.01, dt, &airy).expect("taken");
            assert_eq!(map.nodes(), [2.0], "dt {dt}");
            assert_eq!(map.interpolation_error(), 0.0, "dt {dt}");
        }
    }
}
