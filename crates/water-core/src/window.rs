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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifted_cells_come_from_the_offset_source_and_new_cells_are_filled() {
        let size = GridSize::new(5, 4).expect("valid size");
        // The last two: counts past any grid, at the ends of `isize`.
        for (dx, dy) in [
            (1, 0),
            (-2, 1),
            (0, -3),
            (3, 2),
            (-1, -1),
            (0, 0),
            (isize::MIN, 0),
            (1, isize::MAX),
        ] {
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
}
