//! `spectral_depth_step`: the dispersive model over a varying depth (`docs/math.md`,
//! section 13). GPU twin: the `depth_*` kernels of `shaders/spectral_step.wgsl` (the two face
//! differences there share one complex transform).
//!
//! Over a uniform depth the spectral step is `z_new = d (2 C z - z_old)` with
//! `C = cos(omega dt)` per mode, i.e. `2 (z - L z) - z_old` with `L = 1 - cos(omega dt)`.
//! Over a varying depth `L` is written as a flux divergence, `L z = D^T W M D z`:
//!
//! - `D`, the difference across each cell face (`z(x+1) - z(x)`, and along y), local, so
//!   a face's flux touches only its two cells; on the periodic grid its symbol is
//!   `S_x(k) = e^(i k_x h) - 1` (likewise along y), so the two difference fields' spectra are
//!   the heights' spectrum times `S_x` and `S_y`, and one transform of the heights serves both;
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
//! Cost: one forward transform (the heights') and two inverse ones per node (the flux's
//! components): `2K + 1` transforms a step against the uniform step's 2. Each node's
//! multiplier is applied as its inverse transform fills its columns, and its weights as the
//! transform hands back its rows, so no element-wise pass of its own remains but `D^T`'s.

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
    /// Per node: `M_j(k) / (W H)` per spectral cell, column-major as the spectral step's.
    multipliers: Vec<Vec<f32>>,
    interpolation_error: f64,
    /// The face differences' symbols: `S_x` per spectral column (`0..=W/2`), `S_y` per row.
    symbols: [Vec<Complex<f32>>; 2],
    // Scratch: the heights' transform, one spectrum, the two fluxes.
    z_hat: Vec<Complex<f32>>,
    work: Vec<Complex<f32>>,
    flux: [Vec<f32>; 2],
    /// `L z` of the step.
    lz: Vec<f32>,
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
        let norm = 1.0 / size.cells() as f64;
        let multipliers = nodes
            .iter()
            .map(|&d| {
                (0..wc)
                    .flat_map(|x| (0..h).map(move |y| (x, y)))
                    .map(|(x, y)| {
                        let k = mode_wavenumber(size, cell_size, x, y);
                        let faces = difference_symbol(size, x, y);
                        if faces == 0.0 {
                            0.0
                        } else {
                            (one_minus_cos(airy, d, k, dt) / faces * norm) as f32
                        }
                    })
                    .collect()
            })
            .collect();
        let spectrum = vec![Complex::default(); wc * h];
        Ok(Self {
            size,
            nodes,
            weights,
            multipliers,
            interpolation_error,
            symbols: [difference_symbols(wc, w), difference_symbols(h, h)],
            z_hat: spectrum.clone(),
            work: spectrum,
            lz: vec![0.0; size.cells()],
            flux: [vec![0.0; size.cells()], vec![0.0; size.cells()]],
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
        self.face_fluxes(plan, z, parallel);
        let (flux, w, h) = (&self.flux, self.size.width(), self.size.height());
        for_each_block(parallel, out, w, |first, row| {
            net_flux_row(flux, w, h, first / w, row);
        });
    }

    /// Each face's flux into `self.flux` (x-faces, y-faces): `W M D z` of the module docs.
    fn face_fluxes(&mut self, plan: &mut SpectralStep, z: &[f32], parallel: bool) {
        let (w, h) = (self.size.width(), self.size.height());
        plan.forward(z, &mut self.z_hat, parallel);
        for c in 0..2 {
            for j in 0..self.nodes.len() {
                let (z_hat, symbol) = (&self.z_hat, &self.symbols[c]);
                let (multipliers, weights) = (&self.multipliers[j], &self.weights[j][c]);
                // Node `j`'s flux along `c` before its weights: `IFFT(M_j S_c FFT(z))`.
                let fill = |x: usize, column: &mut [Complex<f32>]| {
                    let range = x * h..(x + 1) * h;
                    let values = column.iter_mut().zip(&z_hat[range.clone()]);
                    if c == 0 {
                        let s = symbol[x];
                        for ((v, &zh), &m) in values.zip(&multipliers[range]) {
                            *v = zh * (s * m);
                        }
                    } else {
                        for ((v, &zh), (&m, &s)) in
                            values.zip(multipliers[range].iter().zip(symbol))
                        {
                            *v = zh * (s * m);
                        }
                    }
                };
                // Weighted into the faces' flux: the first node sets it, the others add.
                let add = |y: usize, values: &[f32], flux_row: &mut [f32]| {
                    let faces = values.iter().zip(&weights[y * w..(y + 1) * w]);
                    if j == 0 {
                        for (f, (&g, &wgt)) in flux_row.iter_mut().zip(faces) {
                            *f = wgt * g;
                        }
                    } else {
                        for (f, (&g, &wgt)) in flux_row.iter_mut().zip(faces) {
                            *f += wgt * g;
                        }
                    }
                };
                plan.inverse_with(&mut self.work, &mut self.flux[c], parallel, fill, add);
            }
        }
    }
}

/// Row `y`'s net flux into `out` (`D^T` of the module docs): what leaves each cell by its east
/// and south faces minus what comes in by its west and north ones, the periodic neighbours
/// found once a row so the loop runs over plain slices (and vectorises).
fn net_flux_row(flux: &[Vec<f32>; 2], w: usize, h: usize, y: usize, out: &mut [f32]) {
    let row = y * w..(y + 1) * w;
    let north = ((y + h - 1) % h) * w;
    let (east, south) = (&flux[0][row.clone()], &flux[1][row]);
    let from_north = &flux[1][north..north + w];
    out[0] = (east[w - 1] - east[0]) + (from_north[0] - south[0]);
    let rest = out[1..].iter_mut().zip(&east[..w - 1]).zip(&east[1..]);
    for (((l, &west), &own), (&n, &s)) in rest.zip(from_north[1..].iter().zip(&south[1..])) {
        *l = (west - own) + (n - s);
    }
}

/// Calls `f(first, block)` on each `len`-long block of `data` (`first`: the index of its first
/// value), on the rayon pool when `parallel`.
fn for_each_block<T: Send>(
    parallel: bool,
    data: &mut [T],
    len: usize,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) {
    if parallel {
        data.par_chunks_mut(len)
            .enumerate()
            .for_each(|(b, block)| f(b * len, block));
    } else {
        for (b, block) in data.chunks_mut(len).enumerate() {
            f(b * len, block);
        }
    }
}

/// The symbol of the face difference `z(x + 1) - z(x)` along a periodic side of `n` cells,
/// `e^(2 pi i f / n) - 1`, for the first `count` frequencies `f` (in f64, rounded once): the
/// forward transform's `e^(-2 pi i f x / n)` turns a shift by one cell into that factor.
fn difference_symbols(count: usize, n: usize) -> Vec<Complex<f32>> {
    (0..count)
        .map(|f| {
            // `cos - 1` as `-2 sin^2(phase / 2)`, which keeps its digits for small phases.
            let phase = TAU * f as f64 / n as f64;
            let half = (0.5 * phase).sin();
            Complex::new((-2.0 * half * half) as f32, phase.sin() as f32)
        })
        .collect()
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
    depth.face_fluxes(plan, cur, parallel);
    let (w, h) = (depth.size.width(), depth.size.height());
    let (flux, lz) = (&depth.flux, &mut depth.lz);
    // Row by row, so each row's `L z` is still in cache for its update.
    let rows = |(y, (z_out, lz)): (usize, (&mut [f32], &mut [f32]))| {
        net_flux_row(flux, w, h, y, lz);
        for ((z_out, &z), &l) in z_out.iter_mut().zip(&cur[y * w..(y + 1) * w]).zip(&*lz) {
            let f = z - l;
            *z_out = damping * ((f + f) - *z_out);
        }
    };
    if parallel {
        out.par_chunks_mut(w)
            .zip(lz.par_chunks_mut(w))
            .enumerate()
            .for_each(rows);
    } else {
        out.chunks_mut(w)
            .zip(lz.chunks_mut(w))
            .enumerate()
            .for_each(rows);
    }
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
        for (i, &l) in lz.iter().enumerate() {
            let (x, y) = (i % w, i / w);
            let west = y * w + (x + w - 1) % w;
            let north = ((y + h - 1) % h) * w + x;
            let [fx, fy] = &map.flux;
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
    /// the plain sums of the transforms: the f32 step is that operator within 1e-5 of the
    /// largest `L z` (a 12 x 10 map from 0.2 m to 3 m with a dry cell, two reference depths or
    /// more; real-to-complex transforms, the multiplier filled into the columns, the weights
    /// applied as the rows come back).
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
