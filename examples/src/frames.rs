//! Drawing a scene's frames: the picture they are drawn into, and one frame drawn and read
//! back.

use water_gpu::{GpuContext, GpuError};
use water_render::{OffscreenTarget, RgbaImage};

use crate::SceneOptions;

/// The picture a scene's frames are drawn into: `options.width` x `options.height`, sRGB.
///
/// # Errors
/// A size the device refuses.
pub fn frame_target(gpu: &GpuContext, options: &SceneOptions) -> Result<OffscreenTarget, GpuError> {
    OffscreenTarget::new(
        &gpu.device,
        &gpu.queue,
        options.width,
        options.height,
        wgpu::TextureFormat::Rgba8UnormSrgb,
    )
}

/// One frame: the commands `encode` records into `target`, submitted and read back.
///
/// # Errors
/// What `encode` returns; a failed readback.
pub fn draw_frame(
    gpu: &GpuContext,
    target: &OffscreenTarget,
    encode: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<(), GpuError>,
) -> Result<RgbaImage, GpuError> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encode(&mut encoder)?;
    gpu.queue.submit([encoder.finish()]);
    target.read()
}
