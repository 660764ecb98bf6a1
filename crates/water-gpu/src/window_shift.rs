//! Moving GPU grid water by whole cells ([`GpuGridWater::encode_shift_window`]) as
//! [`water_core::GridWater::shift_window`] moves a CPU grid: new cell `(x, y)` takes old cell
//! `(x + dx, y + dy)` in both levels, cells that come in are still water, the land moves with
//! the water (a depth's dry cells with it), a fixed rim (classic mode's too) is held at 0, and
//! behind Mur's absorbing edges the old edge cells that land inside come in still
//! ([`water_core::clear_rim_moved_inside`]).
//!
//! Both rings move alike, with one spare slot: the previous level is written moved into the
//! spare, then the current level moved over the old previous slot (read by then), and the slots
//! change roles ([`crate::time_levels::TimeLevels::after_shift`]). The compute backend moves
//! its stored words with `shaders/shift_window.wgsl` (f16 cells re-paired for odd shifts); the
//! fragment backend clears the target texture, copies the rectangle of cells that stay,
//! [`WindowShift::kept`], and writes still water over [`WindowShift::cleared`]. Both are recorded into the caller's encoder, the new land through a
//! staging copy, so a shift lands in order with the steps around it.

use water_core::{Boundary, GridMode, GridSize, LandMask};

use crate::depth_faces::LandParts;
use crate::error::GpuError;
use crate::spec::GridSpec;
use crate::time_levels::TimeLevels;
#[cfg(doc)]
use crate::GpuGridWater;

/// One shift of a grid, in the numbers both backends use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WindowShift {
    /// Cells, clamped to the grid's width (a shift of a whole side or more brings in only
    /// still water, as one of exactly a side does).
    pub dx: i32,
    /// Cells, clamped to the grid's height.
    pub dy: i32,
    /// What happens to the rim.
    pub rim: RimRule,
}

/// What a shift does to the grid's rim; the numbers are `shaders/shift_window.wgsl`'s `rim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum RimRule {
    /// The rim moves with the water, like every other cell (reflective, periodic edges).
    Moves = 0,
    /// The rim is held at 0: a fixed boundary, or classic mode (whose CPU grid zeroes its rim
    /// after a shift, `water_core::ClassicGrid`).
    Fixed = 1,
    /// Mur's absorbing edges (the wave model's): an old edge cell that lands inside comes in
    /// still.
    Absorbing = 2,
}

/// What a backend does for one shift, in the order it records it.
pub(crate) struct ShiftPlan {
    /// The shift itself.
    pub shift: WindowShift,
    /// `(from, to)` slots: the previous level into the spare, then the current level over the
    /// old previous slot. Record both, then call [`TimeLevels::after_shift`].
    pub moves: [(usize, usize); 2],
    /// The land after the shift.
    pub land: LandMask,
    /// The same as one `u32` flag a cell, for the land buffer or texture.
    pub land_flags: Vec<u32>,
}

impl ShiftPlan {
    /// The plan for shifting water of `spec` whose levels are in `levels` by `(dx, dy)`; moves
    /// `land` (its parts) with the water.
    ///
    /// # Errors
    /// Land parts of two sizes (cannot happen for one grid's parts).
    pub(crate) fn new(
        spec: &GridSpec,
        levels: &TimeLevels,
        land: &mut LandParts,
        (dx, dy): (isize, isize),
    ) -> Result<Self, GpuError> {
        let land = land.shift(dx, dy)?;
        let land_flags = land.cells().iter().map(|&l| u32::from(l)).collect();
        let (previous, current, spare) = (levels.previous(), levels.current(), levels.next());
        Ok(Self {
            shift: WindowShift::new(spec, dx, dy),
            moves: [(previous, spare), (current, previous)],
            land,
            land_flags,
        })
    }
}

/// The cells a shift keeps water in: the destination rectangle and where its cells come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeptRect {
    /// The destination's lowest cell, `(x, y)`.
    pub to: [u32; 2],
    /// The source's lowest cell.
    pub from: [u32; 2],
    /// Cells across and down.
    pub extent: [u32; 2],
}

impl WindowShift {
    /// The shift of `(dx, dy)` cells of water of `spec`.
    pub(crate) fn new(spec: &GridSpec, dx: isize, dy: isize) -> Self {
        let clamp = |d: isize, side: usize| d.clamp(-(side as isize), side as isize) as i32;
        Self {
            dx: clamp(dx, spec.size.width()),
            dy: clamp(dy, spec.size.height()),
            rim: if spec.boundary == Boundary::Fixed || spec.mode == GridMode::Classic {
                RimRule::Fixed
            } else if spec.boundary == Boundary::Absorbing && spec.dispersion.is_none() {
                // (A dispersive grid's absorbing edge is a sponge of water, not Mur's.)
                RimRule::Absorbing
            } else {
                RimRule::Moves
            },
        }
    }

    /// The rectangles of still water written after the kept cells are copied: behind
    /// absorbing edges, the old edge column and row where they land inside (at most one of
    /// each, rim excluded), as `water_core::clear_rim_moved_inside` clears them; none
    /// otherwise. Each is `(lowest cell, cells across and down)`.
    pub(crate) fn cleared(&self, size: GridSize) -> Vec<([u32; 2], [u32; 2])> {
        if self.rim != RimRule::Absorbing {
            return Vec::new();
        }
        let (w, h) = (size.width() as u32, size.height() as u32);
        let [column, row] = water_core::rim_moved_inside(size, self.dx as isize, self.dy as isize);
        let mut strips = Vec::new();
        if let Some(x) = column {
            strips.push(([x as u32, 1], [1, h - 2]));
        }
        if let Some(y) = row {
            strips.push(([1, y as u32], [w - 2, 1]));
        }
        strips
    }

    /// The cells of a `size` grid that hold moved water after the shift (the rest are 0);
    /// `None` when none do.
    pub(crate) fn kept(&self, size: GridSize) -> Option<KeptRect> {
        let axis = |d: i32, side: usize| -> Option<(u32, u32, u32)> {
            let side = side as i64;
            let d = i64::from(d);
            let inner = i64::from(self.rim == RimRule::Fixed);
            // Destination cells whose source `x + d` lies in [0, side), within the kept part.
            let start = (-d).max(0).max(inner);
            let end = (side - d).min(side).min(side - inner);
            (start < end).then(|| (start as u32, (start + d) as u32, (end - start) as u32))
        };
        let (tx, fx, wx) = axis(self.dx, size.width())?;
        let (ty, fy, wy) = axis(self.dy, size.height())?;
        Some(KeptRect {
            to: [tx, ty],
            from: [fx, fy],
            extent: [wx, wy],
        })
    }
}

#[cfg(test)]
mod tests {
    use water_core::{clear_rim_moved_inside, shift_cells, Damping, WaveParams};

    use super::*;

    /// The kept rectangle, cleared around and copied, then the cleared strips, is what
    /// `shift_cells` and a zeroed rim or `clear_rim_moved_inside` make: every cell, for shifts
    /// in every direction, past the edge, with a fixed, moving and absorbing rim.
    #[test]
    fn the_kept_rectangle_is_the_cpu_shift() {
        let size = GridSize::new(7, 5).expect("size");
        let params = WaveParams::new(0.1, 1.0, 0.01, Damping::NONE).expect("params");
        for boundary in [Boundary::Reflective, Boundary::Fixed, Boundary::Absorbing] {
            let spec = GridSpec::new(size, params, boundary, GridMode::Signed);
            for (dx, dy) in [(0, 0), (2, -1), (-3, 4), (6, 0), (7, 2), (-40, 1), (1, 5)] {
                let old: Vec<i32> = (1..=35).collect();
                let mut expected = old.clone();
                shift_cells(&mut expected, size, dx, dy, 0);
                if boundary == Boundary::Absorbing {
                    clear_rim_moved_inside(&mut expected, size, dx, dy, 0);
                }
                if boundary == Boundary::Fixed {
                    // The rim, as the CPU grid zeroes it after the shift.
                    for (i, v) in expected.iter_mut().enumerate() {
                        let (x, y) = (i % 7, i / 7);
                        if x == 0 || y == 0 || x == 6 || y == 4 {
                            *v = 0;
                        }
                    }
                }
                let mut copied = vec![0; 35];
                let shift = WindowShift::new(&spec, dx, dy);
                if let Some(r) = shift.kept(size) {
                    for y in 0..r.extent[1] as usize {
                        for x in 0..r.extent[0] as usize {
                            let to = (r.to[1] as usize + y) * 7 + r.to[0] as usize + x;
                            let from = (r.from[1] as usize + y) * 7 + r.from[0] as usize + x;
                            copied[to] = old[from];
                        }
                    }
                }
                for ([x0, y0], [cx, cy]) in shift.cleared(size) {
                    for y in y0..y0 + cy {
                        for x in x0..x0 + cx {
                            copied[y as usize * 7 + x as usize] = 0;
                        }
                    }
                }
                assert_eq!(copied, expected, "{boundary:?} shift ({dx}, {dy})");
            }
        }
    }
}
