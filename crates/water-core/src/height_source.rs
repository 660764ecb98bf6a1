//! "Where is the water?" at a world position: the one question floating bodies ask.
//!
//! A [`HeightSource`] answers it for any water: a CPU grid (through [`HeightView`]), a snapshot
//! read back from the GPU, water on a sphere (height along the radius, gravity toward the
//! centre), or [`FlatWater`] for tests and still lakes. Outside the water it answers `None`,
//! which a buoyancy probe treats as dry.

use glam::{Vec2, Vec3};

use crate::sample::HeightView;

/// The water surface on the vertical through a world position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceSample {
    /// Where the vertical (along [`SurfaceSample::up`]) through the queried position meets the
    /// surface, world metres.
    pub point: Vec3,
    /// Unit normal of the surface at `point`, pointing out of the water.
    pub normal: Vec3,
    /// Unit vector against gravity at the queried position: `+z` over a grid, radial over a
    /// sphere.
    pub up: Vec3,
}

impl SurfaceSample {
    /// How far `position` lies below the surface along `up`, metres; negative above it.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_core::SurfaceSample;
    /// let s = SurfaceSample { point: Vec3::new(1.0, 2.0, 0.5), normal: Vec3::Z, up: Vec3::Z };
    /// assert_eq!(s.depth_of(Vec3::new(1.0, 2.0, 0.2)), 0.3);
    /// ```
    #[must_use]
    pub fn depth_of(&self, position: Vec3) -> f32 {
        (self.point - position).dot(self.up)
    }

    /// The surface at `height` (m, along `+z`) with unit `normal` on the vertical through
    /// `position`: what every z-up source answers.
    #[must_use]
    pub(crate) fn z_up(position: Vec3, height: f32, normal: Vec3) -> Self {
        Self {
            point: Vec3::new(position.x, position.y, height),
            normal,
            up: Vec3::Z,
        }
    }

    /// The same surface with its point moved by `offset`, metres: an answer in a source's
    /// own frame brought into the frame it is placed in.
    #[must_use]
    pub(crate) fn translated(mut self, offset: Vec3) -> Self {
        self.point += offset;
        self
    }
}

/// The water level on the vertical through a world position, without the normal: what
/// volume integrals need, at less cost than a [`SurfaceSample`] on most sources.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SurfaceLevel {
    /// Where the vertical through the queried position meets the surface, world metres.
    pub point: Vec3,
    /// Unit vector against gravity at the queried position.
    pub up: Vec3,
}

impl SurfaceLevel {
    /// How far `position` lies below the surface along `up`, metres; negative above it.
    #[must_use]
    pub fn depth_of(&self, position: Vec3) -> f32 {
        (self.point - position).dot(self.up)
    }

    /// The level `height` (m, along `+z`) on the vertical through `position`: what every z-up
    /// source answers.
    #[must_use]
    pub(crate) fn z_up(position: Vec3, height: f32) -> Self {
        Self {
            point: Vec3::new(position.x, position.y, height),
            up: Vec3::Z,
        }
    }

    /// [`SurfaceLevel::z_up`] with the height `height(x, y)`, or `None` where `position`'s `x`
    /// or `y` is not finite (a sea's reads give NaN there): the level of a source that covers
    /// the whole plane.
    pub(crate) fn z_up_where_finite(
        position: Vec3,
        height: impl FnOnce(Vec2) -> f32,
    ) -> Option<Self> {
        let horizontal = position.truncate();
        horizontal
            .is_finite()
            .then(|| Self::z_up(position, height(horizontal)))
    }

    /// The same level with its point moved by `offset`, metres: an answer in a source's own
    /// frame brought into the frame it is placed in.
    #[must_use]
    pub(crate) fn translated(mut self, offset: Vec3) -> Self {
        self.point += offset;
        self
    }
}

/// Height and normal of the water at world positions.
pub trait HeightSource {
    /// The surface on the vertical through `position` (metres, world frame), or `None` where
    /// there is no water (outside the grid) and, in this crate's sources, where `position`'s
    /// horizontal coordinates are not finite.
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample>;

    /// As [`HeightSource::surface_at`], without the normal. Sources override it where the
    /// normal costs extra.
    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.surface_at(position).map(|s| SurfaceLevel {
            point: s.point,
            up: s.up,
        })
    }

    /// [`HeightSource::level_at`] at each of `positions`: `out[i]` for `positions[i]`, each
    /// what `level_at` answers there, to the bit. Sources that answer many points at once
    /// faster override it (the ambient sea reads eight points a vector where the CPU has AVX2); a hull asks for all
    /// its vertices at once through it.
    ///
    /// # Panics
    /// If `out` and `positions` differ in length.
    fn levels_at(&self, positions: &[Vec3], out: &mut [Option<SurfaceLevel>]) {
        assert_eq!(positions.len(), out.len(), "one answer per position");
        for (o, p) in out.iter_mut().zip(positions) {
            *o = self.level_at(*p);
        }
    }
}

impl<T: HeightSource + ?Sized> HeightSource for &T {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        (**self).surface_at(position)
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        (**self).level_at(position)
    }

    fn levels_at(&self, positions: &[Vec3], out: &mut [Option<SurfaceLevel>]) {
        (**self).levels_at(positions, out);
    }
}

/// A grid's heights: the grid lies in the `xy` plane with still water at `z = 0` and heights
/// along `+z` (see [`HeightView`]); heights are bilinear, normals from central differences.
impl HeightSource for HeightView<'_> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        let xy = Vec2::new(position.x, position.y);
        let height = self.bilinear(xy)?;
        let normal = self.normal(xy)?;
        Some(SurfaceSample::z_up(position, height, normal))
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        let height = self.bilinear(Vec2::new(position.x, position.y))?;
        Some(SurfaceLevel::z_up(position, height))
    }
}

/// Still water without edges at height `level` (m) along `+z`: everywhere but at a position
/// whose `x` or `y` is not finite.
///
/// ```
/// use glam::Vec3;
/// use water_core::{FlatWater, HeightSource};
/// let lake = FlatWater { level: 0.25 };
/// let s = lake.surface_at(Vec3::new(3.0, -7.0, 0.0)).expect("water everywhere");
/// assert_eq!(s.depth_of(Vec3::new(3.0, -7.0, 0.0)), 0.25);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FlatWater {
    /// Surface height, metres.
    pub level: f32,
}

impl HeightSource for FlatWater {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        position
            .truncate()
            .is_finite()
            .then(|| SurfaceSample::z_up(position, self.level, Vec3::Z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::size::GridSize;

    #[test]
    fn grid_view_answers_inside_and_none_outside() {
        let size = GridSize::new(8, 8).unwrap();
        // A tilted plane z = 0.1 x (world metres, cell size 0.5).
        let heights: Vec<f32> = (0..64)
            .map(|i| 0.1 * ((i % 8) as f32 + 0.5) * 0.5)
            .collect();
        let view = HeightView::new(size, 0.5, &heights).unwrap();
        let s = view.surface_at(Vec3::new(2.0, 2.0, -1.0)).unwrap();
        assert!((s.point.z - 0.2).abs() < 1e-6, "{s:?}");
        assert_eq!(s.up, Vec3::Z);
        let expected = Vec3::new(-0.1, 0.0, 1.0).normalize();
        assert!(s.normal.distance(expected) < 1e-5, "{:?}", s.normal);
        assert!((s.depth_of(Vec3::new(2.0, 2.0, -1.0)) - 1.2).abs() < 1e-6);
        assert_eq!(view.surface_at(Vec3::new(-0.1, 2.0, 0.0)), None);
        assert_eq!(view.surface_at(Vec3::new(2.0, 4.0, 0.0)), None);
        let level = view.level_at(Vec3::new(2.0, 2.0, -1.0)).unwrap();
        assert_eq!((level.point, level.up), (s.point, s.up));
        assert_eq!(view.level_at(Vec3::new(2.0, 4.0, 0.0)), None);
    }
}
