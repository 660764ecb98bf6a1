//! Recording the grids' operations into a caller's `wgpu::CommandEncoder`.
//!
//! `queue.write_buffer` and `queue.write_texture` do not take part in an encoder's order: every
//! write queued before a submission lands before *all* of that submission's command buffers. Two
//! operations recorded into one encoder that each wrote the same uniform or mask through the
//! queue would both see the last write. So per-operation data goes into a fresh staging buffer
//! (`create_buffer_init`, its contents fixed at creation) and reaches the shared buffer or
//! texture through a copy recorded in the encoder, in order with the passes around it. Then N
//! operations recorded into one encoder do exactly what N separate submissions do.

use wgpu::util::DeviceExt;

use crate::device_calls::submitted;
use crate::error::GpuError;

/// Records a copy of `bytes` into `target` at offset 0 (`bytes.len()` a multiple of 4, the
/// target `COPY_DST`).
pub(crate) fn record_buffer_write(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    target: &wgpu::Buffer,
    bytes: &[u8],
) {
    let staging = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("water staging"),
        contents: bytes,
        usage: wgpu::BufferUsages::COPY_SRC,
    });
    encoder.copy_buffer_to_buffer(&staging, 0, target, 0, Some(bytes.len() as u64));
}

/// Rows of `row_bytes` bytes padded to the copy alignment of buffer-to-texture copies.
fn padded_rows(bytes: &[u8], row_bytes: usize) -> (Vec<u8>, u32) {
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize;
    let padded = row_bytes.div_ceil(align) * align;
    if padded == row_bytes {
        return (bytes.to_vec(), padded as u32);
    }
    let mut out = vec![0u8; bytes.len() / row_bytes * padded];
    for (src, dst) in bytes
        .chunks_exact(row_bytes)
        .zip(out.chunks_exact_mut(padded))
    {
        dst[..row_bytes].copy_from_slice(src);
    }
    (out, padded as u32)
}

/// Records a copy of `bytes` (tightly packed rows of `texel_bytes` texels, `extent.width`
/// texels per row) into the rectangle of `texture` at `origin`.
pub(crate) fn record_texture_write(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    origin: wgpu::Origin3d,
    extent: wgpu::Extent3d,
    texel_bytes: u32,
    bytes: &[u8],
) {
    let (padded, bytes_per_row) = padded_rows(bytes, (extent.width * texel_bytes) as usize);
    let staging = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("water staging texels"),
        contents: &padded,
        usage: wgpu::BufferUsages::COPY_SRC,
    });
    encoder.copy_buffer_to_texture(
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(bytes_per_row),
                rows_per_image: None,
            },
        },
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin,
            aspect: wgpu::TextureAspect::All,
        },
        extent,
    );
}

/// Makes an encoder, lets `record` fill it and submits it, inside a validation error scope: the
/// submitting methods of the grids are this around their `encode_` twins. An error `record`
/// returns means nothing was submitted.
pub(crate) fn submit_recorded<T>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    record: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<T, GpuError>,
) -> Result<T, GpuError> {
    submitted(device, || {
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        let value = record(&mut encoder)?;
        queue.submit([encoder.finish()]);
        Ok(value)
    })?
}

#[cfg(test)]
mod tests {
    use super::padded_rows;

    #[test]
    fn rows_are_padded_to_the_copy_alignment_and_keep_their_bytes() {
        // Three rows of 12 bytes: each must start at a multiple of 256 after padding.
        let bytes: Vec<u8> = (0..36).collect();
        let (padded, stride) = padded_rows(&bytes, 12);
        assert_eq!(stride, 256);
        assert_eq!(padded.len(), 3 * 256);
        for row in 0..3 {
            assert_eq!(
                &padded[row * 256..row * 256 + 12],
                &bytes[row * 12..row * 12 + 12]
            );
            assert!(padded[row * 256 + 12..(row + 1) * 256]
                .iter()
                .all(|&b| b == 0));
        }
        // Already aligned rows are left as they are.
        let aligned = vec![7u8; 512];
        assert_eq!(padded_rows(&aligned, 256), (aligned.clone(), 256));
    }
}
