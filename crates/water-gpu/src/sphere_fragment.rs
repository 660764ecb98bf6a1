//! Sphere water stepped by render passes (`shaders/sphere_step_fragment.wgsl`): the
//! render-to-texture twin of [`SphereComputeWater`](crate::SphereComputeWater), built from a CPU
//! [`SphereWater`] so all three start from the same mesh, weights, coefficients and state, with
//! the same public methods so callers can swap them.
//!
//! # Texture layout
//!
//! The demo kept sphere heights in a 1-D texture. wgpu cannot render into 1-D textures, and a
//! 1-D texture holds at most `max_texture_dimension_1d` texels (8192 by default, fewer than the
//! 10,242 vertices of level 5). So vertex `i` lives at texel `(i % W, i / W)` of a 2-D `R32Float`
//! texture, `W` being the smallest multiple of 64 at or above `sqrt(vertices)` (`texture_size`):
//!
//! | level | vertices | `W` x `H` |
//! |------:|---------:|----------:|
//! | 3 | 642 | 64 x 11 |
//! | 5 | 10,242 | 128 x 81 |
//! | 8 | 655,362 | 832 x 788 |
//!
//! Why 64: a row of 64 `R32Float` texels is 256 bytes, wgpu's row alignment for texture copies,
//! so readbacks need no row padding. Why near-square: both sides stay under
//! `max_texture_dimension_2d` (8192 by default: up to 67 million vertices, level 11; 2048 on
//! downlevel devices: 4.2 million, level 9), where one long row would stop at 8192 vertices like
//! the 1-D texture. Texels past the last vertex are never written and stay 0.
//!
//! The six neighbour slots and weights of each vertex are textures too, at the vertex's own
//! texel (slots 0-3 in `Rgba32Uint`/`Rgba32Float`, slots 4-5 in `Rg32Uint`/`Rg32Float`): sampled
//! textures work on every backend wgpu runs on, where storage buffers in fragment shaders are
//! missing on downlevel GL devices.

use water_sphere::SphereWater;

use crate::device_calls::{check_limit, level_texture, uniform_buffer, validated};
use crate::error::GpuError;
use crate::pipelines::{full_screen_pass, full_screen_pipeline, record_add_delta_pass};
use crate::readback::{f32s, PendingReadback};
use crate::recording::record_texture_write;
use crate::shaders;
use crate::sphere_core::{SphereCore, SphereLevels};
use crate::uniforms::SphereFragmentUniforms;

/// Format of the height textures.
const HEIGHT_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;

/// Texels per row come in multiples of this: 64 x 4 bytes is `wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`.
const ROW_TEXELS: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT / 4;

/// The `(width, height)` in texels of the 2-D textures holding `vertices` vertices (vertex `i` at
/// `(i % width, i / width)`) on a device whose `max_texture_dimension_2d` is `max_dimension`.
///
/// # Errors
/// [`GpuError::TooLarge`] naming the vertex count and the most the device's textures can hold.
pub(crate) fn texture_size(vertices: usize, max_dimension: u32) -> Result<(u32, u32), GpuError> {
    // The widest row allowed, kept to whole 256-byte copy rows where the limit permits.
    let widest = if max_dimension >= ROW_TEXELS {
        max_dimension - max_dimension % ROW_TEXELS
    } else {
        max_dimension
    };
    let capacity = u64::from(widest) * u64::from(max_dimension);
    check_limit(
        "sphere vertices in one 2-D texture (row width x max_texture_dimension_2d)",
        vertices as u64,
        capacity,
    )?;
    let side = (vertices as f64).sqrt().ceil() as u32;
    let width = side.next_multiple_of(ROW_TEXELS).clamp(1, widest.max(1));
    let height = (vertices as u64).div_ceil(u64::from(width)).max(1) as u32;
    Ok((width, height))
}

/// Sphere water on the GPU (render passes into textures).
/// Its operations are [`GpuSphereWater`]'s (listed among the blanket implementations: one
/// implementation serves both spheres).
///
/// [`GpuSphereWater`]: crate::GpuSphereWater
#[derive(Debug)]
pub struct SphereFragmentWater {
    /// The state every GPU sphere water keeps (`sphere_core.rs`); its ring's slots only ever
    /// rotate, so `groups[old]` is the step's bind group.
    core: SphereCore,
    fields: [wgpu::Texture; 3],
    views: [wgpu::TextureView; 3],
    pipeline: wgpu::RenderPipeline,
    groups: [wgpu::BindGroup; 3],
    impulse_pipeline: wgpu::RenderPipeline,
    /// SphereImpulse heights, written by the host and added by a render pass; zero between clicks.
    delta: wgpu::Texture,
    /// All zero: `add_impulse_fragment.wgsl`'s land mask (the sphere has no land).
    dry: wgpu::Texture,
}

impl SphereFragmentWater {
    /// Uploads `water`'s slot table, coefficients and both levels into textures.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when the vertices do not fit the device's 2-D textures (see
    /// `texture_size`), [`GpuError::Validation`] if a texture or pipeline is refused.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        water: &SphereWater,
    ) -> Result<Self, GpuError> {
        let table = water.slot_table();
        let n = table.len();
        let (width, height) = texture_size(n, device.limits().max_texture_dimension_2d)?;
        let texels = width as usize * height as usize;
        let extent = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label: &str, format: wgpu::TextureFormat, target: bool| {
            level_texture(device, label, extent, (format, target))
        };
        use wgpu::TextureFormat as F;
        let (fields, slots, delta, dry) = validated(device, || {
            (
                [0, 1, 2].map(|i| texture(&format!("sphere level {i}"), HEIGHT_FORMAT, true)),
                [
                    texture("sphere slot index 0-3", F::Rgba32Uint, false),
                    texture("sphere slot index 4-5", F::Rg32Uint, false),
                    texture("sphere slot weight 0-3", F::Rgba32Float, false),
                    texture("sphere slot weight 4-5", F::Rg32Float, false),
                ],
                texture("sphere click delta", HEIGHT_FORMAT, false),
                texture("sphere dry (none)", F::R32Uint, false),
            )
        })?;
        // Interleave slots `first..first + count` per texel; padding texels get index 0 and
        // weight 0, and the shader never steps them anyway.
        fn interleave<T: Copy + Default>(
            slots: &[Vec<T>],
            first: usize,
            count: usize,
            texels: usize,
        ) -> Vec<T> {
            let mut out = vec![T::default(); texels * count];
            for (s, slot) in slots[first..first + count].iter().enumerate() {
                for (v, &x) in slot.iter().enumerate() {
                    out[v * count + s] = x;
                }
            }
            out
        }
        let (index, weight) = (table.indices(), table.weights());
        let write = |texture: &wgpu::Texture, bytes: &[u8], texel_bytes: u32| {
            queue.write_texture(
                texture.as_image_copy(),
                bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(width * texel_bytes),
                    rows_per_image: None,
                },
                extent,
            );
        };
        // Slots 0-3 of each vertex in an RGBA texel (16 bytes), slots 4-5 in an RG one (8).
        let texel_rows: [(Vec<u8>, u32); 4] = [
            (
                bytemuck::cast_slice(&interleave(index, 0, 4, texels)).to_vec(),
                16,
            ),
            (
                bytemuck::cast_slice(&interleave(index, 4, 2, texels)).to_vec(),
                8,
            ),
            (
                bytemuck::cast_slice(&interleave(weight, 0, 4, texels)).to_vec(),
                16,
            ),
            (
                bytemuck::cast_slice(&interleave(weight, 4, 2, texels)).to_vec(),
                8,
            ),
        ];
        for (texture, (bytes, texel_bytes)) in slots.iter().zip(&texel_rows) {
            write(texture, bytes, *texel_bytes);
        }
        let padded = |level: &[f32]| {
            let mut v = level.to_vec();
            v.resize(texels, 0.0);
            v
        };
        write(
            &fields[1],
            bytemuck::cast_slice(&padded(water.heights())),
            4,
        );
        write(
            &fields[0],
            bytemuck::cast_slice(&padded(water.previous())),
            4,
        );

        let (k, d) = water.step_coefficients();
        let uniforms = uniform_buffer(
            device,
            "sphere fragment uniforms",
            bytemuck::bytes_of(&SphereFragmentUniforms {
                vertices: n as u32,
                width,
                k,
                d,
            }),
        );
        let (pipeline, impulse_pipeline) = validated(device, || {
            (
                full_screen_pipeline(
                    device,
                    shaders::SPHERE_STEP_FRAGMENT,
                    "sphere_step_fragment",
                    "fs_main",
                    HEIGHT_FORMAT,
                ),
                full_screen_pipeline(
                    device,
                    shaders::ADD_IMPULSE_FRAGMENT,
                    "add_impulse_fragment",
                    "fs_main",
                    HEIGHT_FORMAT,
                ),
            )
        })?;
        let views = [0, 1, 2].map(|i| fields[i].create_view(&Default::default()));
        let slot_views = slots.each_ref().map(|t| t.create_view(&Default::default()));
        let layout = pipeline.get_bind_group_layout(0);
        let groups = validated(device, || {
            [0usize, 1, 2].map(|old| {
                let cur = (old + 1) % 3;
                let mut entries = vec![
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: uniforms.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(&views[cur]),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: wgpu::BindingResource::TextureView(&views[old]),
                    },
                ];
                entries.extend(slot_views.iter().zip(3..).map(|(view, binding)| {
                    wgpu::BindGroupEntry {
                        binding,
                        resource: wgpu::BindingResource::TextureView(view),
                    }
                }));
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("sphere fragment step"),
                    layout: &layout,
                    entries: &entries,
                })
            })
        })?;
        Ok(Self {
            core: SphereCore::new(device, queue, water),
            fields,
            views,
            pipeline,
            groups,
            impulse_pipeline,
            delta,
            dry,
        })
    }

    /// Records `level + delta` rendered into `target` (`shaders/add_impulse_fragment.wgsl`).
    fn record_add_delta(&self, encoder: &mut wgpu::CommandEncoder, level: usize, target: usize) {
        let views = [&self.views[level], &self.views[target]];
        let (device, pipeline) = (&self.core.device, &self.impulse_pipeline);
        let textures = [&self.delta, &self.dry];
        record_add_delta_pass(device, encoder, pipeline, false, views, textures);
    }

    /// Texels per row of the height textures: vertex `i` is at `(i % width, i / width)` (see
    /// `texture_size`).
    #[must_use]
    pub fn texture_width(&self) -> u32 {
        self.fields[0].width()
    }

    /// A view of the `R32Float` texture holding the current heights (layout in the module docs),
    /// to bind in the caller's render passes. It changes after every step: fetch it again each
    /// frame.
    #[must_use]
    pub fn current_view(&self) -> &wgpu::TextureView {
        &self.views[self.core.levels.current()]
    }
}

impl SphereLevels for SphereFragmentWater {
    fn core(&self) -> &SphereCore {
        &self.core
    }

    fn core_mut(&mut self) -> &mut SphereCore {
        &mut self.core
    }

    /// The bare steps: one render pass per step.
    fn record_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        for _ in 0..steps {
            let l = self.core.levels;
            let group = &self.groups[l.previous()];
            full_screen_pass(encoder, &self.views[l.next()], &self.pipeline, group);
            self.core.levels.advance(1);
        }
        self.core.steps += steps;
    }

    fn read_level(&self, slot: usize) -> Result<Vec<f32>, GpuError> {
        let (core, texture) = (&self.core, &self.fields[slot]);
        let bytes = core.vertices as usize * 4;
        let pending = PendingReadback::start_texture(&core.device, &core.queue, texture, 4, bytes)?;
        Ok(f32s(&pending.wait()?))
    }

    /// Writes the texture's unused tail as zeros.
    fn write_level(&self, slot: usize, mut values: Vec<f32>) {
        let texture = &self.fields[slot];
        values.resize((texture.width() * texture.height()) as usize, 0.0);
        self.core.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(&values),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(texture.width() * 4),
                rows_per_image: None,
            },
            texture.size(),
        );
    }

    fn record_levels_readback(&self, encoder: &mut wgpu::CommandEncoder) -> PendingReadback {
        let levels = self.core.levels;
        let textures = [
            &self.fields[levels.current()],
            &self.fields[levels.previous()],
        ];
        PendingReadback::record_textures(&self.core.device, encoder, textures, 4)
    }

    /// Records adding `amounts[0]` to every vertex of the current level and `amounts[1]` to the
    /// previous one (the textures' unused tails stay zero): each level plus a delta texture,
    /// rendered into the spare texture and then into the current level's, the roles rotated
    /// by one as a step rotates them. The delta is cleared afterwards, in order.
    fn record_uniform_shift(&mut self, encoder: &mut wgpu::CommandEncoder, amounts: [f32; 2]) {
        let extent = self.delta.size();
        let texels = (extent.width * extent.height) as usize;
        let n = self.core.vertices as usize;
        let delta = |amount: f32| {
            let mut values = vec![0.0f32; texels];
            values[..n].fill(amount);
            values
        };
        let device = self.core.device.clone();
        let write = |encoder: &mut wgpu::CommandEncoder, values: &[f32]| {
            let (origin, bytes) = (wgpu::Origin3d::ZERO, bytemuck::cast_slice(values));
            record_texture_write(&device, encoder, &self.delta, origin, extent, 4, bytes);
        };
        let l = self.core.levels;
        write(encoder, &delta(amounts[0]));
        self.record_add_delta(encoder, l.current(), l.next());
        write(encoder, &delta(amounts[1]));
        self.record_add_delta(encoder, l.previous(), l.current());
        write(encoder, &vec![0.0; texels]);
        self.core.levels.advance(1);
    }

    /// Records a copy of the rows the non-zero amounts touch into the delta texture, a render
    /// pass adding them to the current heights, and a copy clearing those rows again.
    /// **Records only.**
    fn record_vertex_amounts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError> {
        let touched = || heights.iter().enumerate().filter(|(_, dz)| **dz != 0.0);
        let (Some((first, _)), Some((last, _))) = (touched().next(), touched().next_back()) else {
            return Ok(());
        };
        let width = self.texture_width() as usize;
        let (row0, row1) = (first / width, last / width + 1);
        let mut rows = vec![0.0f32; (row1 - row0) * width];
        let start = row0 * width;
        let end = heights.len().min(row1 * width);
        rows[..end - start].copy_from_slice(&heights[start..end]);
        let origin = wgpu::Origin3d {
            x: 0,
            y: row0 as u32,
            z: 0,
        };
        let extent = wgpu::Extent3d {
            width: width as u32,
            height: (row1 - row0) as u32,
            depth_or_array_layers: 1,
        };
        let device = self.core.device.clone();
        // The delta rows written and cleared by copies recorded around the pass, in order with
        // whatever else the encoder holds (a queued write would land before all of it).
        let bytes: &[u8] = bytemuck::cast_slice(&rows);
        record_texture_write(&device, encoder, &self.delta, origin, extent, 4, bytes);
        let (cur, spare) = (self.core.levels.current(), self.core.levels.next());
        self.record_add_delta(encoder, cur, spare);
        // Back into the current texture rather than swapping roles: the three step bind
        // groups assume roles that only rotate, and clicks are rare next to steps.
        encoder.copy_texture_to_texture(
            self.fields[spare].as_image_copy(),
            self.fields[cur].as_image_copy(),
            self.fields[cur].size(),
        );
        rows.fill(0.0);
        let zeros: &[u8] = bytemuck::cast_slice(&rows);
        record_texture_write(&device, encoder, &self.delta, origin, extent, 4, zeros);
        Ok(())
    }

    /// Starts reading the current heights back: 4 bytes per vertex (little-endian f32, the mesh's
    /// vertex order, without the texture's unused tail). Poll the device and take the bytes from
    /// the returned [`PendingReadback`] when they arrive.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    fn start_heights_readback(&self) -> Result<PendingReadback, GpuError> {
        PendingReadback::start_texture(
            &self.core.device,
            &self.core.queue,
            &self.fields[self.core.levels.current()],
            4,
            self.core.vertices as usize * 4,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texture_sizes_hold_every_vertex_in_whole_copy_rows() {
        for level in 0..=11u32 {
            let n = 10 * 4usize.pow(level) + 2;
            let (w, h) = texture_size(n, 8192).expect("fits under 8192 x 8192");
            assert_eq!(w % ROW_TEXELS, 0, "level {level}: width {w}");
            assert!(w as usize * h as usize >= n, "level {level}: {w} x {h}");
            // No spare row: the last row holds at least one vertex.
            assert!(
                (w as usize) * (h as usize - 1) < n,
                "level {level}: {w} x {h}"
            );
            assert!(w <= 8192 && h <= 8192);
        }
        assert_eq!(texture_size(642, 8192).expect("level 3"), (64, 11));
        assert_eq!(texture_size(10_242, 8192).expect("level 5"), (128, 81));
        assert_eq!(texture_size(655_362, 8192).expect("level 8"), (832, 788));
    }

    #[test]
    fn too_many_vertices_name_the_count_and_the_limit() {
        // Level 10 on a downlevel device (2048 x 2048 texels at most).
        let err = texture_size(10_485_762, 2048).expect_err("too large");
        assert_eq!(
            err,
            GpuError::TooLarge {
                what: "sphere vertices in one 2-D texture (row width x max_texture_dimension_2d)",
                needed: 10_485_762,
                limit: 2048 * 2048,
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("10485762") && text.contains("4194304"),
            "{text}"
        );
        // Just over the capacity of a limit that is not a multiple of 64: rows are 64-aligned.
        let (w, h) = texture_size(100 * 64, 100).expect("fits");
        assert_eq!((w, h), (64, 100));
        assert!(texture_size(100 * 64 + 1, 100).is_err());
        // A tiny limit still works, without copy-aligned rows.
        assert_eq!(texture_size(20, 5).expect("fits"), (5, 4));
    }
}
