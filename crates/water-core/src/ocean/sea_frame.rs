//! [`SeaFrame`]: the ambient sea at one time, ready for queries at any world point.
//!
//! Each tile's fields are read between samples by periodic Catmull-Rom interpolation (16 taps;
//! every wave a tile holds has 8 or more samples a wavelength, where the interpolation is
//! within 1% of the wave). A choppy sea moves each surface point `x0` to `x0 + D(x0)`; the
//! height at a fixed world point `p` is `h(x0)` for the `x0` with `x0 + D(x0) = p`, found by
//! Newton's method on that equation (`J = I + grad D`), falling back to the fixed-point step
//! `x0 <- p - D(x0)` where the surface is near folding (`det J` below
//! [`NEWTON_MIN_DETERMINANT`]). It stops when the residual is under [`INVERSION_TOLERANCE`]
//! or after [`MAX_INVERSION_ITERATIONS`]; `docs/math.md` section 14 gives the errors measured.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::height_source::{HeightSource, SurfaceLevel, SurfaceSample};
use crate::ocean::ambient_sea::AmbientSea;
use crate::ocean::ocean_synthesis::{
    ocean_synthesis, ocean_synthesis_reusing, SeaField, TileFields,
};

/// The inversion stops once `|x0 + D(x0) - p|` is below this, m.
pub const INVERSION_TOLERANCE: f64 = 1e-5;
/// The most Newton (or fixed-point) iterations of the inversion.
pub const MAX_INVERSION_ITERATIONS: usize = 12;
/// Below this `det J` the inversion takes the fixed-point step instead of Newton's.
pub const NEWTON_MIN_DETERMINANT: f64 = 0.2;
/// Batches shorter than this are answered on the calling thread.
const PARALLEL_BATCH: usize = 512;

/// The sea at one world point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeaSample {
    /// Height of the surface above the still level at the fixed world point, m.
    pub height: f32,
    /// Unit normal of the surface there, pointing up (`+z`).
    pub normal: Vec3,
    /// `d height / dt` at the fixed world point, m/s.
    pub vertical_velocity: f32,
    /// `det(I + grad D)` at the surface point there: 1 without choppiness, below 0 where the
    /// surface folds (breaking crests; foam's source).
    pub jacobian: f32,
}

/// Catmull-Rom weights and wrapped indices of one tile around one point.
struct Taps {
    xs: [usize; 4],
    ys: [usize; 4],
    wx: [f64; 4],
    wy: [f64; 4],
}

fn catmull_rom(f: f64) -> [f64; 4] {
    let (f2, f3) = (f * f, f * f * f);
    [
        0.5 * (-f3 + 2.0 * f2 - f),
        0.5 * (3.0 * f3 - 5.0 * f2 + 2.0),
        0.5 * (-3.0 * f3 + 4.0 * f2 + f),
        0.5 * (f3 - f2),
    ]
}

impl TileFields {
    fn taps(&self, p: [f64; 2]) -> Taps {
        let n = self.cells;
        let axis = |coordinate: f64| {
            let u = coordinate / self.spacing;
            // The tile is periodic: a coordinate past 2^52 samples (where an f64 holds no
            // fraction, and past 2^63 the cast below saturates) is folded into one period
            // first.
            let u = if u.abs() < 4.5e15 {
                u
            } else {
                u.rem_euclid(n as f64)
            };
            // `floor` without the library call (it is one where the target lacks SSE4.1).
            let truncated = u as i64;
            let base = truncated - i64::from(truncated as f64 > u);
            let first = base - 1;
            // Tiles are powers of two a side (`tiling.rs`): a mask wraps without a division.
            let start = if n.is_power_of_two() {
                (first & (n as i64 - 1)) as usize
            } else {
                first.rem_euclid(n as i64) as usize
            };
            let idx = [0, 1, 2, 3].map(|k| {
                let i = start + k;
                if i >= n {
                    i - n
                } else {
                    i
                }
            });
            (idx, catmull_rom(u - base as f64))
        };
        let (xs, wx) = axis(p[0]);
        let (ys, wy) = axis(p[1]);
        Taps { xs, ys, wx, wy }
    }

    /// The pairs of fields whose planes hold `pairs[i]` (each a field of even index, with the
    /// next field beside it) at the taps, added to `out[i]` (one walk over the 16 taps).
    fn add_pairs<const P: usize>(
        &self,
        pairs: &[SeaField; P],
        taps: &Taps,
        out: &mut [[f64; 2]; P],
    ) {
        let planes = pairs.map(|f| self.plane_of(f));
        for (row, wy) in taps.ys.iter().zip(taps.wy) {
            let line = row * self.cells;
            let mut across = [[0.0; 2]; P];
            for (col, wx) in taps.xs.iter().zip(taps.wx) {
                for (a, plane) in across.iter_mut().zip(&planes) {
                    let c = plane[line + col];
                    a[0] += f64::from(c.re) * wx;
                    a[1] += f64::from(c.im) * wx;
                }
            }
            for (o, a) in out.iter_mut().zip(across) {
                o[0] += a[0] * wy;
                o[1] += a[1] * wy;
            }
        }
    }
}

/// The ambient sea synthesised at one time.
#[derive(Debug, Clone, PartialEq)]
pub struct SeaFrame {
    time: f64,
    choppy: bool,
    tiles: Vec<TileFields>,
}

impl SeaFrame {
    /// The sea of `sea` at time `t` (s). Prefer [`AmbientSea::frame`].
    #[must_use]
    pub fn synthesise(sea: &AmbientSea, t: f64) -> Self {
        Self {
            time: t,
            choppy: sea.choppiness() > 0.0,
            tiles: ocean_synthesis(sea, t),
        }
    }

    /// Makes this frame the sea of `sea` at time `t` (s), writing the fields into its planes'
    /// storage: the same frame [`SeaFrame::synthesise`] makes, without allocating the planes
    /// again. Prefer [`AmbientSea::frame_into`].
    pub fn resynthesise(&mut self, sea: &AmbientSea, t: f64) {
        self.tiles = ocean_synthesis_reusing(sea, t, std::mem::take(&mut self.tiles));
        self.time = t;
        self.choppy = sea.choppiness() > 0.0;
    }

    /// The time this frame shows, s.
    #[must_use]
    pub fn time(&self) -> f64 {
        self.time
    }

    /// The synthesised tiles (what a GPU twin is compared with).
    #[must_use]
    pub fn tiles(&self) -> &[TileFields] {
        &self.tiles
    }

    /// The pairs of fields starting at each of `pairs` (see `TileFields::add_pairs`), summed
    /// over the tiles at the undisplaced point `x0`.
    fn pairs_at<const P: usize>(&self, x0: [f64; 2], pairs: &[SeaField; P]) -> [[f64; 2]; P] {
        let mut out = [[0.0; 2]; P];
        for tile in &self.tiles {
            tile.add_pairs(pairs, &tile.taps(x0), &mut out);
        }
        out
    }

    /// The undisplaced point whose surface lies over `p`, and the Jacobian's entries there
    /// (`[1 + dDx/dx, dDx/dy, 1 + dDy/dy]`).
    fn invert(&self, p: [f64; 2]) -> ([f64; 2], [f64; 3]) {
        if !self.choppy {
            return (p, [1.0, 0.0, 1.0]);
        }
        // (Dx, Dy), (dDx/dx, dDy/dy) and (dDx/dy, dDx/dt): three planes.
        const NEEDED: [SeaField; 3] = [SeaField::DisplacementX, SeaField::DxDx, SeaField::DxDy];
        let read = |x0| {
            let [d, stretch, [shear, _]] = self.pairs_at(x0, &NEEDED);
            (d, [1.0 + stretch[0], shear, 1.0 + stretch[1]])
        };
        let mut x0 = p;
        for _ in 0..MAX_INVERSION_ITERATIONS {
            let (d, j) = read(x0);
            let r = [x0[0] + d[0] - p[0], x0[1] + d[1] - p[1]];
            if r[0] * r[0] + r[1] * r[1] < INVERSION_TOLERANCE * INVERSION_TOLERANCE {
                return (x0, j);
            }
            let det = j[0] * j[2] - j[1] * j[1];
            if det > NEWTON_MIN_DETERMINANT {
                x0[0] -= (j[2] * r[0] - j[1] * r[1]) / det;
                x0[1] -= (j[0] * r[1] - j[1] * r[0]) / det;
            } else {
                x0 = [p[0] - d[0], p[1] - d[1]];
            }
        }
        (x0, read(x0).1)
    }

    /// The height (m) at the fixed world point `p` (NaN where `p` has a NaN or infinite
    /// coordinate; every finite point is on the periodic tiles).
    #[must_use]
    pub fn height(&self, p: Vec2) -> f32 {
        let (x0, _) = self.invert([f64::from(p.x), f64::from(p.y)]);
        self.pairs_at(x0, &[SeaField::Height])[0][0] as f32
    }

    /// Height, normal, vertical velocity and Jacobian at the fixed world point `p`.
    #[must_use]
    pub fn sample(&self, p: Vec2) -> SeaSample {
        let p = [f64::from(p.x), f64::from(p.y)];
        let (x0, j) = self.invert(p);
        // (h, dh/dt), (dh/dx, dh/dy), and for a choppy sea (dDx/dy, dDx/dt), (dDy/dt, -).
        let v = if self.choppy {
            let [[h, h_t], [h_x, h_y], [_, dx_t], [dy_t, _]] = self.pairs_at(
                x0,
                &[
                    SeaField::Height,
                    SeaField::SlopeX,
                    SeaField::DxDy,
                    SeaField::DyDt,
                ],
            );
            [h, h_t, h_x, h_y, dx_t, dy_t]
        } else {
            let [[h, h_t], [h_x, h_y]] = self.pairs_at(x0, &[SeaField::Height, SeaField::SlopeX]);
            [h, h_t, h_x, h_y, 0.0, 0.0]
        };
        let [h, h_t, h_x, h_y, dx_t, dy_t] = v;
        // x0(p) has dx0/dp = J^-1 (J symmetric): grad_p eta = J^-1 grad h, and at fixed p
        // d eta/dt = h_t - grad h . J^-1 dD/dt.
        let det = j[0] * j[2] - j[1] * j[1];
        let inverse = |a: f64, b: f64| {
            if det.abs() > 1e-9 {
                [(j[2] * a - j[1] * b) / det, (j[0] * b - j[1] * a) / det]
            } else {
                [a, b]
            }
        };
        let slope = inverse(h_x, h_y);
        let drift = inverse(dx_t, dy_t);
        SeaSample {
            height: h as f32,
            normal: Vec3::new(-slope[0] as f32, -slope[1] as f32, 1.0).normalize(),
            vertical_velocity: (h_t - h_x * drift[0] - h_y * drift[1]) as f32,
            jacobian: det as f32,
        }
    }

    /// Heights at many fixed world points: `out[i]` for `points[i]`, in parallel for long
    /// batches (each point alone, so the answer does not depend on the thread count).
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn heights_into(&self, points: &[Vec2], out: &mut [f32]) {
        assert_eq!(points.len(), out.len(), "one output per point");
        if points.len() < PARALLEL_BATCH {
            for (o, p) in out.iter_mut().zip(points) {
                *o = self.height(*p);
            }
        } else {
            out.par_chunks_mut(PARALLEL_BATCH / 4)
                .zip(points.par_chunks(PARALLEL_BATCH / 4))
                .for_each(|(o, p)| {
                    for (o, p) in o.iter_mut().zip(p) {
                        *o = self.height(*p);
                    }
                });
        }
    }

    /// Heights at many fixed world points, in a new vector (see [`SeaFrame::heights_into`]).
    #[must_use]
    pub fn heights(&self, points: &[Vec2]) -> Vec<f32> {
        let mut out = vec![0.0; points.len()];
        self.heights_into(points, &mut out);
        out
    }

    /// Full samples at many fixed world points, in parallel for long batches.
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn samples_into(&self, points: &[Vec2], out: &mut [SeaSample]) {
        assert_eq!(points.len(), out.len(), "one output per point");
        out.par_chunks_mut(PARALLEL_BATCH / 4)
            .zip(points.par_chunks(PARALLEL_BATCH / 4))
            .for_each(|(o, p)| {
                for (o, p) in o.iter_mut().zip(p) {
                    *o = self.sample(*p);
                }
            });
    }
}

impl HeightSource for SeaFrame {
    /// The sea everywhere: never `None`.
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        let s = self.sample(position.truncate());
        Some(SurfaceSample {
            point: Vec3::new(position.x, position.y, s.height),
            normal: s.normal,
            up: Vec3::Z,
        })
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        Some(SurfaceLevel {
            point: Vec3::new(position.x, position.y, self.height(position.truncate())),
            up: Vec3::Z,
        })
    }
}
