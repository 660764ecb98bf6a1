//! The compute backend's mean-level keeper: `shaders/mean_level.wgsl` measures and shifts the
//! levels on the device, and the plan between the two passes is water-core's own
//! [`MeanLevelKeeper`] (`crates/water-core/src/kernels/mean_level.rs`), run on the host from
//! the device's sums, so the GPU corrects at the same steps, by the same rule, as the CPU.
//!
//! A correction is one submission of the sums pass, a readback of five f32 per row, channel
//! and level, and one submission of the shift pass: the submitting step methods make it every
//! [`MeanLevelKeeper::period`] steps.
//!
//! The record-only `encode_*` methods cannot wait for the sums. They record the sums pass and
//! a copy of the sums into the caller's encoder at the same step counts, and the copy is mapped
//! when the caller submits it. A later `encode_*` call that finds the sums arrived plans the
//! correction for the step count `m` they were measured at, carries its amounts forward to the
//! step count `n` it records at, and records the shift there. A uniform amount `u` added to
//! both levels is moved by the stencil exactly as the mean is (its Laplacian is zero):
//! `u^(j+1) = 2 u^j - u^(j-1)`, and the checkerboard's amount `c` by
//! `c^(j+1) = -2 c^j - c^(j-1)` ([`carry_forward`]). So the shift at `n` is the shift at `m`,
//! stepped; the rounding differs from the submitting methods', so the two paths' levels
//! differ by a few f32 ulps of the mean (`docs/math.md`, section 9).

use water_core::kernels::mean_level::{add_rows, LevelSums};

use super::carried::{all_zero, carry_forward, pack, take_arrived, Amounts, Recorded};
use super::KeeperPlan;
use crate::device_calls::{record_compute_pass, storage_buffer, uniform_buffer};
use crate::error::GpuError;
use crate::pipelines::compute_pipeline;
use crate::readback::{f32s, PendingReadback};
use crate::recording::{record_buffer_write, submit_recorded};
use crate::shaders::MEAN_LEVEL;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;

/// f32 per row, channel and level in the partial sums: even hi, even lo, odd hi, odd lo,
/// max |z|.
const ROW_VALUES: usize = 5;

/// The keeper of a [`crate::ComputeGrid`] whose spec conserves volume.
#[derive(Debug)]
pub(crate) struct GpuKeeper {
    plan: KeeperPlan,
    /// Whether the levels are stored as f16 words (`level_sums_f16`, `shift_level_f16`).
    f16: bool,
    sums_pipeline: wgpu::ComputePipeline,
    shift_pipeline: wgpu::ComputePipeline,
    uniforms: wgpu::Buffer,
    /// Partial sums of the current and the previous level.
    partials: [wgpu::Buffer; 2],
    /// Amounts for the current and the previous level (two `vec4<f32>`, one per channel).
    amounts: [wgpu::Buffer; 2],
    /// Sums recorded into a caller's encoder (the current level's partial sums, then the
    /// previous level's), on their way back.
    recorded: Recorded,
}

impl GpuKeeper {
    /// A keeper when `spec` conserves volume on the GPU (reflective or periodic, undamped, no
    /// land, signed or split, either storage), else `None`.
    pub(crate) fn new(
        device: &wgpu::Device,
        spec: &GridSpec,
        storage: StorageFormat,
    ) -> Option<Self> {
        let f16 = storage == StorageFormat::F16;
        let plan = KeeperPlan::for_spec(spec, f16)?;
        let (sums_entry, shift_entry) = if f16 {
            ("level_sums_f16", "shift_level_f16")
        } else {
            ("level_sums", "shift_level")
        };
        let size = spec.size;
        let channels = plan.channels() as u32;
        let uniforms = [size.width() as u32, size.height() as u32, 0, channels];
        let partial_bytes = (channels as usize * size.height() * ROW_VALUES * 4) as u64;
        Some(Self {
            plan,
            f16,
            sums_pipeline: compute_pipeline(device, MEAN_LEVEL, "mean_level sums", sums_entry),
            shift_pipeline: compute_pipeline(device, MEAN_LEVEL, "mean_level shift", shift_entry),
            uniforms: uniform_buffer(
                device,
                "mean level uniforms",
                bytemuck::cast_slice(&uniforms),
            ),
            partials: [0, 1]
                .map(|i| storage_buffer(device, &format!("mean level sums {i}"), partial_bytes)),
            amounts: [0, 1]
                .map(|i| uniform_buffer(device, &format!("mean level amounts {i}"), &[0u8; 32])),
            recorded: None,
        })
    }

    /// Forgets the reference: the levels were changed from outside. Sums recorded before the
    /// change are dropped too (their correction would land on the changed levels).
    pub(crate) fn invalidate(&mut self) {
        self.plan.invalidate();
        self.recorded = None;
    }

    /// The schedule and plan this keeper shares with the fragment grid's.
    pub(crate) fn plan(&self) -> &KeeperPlan {
        &self.plan
    }

    /// One correction of `levels` (the current and the previous one) at step count `steps`:
    /// sums on the device, read back, planned by the CPU's keeper, shifted on the device.
    /// **Submits and waits** for the sums.
    pub(crate) fn correct(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        levels: [&wgpu::Buffer; 2],
        steps: u64,
    ) -> Result<(), GpuError> {
        // Sums recorded into an encoder would correct levels this correction corrects anew.
        self.recorded = None;
        self.sums_pass().submit(device, queue, levels)?;
        let sums = [0, 1].map(|i| {
            let partials = &self.partials[i];
            PendingReadback::start(device, queue, partials, partials.size())
                .and_then(PendingReadback::wait)
                .map(|bytes| self.level_sums(&f32s(&bytes)))
        });
        let [cur_sums, old_sums] = sums;
        let Some(amounts) = self.planned_amounts(steps, &cur_sums?, &old_sums?) else {
            return Ok(());
        };
        for (buffer, words) in self.amounts.iter().zip(&amounts) {
            queue.write_buffer(buffer, 0, bytemuck::cast_slice(words));
        }
        self.shift_pass().submit(device, queue, levels)
    }

    /// The sums pass over both levels, each with its partial sums (`shaders/mean_level.wgsl`
    /// binds the level at 1, or at 5 for f16 words).
    fn sums_pass(&self) -> LevelPass<'_> {
        LevelPass {
            label: "mean level sums",
            pipeline: &self.sums_pipeline,
            workgroups: [
                (self.plan.size().height() as u32).div_ceil(64),
                self.plan.channels() as u32,
                1,
            ],
            uniforms: &self.uniforms,
            level_binding: if self.f16 { 5 } else { 1 },
            data: (&self.partials, 2),
        }
    }

    /// The shift pass over both levels, each with its amounts (the level bound at 4, or at 6
    /// for f16 words): one invocation per cell, or with f16 storage one per row (each row's
    /// error diffusion runs in order).
    fn shift_pass(&self) -> LevelPass<'_> {
        let (w, h) = (
            self.plan.size().width() as u32,
            self.plan.size().height() as u32,
        );
        LevelPass {
            label: "mean level shift",
            pipeline: &self.shift_pipeline,
            workgroups: if self.f16 {
                [h.div_ceil(64), self.plan.channels() as u32, 1]
            } else {
                [w.div_ceil(16), h.div_ceil(16), self.plan.channels() as u32]
            },
            uniforms: &self.uniforms,
            level_binding: if self.f16 { 6 } else { 4 },
            data: (&self.amounts, 3),
        }
    }

    /// Plans (and settles) the correction of levels whose per-channel sums are `cur_sums` and
    /// `old_sums` at step count `steps`, by the CPU's rule ([`KeeperPlan::plan`]): the amounts, or `None` when they
    /// are all zero.
    fn planned_amounts(
        &mut self,
        steps: u64,
        cur_sums: &[LevelSums],
        old_sums: &[LevelSums],
    ) -> Option<Amounts> {
        let amounts = self.plan.plan(steps, cur_sums, old_sums);
        let per_level = pack(&amounts);
        (!all_zero(&per_level)).then_some(per_level)
    }

    /// The keeper's work for the record-only methods, recorded into the caller's encoder and
    /// never waiting: before a step (`before_step`), the correction of sums recorded earlier,
    /// once they have arrived, planned for the step count they were measured at and carried
    /// forward to `steps` ([`carry_forward`]; sums whose mapping failed are dropped, and the
    /// next are recorded in their place); then, when no sums are on their way and an anchoring
    /// or correction is wanted, the sums of both `levels` (the current and the previous one)
    /// with their copy into a staging buffer that is mapped when the encoder is submitted.
    /// Polls the device without waiting, so that sums from an encoder already submitted
    /// arrive.
    pub(crate) fn record_keeping(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        levels: [&wgpu::Buffer; 2],
        steps: u64,
        before_step: bool,
    ) {
        let arrived = before_step
            .then(|| take_arrived(device, &mut self.recorded))
            .flatten();
        if let Some((at, bytes)) = arrived {
            let words = f32s(&bytes);
            let (cur_words, old_words) = words.split_at(words.len() / 2);
            let (cur_sums, old_sums) = (self.level_sums(cur_words), self.level_sums(old_words));
            if let Some(amounts) = self.planned_amounts(at, &cur_sums, &old_sums) {
                let amounts = carry_forward(amounts, steps - at);
                for (buffer, words) in self.amounts.iter().zip(&amounts) {
                    record_buffer_write(device, encoder, buffer, bytemuck::cast_slice(words));
                }
                self.shift_pass().record(device, encoder, levels);
            }
        }
        if self.recorded.is_none() && self.plan.wanted(steps, before_step) {
            self.sums_pass().record(device, encoder, levels);
            let partials: Vec<&wgpu::Buffer> = self.partials.iter().collect();
            self.recorded = Some((steps, PendingReadback::record(device, encoder, &partials)));
        }
    }

    /// Per channel, the level's sums from the rows' partial sums: each row's `hi + lo` parts
    /// added in f64, rows in order (as the CPU adds its rows).
    fn level_sums(&self, partials: &[f32]) -> Vec<LevelSums> {
        let h = self.plan.size().height();
        (0..self.plan.channels())
            .map(|c| {
                let rows: Vec<(f64, f64, f64)> = (0..h)
                    .map(|y| {
                        let v = &partials[(c * h + y) * ROW_VALUES..][..ROW_VALUES];
                        let even = f64::from(v[0]) + f64::from(v[1]);
                        let odd = f64::from(v[2]) + f64::from(v[3]);
                        // The shader splits the row by the parity of `x + y` (not of `x`
                        // alone, as the CPU's lanes do), so the checkerboard sum is
                        // `even - odd` on every row.
                        (even + odd, even - odd, f64::from(v[4]))
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
    /// Workgroups of each level's dispatch.
    workgroups: [u32; 3],
    uniforms: &'a wgpu::Buffer,
    /// Where the kernel binds the level.
    level_binding: u32,
    /// Each level's data buffer (the current level's first) and where the kernel binds it.
    data: (&'a [wgpu::Buffer; 2], u32),
}

impl LevelPass<'_> {
    /// Binds each of `levels` (the current and the previous one) with its own data buffer and
    /// records the pass.
    fn record(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        levels: [&wgpu::Buffer; 2],
    ) {
        let (data, data_binding) = self.data;
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
                        (self.level_binding, level),
                    ],
                )
            })
            .collect();
        record_compute_pass(encoder, self.label, self.pipeline, &groups, self.workgroups);
    }

    /// [`LevelPass::record`] in a command buffer of its own, submitted.
    fn submit(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        levels: [&wgpu::Buffer; 2],
    ) -> Result<(), GpuError> {
        submit_recorded(device, queue, self.label, |encoder| {
            self.record(device, encoder, levels);
            Ok(())
        })
    }
}
