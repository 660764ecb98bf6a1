//! [`HeightPatches`]: patches of one grid's heights at one step, each a [`HeightView`] that
//! samples as the whole grid would inside it. What a floating body or a point query needs from
//! the water, at a fraction of the field: the GPU backends read back only these
//! (`water_gpu::PatchReader`), the CPU gathers the same from its own grid
//! ([`HeightPatches::gather`]). GPU twin: `shaders/gather_patches.wgsl`.

use crate::cell_rect::CellRect;
use crate::error::{Result, WaterError};
use crate::sample::HeightView;
use crate::size::GridSize;

/// Heights of some rectangles of a grid's cells after `step` steps, packed one rectangle after
/// another (each row-major).
#[derive(Debug, Clone, PartialEq)]
pub struct HeightPatches {
    size: GridSize,
    cell_size: f32,
    step: u64,
    rects: Vec<CellRect>,
    /// Where each rectangle's heights start in `heights`; one more entry at the end.
    starts: Vec<usize>,
    heights: Vec<f32>,
}

impl HeightPatches {
    /// Copies the cells of `rects` out of `view` (the whole grid), water after `step` steps.
    ///
    /// # Errors
    /// [`WaterError::RectOutsideGrid`] for a rectangle not inside the grid.
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_core::{CellRect, GridSize, HeightPatches, HeightSource, HeightView};
    /// let size = GridSize::new(16, 16)?;
    /// let heights: Vec<f32> = (0..256).map(|i| (i as f32 * 0.37).sin() * 0.1).collect();
    /// let whole = HeightView::new(size, 0.5, &heights)?;
    /// let centre = glam::Vec2::new(3.0, 4.0);
    /// let rect = CellRect::around(size, 0.5, centre, 1.0);
    /// let patches = HeightPatches::gather(&whole, vec![rect], 7)?;
    /// let p = Vec3::new(3.6, 3.3, 0.0);
    /// assert_eq!(patches.view(0).surface_at(p), whole.surface_at(p));
    /// assert_eq!(patches.step(), 7);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn gather(view: &HeightView<'_>, rects: Vec<CellRect>, step: u64) -> Result<Self> {
        let size = view.size();
        let mut heights = Vec::with_capacity(rects.iter().map(CellRect::cells).sum());
        for rect in &rects {
            rect.check_inside(size)?;
            for y in rect.y0..rect.y0 + rect.height {
                for x in rect.x0..rect.x0 + rect.width {
                    heights.push(view.cell(x, y));
                }
            }
        }
        Self::from_parts(size, view.cell_size(), step, rects, heights)
    }

    /// Patches from their parts: `heights` holds each rectangle's cells in turn, row-major.
    ///
    /// # Errors
    /// [`WaterError::RectOutsideGrid`] for a rectangle not inside the grid;
    /// [`WaterError::SizeMismatch`] if `heights` is not as long as the rectangles' cells;
    /// a bad `cell_size` as [`HeightView::new`].
    pub fn from_parts(
        size: GridSize,
        cell_size: f32,
        step: u64,
        rects: Vec<CellRect>,
        heights: Vec<f32>,
    ) -> Result<Self> {
        crate::error::positive("cell_size", f64::from(cell_size))?;
        let mut starts = Vec::with_capacity(rects.len() + 1);
        let mut total = 0usize;
        for rect in &rects {
            rect.check_inside(size)?;
            starts.push(total);
            total += rect.cells();
        }
        starts.push(total);
        if heights.len() != total {
            return Err(WaterError::SizeMismatch {
                what: "height patches",
                width: total,
                height: 1,
                expected: total,
                actual: heights.len(),
            });
        }
        Ok(Self {
            size,
            cell_size,
            step,
            rects,
            starts,
            heights,
        })
    }

    /// Steps the water had taken when these heights were its current ones.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The grid's size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Number of patches.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rects.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rects.is_empty()
    }

    /// The rectangles, in order.
    #[must_use]
    pub fn rects(&self) -> &[CellRect] {
        &self.rects
    }

    /// All heights, each rectangle's in turn (what the GPU reads back).
    #[must_use]
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// Patch `index` as a sampling view of the grid.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[must_use]
    pub fn view(&self, index: usize) -> HeightView<'_> {
        let cells = &self.heights[self.starts[index]..self.starts[index + 1]];
        HeightView::patch(self.size, self.cell_size, self.rects[index], cells)
            .expect("checked when the patches were made")
    }
}

#[cfg(test)]
mod tests {
    use glam::{Vec2, Vec3};

    use super::*;
    use crate::height_source::HeightSource;

    /// A patch around a disc answers every query within the disc exactly as the whole grid:
    /// heights, normals (central differences at the rim included), off-grid `None`s.
    #[test]
    fn a_patch_samples_as_the_whole_grid_anywhere_within_its_disc() {
        let size = GridSize::new(40, 24).expect("size");
        let cell = 0.25;
        let heights: Vec<f32> = (0..size.cells())
            .map(|i| ((i as f32) * 0.731).sin() * 0.2 + ((i / 40) as f32 * 0.3).cos() * 0.1)
            .collect();
        let whole = HeightView::new(size, cell, &heights).expect("view");
        let discs = [
            (Vec2::new(5.0, 3.0), 1.2),
            (Vec2::new(0.1, 0.1), 0.8),  // at a corner: clipped
            (Vec2::new(9.9, 5.9), 0.5),  // at the far corner
            (Vec2::new(-0.4, 3.0), 0.6), // half off the grid
        ];
        let rects = discs
            .iter()
            .map(|&(c, r)| CellRect::around(size, cell, c, r))
            .collect();
        let patches = HeightPatches::gather(&whole, rects, 3).expect("gather");
        let mut compared = 0;
        for (i, &(centre, radius)) in discs.iter().enumerate() {
            let view = patches.view(i);
            for k in 0..400 {
                let a = k as f32 * 2.399_963;
                let r = radius * ((k as f32 + 0.5) / 400.0).sqrt();
                let p = centre + Vec2::new(a.cos(), a.sin()) * r;
                let q = Vec3::new(p.x, p.y, 0.0);
                assert_eq!(view.surface_at(q), whole.surface_at(q), "patch {i} at {p}");
                compared += usize::from(whole.surface_at(q).is_some());
            }
        }
        assert!(compared > 600, "most points are on the grid: {compared}");
    }
}
