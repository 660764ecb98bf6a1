//! The land of a cascade: the scene's land (world cells of the finest grid) seen through a
//! coarser grid. A coarse cell is land where any finest cell under it is, so no wave passes
//! through land at any level (a wall one fine cell thick stays a wall); what it loses is water
//! narrower than a coarse cell (a channel, a gap in a breakwater), which the coarse grid closes
//! (`docs/math.md`, section 17).

use glam::I64Vec2;
use water_core::{GridSize, LandMask};

use crate::error::SceneError;

/// The land of a grid of `size` cells, each `scale` finest cells wide, its corner at coarse cell
/// `origin` of the world: a cell is land where any cell of `world` under it is. `world` covers
/// the finest cells `[0, W) x [0, H)`; the world beyond it is water.
///
/// # Errors
/// None for a `size` the scene made (the mask's own size check).
pub(super) fn coarse_land(
    world: &LandMask,
    origin: I64Vec2,
    scale: i64,
    size: GridSize,
) -> Result<LandMask, SceneError> {
    let (w, h) = (size.width() as i64, size.height() as i64);
    let mut cells = vec![false; size.cells()];
    let world_width = world.size().width();
    // Over the world's land cells (at most the finest grid's count), not the coarse cells'
    // scale^2 fine cells each.
    for (i, _) in world.cells().iter().enumerate().filter(|(_, &dry)| dry) {
        let fine = I64Vec2::new((i % world_width) as i64, (i / world_width) as i64);
        let coarse = fine.div_euclid(I64Vec2::splat(scale)) - origin;
        if (0..w).contains(&coarse.x) && (0..h).contains(&coarse.y) {
            cells[(coarse.y * w + coarse.x) as usize] = true;
        }
    }
    Ok(LandMask::from_cells(size, cells)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coarse_cell_is_land_where_any_fine_cell_under_it_is() {
        let fine = GridSize::new(8, 8).expect("size");
        // One land cell at (5, 2), and a wall one cell thick along x = 7.
        let world = LandMask::from_cells(
            fine,
            (0..64).map(|i| i == 2 * 8 + 5 || i % 8 == 7).collect(),
        )
        .expect("land");
        let coarse = GridSize::new(4, 4).expect("size");
        // Coarse cells of 2 fine cells, the corner at coarse (1, -1): coarse (cx, cy) covers
        // fine x in [2 (cx + 1), 2 (cx + 1) + 2), y in [2 (cy - 1), ...).
        let land = coarse_land(&world, I64Vec2::new(1, -1), 2, coarse).expect("coarse");
        let dry: Vec<(usize, usize)> = (0..4)
            .flat_map(|y| (0..4).map(move |x| (x, y)))
            .filter(|&(x, y)| land.is_land(x, y))
            .collect();
        // (5, 2) -> coarse (2, 1) - (1, -1) = (1, 2); the wall x = 7 -> coarse x 3 - 1 = 2,
        // at fine y 0..8 -> coarse y 0..4 + 1 = 1..5 (1..4 inside the grid).
        assert_eq!(dry, vec![(2, 1), (1, 2), (2, 2), (2, 3)]);
    }
}
