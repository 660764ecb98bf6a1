//! [`SeaFrame`]: the ambient sea at one time, ready for queries at any world point.
//!
//! Each tile's fields are read between samples by periodic Catmull-Rom interpolation (16 taps;
//! every wave a tile holds has 8 or more samples a wavelength, where the interpolation is
//! within 1% of the wave). A choppy sea moves each surface point `x0` to `x0 + D(x0)`; the
//! height at a fixed world point `p` is `h(x0)` for the `x0` with `x0 + D(x0) = p`, found by
//! Newton's method on that equation (`J = I + grad D`, with the interpolated `D`'s own
//! gradient, read with `D` in one pass), falling back to the fixed-point step
//! `x0 <- p - D(x0)` where the surface is near folding (`det J` below
//! [`NEWTON_MIN_DETERMINANT`]). It stops when the residual read is under
//! [`INVERSION_TOLERANCE`], when a Newton step is shorter than [`SeaFrame::landing_step`]
//! (landing on the point it steps to, unread: the residual left is Newton's quadratic
//! remainder, [`NEWTON_LANDING_SCALE`]), or after [`MAX_INVERSION_ITERATIONS`];
//! `docs/math.md` section 14 gives the errors measured.
//!
//! Batches of heights go eight points at a time where the CPU has AVX2, one point a lane
//! (`lane_reads_x86.rs`, `inversion_steps_x86.rs`), the inversions in step for their first
//! reads and the points still unconverged then regrouped; every lane gives the bits one point
//! alone gives, so an answer never depends on the batch, the CPU or the threads.

#![allow(unsafe_code, reason = "the AVX2 entry to the batch queries")]

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::height_source::{HeightSource, SurfaceLevel, SurfaceSample};
use crate::ocean::ambient_sea::AmbientSea;
#[cfg(target_arch = "x86_64")]
use crate::ocean::lane_reads_x86::{height_reads, LANES};
use crate::ocean::ocean_synthesis::{
    ocean_synthesis, ocean_synthesis_reusing, SeaField, TileFields,
};
use crate::ocean::tile_taps::{Lanes, Portable, Taps};
#[cfg(target_arch = "x86_64")]
use crate::ocean::tile_taps_x86::Avx2;
use crate::ocean::tiling::MAX_OCEAN_TILES;

/// Implements [`PointQuery`] for `$query`, whose answer at one point is `$answer` from
/// `SeaFrame::$at`; with `$avx2`, its answers on this thread in AVX2 vectors come from
/// `SeaFrame::$avx2` (lane by lane) rather than from each point alone. The names it uses
/// (`Lanes`, `Vec2`, `Avx2`) are those in scope where it is called.
macro_rules! point_query {
    ($query:ty, $answer:ty, $at:ident $(, $avx2:ident)?) => {
        impl PointQuery for $query {
            type Answer = $answer;
            #[inline(always)]
            fn at<L: Lanes>(frame: &SeaFrame, lanes: L, p: Vec2) -> $answer {
                frame.$at(lanes, p)
            }
            $(
                #[cfg(target_arch = "x86_64")]
                fn serial_avx2(
                    frame: &SeaFrame,
                    avx2: Avx2,
                    points: &[Vec2],
                    out: &mut [$answer],
                ) {
                    frame.$avx2(avx2, points, out);
                }
            )?
        }
    };
}

mod inversion;
mod jacobians;

use inversion::{displaced_jacobian, landing_step, Inversion};

/// The inversion stops once `|x0 + D(x0) - p|` is below this, m.
pub const INVERSION_TOLERANCE: f64 = 1e-5;
/// The most Newton (or fixed-point) iterations of the inversion.
pub const MAX_INVERSION_ITERATIONS: usize = 12;
/// Below this `det J` the inversion takes the fixed-point step instead of Newton's.
pub const NEWTON_MIN_DETERMINANT: f64 = 0.2;
/// Sets the landing step, m: a Newton step shorter than `sqrt(NEWTON_LANDING_SCALE * L)`, with
/// `L` 8 samples of the sea's finest tile (no wave the sea holds is shorter), ends the inversion
/// at the point it steps to, without a read there to confirm it ([`SeaFrame::landing_step`]).
/// Newton's method converges quadratically, so the residual left is about `C step^2`, with the
/// curvature `C` growing as the shortest waves shorten: at most 1.1e-6 m, a ninth of
/// [`INVERSION_TOLERANCE`], on four seas of choppiness 0.5 to 2 over 0.02-4 m cells (tested;
/// `docs/math.md` section 14). A read to confirm would cost a third of the inversion.
pub const NEWTON_LANDING_SCALE: f64 = 1e-6;
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
    /// surface folds (breaking crests; foam's source). `grad D` is the interpolated
    /// displacement's own gradient, the one the inversion steps with, read where it read last
    /// (at most [`SeaFrame::landing_step`] from the undisplaced point found:
    /// [`SeaFrame::jacobians_into`]); the normal and velocity use the synthesised gradients.
    pub jacobian: f32,
}

/// The ambient sea synthesised at one time.
#[derive(Debug, Clone, PartialEq)]
pub struct SeaFrame {
    time: f64,
    choppy: bool,
    tiles: Vec<TileFields>,
    /// [`SeaFrame::landing_step`], m.
    landing_step: f64,
}

impl SeaFrame {
    /// The sea of `sea` at time `t` (s). Prefer [`AmbientSea::frame`].
    #[must_use]
    pub fn synthesise(sea: &AmbientSea, t: f64) -> Self {
        let tiles = ocean_synthesis(sea, t);
        Self {
            time: t,
            choppy: sea.choppiness() > 0.0,
            landing_step: landing_step(&tiles),
            tiles,
        }
    }

    /// Makes this frame the sea of `sea` at time `t` (s), writing the fields into its planes'
    /// storage: the same frame [`SeaFrame::synthesise`] makes, without allocating the planes
    /// again. Prefer [`AmbientSea::frame_into`].
    pub fn resynthesise(&mut self, sea: &AmbientSea, t: f64) {
        self.tiles = ocean_synthesis_reusing(sea, t, std::mem::take(&mut self.tiles));
        self.time = t;
        self.choppy = sea.choppiness() > 0.0;
        self.landing_step = landing_step(&self.tiles);
    }

    /// The landing step of the choppy inversion, m: a Newton step shorter than this ends it at
    /// the point it steps to, unread ([`NEWTON_LANDING_SCALE`]).
    #[must_use]
    pub fn landing_step(&self) -> f64 {
        self.landing_step
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

    /// Every tile's taps around the undisplaced point `x0`, into `taps[..tiles]`.
    #[inline(always)]
    fn taps_at(&self, x0: [f64; 2], taps: &mut [Taps; MAX_OCEAN_TILES]) {
        debug_assert!(
            self.tiles.len() <= MAX_OCEAN_TILES,
            "OceanTiling caps the tiles"
        );
        for (t, tile) in taps.iter_mut().zip(&self.tiles) {
            *t = Taps::around(tile, x0);
        }
    }

    /// The pairs of fields whose planes hold each of `fields` (each a field of even index,
    /// with the next field beside it), summed over the tiles through `taps`.
    #[inline(always)]
    fn pairs<L: Lanes, const P: usize>(
        &self,
        lanes: L,
        taps: &[Taps; MAX_OCEAN_TILES],
        fields: [SeaField; P],
    ) -> [[f64; 2]; P] {
        let mut sums = [[0.0; 2]; P];
        for (sum, field) in sums.iter_mut().zip(fields) {
            for (t, tile) in taps.iter().zip(&self.tiles) {
                let [a, b] = lanes.read(t, tile.plane_of(field));
                sum[0] += f64::from(a);
                sum[1] += f64::from(b);
            }
        }
        sums
    }

    /// The Jacobian's entries (`[1 + dDx/dx, dDx/dy, 1 + dDy/dy]`) through `taps`.
    #[inline(always)]
    fn jacobian<L: Lanes>(&self, lanes: L, taps: &[Taps; MAX_OCEAN_TILES]) -> [f64; 3] {
        if !self.choppy {
            return [1.0, 0.0, 1.0];
        }
        let [stretch, [shear, _]] = self.pairs(lanes, taps, [SeaField::DxDx, SeaField::DxDy]);
        [1.0 + stretch[0], shear, 1.0 + stretch[1]]
    }

    /// The height (m) at the fixed world point `p` (NaN where `p` has a NaN or infinite
    /// coordinate; every finite point is on the periodic tiles).
    #[must_use]
    pub fn height(&self, p: Vec2) -> f32 {
        let mut out = [0.0];
        self.serial::<HeightQuery>(&[p], &mut out);
        out[0]
    }

    /// [`SeaFrame::height`], one point at a time (each lane of [`SeaFrame::heights_avx2`] gives
    /// the same bits).
    #[inline(always)]
    fn height_alone<L: Lanes>(&self, lanes: L, p: Vec2) -> f32 {
        let x0 = self.invert(lanes, [f64::from(p.x), f64::from(p.y)]).x0;
        lanes.height_read(&self.tiles, x0)
    }

    /// Height, normal, vertical velocity and Jacobian at the fixed world point `p`.
    #[must_use]
    pub fn sample(&self, p: Vec2) -> SeaSample {
        let mut out = [SeaSample {
            height: 0.0,
            normal: Vec3::Z,
            vertical_velocity: 0.0,
            jacobian: 1.0,
        }];
        self.serial::<SampleQuery>(&[p], &mut out);
        out[0]
    }

    /// `Q`'s answers at `points` on this thread, in AVX2 vectors where the CPU has them.
    fn serial<Q: PointQuery>(&self, points: &[Vec2], out: &mut [Q::Answer]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Avx2::detect() {
            Q::serial_avx2(self, avx2, points, out);
            return;
        }
        for (o, p) in out.iter_mut().zip(points) {
            *o = Q::at(self, Portable, *p);
        }
    }

    /// [`SeaFrame::serial`] one point at a time, compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn each_point_avx2<Q: PointQuery>(
        &self,
        avx2: Avx2,
        points: &[Vec2],
        out: &mut [Q::Answer],
    ) {
        for (o, p) in out.iter_mut().zip(points) {
            *o = Q::at(self, avx2, *p);
        }
    }

    /// The heights at `points`, eight at a time in AVX2 vectors (the last few one at a time).
    #[cfg(target_arch = "x86_64")]
    fn heights_avx2(&self, avx2: Avx2, points: &[Vec2], out: &mut [f32]) {
        let whole = points.len() / LANES * LANES;
        if self.choppy {
            self.inverted_groups_avx2(avx2, &points[..whole], &mut out[..whole], |x0, _| {
                height_reads(avx2, &self.tiles, x0)
            });
        } else {
            let as_f64 = |p: Vec2| [f64::from(p.x), f64::from(p.y)];
            for (o, group) in out[..whole]
                .chunks_exact_mut(LANES)
                .zip(points[..whole].chunks_exact(LANES))
            {
                let p = std::array::from_fn(|i| as_f64(group[i]));
                o.copy_from_slice(&height_reads(avx2, &self.tiles, &p));
            }
        }
        for (o, p) in out[whole..].iter_mut().zip(&points[whole..]) {
            *o = self.height_alone(avx2, *p);
        }
    }

    /// `Q`'s answers at `points`, in parallel for long batches (each point alone, so the
    /// answer does not depend on the thread count).
    fn batch<Q: PointQuery>(&self, points: &[Vec2], out: &mut [Q::Answer]) {
        assert_eq!(points.len(), out.len(), "one output per point");
        if points.len() < PARALLEL_BATCH {
            self.serial::<Q>(points, out);
        } else {
            out.par_chunks_mut(PARALLEL_BATCH / 4)
                .zip(points.par_chunks(PARALLEL_BATCH / 4))
                .for_each(|(o, p)| self.serial::<Q>(p, o));
        }
    }

    /// [`SeaFrame::sample`], read through `lanes`.
    #[inline(always)]
    fn sample_with<L: Lanes>(&self, lanes: L, p: Vec2) -> SeaSample {
        let found = self.invert(lanes, [f64::from(p.x), f64::from(p.y)]);
        let x0 = found.x0;
        let mut taps = [Taps::UNSET; MAX_OCEAN_TILES];
        self.taps_at(x0, &mut taps);
        let j = self.jacobian(lanes, &taps);
        let [[_, h_t], [h_x, h_y]] = self.pairs(lanes, &taps, [SeaField::Height, SeaField::SlopeX]);
        // The height as `SeaFrame::height` reads it, to the bit.
        let h = f64::from(lanes.height_read(&self.tiles, x0));
        // The displacement's rate, for a choppy sea: (dDx/dy, dDx/dt) and (dDy/dt, -).
        let (dx_t, dy_t) = if self.choppy {
            let [[_, dx_t], [dy_t, _]] = self.pairs(lanes, &taps, [SeaField::DxDy, SeaField::DyDt]);
            (dx_t, dy_t)
        } else {
            (0.0, 0.0)
        };
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
            jacobian: self.found_jacobian(lanes, &found),
        }
    }

    /// Heights at many fixed world points: `out[i]` for `points[i]`, in parallel for long
    /// batches (each point alone, so the answer does not depend on the thread count).
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn heights_into(&self, points: &[Vec2], out: &mut [f32]) {
        self.batch::<HeightQuery>(points, out);
    }

    /// Heights at many fixed world points, in a new vector (see [`SeaFrame::heights_into`]).
    #[must_use]
    pub fn heights(&self, points: &[Vec2]) -> Vec<f32> {
        let mut out = vec![0.0; points.len()];
        self.heights_into(points, &mut out);
        out
    }

    /// The heights at the fixed world points under `positions` (their `z` aside), as one batch
    /// ([`SeaFrame::heights_into`]), with those points: where the batched
    /// [`HeightSource::levels_at`] of the sea, alone or under other water, starts.
    pub(super) fn heights_under(&self, positions: &[Vec3]) -> (Vec<Vec2>, Vec<f32>) {
        let points: Vec<Vec2> = positions.iter().map(|p| p.truncate()).collect();
        let mut heights = vec![0.0; points.len()];
        self.heights_into(&points, &mut heights);
        (points, heights)
    }

    /// Full samples at many fixed world points, in parallel for long batches.
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn samples_into(&self, points: &[Vec2], out: &mut [SeaSample]) {
        self.batch::<SampleQuery>(points, out);
    }
}

/// What a batch asks of each point.
trait PointQuery: Sized {
    /// The answer at one point.
    type Answer: Send;
    /// The answer at `p`, read through `lanes`.
    fn at<L: Lanes>(frame: &SeaFrame, lanes: L, p: Vec2) -> Self::Answer;
    /// The answers at `points` on this thread, in AVX2 vectors. By default each point alone
    /// ([`PointQuery::at`] compiled for AVX2): queries with a lane-by-lane form override it.
    #[cfg(target_arch = "x86_64")]
    fn serial_avx2(frame: &SeaFrame, avx2: Avx2, points: &[Vec2], out: &mut [Self::Answer]) {
        // SAFETY: `avx2` exists, so the CPU has AVX2.
        unsafe { frame.each_point_avx2::<Self>(avx2, points, out) };
    }
}

/// The height at each point ([`SeaFrame::height`]).
struct HeightQuery;

point_query!(HeightQuery, f32, height_alone, heights_avx2);

/// The whole sample at each point ([`SeaFrame::sample`]), each point alone on AVX2 too.
struct SampleQuery;

point_query!(SampleQuery, SeaSample, sample_with);

impl HeightSource for SeaFrame {
    /// The sea everywhere: `None` only where `position`'s `x` or `y` is not finite (the reads
    /// give NaN there).
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        if !position.truncate().is_finite() {
            return None;
        }
        let s = self.sample(position.truncate());
        Some(SurfaceSample::z_up(position, s.height, s.normal))
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        SurfaceLevel::z_up_where_finite(position, |p| self.height(p))
    }

    /// The heights as one batch ([`SeaFrame::heights_into`]: the same bits as one at a time).
    fn levels_at(&self, positions: &[Vec3], out: &mut [Option<SurfaceLevel>]) {
        assert_eq!(positions.len(), out.len(), "one answer per position");
        let (_, heights) = self.heights_under(positions);
        for ((o, p), h) in out.iter_mut().zip(positions).zip(heights) {
            *o = p.truncate().is_finite().then(|| SurfaceLevel::z_up(*p, h));
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use glam::Vec2;

    use super::SeaFrame;
    use crate::ocean::tile_taps::Portable;
    use crate::ocean::{AmbientSea, OceanSpec, WaveSpectrum};

    /// A steep choppy sea over 0.2 m cells (several tiles).
    pub(in crate::ocean) fn choppy_frame() -> SeaFrame {
        let wind = WaveSpectrum::PiersonMoskowitz { wind_speed: 9.0 };
        let spec = OceanSpec::new(wind).with_choppiness(0.8).with_seed(3);
        let frame = AmbientSea::new(&spec, 0.2).expect("the sea").frame(7.5);
        assert!(frame.tiles().len() >= 3, "a sea of several tiles");
        frame
    }

    /// Points scattered over 600 m, and points along each tile's edge (where the four
    /// columns of a read wrap around the tile).
    pub(super) fn points(frame: &SeaFrame) -> Vec<Vec2> {
        let mut points: Vec<Vec2> = (0..3000)
            .map(|i| {
                let i = i as f32;
                Vec2::new(
                    (i * 0.618).fract() * 600.0,
                    (i * 0.414).fract() * 600.0 - 300.0,
                )
            })
            .collect();
        for tile in frame.tiles() {
            let side = (tile.spacing * tile.cells as f64) as f32;
            points.extend((0..200).map(|i| {
                let across = i as f32 / 200.0 * side;
                Vec2::new(side - 0.3 * tile.spacing as f32 * (i % 7) as f32, across)
            }));
        }
        points
    }

    #[test]
    fn one_point_and_batches_give_the_same_bits_as_the_lane_by_lane_reads() {
        let frame = choppy_frame();
        let mut points = points(&frame);
        // Points whose fractions round to a whole sample or carry a sign, and points so far
        // out that the inversion runs to its most reads (in the batch's lockstep too).
        points.extend([
            Vec2::new(-0.0, 5.0),
            Vec2::new(-1e-30, -1e-30),
            Vec2::new(1e15, 2e14),
            Vec2::new(3e38, -3e38),
            Vec2::new(-7.3e14, 1e9),
        ]);
        let batch = frame.heights(&points);
        // A batch short enough for one thread, over several blocks of late points.
        let short = 413;
        #[cfg(target_arch = "x86_64")]
        assert!(short > 3 * super::inversion::LATE_BLOCK && short % super::LANES != 0);
        assert!(short < super::PARALLEL_BATCH && points.len() > short);
        let one_thread = frame.heights(&points[..short]);
        let bits = |h: &[f32]| h.iter().map(|h| h.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&one_thread),
            bits(&batch[..short]),
            "a one-thread batch"
        );
        let mut samples = vec![frame.sample(Vec2::ZERO); points.len()];
        frame.samples_into(&points, &mut samples);
        let mut jacobians = vec![0.0; points.len()];
        frame.jacobians_into(&points, &mut jacobians);
        for (s, j) in samples.iter().zip(&jacobians) {
            assert_eq!(s.jacobian.to_bits(), j.to_bits(), "the Jacobian alone");
        }
        assert!(
            jacobians.iter().any(|&j| j < 0.9),
            "a choppy sea's Jacobians"
        );
        for ((p, h), s) in points.iter().zip(&batch).zip(&samples) {
            let portable = frame.height_alone(Portable, *p);
            assert_eq!(h.to_bits(), portable.to_bits(), "height at {p}");
            assert_eq!(
                frame.height(*p).to_bits(),
                portable.to_bits(),
                "height at {p}"
            );
            let sample = frame.sample_with(Portable, *p);
            assert_eq!(sample.height.to_bits(), portable.to_bits(), "height at {p}");
            assert_eq!(frame.sample(*p), sample, "sample at {p}");
            assert_eq!(*s, sample, "batch sample at {p}");
        }
    }

    #[test]
    fn a_batch_answers_nan_where_one_point_does() {
        // Not-a-number and infinite coordinates in a batch (in every place of a group of
        // eight) give NaN as the point alone does, and leave the other points' heights and
        // Jacobians alone.
        let frame = choppy_frame();
        let odd = [Vec2::new(f32::NAN, 1.0), Vec2::new(2.0, f32::INFINITY)];
        for (k, bad) in (0..8).zip(odd.iter().cycle()) {
            let mut points: Vec<Vec2> = (0..8).map(|i| Vec2::new(i as f32 * 1.7, 3.0)).collect();
            points[k] = *bad;
            let batch = frame.heights(&points);
            // The Jacobians too: a lane that stops unconverged takes a read of its own.
            let mut jacobians = vec![0.0; points.len()];
            frame.jacobians_into(&points, &mut jacobians);
            for (i, p) in points.iter().enumerate() {
                let (one, j) = (frame.height(*p), frame.sample(*p).jacobian);
                if i == k {
                    let (h, jb) = (batch[i], jacobians[i]);
                    assert!(
                        h.is_nan() && one.is_nan() && jb.is_nan() && j.is_nan(),
                        "{p}: {h} and {jb} in a batch, {one} and {j} alone"
                    );
                } else {
                    assert_eq!(batch[i].to_bits(), one.to_bits(), "{p} beside {bad}");
                    assert_eq!(jacobians[i].to_bits(), j.to_bits(), "J at {p} beside {bad}");
                }
            }
        }
    }
}
