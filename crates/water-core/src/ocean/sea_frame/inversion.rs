//! The choppy inversion: the undisplaced point `x0` under a fixed world point `p`
//! (`x0 + D(x0) = p`), one point at a time ([`SeaFrame::invert`]) and eight at a time in AVX2
//! lanes ([`SeaFrame::inverted_groups_avx2`]), each lane with the one-point steps' bits.

use glam::Vec2;

#[cfg(target_arch = "x86_64")]
use super::LANES;
use super::{
    SeaFrame, INVERSION_TOLERANCE, MAX_INVERSION_ITERATIONS, NEWTON_LANDING_SCALE,
    NEWTON_MIN_DETERMINANT,
};
#[cfg(target_arch = "x86_64")]
use crate::ocean::inversion_steps_x86::inversion_steps;
#[cfg(target_arch = "x86_64")]
use crate::ocean::lane_reads_x86::displacement_reads;
use crate::ocean::ocean_synthesis::TileFields;
use crate::ocean::tile_taps::Lanes;
#[cfg(target_arch = "x86_64")]
use crate::ocean::tile_taps_x86::Avx2;

/// How many reads a group of eight points takes in step before its unconverged points are
/// gathered with other groups' (on a moderate sea most points land by the second).
#[cfg(target_arch = "x86_64")]
const LOCKSTEP_READS: usize = 2;
// A point regrouped never reads more often than it would alone.
#[cfg(target_arch = "x86_64")]
const _: () = assert!(LOCKSTEP_READS <= MAX_INVERSION_ITERATIONS);
/// How many points' unconverged inversions are gathered at once (a multiple of eight, on the
/// stack).
#[cfg(target_arch = "x86_64")]
pub(super) const LATE_BLOCK: usize = 128;

/// A point whose inversion had not converged after [`LOCKSTEP_READS`]: where in its block its
/// undisplaced point and Jacobian go, the point, and its undisplaced point so far.
#[cfg(target_arch = "x86_64")]
#[derive(Debug, Clone, Copy, Default)]
struct Late {
    at: usize,
    p: [f64; 2],
    x0: [f64; 2],
}

impl SeaFrame {
    /// Finds the undisplaced point whose surface lies over `p`: Newton's steps, each from one
    /// read of the displacement's plane a tile, for the displacement and the interpolant's
    /// gradient both, until a read finds the residual under [`INVERSION_TOLERANCE`] or a Newton
    /// step is shorter than [`SeaFrame::landing_step`] (the point it lands on is the answer,
    /// not read again).
    #[inline(always)]
    pub(super) fn invert<L: Lanes>(&self, lanes: L, p: [f64; 2]) -> Inversion {
        let mut x0 = p;
        let mut reads = 0;
        let mut jacobian = None;
        let mut last_read = p;
        if self.choppy {
            while reads < MAX_INVERSION_ITERATIONS {
                let read = lanes
                    .displacement_read(&self.tiles, x0)
                    .map(|pair| pair.map(f64::from));
                reads += 1;
                last_read = x0;
                match inversion_step(p, x0, read, self.landing_step) {
                    InversionStep::Moved(next) => x0 = next,
                    InversionStep::Landed(next) => {
                        x0 = next;
                        jacobian = Some(displaced_jacobian(read));
                        break;
                    }
                    InversionStep::Converged => {
                        jacobian = Some(displaced_jacobian(read));
                        break;
                    }
                }
            }
        }
        Inversion {
            x0,
            reads,
            last_read,
            jacobian,
        }
    }

    /// Reads `reads` (numbered from 1) of eight points' inversions in step, from `x0`, each
    /// followed by the steps of the lanes still `live`; stops once none is. A lane that ends
    /// gets its Jacobian in `jacobians`, from its last read ([`displaced_jacobian`]).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn lockstep(
        &self,
        avx2: Avx2,
        p: &[[f64; 2]; LANES],
        x0: &mut [[f64; 2]; LANES],
        live: &mut [bool; LANES],
        reads: std::ops::RangeInclusive<usize>,
        jacobians: &mut [Option<f32>; LANES],
    ) {
        for _ in reads {
            let [d, d_x, d_y] = displacement_reads(avx2, &self.tiles, x0);
            let was_live = *live;
            inversion_steps(avx2, p, x0, live, &[d, d_x, d_y], self.landing_step);
            for lane in 0..LANES {
                if was_live[lane] && !live[lane] {
                    let pair =
                        |v: &[[f32; LANES]; 2]| [f64::from(v[0][lane]), f64::from(v[1][lane])];
                    jacobians[lane] = Some(displaced_jacobian([pair(&d), pair(&d_x), pair(&d_y)]));
                }
            }
            if !live.contains(&true) {
                break;
            }
        }
    }

    /// Inverts the choppy displacement at `points` (a whole number of groups of [`LANES`])
    /// eight at a time in AVX2 vectors, and writes `answer(x0, jacobians)` for each eight of
    /// them: `x0` their undisplaced points found, `jacobians` each one's Jacobian from its last
    /// read (`None` for one that stopped at [`MAX_INVERSION_ITERATIONS`] unconverged: its `x0`
    /// moved after its last read). Each group takes its first [`LOCKSTEP_READS`] reads in
    /// step, and the points still unconverged then are gathered into groups of their own: a
    /// group held in step until its slowest point converged would read most points once more
    /// than they need. Each point's steps are its own, so the grouping changes no bit.
    #[cfg(target_arch = "x86_64")]
    pub(super) fn inverted_groups_avx2<T: Copy>(
        &self,
        avx2: Avx2,
        points: &[Vec2],
        out: &mut [T],
        answer: impl Fn(&[[f64; 2]; LANES], &[Option<f32>; LANES]) -> [T; LANES],
    ) {
        debug_assert!(
            points.len().is_multiple_of(LANES) && out.len() == points.len(),
            "whole groups of eight, an answer each"
        );
        let as_f64 = |p: Vec2| [f64::from(p.x), f64::from(p.y)];
        for (out, points) in out.chunks_mut(LATE_BLOCK).zip(points.chunks(LATE_BLOCK)) {
            let mut found = [[0.0; 2]; LATE_BLOCK];
            let mut found_jacobians = [None; LATE_BLOCK];
            let mut late = [Late::default(); LATE_BLOCK];
            let mut lates = 0;
            for (g, group) in points.chunks_exact(LANES).enumerate() {
                let p: [[f64; 2]; LANES] = std::array::from_fn(|i| as_f64(group[i]));
                let (mut x0, mut live, mut jacobians) = (p, [true; LANES], [None; LANES]);
                let reads = 1..=LOCKSTEP_READS;
                self.lockstep(avx2, &p, &mut x0, &mut live, reads, &mut jacobians);
                for lane in 0..LANES {
                    let at = g * LANES + lane;
                    if live[lane] {
                        late[lates] = Late {
                            at,
                            p: p[lane],
                            x0: x0[lane],
                        };
                        lates += 1;
                    } else {
                        (found[at], found_jacobians[at]) = (x0[lane], jacobians[lane]);
                    }
                }
            }
            for group in late[..lates].chunks(LANES) {
                // A short last group is filled with its first point again.
                let lane = |i: usize| group.get(i).unwrap_or(&group[0]);
                let p = std::array::from_fn(|i| lane(i).p);
                let mut x0 = std::array::from_fn(|i| lane(i).x0);
                let (mut live, mut jacobians) = ([true; LANES], [None; LANES]);
                let reads = LOCKSTEP_READS + 1..=MAX_INVERSION_ITERATIONS;
                self.lockstep(avx2, &p, &mut x0, &mut live, reads, &mut jacobians);
                for (i, l) in group.iter().enumerate() {
                    (found[l.at], found_jacobians[l.at]) = (x0[i], jacobians[i]);
                }
            }
            for ((o, x0), jacobians) in out
                .chunks_exact_mut(LANES)
                .zip(found.chunks_exact(LANES))
                .zip(found_jacobians.chunks_exact(LANES))
            {
                let x0 = x0.try_into().expect("eight points");
                o.copy_from_slice(&answer(x0, jacobians.try_into().expect("eight points")));
            }
        }
    }
}

/// What one step of the inversion found ([`inversion_step`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum InversionStep {
    /// The surface of the point read lies within [`INVERSION_TOLERANCE`] of `p`: it is the
    /// answer.
    Converged,
    /// A Newton step shorter than the landing step to this point: the answer, not read.
    Landed([f64; 2]),
    /// The next point to read.
    Moved([f64; 2]),
}

/// One step of the inversion toward the undisplaced point under `p`, from `x0` where the reads
/// found `[D, dD/dx, dD/dy]`, landing where a Newton step is shorter than `landing` (m).
#[inline(always)]
pub(super) fn inversion_step(
    p: [f64; 2],
    x0: [f64; 2],
    [d, d_x, d_y]: [[f64; 2]; 3],
    landing: f64,
) -> InversionStep {
    let r = [x0[0] + d[0] - p[0], x0[1] + d[1] - p[1]];
    if r[0] * r[0] + r[1] * r[1] < INVERSION_TOLERANCE * INVERSION_TOLERANCE {
        return InversionStep::Converged;
    }
    // The Jacobian of the interpolated displacement itself (`[[a, b], [c, e]]`), so the step is
    // Newton's on the equation being solved.
    let (a, b, c, e) = (1.0 + d_x[0], d_y[0], d_x[1], 1.0 + d_y[1]);
    let det = a * e - b * c;
    if det > NEWTON_MIN_DETERMINANT {
        let step = [(e * r[0] - b * r[1]) / det, (a * r[1] - c * r[0]) / det];
        let next = [x0[0] - step[0], x0[1] - step[1]];
        if step[0] * step[0] + step[1] * step[1] < landing * landing {
            InversionStep::Landed(next)
        } else {
            InversionStep::Moved(next)
        }
    } else {
        InversionStep::Moved([p[0] - d[0], p[1] - d[1]])
    }
}

/// The landing step of a sea of `tiles` ([`NEWTON_LANDING_SCALE`]), m: 0 for no tiles.
pub(super) fn landing_step(tiles: &[TileFields]) -> f64 {
    let finest = tiles
        .iter()
        .map(|t| t.spacing)
        .fold(f64::INFINITY, f64::min);
    if finest.is_finite() {
        (NEWTON_LANDING_SCALE * 8.0 * finest).sqrt()
    } else {
        0.0
    }
}

/// `det(I + grad D)` of the interpolated displacement from one read `[D, dD/dx, dD/dy]` at the
/// undisplaced point: the Jacobian of the equation the inversion solves (the same derivatives
/// its Newton steps take), in `f64` from the read's `f32`s, the off-diagonal terms each from
/// its own plane.
#[inline(always)]
pub(super) fn displaced_jacobian([_, d_x, d_y]: [[f64; 2]; 3]) -> f32 {
    let (a, b, c, e) = (1.0 + d_x[0], d_y[0], d_x[1], 1.0 + d_y[1]);
    (a * e - b * c) as f32
}

/// Where [`SeaFrame::invert`] ended (what the tests check of it).
#[derive(Debug, Clone, Copy)]
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the queries read `x0` and `jacobian`; the tests read these too"
    )
)]
pub(super) struct Inversion {
    /// The undisplaced point found, m.
    pub(super) x0: [f64; 2],
    /// How many times the displacement was read: once a step (and once at the point found
    /// where no Newton step landed on it).
    pub(super) reads: usize,
    /// Where the displacement was read last, m: `x0` where the read there found it within the
    /// tolerance, else the point a step before it.
    pub(super) last_read: [f64; 2],
    /// [`displaced_jacobian`] of the last read where the inversion converged or landed; `None`
    /// on a sea without choppiness and where it stopped unconverged.
    pub(super) jacobian: Option<f32>,
}

#[cfg(test)]
mod tests {
    use super::super::tests::{choppy_frame, points};
    use crate::ocean::lane_reads::displacement_read;
    use crate::ocean::tile_taps::{Portable, Taps};
    use crate::ocean::tiling::MAX_OCEAN_TILES;
    use crate::ocean::{AmbientSea, OceanSpec, SeaField, SeaFrame, WaveSpectrum};
    use crate::ocean::{INVERSION_TOLERANCE, NEWTON_MIN_DETERMINANT};

    #[test]
    fn the_inversion_lands_on_the_point_in_few_newton_steps() {
        // Newton's method with the interpolant's own Jacobian converges quadratically: wherever
        // the surface is far from folding, the point found carries its surface to within the
        // tolerance of `p`, after a few reads (2.98 a point seen; 3.40 when each last step was
        // read to confirm it), including the points a short Newton step landed on unread
        // (`a_point_landed_on_unread_is_within_a_quarter_of_the_tolerance_on_steep_seas`).
        let frame = choppy_frame();
        let mut reads = 0;
        let mut counted = 0;
        for p in points(&frame) {
            let p = [f64::from(p.x), f64::from(p.y)];
            let found = frame.invert(Portable, p);
            let mut taps = [Taps::UNSET; MAX_OCEAN_TILES];
            frame.taps_at(found.x0, &mut taps);
            let j = frame.jacobian(Portable, &taps);
            if j[0] * j[2] - j[1] * j[1] < 2.0 * NEWTON_MIN_DETERMINANT {
                continue;
            }
            let d = displacement_read(frame.tiles(), found.x0)[0].map(f64::from);
            let miss = (found.x0[0] + d[0] - p[0]).hypot(found.x0[1] + d[1] - p[1]);
            assert!(miss < INVERSION_TOLERANCE, "{miss} m off at {p:?}");
            assert!(found.reads <= 5, "{} reads at {p:?}", found.reads);
            reads += found.reads;
            counted += 1;
        }
        let mean = reads as f64 / f64::from(counted);
        eprintln!("{counted} points, {mean:.2} reads of the displacement a point");
        assert!(
            counted > 3000 && mean < 3.2,
            "{mean} reads a point over {counted}"
        );
    }

    #[test]
    fn a_point_landed_on_unread_is_within_a_quarter_of_the_tolerance_on_steep_seas() {
        // A Newton step under the landing step ends the inversion unread: its residual, read
        // here, is Newton's quadratic remainder. Steep seas (choppiness 2) over fine and coarse
        // cells, and a moderate one: 1.1e-6 m at most seen, a quarter of the tolerance allowed
        // (with the landing scale 20 times larger, 4.9e-6 m on the second sea).
        let seas = [
            (0.5, 7.0, 0.25),
            (2.0, 15.0, 0.25),
            (2.0, 5.0, 0.02),
            (2.0, 25.0, 4.0),
        ];
        for (choppiness, wind_speed, cell) in seas {
            let spec = OceanSpec::new(WaveSpectrum::Jonswap {
                wind_speed,
                fetch: 15_000.0,
                peak_enhancement: 3.3,
            })
            .with_direction(30.0)
            .with_choppiness(choppiness)
            .with_seed(11);
            let frame = AmbientSea::new(&spec, cell).expect("the sea").frame(10.0);
            let (mut landed, mut worst) = (0, 0.0f64);
            for i in 0..128 * 128 {
                let p = [
                    (f64::from(i % 128) + 0.5) * 2.0 * cell,
                    (f64::from(i / 128) + 0.5) * 2.0 * cell,
                ];
                let found = frame.invert(Portable, p);
                // Converged where read, or stopped unconverged (near a fold): not landed.
                if found.last_read == found.x0 || found.jacobian.is_none() {
                    continue;
                }
                landed += 1;
                let d = displacement_read(frame.tiles(), found.x0)[0].map(f64::from);
                worst = worst.max((found.x0[0] + d[0] - p[0]).hypot(found.x0[1] + d[1] - p[1]));
            }
            eprintln!(
                "choppiness {choppiness} over {cell} m cells: {landed} landed, {worst:.2e} m"
            );
            assert!(landed > 100, "{landed} points landed");
            assert!(
                worst < INVERSION_TOLERANCE / 4.0,
                "a landed point {worst} m off (choppiness {choppiness}, {cell} m cells)"
            );
        }
    }

    #[test]
    fn the_newton_steps_slopes_are_the_interpolated_displacements_derivatives() {
        // The inversion's Jacobian is the interpolant's own gradient: compare it with central
        // differences of the interpolated displacement (the interpolant is a cubic in each
        // direction, so a 1 mm difference is within 1e-4 of its derivative's scale).
        let frame = choppy_frame();
        let h = 1e-3;
        let mut largest = 0.0f64;
        for p in points(&frame) {
            let p = [f64::from(p.x), f64::from(p.y)];
            let [d, d_x, d_y] = displacement_read(frame.tiles(), p).map(|v| v.map(f64::from));
            let plain = displacement(&frame, p);
            assert!(
                (d[0] - plain[0]).hypot(d[1] - plain[1]) < 1e-5,
                "the displacement read with its slopes, {d:?}, and alone, {plain:?}"
            );
            for (axis, slope) in [d_x, d_y].iter().enumerate() {
                let mut ahead = p;
                let mut behind = p;
                ahead[axis] += h;
                behind[axis] -= h;
                let read = |p: [f64; 2]| displacement_read(frame.tiles(), p)[0].map(f64::from);
                let (a, b) = (read(ahead), read(behind));
                for field in 0..2 {
                    let difference = (a[field] - b[field]) / (2.0 * h);
                    largest = largest.max(difference.abs());
                    assert!(
                        (slope[field] - difference).abs() < 2e-3,
                        "d D{field} / d x{axis} at {p:?}: {} read, {difference} by differences",
                        slope[field]
                    );
                }
            }
        }
        assert!(largest > 0.1, "the sea is steep enough to test: {largest}");
    }

    /// The interpolated displacement at `p`, read one lane at a time.
    fn displacement(frame: &SeaFrame, p: [f64; 2]) -> [f64; 2] {
        let mut taps = [Taps::UNSET; MAX_OCEAN_TILES];
        frame.taps_at(p, &mut taps);
        frame.pairs(Portable, &taps, [SeaField::DisplacementX])[0]
    }
}
