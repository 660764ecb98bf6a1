//! Buffer creation and the validation scopes that every GPU water type and renderer uses, so
//! each turns wgpu's errors into a [`GpuError`] the same way.

use crate::error::GpuError;

pub(crate) fn storage_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

pub(crate) fn uniform_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytes,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

/// Checks that `needed` fits under a device limit.
pub(crate) fn check_limit(what: &'static str, needed: u64, limit: u64) -> Result<(), GpuError> {
    if needed > limit {
        Err(GpuError::TooLarge {
            what,
            needed,
            limit,
        })
    } else {
        Ok(())
    }
}

/// Runs `work` (which submits to the queue) inside a validation error scope. The crate's own
/// commands are valid for a live device, so an error here means the device is gone.
pub(crate) fn submitted<T>(device: &wgpu::Device, work: impl FnOnce() -> T) -> Result<T, GpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = work();
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(GpuError::DeviceLost(e.to_string())),
        None => Ok(value),
    }
}

/// Runs `create` inside a validation error scope and turns an error into a [`GpuError`].
pub(crate) fn validated<T>(
    device: &wgpu::Device,
    create: impl FnOnce() -> T,
) -> Result<T, GpuError> {
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = create();
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(GpuError::Validation(e.to_string())),
        None => Ok(value),
    }
}
