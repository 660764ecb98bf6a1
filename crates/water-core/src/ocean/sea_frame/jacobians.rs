//! The sea's Jacobian under many fixed points ([`SeaFrame::jacobians_into`]): what foam asks
//! of every cell each step. The inversions run as the heights' do
//! ([`SeaFrame::heights_into`]), the Jacobian is then read at each point's own `x0`.

use glam::Vec2;

#[cfg(target_arch = "x86_64")]
use super::LANES;
use super::{PointQuery, SeaFrame};
use crate::ocean::tile_taps::{Lanes, Taps};
#[cfg(target_arch = "x86_64")]
use crate::ocean::tile_taps_x86::Avx2;
use crate::ocean::tiling::MAX_OCEAN_TILES;

impl SeaFrame {
    /// The Jacobian `det(I + grad D)` of the horizontal displacement under each of many fixed
    /// world points: `out[i]` for `points[i]`, the same bits as [`super::SeaSample::jacobian`] of
    /// [`SeaFrame::samples_into`] (1 on a sea without choppiness), without the height, normal
    /// and velocity reads it skips: what foam asks of every cell each step.
    ///
    /// # Panics
    /// If `out` and `points` differ in length.
    pub fn jacobians_into(&self, points: &[Vec2], out: &mut [f32]) {
        self.batch::<JacobianQuery>(points, out);
    }

    /// [`SeaFrame::jacobians_into`] at one point, read through `lanes`.
    #[inline(always)]
    fn jacobian_with<L: Lanes>(&self, lanes: L, p: Vec2) -> f32 {
        if !self.choppy {
            return 1.0;
        }
        let x0 = self.invert(lanes, [f64::from(p.x), f64::from(p.y)]).x0;
        self.jacobian_at_x0(lanes, x0)
    }

    /// The Jacobian's determinant at the undisplaced point `x0`.
    #[inline(always)]
    fn jacobian_at_x0<L: Lanes>(&self, lanes: L, x0: [f64; 2]) -> f32 {
        let mut taps = [Taps::UNSET; MAX_OCEAN_TILES];
        self.taps_at(x0, &mut taps);
        let j = self.jacobian(lanes, &taps);
        (j[0] * j[2] - j[1] * j[1]) as f32
    }

    /// The Jacobians at `points`, their inversions eight at a time in AVX2 vectors as
    /// [`SeaFrame::heights_into`] takes them (the same `x0`, bit for bit), each Jacobian then
    /// read at its own `x0`.
    #[cfg(target_arch = "x86_64")]
    fn jacobians_avx2(&self, avx2: Avx2, points: &[Vec2], out: &mut [f32]) {
        if !self.choppy {
            out.fill(1.0);
            return;
        }
        let whole = points.len() / LANES * LANES;
        self.inverted_groups_avx2(avx2, &points[..whole], &mut out[..whole], |x0, _, live| {
            std::array::from_fn(|i| {
                if live[i] {
                    0.0
                } else {
                    self.jacobian_at_x0(avx2, x0[i])
                }
            })
        });
        for (o, p) in out[whole..].iter_mut().zip(&points[whole..]) {
            *o = self.jacobian_with(avx2, *p);
        }
    }
}

/// The Jacobian under each point ([`SeaFrame::jacobians_into`]).
struct JacobianQuery;

impl PointQuery for JacobianQuery {
    type Answer = f32;
    #[inline(always)]
    fn at<L: Lanes>(frame: &SeaFrame, lanes: L, p: Vec2) -> f32 {
        frame.jacobian_with(lanes, p)
    }

    #[cfg(target_arch = "x86_64")]
    fn serial_avx2(frame: &SeaFrame, avx2: Avx2, points: &[Vec2], out: &mut [f32]) {
        frame.jacobians_avx2(avx2, points, out);
    }
}
