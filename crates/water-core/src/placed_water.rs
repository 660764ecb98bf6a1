//! [`PlacedWater`]: a grid's water placed in the world, its corner at an origin.
//!
//! A grid answers for its own frame, `[0, W h) x [0, H h)`; a grid that follows a boat
//! ([`crate::FollowingWindow`]) has its corner somewhere else in the world. Bodies, queries and
//! the ambient sea all speak world metres, so the grid is asked through this adapter: the
//! position goes into the grid's frame, the answer comes back into the world's.

use glam::{Vec2, Vec3};

use crate::height_source::{HeightSource, SurfaceLevel, SurfaceSample};

/// `water` (a [`HeightSource`] in its own frame) with its corner at `origin` (world metres):
/// the surface at world `p` is the water's at `p - origin`, moved back by `origin`.
///
/// At origin zero every answer is the water's own, to the bit. Positions are f32: a world
/// position `x` metres from the world's origin is good to about `x * 6e-8` metres.
///
/// ```
/// use glam::{Vec2, Vec3};
/// use water_core::{GridSize, HeightSource, HeightView, PlacedWater};
/// let size = GridSize::new(4, 4)?;
/// let heights: Vec<f32> = (0..16).map(|i| (i % 4) as f32 * 0.1).collect(); // z = 0.1 x
/// let view = HeightView::new(size, 1.0, &heights)?;
/// // The grid's corner at (100, 50) m: its cell (1, 0) is centred at (101.5, 50.5) m.
/// let placed = PlacedWater::new(&view, Vec2::new(100.0, 50.0));
/// let s = placed.surface_at(Vec3::new(101.5, 50.5, 0.0)).expect("on the grid");
/// assert_eq!(s.point, Vec3::new(101.5, 50.5, 0.1));
/// assert!(placed.surface_at(Vec3::new(1.5, 0.5, 0.0)).is_none()); // the grid is not there
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct PlacedWater<'a, W: ?Sized> {
    water: &'a W,
    origin: Vec3,
}

impl<'a, W: HeightSource + ?Sized> PlacedWater<'a, W> {
    /// `water` with its corner at `origin` (world metres, horizontal).
    #[must_use]
    pub fn new(water: &'a W, origin: Vec2) -> Self {
        Self {
            water,
            origin: origin.extend(0.0),
        }
    }

    /// Where the water's corner is, world metres.
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin.truncate()
    }
}

impl<W: HeightSource + ?Sized> HeightSource for PlacedWater<'_, W> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        self.water
            .surface_at(position - self.origin)
            .map(|s| s.translated(self.origin))
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.water
            .level_at(position - self.origin)
            .map(|l| l.translated(self.origin))
    }
}
