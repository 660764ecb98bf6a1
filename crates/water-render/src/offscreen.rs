//! A colour and depth target that is not a window: for headless renders, tests and screenshots.

use crate::frame_target::FrameTarget;
use crate::rgba_image::RgbaImage;
use crate::DEPTH_FORMAT;
use water_gpu::device_calls::texture_2d;
use water_gpu::GpuError;
use water_gpu::{read_texture, PendingReadback};

/// Colour (`format`) and depth ([`DEPTH_FORMAT`]) textures of one size, readable back as
/// [`RgbaImage`].
#[derive(Debug)]
pub struct OffscreenTarget {
    colour: wgpu::Texture,
    colour_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    device: wgpu::Device,
    queue: wgpu::Queue,
}

impl OffscreenTarget {
    /// Textures of `width x height` pixels. `format` is an 8-bit RGBA or BGRA format
    /// (`Rgba8UnormSrgb` for lit pictures, `Rgba8Unorm` where the bytes must be the shader's
    /// values).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] for another format or a side of 0;
    /// [`GpuError::TooLarge`] past the device's texture limit.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Result<Self, GpuError> {
        use wgpu::TextureFormat as F;
        if !matches!(
            format,
            F::Rgba8Unorm | F::Rgba8UnormSrgb | F::Bgra8Unorm | F::Bgra8UnormSrgb
        ) {
            return Err(GpuError::BadRenderSetting {
                what: "offscreen format",
                value: format!("{format:?}"),
                requirement: "Rgba8Unorm, Rgba8UnormSrgb, Bgra8Unorm or Bgra8UnormSrgb",
            });
        }
        if width == 0 || height == 0 {
            return Err(GpuError::BadRenderSetting {
                what: "offscreen size",
                value: format!("{width}x{height}"),
                requirement: "at least 1x1",
            });
        }
        let limit = device.limits().max_texture_dimension_2d;
        water_gpu::device_calls::check_limit(
            "offscreen side (pixels)",
            u64::from(width.max(height)),
            u64::from(limit),
        )?;
        let texture =
            |label, format, usage| texture_2d(device, label, (width, height), format, usage);
        let colour = texture(
            "water offscreen colour",
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let depth = texture(
            "water offscreen depth",
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
        );
        Ok(Self {
            colour_view: colour.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            colour,
            device: device.clone(),
            queue: queue.clone(),
        })
    }

    /// The colour texture.
    #[must_use]
    pub fn colour(&self) -> &wgpu::Texture {
        &self.colour
    }

    /// View of the colour texture, to render into.
    #[must_use]
    pub fn colour_view(&self) -> &wgpu::TextureView {
        &self.colour_view
    }

    /// View of the depth texture, to render into.
    #[must_use]
    pub fn depth_view(&self) -> &wgpu::TextureView {
        &self.depth_view
    }

    /// The colour and depth views as the target of a frame that starts from `clear` (linear
    /// RGB).
    #[must_use]
    pub fn frame(&self, clear: glam::Vec3) -> FrameTarget<'_> {
        FrameTarget {
            colour: &self.colour_view,
            depth: &self.depth_view,
            clear,
        }
    }

    /// Colour format.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.colour.format()
    }

    /// Width, pixels.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.colour.width()
    }

    /// Height, pixels.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.colour.height()
    }

    /// Waits for the work submitted so far and reads the picture back as RGBA (BGRA formats are
    /// swizzled; sRGB formats give their stored, display-encoded bytes).
    ///
    /// # Errors
    /// A lost device or a failed readback.
    pub fn read(&self) -> Result<RgbaImage, GpuError> {
        let mut bytes = read_texture(&self.device, &self.queue, &self.colour, 4)?;
        swizzle(self.format(), &mut bytes);
        RgbaImage::new(self.width(), self.height(), bytes)
    }

    /// Starts reading the picture back without waiting; finish with [`PendingReadback::wait`]
    /// and [`OffscreenTarget::image_from`].
    ///
    /// # Errors
    /// A lost device.
    pub fn read_async(&self) -> Result<PendingReadback, GpuError> {
        PendingReadback::start_texture(&self.device, &self.queue, &self.colour, 4, usize::MAX)
    }

    /// The picture from the bytes of a finished [`OffscreenTarget::read_async`].
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when the bytes are not this target's.
    pub fn image_from(&self, mut bytes: Vec<u8>) -> Result<RgbaImage, GpuError> {
        swizzle(self.format(), &mut bytes);
        RgbaImage::new(self.width(), self.height(), bytes)
    }
}

fn swizzle(format: wgpu::TextureFormat, bytes: &mut [u8]) {
    if matches!(
        format,
        wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
    ) {
        for texel in bytes.chunks_exact_mut(4) {
            texel.swap(0, 2);
        }
    }
}
