//! [`WaterPlacement`]: where a water surface lies in the Bevy world, and the conversions between
//! world points and the scene's y-up frame and grid cells.
//!
//! The scene (`water_scene::Scene` with `UpAxis::Y`) takes y-up points whose grid covers x in
//! `[0, W h)` and z in `(-H h, 0]`; the plugin shifts world points by the water's north-west
//! corner so users give world positions and never convert.

use bevy::prelude::*;

/// Where a water surface lies: its north-west corner and its size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterPlacement {
    /// The world point at the grid's corner `(x, row) = (0, 0)` edge, at still-water level.
    pub corner: Vec3,
    /// Cell size, metres.
    pub cell_size: f32,
    /// Cells along x.
    pub width: usize,
    /// Cells along z.
    pub height: usize,
}

impl WaterPlacement {
    /// A `width` x `height` grid of `cell_size` centred on `centre` (still water at its y).
    #[must_use]
    pub fn centred(centre: Vec3, cell_size: f32, width: usize, height: usize) -> Self {
        let extent = Vec2::new(width as f32, height as f32) * cell_size;
        Self {
            corner: centre + Vec3::new(-extent.x / 2.0, 0.0, extent.y / 2.0),
            cell_size,
            width,
            height,
        }
    }

    /// A world point in the scene's y-up frame.
    #[must_use]
    pub fn to_scene(&self, world: Vec3) -> Vec3 {
        world - self.corner
    }

    /// A point of the scene's y-up frame in the world.
    #[must_use]
    pub fn to_world(&self, scene: Vec3) -> Vec3 {
        scene + self.corner
    }

    /// The grid coordinates (cells; cell `(x, row)` is centred at `(x, row)`) under a world
    /// point, as impulses take them.
    #[must_use]
    pub fn to_cells(&self, world: Vec3) -> Vec2 {
        let s = self.to_scene(world);
        Vec2::new(s.x, -s.z) / self.cell_size - Vec2::splat(0.5)
    }

    /// Whether a world point lies over the grid.
    #[must_use]
    pub fn covers(&self, world: Vec3) -> bool {
        let s = self.to_scene(world);
        let extent = Vec2::new(self.width as f32, self.height as f32) * self.cell_size;
        (0.0..extent.x).contains(&s.x) && (0.0..extent.y).contains(&-s.z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_is_the_middle_cell_and_corners_are_cell_edges() {
        let p = WaterPlacement::centred(Vec3::new(10.0, 2.0, -4.0), 0.5, 8, 4);
        assert_eq!(p.corner, Vec3::new(8.0, 2.0, -3.0));
        // The centre of the grid lies between cells 3 and 4 along x, 1 and 2 along rows.
        assert_eq!(p.to_cells(Vec3::new(10.0, 2.0, -4.0)), Vec2::new(3.5, 1.5));
        // Cell (0, 0) is centred half a cell in from the corner, toward +x and -z.
        assert_eq!(p.to_cells(Vec3::new(8.25, 0.0, -3.25)), Vec2::ZERO);
        assert!(p.covers(Vec3::new(8.01, 0.0, -3.01)));
        assert!(!p.covers(Vec3::new(7.99, 0.0, -3.01)));
        assert!(!p.covers(Vec3::new(8.01, 0.0, -2.99)));
        assert!(!p.covers(Vec3::new(12.01, 0.0, -4.0)));
        let w = Vec3::new(9.0, 1.0, -5.0);
        assert_eq!(p.to_world(p.to_scene(w)), w);
    }
}
