//! Impulses on [`ComputeGrid`]: the per-cell amounts, computed on the host exactly as the CPU
//! grids compute them (`grid_core.rs`), added on the GPU by `shaders/add_impulse.wgsl` (f32
//! cells) or `shaders/add_impulse_f16.wgsl` (f16 words).

use std::collections::HashMap;

use water_core::GridMode;

use super::{ComputeGrid, IMPULSE_GROUP};
use crate::device_calls::{bind_numbered, record_compute_pass};
use crate::error::GpuError;
use crate::storage::StorageFormat;
use crate::uniforms::{mode_code, ImpulseCell, ImpulseUniforms, ImpulseWord};

impl ComputeGrid {
    /// One pass adding `cells`' amounts to the current level, and to the previous one for a
    /// `displacement` (the water moved, its velocity kept): impulses, and the pressure patch
    /// of `ContactSource::Displacement` after a step.
    pub(super) fn record_cell_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        cells: &[ImpulseCell],
        displacement: bool,
    ) -> Result<(), GpuError> {
        use wgpu::util::DeviceExt;
        let (count, entries): (usize, Vec<u8>) = match self.storage {
            StorageFormat::F32 => (cells.len(), bytemuck::cast_slice(cells).to_vec()),
            StorageFormat::F16 => {
                let words = self.impulse_words(cells);
                if words.is_empty() {
                    return Ok(()); // every covered cell is land
                }
                (words.len(), bytemuck::cast_slice(&words).to_vec())
            }
        };
        let uniforms = ImpulseUniforms {
            cells: self.core.spec.size.cells() as u32,
            mode: mode_code(self.core.spec.mode),
            count: count as u32,
            _pad: 0,
        };
        let device = &self.core.device;
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water impulse"),
            contents: bytemuck::bytes_of(&uniforms),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let amounts = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("water impulse cells"),
            contents: &entries,
            usage: wgpu::BufferUsages::STORAGE,
        });
        let field_binding = if self.core.spec.mode == GridMode::Classic {
            4
        } else {
            3
        };
        // A displacement adds the same amounts to the previous level, so the bump starts at
        // rest (DESIGN.md, "Impulses").
        let mut levels = vec![self.core.levels.current()];
        if displacement {
            levels.push(self.core.levels.previous());
        }
        let layout = self.impulse_pipeline.get_bind_group_layout(0);
        let groups: Vec<wgpu::BindGroup> = levels
            .iter()
            .map(|&level| {
                let mut resources = vec![
                    (0, uniform.as_entire_binding()),
                    (1, amounts.as_entire_binding()),
                    (field_binding, self.fields[level].as_entire_binding()),
                ];
                // The f16 kernel leaves land to the host (`impulse_words`), so it binds no land.
                if self.storage == StorageFormat::F32 {
                    resources.push((2, self.land.as_entire_binding()));
                }
                bind_numbered(device, &layout, "water impulse", resources)
            })
            .collect();
        record_compute_pass(
            encoder,
            "water impulse",
            &self.impulse_pipeline,
            &groups,
            [(count as u32).div_ceil(IMPULSE_GROUP), 1, 1],
        );
        Ok(())
    }

    /// An impulse's per-cell amounts grouped by f16 storage word, as `add_impulse_f16.wgsl`
    /// takes them: one entry per word, so no two invocations write the same word. Land cells
    /// are left out (as the f32 kernel skips them); split grids send negative amounts, as
    /// magnitudes, to the `n` plane.
    fn impulse_words(&self, cells: &[ImpulseCell]) -> Vec<ImpulseWord> {
        let size = self.core.spec.size;
        let (width, height) = (size.width(), size.height());
        let row_words = StorageFormat::F16.words_per_row(width);
        let mut words: Vec<ImpulseWord> = Vec::new();
        let mut slot: HashMap<u32, usize> = HashMap::new();
        for cell in cells {
            let i = cell.index as usize;
            if self.core.land_mask.cells()[i] {
                continue;
            }
            let (plane, amount) = if self.core.spec.mode == GridMode::Split && cell.amount < 0.0 {
                (1, -cell.amount)
            } else {
                (0, cell.amount)
            };
            let (x, y) = (i % width, i / width);
            let word = ((plane * height + y) * row_words + x / 2) as u32;
            let k = *slot.entry(word).or_insert_with(|| {
                words.push(ImpulseWord {
                    word,
                    low: 0.0,
                    high: 0.0,
                    _pad: 0,
                });
                words.len() - 1
            });
            // Each cell appears once per impulse, so this assigns rather than sums.
            if x % 2 == 0 {
                words[k].low = amount;
            } else {
                words[k].high = amount;
            }
        }
        words
    }
}
