//! The classic 2-D look of Hugo Elias's ripple: a background bent by the slopes of the integer
//! field and brightened where they face the light. [`shade_classic`] is the CPU twin of
//! `shaders/shade_classic.wgsl`, byte for byte.

use bytemuck::Zeroable;
use water_core::GridSize;

use crate::render_pipeline::bind_group_0;
use crate::rgba_image::RgbaImage;
use crate::uniforms::ClassicShadingUniforms;
use crate::{check_grid_texture, check_range};
use water_gpu::device_calls::{uniform_buffer, validated};
use water_gpu::pipelines::{full_screen_pass, full_screen_pipeline};
use water_gpu::shaders;
use water_gpu::GpuError;

/// Largest shift: differences of two i16 heights fit in 17 bits.
const MAX_SHIFT: u32 = 16;

/// How strongly slopes bend and shade the background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassicShading {
    /// Right shift from a height difference to a background offset in texels (0 to 16).
    pub offset_shift: u32,
    /// Right shift from a height difference to a brightness change in 8-bit levels (0 to 16).
    pub shading_shift: u32,
}

impl Default for ClassicShading {
    fn default() -> Self {
        Self {
            offset_shift: 3,
            shading_shift: 3,
        }
    }
}

impl ClassicShading {
    /// Checks both shifts.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] naming a shift above 16.
    pub fn validate(&self) -> Result<(), GpuError> {
        check_range("offset_shift", self.offset_shift, 0, MAX_SHIFT, "0 to 16")?;
        check_range("shading_shift", self.shading_shift, 0, MAX_SHIFT, "0 to 16")
    }
}

/// The classic picture of `heights` (one pixel per cell, row `y` at the top): for each cell,
/// `dx = h(x-1, y) - h(x+1, y)`, `dy = h(x, y-1) - h(x, y+1)` (rim cells repeat past the rim),
/// the background texel at `(x + (dx >> offset_shift), y + (dy >> offset_shift))` (tiled), and
/// `dx >> shading_shift` added to each channel, clamped to 0..=255. Alpha is 255.
///
/// ```
/// use water_core::GridSize;
/// use water_render::{shade_classic, ClassicShading, RgbaImage};
/// let size = GridSize::new(8, 8).unwrap();
/// let background = RgbaImage::pebbles(8, 8, 4, 1);
/// // Still water shows the background unchanged.
/// let still = shade_classic(&[0; 64], size, &background, ClassicShading::default()).unwrap();
/// assert_eq!(still, background.clone());
/// ```
///
/// # Errors
/// [`GpuError::BadRenderSetting`] for a bad shift or a height count that is not the grid's.
pub fn shade_classic(
    heights: &[i16],
    size: GridSize,
    background: &RgbaImage,
    shading: ClassicShading,
) -> Result<RgbaImage, GpuError> {
    shading.validate()?;
    let (w, h) = (size.width(), size.height());
    if heights.len() != w * h {
        return Err(GpuError::BadRenderSetting {
            what: "classic height count",
            value: heights.len().to_string(),
            requirement: "width * height of the grid",
        });
    }
    let at = |x: isize, y: isize| -> i32 {
        let x = x.clamp(0, w as isize - 1) as usize;
        let y = y.clamp(0, h as isize - 1) as usize;
        i32::from(heights[y * w + x])
    };
    let (bw, bh) = (background.width() as i32, background.height() as i32);
    let mut pixels = Vec::with_capacity(w * h * 4);
    for y in 0..h as isize {
        for x in 0..w as isize {
            let dx = at(x - 1, y) - at(x + 1, y);
            let dy = at(x, y - 1) - at(x, y + 1);
            let sx = (x as i32 + (dx >> shading.offset_shift)).rem_euclid(bw);
            let sy = (y as i32 + (dy >> shading.offset_shift)).rem_euclid(bh);
            let texel = background.pixel(sx as u32, sy as u32);
            let shade = dx >> shading.shading_shift;
            for c in &texel[..3] {
                pixels.push((i32::from(*c) + shade).clamp(0, 255) as u8);
            }
            pixels.push(255);
        }
    }
    RgbaImage::new(w as u32, h as u32, pixels)
}

/// Draws the classic look of a classic-mode grid on the caller's device, from the surface
/// texture of [`GpuGrid::update_normal_height`](water_gpu::GpuGridWater::update_normal_height). Each output pixel shows the cell under it;
/// at one pixel per cell into an `Rgba8Unorm` target the bytes equal [`shade_classic`]'s.
#[derive(Debug)]
pub struct ClassicRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    size: GridSize,
    format: wgpu::TextureFormat,
    shading: ClassicShading,
    pipeline: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    background: wgpu::TextureView,
    group: Option<wgpu::BindGroup>,
}

impl ClassicRenderer {
    /// A renderer for grids of `size` cells into targets of `target_format`, over `background`
    /// (display-encoded bytes, tiled).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a bad shift; pipeline creation failures.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target_format: wgpu::TextureFormat,
        size: GridSize,
        shading: ClassicShading,
        background: &RgbaImage,
    ) -> Result<Self, GpuError> {
        shading.validate()?;
        let pipeline = validated(device, || {
            full_screen_pipeline(
                device,
                shaders::SHADE_CLASSIC,
                "shade_classic",
                "fs_main",
                target_format,
            )
        })?;
        let uniforms = uniform_buffer(
            device,
            "water classic shading uniforms",
            bytemuck::bytes_of(&ClassicShadingUniforms::zeroed()),
        );
        Ok(Self {
            background: upload_background(device, queue, background),
            device: device.clone(),
            queue: queue.clone(),
            size,
            format: target_format,
            shading,
            pipeline,
            uniforms,
            group: None,
        })
    }

    /// Replaces the background.
    pub fn set_background(&mut self, background: &RgbaImage) {
        self.background = upload_background(&self.device, &self.queue, background);
    }

    /// Changes the shifts.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a bad shift; the old shading stays.
    pub fn set_shading(&mut self, shading: ClassicShading) -> Result<(), GpuError> {
        shading.validate()?;
        self.shading = shading;
        Ok(())
    }

    /// Sets up the next [`ClassicRenderer::draw`] into a target of `target_width x
    /// target_height` pixels from the grid's `surface` texture.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for a surface of another size or an empty target.
    pub fn prepare(
        &mut self,
        surface: &wgpu::TextureView,
        target_width: u32,
        target_height: u32,
    ) -> Result<(), GpuError> {
        check_grid_texture("surface texture size", surface, self.size)?;
        if target_width == 0 || target_height == 0 {
            return Err(GpuError::BadRenderSetting {
                what: "target size",
                value: format!("{target_width}x{target_height}"),
                requirement: "at least 1x1",
            });
        }
        let values = ClassicShadingUniforms {
            width: self.size.width() as u32,
            height: self.size.height() as u32,
            target_width,
            target_height,
            offset_shift: self.shading.offset_shift,
            shading_shift: self.shading.shading_shift,
            srgb_target: u32::from(self.format.is_srgb()),
            _pad: 0,
        };
        self.queue
            .write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&values));
        self.group = Some(bind_group_0(
            &self.device,
            "water classic shading",
            &self.pipeline,
            &self.uniforms,
            [
                wgpu::BindingResource::TextureView(surface),
                wgpu::BindingResource::TextureView(&self.background),
            ],
        ));
        Ok(())
    }

    /// Draws the full-screen pass set up by [`ClassicRenderer::prepare`] into the caller's
    /// render pass (no depth test). Draws nothing before the first `prepare`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some(group) = &self.group {
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.draw(0..3, 0..1);
        }
    }

    /// [`ClassicRenderer::prepare`] and a pass of its own over every pixel of `target`.
    ///
    /// # Errors
    /// As [`ClassicRenderer::prepare`].
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        surface: &wgpu::TextureView,
    ) -> Result<(), GpuError> {
        let t = target.texture();
        self.prepare(surface, t.width(), t.height())?;
        let Some(group) = &self.group else {
            unreachable!("prepared above");
        };
        full_screen_pass(encoder, target, &self.pipeline, group);
        Ok(())
    }
}

fn upload_background(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    background: &RgbaImage,
) -> wgpu::TextureView {
    // Unorm, not sRGB: the shader wants the stored bytes, to shade them in integers.
    background
        .upload(
            device,
            queue,
            wgpu::TextureFormat::Rgba8Unorm,
            "water classic background",
        )
        .create_view(&Default::default())
}
