//! The sea's Jacobian under many fixed points ([`SeaFrame::jacobians_into`]): what foam asks
//! of every cell each step. The inversions run as the heights' do
//! ([`SeaFrame::heights_into`]), and each point's Jacobian comes from its inversion's last read
//! (at the point found, or a landing step before it: [`SeaFrame::landing_step`]): the
//! interpolated displacement's own gradient there, which the Newton steps use too, so it costs
//! no read of its own (only a point that stops unconverged, after
//! [`super::MAX_INVERSION_ITERATIONS`], takes one).

use glam::Vec2;

#[cfg(target_arch = "x86_64")]
use super::LANES;
use super::{displaced_jacobian, Inversion, PointQuery, SeaFrame};
use crate::ocean::tile_taps::Lanes;
#[cfg(target_arch = "x86_64")]
use crate::ocean::tile_taps_x86::Avx2;

impl SeaFrame {
    /// The Jacobian `det(I + grad D)` of the horizontal displacement under each of many fixed
    /// world points: `out[i]` for `points[i]`, the same bits as [`super::SeaSample::jacobian`] of
    /// [`SeaFrame::samples_into`] (1 on a sea without choppiness), without the height, normal
    /// and velocity reads it skips: what foam asks of every cell each step. `grad D` is the
    /// interpolated displacement's own gradient at the inversion's last read (the undisplaced
    /// point found, or one Newton step shorter than [`SeaFrame::landing_step`] before it; the
    /// Catmull-Rom weights' derivatives on `D`'s samples, as the Newton steps take it), not the
    /// synthesised gradient planes read between their samples: the two differ by the
    /// interpolation's error (`docs/math.md` section 16).
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn jacobians_into(&self, points: &[Vec2], out: &mut [f32]) {
        self.batch::<JacobianQuery>(points, out);
    }

    /// [`SeaFrame::jacobians_into`] at one point, read through `lanes`.
    #[inline(always)]
    fn jacobian_with<L: Lanes>(&self, lanes: L, p: Vec2) -> f32 {
        let found = self.invert(lanes, [f64::from(p.x), f64::from(p.y)]);
        self.found_jacobian(lanes, &found)
    }

    /// The Jacobian where an inversion ended: from its last read where it converged or landed,
    /// else (a sea without choppiness aside) from a read at the point it stopped at.
    #[inline(always)]
    pub(super) fn found_jacobian<L: Lanes>(&self, lanes: L, found: &Inversion) -> f32 {
        if !self.choppy {
            return 1.0;
        }
        found
            .jacobian
            .unwrap_or_else(|| self.jacobian_at_x0(lanes, found.x0))
    }

    /// The Jacobian's determinant at the undisplaced point `x0`, from a read of the
    /// displacement there.
    #[inline(always)]
    fn jacobian_at_x0<L: Lanes>(&self, lanes: L, x0: [f64; 2]) -> f32 {
        let read = lanes
            .displacement_read(&self.tiles, x0)
            .map(|pair| pair.map(f64::from));
        displaced_jacobian(read)
    }

    /// The Jacobians at `points`, their inversions eight at a time in AVX2 vectors as
    /// [`SeaFrame::heights_into`] takes them (the same `x0`, bit for bit), each Jacobian from
    /// its lane's last read (a lane that stopped unconverged reads its own).
    #[cfg(target_arch = "x86_64")]
    fn jacobians_avx2(&self, avx2: Avx2, points: &[Vec2], out: &mut [f32]) {
        if !self.choppy {
            out.fill(1.0);
            return;
        }
        let whole = points.len() / LANES * LANES;
        let (head, tail) = (&points[..whole], &mut out[..whole]);
        self.inverted_groups_avx2(avx2, head, tail, |x0, jacobians| {
            std::array::from_fn(|i| {
                jacobians[i].unwrap_or_else(|| self.jacobian_at_x0(avx2, x0[i]))
            })
        });
        for (o, p) in out[whole..].iter_mut().zip(&points[whole..]) {
            *o = self.jacobian_with(avx2, *p);
        }
    }
}

/// The Jacobian under each point ([`SeaFrame::jacobians_into`]).
struct JacobianQuery;

point_query!(JacobianQuery, f32, jacobian_with, jacobians_avx2);

#[cfg(test)]
mod tests {
    use super::super::tests::{choppy_frame, points};
    use crate::ocean::tile_taps::{Portable, Taps};
    use crate::ocean::tiling::MAX_OCEAN_TILES;

    #[test]
    fn the_foams_jacobian_is_the_synthesised_gradients_within_the_interpolations_error() {
        // Foam's Jacobian is the interpolated displacement's own (the inversion's last read);
        // `SeaSample`'s normal uses the synthesised gradient planes read
        // between their samples. Catmull-Rom's derivative of a cosine at 8 samples a wavelength
        // (each tile's shortest waves) is off by up to a tenth of its slope, its value by
        // 0.84%; the longer waves, which carry most of the slope, much less: the two Jacobians
        // differ by a few percent of J - 1 (1.8% RMS seen, 3% allowed; with the off-diagonal
        // product's sign flipped, 4.3%).
        let frame = choppy_frame();
        let points = points(&frame);
        let mut displaced = vec![0.0; points.len()];
        frame.jacobians_into(&points, &mut displaced);
        let (mut worst, mut difference, mut spread) = (0.0f64, 0.0f64, 0.0f64);
        let mut moved = 0.0f64;
        for (p, d) in points.iter().zip(&displaced) {
            let found = frame.invert(Portable, [f64::from(p.x), f64::from(p.y)]);
            let x0 = found.x0;
            // The interpolant's own gradient where the inversion read last, to the bit: at the
            // point found, or one Newton step under the landing step before it; where the
            // inversion stopped unconverged, a read of its own at the point it stopped at.
            let read_at = if found.jacobian.is_some() {
                found.last_read
            } else {
                x0
            };
            let own = frame.jacobian_at_x0(Portable, read_at);
            assert_eq!(d.to_bits(), own.to_bits(), "the Jacobian at {p}");
            let step = (x0[0] - read_at[0]).hypot(x0[1] - read_at[1]);
            assert!(
                step < frame.landing_step(),
                "read last {step} m from the point found"
            );
            moved = moved.max(f64::from(own - frame.jacobian_at_x0(Portable, x0)).abs());
            let mut taps = [Taps::UNSET; MAX_OCEAN_TILES];
            frame.taps_at(x0, &mut taps);
            let j = frame.jacobian(Portable, &taps);
            let synthesised = j[0] * j[2] - j[1] * j[1];
            let e = f64::from(*d) - synthesised;
            worst = worst.max(e.abs());
            difference += e * e;
            spread += (synthesised - 1.0) * (synthesised - 1.0);
        }
        let ratio = (difference / spread).sqrt();
        eprintln!("worst difference {worst:.4}, RMS {ratio:.4} of the RMS of J - 1");
        assert!(
            spread.sqrt() / (points.len() as f64).sqrt() > 0.05,
            "a choppy sea"
        );
        assert!(
            ratio < 0.03,
            "the Jacobians differ by {ratio} of J - 1's RMS"
        );
        assert!(worst < 0.02, "the Jacobians differ by {worst} at most");
        // Read a landing step before the point found, the Jacobian is off by that step times
        // its gradient (4.3e-4 at most seen, 2e-3 allowed).
        eprintln!("the Jacobian at the last read and at the point found differ by {moved:.2e}");
        assert!(
            moved < 2e-3,
            "{moved} between the last read's Jacobian and the point's"
        );
    }
}
