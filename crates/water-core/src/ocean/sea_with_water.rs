//! [`SeaWithWater`]: the surface a user sees and bodies float on, the ambient sea plus the
//! interactive water (linear superposition: the sea does not feed the simulation).

use glam::{Vec2, Vec3};

use crate::height_source::{HeightSource, SurfaceLevel, SurfaceSample};
use crate::ocean::sea_frame::SeaFrame;

/// The ambient sea at one time plus interactive grid water (any z-up [`HeightSource`]). Where
/// the interactive water has no answer (beyond its grid) the surface is the sea alone: a sea
/// without end, so a body never leaves the water sideways.
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
        let height = self.height(position.truncate());
        Some(SurfaceLevel::z_up(position, height))
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
            *o = Some(SurfaceLevel::z_up(*p, sea + interactive));
        }
    }
}
