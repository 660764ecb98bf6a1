//! [`SeaWithWater`]: the surface a user sees and bodies float on, the ambient sea plus the
//! interactive water (linear superposition: the sea does not feed the simulation).

use glam::{Vec2, Vec3};

use crate::height_source::{HeightSource, SurfaceLevel, SurfaceSample};
use crate::ocean::sea_frame::SeaFrame;

/// The ambient sea at one time plus interactive grid water (any z-up [`HeightSource`]). Where
/// the interactive water has no answer (beyond its grid) the surface is the sea alone: a sea
/// without end, so a body never leaves the water sideways. A position whose `x` or `y` is not
/// finite has no surface: `None` (the sea's reads would give NaN there).
///
/// ```
/// use glam::Vec3;
/// use water_core::ocean::{AmbientSea, SeaWithWater};
/// use water_core::{FlatWater, HeightSource};
/// let sea = AmbientSea::regular_wave(0.5, 40.0, 9.81, None, 0.0)?;
/// let frame = sea.frame(0.0);
/// let pond = FlatWater { level: 0.25 };
/// let sum = SeaWithWater::new(&frame, &pond);
/// // At x = 0 the wave's crest (0.5 m) stands on the pond's 0.25 m.
/// let z = sum.surface_at(Vec3::ZERO).expect("water").point.z;
/// assert!((z - 0.75).abs() < 1e-4);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SeaWithWater<'a, W: ?Sized> {
    sea: &'a SeaFrame,
    water: &'a W,
}

impl<'a, W: HeightSource + ?Sized> SeaWithWater<'a, W> {
    /// The sum of `sea` and `water`.
    #[must_use]
    pub fn new(sea: &'a SeaFrame, water: &'a W) -> Self {
        Self { sea, water }
    }

    /// The summed height (m) at the fixed world point `p`.
    #[must_use]
    pub fn height(&self, p: Vec2) -> f32 {
        let interactive = self
            .water
            .level_at(p.extend(0.0))
            .map_or(0.0, |l| l.point.z);
        self.sea.height(p) + interactive
    }
}

/// The slope `(dz/dx, dz/dy)` of a z-up surface with unit normal `n`.
fn slope(n: Vec3) -> Vec2 {
    Vec2::new(-n.x, -n.y) / n.z.max(1e-6)
}

impl<W: HeightSource + ?Sized> HeightSource for SeaWithWater<'_, W> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        if !position.truncate().is_finite() {
            return None;
        }
        let s = self.sea.sample(position.truncate());
        let (z, normal) = match self.water.surface_at(position) {
            Some(w) => {
                let g = slope(s.normal) + slope(w.normal);
                (s.height + w.point.z, Vec3::new(-g.x, -g.y, 1.0).normalize())
            }
            None => (s.height, s.normal),
        };
        Some(SurfaceSample::z_up(position, z, normal))
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        SurfaceLevel::z_up_where_finite(position, |p| self.height(p))
    }

    /// The sea's heights as one batch and the water's levels as one, added as
    /// [`SeaWithWater::height`] adds them (the same bits as one at a time).
    fn levels_at(&self, positions: &[Vec3], out: &mut [Option<SurfaceLevel>]) {
        assert_eq!(positions.len(), out.len(), "one answer per position");
        let (points, sea) = self.sea.heights_under(positions);
        let on_still_level: Vec<Vec3> = points.iter().map(|p| p.extend(0.0)).collect();
        self.water.levels_at(&on_still_level, out);
        for ((o, p), sea) in out.iter_mut().zip(positions).zip(sea) {
            let interactive = o.map_or(0.0, |l| l.point.z);
            *o = p
                .truncate()
                .is_finite()
                .then(|| SurfaceLevel::z_up(*p, sea + interactive));
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::SeaWithWater;
    use crate::height_source::{FlatWater, HeightSource, SurfaceLevel};
    use crate::ocean::AmbientSea;

    #[test]
    fn a_position_that_is_not_finite_has_no_surface_on_the_sea_or_the_sum() {
        // The sea's reads give NaN there: no answer at all, rather than a surface point of NaN
        // (which a game would then draw or float a body on).
        for choppiness in [0.0, 0.8] {
            let sea = AmbientSea::regular_wave(0.5, 40.0, 9.81, None, choppiness).expect("sea");
            not_finite_has_no_surface(&sea);
        }
    }

    /// [`a_position_that_is_not_finite_has_no_surface_on_the_sea_or_the_sum`] on `sea`.
    fn not_finite_has_no_surface(sea: &AmbientSea) {
        let frame = sea.frame(1.0);
        let pond = FlatWater { level: 0.25 };
        let sum = SeaWithWater::new(&frame, &pond);
        let bad = [
            Vec3::new(f32::NAN, 0.0, 0.0),
            Vec3::new(0.0, f32::INFINITY, 0.0),
            Vec3::new(f32::NEG_INFINITY, f32::NAN, 1.0),
        ];
        let good = Vec3::new(3.0, -2.0, 0.0);
        let sources: [&dyn HeightSource; 3] = [&frame, &sum, &pond];
        for source in sources {
            for p in bad {
                assert_eq!(source.surface_at(p), None, "at {p}");
                assert_eq!(source.level_at(p), None, "at {p}");
            }
            let mut many: Vec<Vec3> = bad.to_vec();
            many.push(good);
            // Past the batch's own length for eight lanes at a time.
            many.extend(std::iter::repeat_n(bad[0], 9));
            let mut out = vec![None; many.len()];
            source.levels_at(&many, &mut out);
            for (p, o) in many.iter().zip(&out) {
                let expected: Option<SurfaceLevel> = source.level_at(*p);
                assert_eq!(*o, expected, "at {p}");
            }
            let found = out[bad.len()].expect("water at a finite point");
            assert!(found.point.z.is_finite());
            assert!(source.surface_at(good).is_some());
        }
    }
}
