//! Water beyond the edge of a source: still water at rest level, so a body that drifts off a
//! grid floats on a calm sea instead of falling into the void, and says that it did.

use std::cell::Cell;

use glam::Vec3;
use water_core::{HeightSource, SurfaceLevel, SurfaceSample};

use crate::gravity::Gravity;

/// A [`HeightSource`] that answers where `water` does not: outside it, under uniform gravity,
/// the surface is the rest plane through the origin across "up" (`z = 0` for
/// [`Gravity::EARTH`], where a grid's still water lies). Under radial gravity there is no one
/// rest plane, so there it stays without water (dry), as the source says. Nor is there water
/// at a position that is not finite.
///
/// Whether it had to answer in the source's place is remembered ([`StillWaterOutside::off_water`]),
/// for [`crate::BodyStep::off_water`].
///
/// ```
/// use glam::Vec3;
/// use water_buoyancy::{Gravity, StillWaterOutside};
/// use water_core::{GridSize, HeightSource, HeightView};
/// let heights = vec![0.5; 16];
/// let grid = HeightView::new(GridSize::new(4, 4)?, 1.0, &heights)?; // 4 m x 4 m, raised 0.5 m
/// let water = StillWaterOutside::new(&grid, &Gravity::EARTH);
/// assert_eq!(water.level_at(Vec3::new(2.0, 2.0, 3.0)).unwrap().point.z, 0.5);
/// assert!(!water.off_water());
/// assert_eq!(water.level_at(Vec3::new(9.0, 2.0, 3.0)).unwrap().point, Vec3::new(9.0, 2.0, 0.0));
/// assert!(water.off_water());
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug)]
pub struct StillWaterOutside<'a, S: HeightSource + ?Sized> {
    water: &'a S,
    up: Option<Vec3>,
    off: Cell<bool>,
}

impl<'a, S: HeightSource + ?Sized> StillWaterOutside<'a, S> {
    /// `water`, with still water at rest level beyond it under `gravity`.
    #[must_use]
    pub fn new(water: &'a S, gravity: &Gravity) -> Self {
        let up = match *gravity {
            Gravity::Uniform(g) => (-g).try_normalize(),
            Gravity::Radial { .. } => None,
        };
        Self {
            water,
            up,
            off: Cell::new(false),
        }
    }

    /// Whether any query so far fell outside `water`.
    #[must_use]
    pub fn off_water(&self) -> bool {
        self.off.get()
    }

    /// The rest plane's point on the vertical through `position`.
    fn rest(&self, position: Vec3) -> Option<(Vec3, Vec3)> {
        // A position that is not finite has no rest plane's point either.
        if !position.is_finite() {
            return None;
        }
        self.off.set(true);
        self.up.map(|up| (position - up * position.dot(up), up))
    }
}

impl<S: HeightSource + ?Sized> HeightSource for StillWaterOutside<'_, S> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        self.water.surface_at(position).or_else(|| {
            self.rest(position).map(|(point, up)| SurfaceSample {
                point,
                normal: up,
                up,
            })
        })
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.water.level_at(position).or_else(|| {
            self.rest(position)
                .map(|(point, up)| SurfaceLevel { point, up })
        })
    }

    fn levels_at(&self, positions: &[Vec3], out: &mut [Option<SurfaceLevel>]) {
        self.water.levels_at(positions, out);
        for (o, p) in out.iter_mut().zip(positions) {
            if o.is_none() {
                *o = self.rest(*p).map(|(point, up)| SurfaceLevel { point, up });
            }
        }
    }
}
