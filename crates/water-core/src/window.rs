//! Moving window: the simulated area follows a camera in whole cells. GPU twin:
//! `shaders/shift_window.wgsl` (the compute backend's levels; the fragment backend copies the
//! same cells).

use crate::size::GridSize;

/// Shifts a per-cell buffer so that new cell `(x, y)` holds old cell `(x + dx, y + dy)`; cells
/// whose source lies outside the old window get `fill`.
///
/// A window that moves right by one cell (`dx = 1`) drops the old left column and brings in
/// a new right column.
pub fn shift_cells<T: Copy>(buf: &mut [T], size: GridSize, dx: isize, dy: isize, fill: T) {
    let (w, h) = (size.width() as isize, size.height() as isize);
    // `unsigned_abs`: any count, `isize::MIN` included.
    if dx.unsigned_abs() >= w as usize || dy.unsigned_abs() >= h as usize {
        buf.fill(fill);
        return;
    }
    let row_len = (w - dx.abs()) as usize;
    // Walk rows in the direction that never reads a row already overwritten.
    let rows: Box<dyn Iterator<Item = isize>> = if dy >= 0 {
        Box::new(0..h)
    } else {
        Box::new((0..h).rev())
    };
    for y in rows {
        let dst_row = (y * w) as usize;
        let src_y = y + dy;
        if !(0..h).contains(&src_y) {
            buf[dst_row..dst_row + w as usize].fill(fill);
            continue;
        }
        let src_row = (src_y * w) as usize;
        let (src_x, dst_x) = if dx >= 0 { (dx, 0) } else { (0, -dx) };
        buf.copy_within(
            src_row + src_x as usize..src_row + src_x as usize + row_len,
            dst_row + dst_x as usize,
        );
        let (fill_start, fill_end) = if dx >= 0 {
            (row_len, w as usize)
        } else {
            (0, (-dx) as usize)
        };
        buf[dst_row + fill_start..dst_row + fill_end].fill(fill);
    }
}

/// After [`shift_cells`] moved an absorbing grid by `(dx, dy)`: sets to `fill` the cells inside
/// the grid (not on its rim) whose source was on the old rim. GPU twin: the `rim` mode
/// `RIM_ABSORBING` of `shaders/shift_window.wgsl`, and the fragment backend's cleared strips
/// (`crates/water-gpu/src/window_shift.rs`).
///
/// Why: an absorbing edge cell holds Mur's one-way extrapolation of its inner neighbour
/// (`kernels::absorbing_edges`), not water that obeys the wave equation. Carried inside as an
/// interior cell, its two time levels kick the stencil on every shift, and a grid that keeps
/// moving pumps a short wave trapped at its leading edge until it overflows (`docs/math.md`,
/// section 15). Coming in still, like the cells past the old edge, it lets the edge take the
/// waves as it does on a grid at rest.
///
/// At most one column and one row change: the old leading edges, where they land inside.
pub fn clear_rim_moved_inside<T: Copy>(
    buf: &mut [T],
    size: GridSize,
    dx: isize,
    dy: isize,
    fill: T,
) {
    let (w, h) = (size.width(), size.height());
    let [column, row] = rim_moved_inside(size, dx, dy);
    if let Some(x) = column {
        for y in 1..h - 1 {
            buf[y * w + x] = fill;
        }
    }
    if let Some(y) = row {
        buf[y * w + 1..y * w + w - 1].fill(fill);
    }
}

/// The column and the row where a shift by `(dx, dy)` lands the old grid's leading edge
/// column (`x + dx = 0` or `W - 1`) and row, each where it lands inside the rim (`1..W-1`,
/// `1..H-1`); `None` for no shift along that axis or one that carries it past the rim.
/// [`clear_rim_moved_inside`] clears those cells; the GPU backends clear the same.
#[must_use]
pub fn rim_moved_inside(size: GridSize, dx: isize, dy: isize) -> [Option<usize>; 2] {
    let landed = |d: isize, side: usize| -> Option<usize> {
        let side = side as isize;
        // `checked_neg`: any count, `isize::MIN` included.
        let at = if d > 0 {
            side - 1 - d
        } else {
            d.checked_neg()?
        };
        (d != 0 && (1..side - 1).contains(&at)).then_some(at as usize)
    };
    [landed(dx, size.width()), landed(dy, size.height())]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shifts of every kind: each direction, a whole side and more, the ends of `isize`.
    const SHIFTS: [(isize, isize); 10] = [
        (1, 0),
        (-2, 1),
        (0, -3),
        (3, 2),
        (-1, -1),
        (0, 0),
        (4, 0),
        (5, 1),
        (isize::MIN, 0),
        (1, isize::MAX),
    ];

    #[test]
    fn shifted_cells_come_from_the_offset_source_and_new_cells_are_filled() {
        let size = GridSize::new(5, 4).expect("valid size");
        for (dx, dy) in SHIFTS {
            let orig: Vec<i32> = (0..20).collect();
            let mut buf = orig.clone();
            shift_cells(&mut buf, size, dx, dy, -1);
            for y in 0..4isize {
                for x in 0..5isize {
                    let (sx, sy) = (x.saturating_add(dx), y.saturating_add(dy));
                    let expect = if (0..5).contains(&sx) && (0..4).contains(&sy) {
                        orig[(sy * 5 + sx) as usize]
                    } else {
                        -1
                    };
                    assert_eq!(
                        buf[(y * 5 + x) as usize],
                        expect,
                        "dx={dx} dy={dy} x={x} y={y}"
                    );
                }
            }
        }
    }

    #[test]
    fn only_old_rim_cells_that_land_inside_are_cleared() {
        let size = GridSize::new(6, 5).expect("valid size");
        let on_rim = |x: isize, y: isize| x == 0 || y == 0 || x == 5 || y == 4;
        for (dx, dy) in SHIFTS {
            let mut buf: Vec<i32> = (0..30).collect();
            shift_cells(&mut buf, size, dx, dy, -1);
            let shifted = buf.clone();
            clear_rim_moved_inside(&mut buf, size, dx, dy, -1);
            for y in 0..5isize {
                for x in 0..6isize {
                    let (sx, sy) = (x.saturating_add(dx), y.saturating_add(dy));
                    let source_inside = (0..6).contains(&sx) && (0..5).contains(&sy);
                    let cleared = source_inside && on_rim(sx, sy) && !on_rim(x, y);
                    let i = (y * 6 + x) as usize;
                    let expect = if cleared { -1 } else { shifted[i] };
                    assert_eq!(buf[i], expect, "dx={dx} dy={dy} x={x} y={y}");
                }
            }
        }
    }
}
