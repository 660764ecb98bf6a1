//! Per-cell amounts on [`FragmentGrid`]: impulses and the pressure patch of
//! `ContactSource::Displacement`, written into the delta texture over the rectangle they cover
//! and added to the current level (and the previous one for a displacement) by full-screen
//! passes. Compute twin: `compute_grid/impulse.rs` (`record_cell_amounts`).

use water_core::GridMode;

use super::level_io::texel_bytes;
use super::FragmentGrid;
use crate::error::GpuError;
use crate::recording::record_texture_write;
use crate::uniforms::ImpulseCell;

impl FragmentGrid {
    /// One write of `cells`' amounts into the delta texture and the passes adding them to the
    /// current level, and to the previous one for a `displacement` (the water moved, its
    /// velocity kept); the rectangle is cleared again after them.
    pub(super) fn record_cell_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        cells: &[ImpulseCell],
        displacement: bool,
    ) -> Result<(), GpuError> {
        let size = self.core.spec.size;
        let w = size.width() as u32;
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for c in cells {
            let (x, y) = (c.index % w, c.index / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
        }
        let rect_w = x1 - x0;
        let texel = texel_bytes(self.format);
        let mut bytes = vec![0u8; (rect_w * (y1 - y0)) as usize * texel as usize];
        for c in cells {
            let (x, y) = (c.index % w - x0, c.index / w - y0);
            let at = (y * rect_w + x) as usize * texel as usize;
            let (word, offset) = match self.core.spec.mode {
                GridMode::Classic => ((c.amount as i32).to_le_bytes(), 0),
                // Split: positive amounts go to p (r), negative ones as magnitudes to n (g).
                GridMode::Split if c.amount < 0.0 => ((-c.amount).to_le_bytes(), 4),
                _ => (c.amount.to_le_bytes(), 0),
            };
            bytes[at + offset..at + offset + 4].copy_from_slice(&word);
        }
        let origin = wgpu::Origin3d { x: x0, y: y0, z: 0 };
        let extent = wgpu::Extent3d {
            width: rect_w,
            height: y1 - y0,
            depth_or_array_layers: 1,
        };
        let device = self.core.device.clone();
        record_texture_write(&device, encoder, &self.delta, origin, extent, texel, &bytes);

        let l = self.core.levels;
        self.record_add_delta(encoder, l.current(), l.next());
        if displacement {
            // The same amounts on the previous level, so the bump starts at rest (DESIGN.md,
            // "Impulses"); the old current texture is free to take it.
            self.record_add_delta(encoder, l.previous(), l.current());
            self.core.levels.advance(1);
        } else {
            self.core.levels.replace_current();
        }
        // Clear the rectangle for the next impulse, in order after the passes above.
        bytes.fill(0);
        record_texture_write(&device, encoder, &self.delta, origin, extent, texel, &bytes);
        Ok(())
    }
}
