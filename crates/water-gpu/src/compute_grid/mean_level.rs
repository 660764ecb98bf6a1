//! The compute backend's mean-level keeper: `shaders/mean_level.wgsl` measures and shifts the
//! levels on the device, and the plan between the two passes is water-core's own
//! [`MeanLevelKeeper`] (`crates/water-core/src/kernels/mean_level.rs`), run on the host from
//! the device's sums, so the GPU corrects at the same steps, by the same rule, as the CPU.
//!
//! A correction is one submission of the sums pass, a readback of five f32 per row, channel
//! and level, and one submission of the shift pass: the submitting step methods make it every
//! [`MeanLevelKeeper::period`] steps; the record-only `encode_*` methods cannot wait for the
//! sums and leave the levels as the steps left them.

use water_core::kernels::mean_level::{
    add_rows, checkerboard_is_marginal, conserves_volume, correct_channels, LevelAmounts,
    LevelSums, MeanLevelKeeper,
};
use water_core::{GridMode, GridSize};

use crate::device_calls::{record_compute_pass, storage_buffer, uniform_buffer};
use crate::error::GpuError;
use crate::pipelines::compute_pipeline;
use crate::readback::{f32s, PendingReadback};
use crate::recording::submit_recorded;
use crate::shaders::MEAN_LEVEL;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;

/// f32 per row, channel and level in the partial sums: even hi, even lo, odd hi, odd lo,
/// max |z|.
const ROW_VALUES: usize = 5;

/// The keeper of a [`super::ComputeGrid`] whose spec conserves volume.
#[derive(Debug)]
pub(crate) struct GpuKeeper {
    size: GridSize,
    channels: u32,
    checker: bool,
    /// One keeper per channel (signed grids use the first).
    keepers: [MeanLevelKeeper; 2],
    sums_pipeline: wgpu::ComputePipeline,
    shift_pipeline: wgpu::ComputePipeline,
    uniforms: wgpu::Buffer,
    /// Partial sums of the current and the previous level.
    partials: [wgpu::Buffer; 2],
    /// Amounts for the current and the previous level (two `vec4<f32>`, one per channel).
    amounts: [wgpu::Buffer; 2],
}

impl GpuKeeper {
    /// A keeper when `spec` conserves volume on the GPU (reflective or periodic, undamped, no
    /// land, signed or split, f32 storage), else `None`.
    pub(crate) fn new(device: &wgpu::Device, spec: &GridSpec, has_land: bool) -> Option<Self> {
        let k = spec.coefficients();
        if spec.mode == GridMode::Classic
            || spec.storage != StorageFormat::F32
            || !conserves_volume(spec.boundary, k, has_land)
        {
            return None;
        }
        let size = spec.size;
        let channels: u32 = if spec.mode == GridMode::Split { 2 } else { 1 };
        let uniforms = [size.width() as u32, size.height() as u32, 0, channels];
        let partial_bytes = (channels as usize * size.height() * ROW_VALUES * 4) as u64;
        Some(Self {
            size,
            channels,
            checker: checkerboard_is_marginal(size, spec.boundary, k),
            keepers: [MeanLevelKeeper::new(size), MeanLevelKeeper::new(size)],
            sums_pipeline: compute_pipeline(device, MEAN_LEVEL, "mean_level sums", "level_sums"),
            shift_pipeline: compute_pipeline(device, MEAN_LEVEL, "mean_level shift", "shift_level"),
            uniforms: uniform_buffer(
                device,
                "mean level uniforms",
                bytemuck::cast_slice(&uniforms),
            ),
            partials: [0, 1]
                .map(|i| storage_buffer(device, &format!("mean level sums {i}"), partial_bytes)),
            amounts: [0, 1]
                .map(|i| uniform_buffer(device, &format!("mean level amounts {i}"), &[0u8; 32])),
        })
    }

    /// Forgets the reference: the levels were changed from outside.
    pub(crate) fn invalidate(&mut self) {
        self.keepers
            .iter_mut()
            .for_each(MeanLevelKeeper::invalidate);
    }

    /// Whether a correction (or anchoring) is wanted at step count `steps`
    /// ([`MeanLevelKeeper::wanted`]).
    pub(crate) fn wanted(&self, steps: u64, before_step: bool) -> bool {
        self.keepers[0].wanted(steps, before_step)
    }

    /// Steps of `left` to run from step count `steps` before the next correction.
    pub(crate) fn segment(&self, steps: u64, left: u64) -> u64 {
        self.keepers[0].segment(steps, left)
    }

    /// One correction of the levels in `cur` and `old` at step count `steps`: sums on the
    /// device, read back, planned by the CPU's keeper, shifted on the device. **Submits and
    /// waits** for the sums.
    pub(crate) fn correct(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        cur: &wgpu::Buffer,
        old: &wgpu::Buffer,
        steps: u64,
    ) -> Result<(), GpuError> {
        let rows = self.size.height() as u32;
        let sums = LevelPass {
            label: "mean level sums",
            pipeline: &self.sums_pipeline,
            uniforms: &self.uniforms,
            workgroups: [rows.div_ceil(64), self.channels, 1],
        };
        sums.submit(device, queue, ([cur, old], 1), (&self.partials, 2))?;
        let sums = [0, 1].map(|i| {
            let partials = &self.partials[i];
            PendingReadback::start(device, queue, partials, partials.size())
                .and_then(PendingReadback::wait)
                .map(|bytes| self.level_sums(&f32s(&bytes)))
        });
        let [cur_sums, old_sums] = sums;
        let (cur_sums, old_sums) = (cur_sums?, old_sums?);
        let amounts: Vec<LevelAmounts> = if self.channels == 2 {
            let now = [0, 1].map(|c| (cur_sums[c], old_sums[c]));
            correct_channels(&mut self.keepers, self.size, steps, now, self.checker).to_vec()
        } else {
            let now = (cur_sums[0], old_sums[0]);
            vec![self.keepers[0].correct(self.size, steps, now, self.checker)]
        };
        let pack = |pick: fn(&LevelAmounts) -> (f32, f32)| {
            let mut words = [0.0f32; 8];
            for (c, a) in amounts.iter().enumerate() {
                let (plain, checker) = pick(a);
                (words[4 * c], words[4 * c + 1]) = (plain, checker);
            }
            words
        };
        let per_level = [pack(|a| a.0), pack(|a| a.1)];
        if per_level.iter().all(|w| w.iter().all(|&v| v == 0.0)) {
            return Ok(());
        }
        for (buffer, words) in self.amounts.iter().zip(&per_level) {
            queue.write_buffer(buffer, 0, bytemuck::cast_slice(words));
        }
        let (w, h) = (self.size.width() as u32, self.size.height() as u32);
        let shift = LevelPass {
            label: "mean level shift",
            pipeline: &self.shift_pipeline,
            uniforms: &self.uniforms,
            workgroups: [w.div_ceil(16), h.div_ceil(16), self.channels],
        };
        shift.submit(device, queue, ([cur, old], 4), (&self.amounts, 3))
    }

    /// Per channel, the level's sums from the rows' partial sums: each row's `hi + lo` parts
    /// added in f64, rows in order (as the CPU adds its rows).
    fn level_sums(&self, partials: &[f32]) -> Vec<LevelSums> {
        let h = self.size.height();
        (0..self.channels as usize)
            .map(|c| {
                let rows: Vec<(f64, f64, f64)> = (0..h)
                    .map(|y| {
                        let v = &partials[(c * h + y) * ROW_VALUES..][..ROW_VALUES];
                        let even = f64::from(v[0]) + f64::from(v[1]);
                        let odd = f64::from(v[2]) + f64::from(v[3]);
                        let checker = if y % 2 == 0 { even - odd } else { odd - even };
                        (even + odd, checker, f64::from(v[4]))
                    })
                    .collect();
                add_rows(&rows)
            })
            .collect()
    }
}

/// A bind group of `pipeline`'s group 0 with whole buffers at the given bindings.
fn bind(
    device: &wgpu::Device,
    pipeline: &wgpu::ComputePipeline,
    entries: &[(u32, &wgpu::Buffer)],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = entries
        .iter()
        .map(|&(binding, buffer)| wgpu::BindGroupEntry {
            binding,
            resource: buffer.as_entire_binding(),
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("mean level"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// One pass of `pipeline` over both levels, each bound with its own buffer of per-level data
/// (the sums' partials, the shift's amounts) beside the shared uniforms at binding 0.
struct LevelPass<'a> {
    label: &'static str,
    pipeline: &'a wgpu::ComputePipeline,
    uniforms: &'a wgpu::Buffer,
    workgroups: [u32; 3],
}

impl LevelPass<'_> {
    /// Binds each level and its own data buffer (at the given bindings) and submits the pass.
    fn submit(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (levels, level_binding): ([&wgpu::Buffer; 2], u32),
        (data, data_binding): (&[wgpu::Buffer; 2], u32),
    ) -> Result<(), GpuError> {
        submit_recorded(device, queue, self.label, |encoder| {
            let groups: Vec<wgpu::BindGroup> = levels
                .iter()
                .zip(data)
                .map(|(level, data)| {
                    bind(
                        device,
                        self.pipeline,
                        &[
                            (0, self.uniforms),
                            (data_binding, data),
                            (level_binding, level),
                        ],
                    )
                })
                .collect();
            record_compute_pass(encoder, self.label, self.pipeline, &groups, self.workgroups);
            Ok(())
        })
    }
}
