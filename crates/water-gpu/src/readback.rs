//! Reading GPU buffers back: an asynchronous map that a caller polls, and a blocking helper.

use std::sync::{mpsc, Mutex};

use crate::device_traffic::{count_read_back, count_wait};
use crate::error::GpuError;

/// A copy of a GPU buffer on its way to the host. Poll the device (or call
/// [`PendingReadback::wait`]) until [`PendingReadback::try_take`] returns the data.
#[derive(Debug)]
pub struct PendingReadback {
    device: wgpu::Device,
    staging: wgpu::Buffer,
    /// Behind a mutex so the readback is `Sync` (an ECS component or resource can hold it).
    result: Mutex<mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>>,
    /// `(row bytes, padded row bytes)` of a texture copy, whose rows are padded to
    /// `wgpu::COPY_BYTES_PER_ROW_ALIGNMENT` in the staging buffer; `None` for a buffer copy.
    rows: Option<(usize, usize)>,
    /// Bytes handed back: the data without row padding, cut to this length.
    len: usize,
}

impl PendingReadback {
    /// Records a copy of `size` bytes of `source` into a staging buffer, submits it, and starts
    /// mapping the staging buffer.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when wgpu rejects the copy: the calls are valid for a live
    /// device, so a rejection means the device (or its buffers) is gone.
    pub fn start(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        source: &wgpu::Buffer,
        size: u64,
    ) -> Result<Self, GpuError> {
        Self::checked(device, || {
            let staging = Self::staging(device, size);
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("water readback copy"),
            });
            encoder.copy_buffer_to_buffer(source, 0, &staging, 0, size);
            queue.submit([encoder.finish()]);
            Self::map(device, staging, None, size as usize, None)
        })
    }

    /// Records a copy of the whole of a 2-D `texture` into a staging buffer, submits it, and
    /// starts mapping; [`PendingReadback::try_take`] then gives the texels row after row without
    /// the copy's row padding, cut to the first `len` bytes.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when wgpu rejects the copy (see [`PendingReadback::start`]).
    pub fn start_texture(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture: &wgpu::Texture,
        bytes_per_texel: u32,
        len: usize,
    ) -> Result<Self, GpuError> {
        let (row, padded) = Self::texture_rows(texture, bytes_per_texel);
        Self::checked(device, || {
            let staging = Self::staging(device, u64::from(padded) * u64::from(texture.height()));
            let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("water texture readback"),
            });
            Self::copy_texture(&mut encoder, texture, &staging, 0, padded);
            queue.submit([encoder.finish()]);
            let len = len.min(row as usize * texture.height() as usize);
            Self::map(
                device,
                staging,
                Some((row as usize, padded as usize)),
                len,
                None,
            )
        })
    }

    /// Records copies of the whole of both `textures` (2-D, of one size and format,
    /// `bytes_per_texel` each), one after the other, into a staging buffer in the caller's
    /// encoder, mapped when the encoder is submitted; [`PendingReadback::try_take`] then gives
    /// their texels, row after row and texture after texture, without the copy's row padding.
    /// **Records only.**
    pub(crate) fn record_textures(
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        textures: [&wgpu::Texture; 2],
        bytes_per_texel: u32,
    ) -> Self {
        let first = textures[0];
        let (row, padded) = Self::texture_rows(first, bytes_per_texel);
        let each = u64::from(padded) * u64::from(first.height());
        let staging = Self::staging(device, each * textures.len() as u64);
        for (i, texture) in textures.iter().enumerate() {
            Self::copy_texture(encoder, texture, &staging, i as u64 * each, padded);
        }
        let len = row as usize * first.height() as usize * textures.len();
        Self::map(
            device,
            staging,
            Some((row as usize, padded as usize)),
            len,
            Some(&*encoder),
        )
    }

    /// A row's bytes of `texture`, and the same padded to `wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`.
    fn texture_rows(texture: &wgpu::Texture, bytes_per_texel: u32) -> (u32, u32) {
        let row = texture.width() * bytes_per_texel;
        (
            row,
            row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT),
        )
    }

    /// Records the copy of the whole of `texture` into `staging` at `offset`, rows `padded`
    /// bytes apart.
    fn copy_texture(
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        staging: &wgpu::Buffer,
        offset: u64,
        padded: u32,
    ) {
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset,
                    bytes_per_row: Some(padded),
                    rows_per_image: None,
                },
            },
            texture.size(),
        );
    }

    /// Records copies of the whole of each of `sources`, one after another, into a staging
    /// buffer in the caller's encoder, and has the staging buffer mapped when the encoder is
    /// submitted (`CommandEncoder::map_buffer_on_submit`): nothing waits, and
    /// [`PendingReadback::try_take`] gives the bytes once the caller has submitted and the
    /// device has been polled. **Records only.**
    pub(crate) fn record(
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        sources: &[&wgpu::Buffer],
    ) -> Self {
        let size: u64 = sources.iter().map(|b| b.size()).sum();
        let staging = Self::staging(device, size);
        let mut offset = 0;
        for source in sources {
            encoder.copy_buffer_to_buffer(source, 0, &staging, offset, source.size());
            offset += source.size();
        }
        Self::map(device, staging, None, size as usize, Some(&*encoder))
    }

    /// Runs `start` in a validation scope: the copies are valid for a live device, so a
    /// rejection means the device (or its resources) is gone.
    fn checked(device: &wgpu::Device, start: impl FnOnce() -> Self) -> Result<Self, GpuError> {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let pending = start();
        match pollster::block_on(scope.pop()) {
            Some(e) => Err(GpuError::DeviceLost(e.to_string())),
            None => Ok(pending),
        }
    }

    fn staging(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("water readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// A readback of `staging`, its mapping asked for now (it completes once the work submitted
    /// so far is done), or, with `on_submit`, when that encoder is submitted.
    fn map(
        device: &wgpu::Device,
        staging: wgpu::Buffer,
        rows: Option<(usize, usize)>,
        len: usize,
        on_submit: Option<&wgpu::CommandEncoder>,
    ) -> Self {
        let (sender, result) = mpsc::channel();
        let report = move |r: Result<(), wgpu::BufferAsyncError>| {
            // The receiver may be gone if the readback was dropped; nothing to report.
            let _ = sender.send(r);
        };
        match on_submit {
            None => staging.slice(..).map_async(wgpu::MapMode::Read, report),
            Some(encoder) => {
                encoder.map_buffer_on_submit(&staging, wgpu::MapMode::Read, .., report);
            }
        }
        Self {
            device: device.clone(),
            staging,
            result: Mutex::new(result),
            rows,
            len,
        }
    }

    /// The bytes, if the map has completed; `None` while it is pending. Call after polling the
    /// device (e.g. `device.poll(wgpu::PollType::Poll)` in a frame loop).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the map failed.
    pub fn try_take(&self) -> Option<Result<Vec<u8>, GpuError>> {
        // A poisoned lock only means another thread panicked while holding it; the receiver
        // inside is intact.
        let received = self
            .result
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .try_recv();
        match received {
            Ok(Ok(())) => {
                let bytes = {
                    let range = self.staging.slice(..).get_mapped_range();
                    match self.rows {
                        None => range[..self.len].to_vec(),
                        Some((row, padded)) => range
                            .chunks_exact(padded)
                            .flat_map(|r| &r[..row])
                            .take(self.len)
                            .copied()
                            .collect(),
                    }
                };
                self.staging.unmap();
                count_read_back(self.staging.size());
                Some(Ok(bytes))
            }
            Ok(Err(e)) => Some(Err(GpuError::DeviceLost(e.to_string()))),
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(GpuError::DeviceLost(
                "the readback callback was dropped".into(),
            ))),
        }
    }

    /// Blocks until the bytes are on the host.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the device stops answering or the map fails.
    pub fn wait(self) -> Result<Vec<u8>, GpuError> {
        count_wait();
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::DeviceLost(e.to_string()))?;
        self.try_take().unwrap_or_else(|| {
            Err(GpuError::DeviceLost(
                "the readback did not complete after waiting for the device".into(),
            ))
        })
    }
}

/// Little-endian bytes to f32 values.
#[must_use]
pub fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytemuck::pod_collect_to_vec(bytes)
}

/// Little-endian bytes to i32 values.
#[must_use]
pub fn i32s(bytes: &[u8]) -> Vec<i32> {
    bytemuck::pod_collect_to_vec(bytes)
}

/// Reads a whole 2-D texture back (blocking), without the row padding copies need.
///
/// # Errors
/// [`GpuError::DeviceLost`] when the device no longer accepts work.
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    bytes_per_texel: u32,
) -> Result<Vec<u8>, GpuError> {
    PendingReadback::start_texture(device, queue, texture, bytes_per_texel, usize::MAX)?.wait()
}
