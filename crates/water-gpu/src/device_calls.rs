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

/// A [`storage_buffer`] holding `bytes`, written through `queue`: the tables a kernel only
/// reads (mode factors, twiddles, amplitudes), uploaded once.
pub(crate) fn filled_storage_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    bytes: &[u8],
) -> wgpu::Buffer {
    let buffer = storage_buffer(device, label, bytes.len() as u64);
    queue.write_buffer(&buffer, 0, bytes);
    buffer
}

/// A uniform buffer holding `bytes`, copyable into (for per-frame updates).
pub fn uniform_buffer(device: &wgpu::Device, label: &str, bytes: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytes,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    })
}

/// Checks that `needed` fits under a device limit.
pub fn check_limit(what: &'static str, needed: u64, limit: u64) -> Result<(), GpuError> {
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

/// Checks that a storage buffer of `bytes` fits the device: its binding size and its buffer
/// size.
pub(crate) fn check_storage_bytes(device: &wgpu::Device, bytes: u64) -> Result<(), GpuError> {
    let limits = device.limits();
    check_limit(
        "storage buffer binding size (bytes)",
        bytes,
        limits.max_storage_buffer_binding_size,
    )?;
    check_limit("buffer size (bytes)", bytes, limits.max_buffer_size)
}

/// What `slot` holds, made by `make` inside a validation scope ([`validated`]) the first time
/// it is asked for: the pipelines a grid makes only when an operation first needs them (the
/// surface pass, the window shift), so that grids that never use them build nothing. An error
/// leaves `slot` empty, and nothing else has changed.
pub(crate) fn made_on_first_use<'a, T>(
    device: &wgpu::Device,
    slot: &'a mut Option<T>,
    make: impl FnOnce() -> T,
) -> Result<&'a T, GpuError> {
    if slot.is_none() {
        *slot = Some(validated(device, make)?);
    }
    let Some(made) = slot.as_ref() else {
        unreachable!("made above");
    };
    Ok(made)
}

/// Runs `work` (which submits to the queue) inside validation and out-of-memory error scopes.
/// The crate's own commands are valid for a live device, so a validation error here means the
/// device is gone.
pub(crate) fn submitted<T>(device: &wgpu::Device, work: impl FnOnce() -> T) -> Result<T, GpuError> {
    scoped(device, work, GpuError::DeviceLost)
}

/// Runs `create` inside validation and out-of-memory error scopes and turns an error into a
/// [`GpuError`].
pub fn validated<T>(device: &wgpu::Device, create: impl FnOnce() -> T) -> Result<T, GpuError> {
    scoped(device, create, GpuError::Validation)
}

/// `work` inside an out-of-memory scope holding a validation scope: a device out of memory is
/// [`GpuError::OutOfMemory`] (never the uncaptured-error handler's panic), a validation error
/// what `invalid` makes of it.
fn scoped<T>(
    device: &wgpu::Device,
    work: impl FnOnce() -> T,
    invalid: impl FnOnce(String) -> GpuError,
) -> Result<T, GpuError> {
    let memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = work();
    let invalid = pollster::block_on(validation.pop()).map(|e| invalid(e.to_string()));
    let memory = pollster::block_on(memory.pop()).map(|e| GpuError::OutOfMemory(e.to_string()));
    match memory.or(invalid) {
        Some(e) => Err(e),
        None => Ok(value),
    }
}

/// A 2-D texture of `width` x `height` texels with one mip level and one sample, as every
/// level and mask texture here, and every picture texture of water-render, is.
pub fn texture_2d(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// Records one compute pass of `pipeline` that dispatches `workgroups` once per bind group of
/// `groups`, in order (e.g. a step, or an impulse on each level it changes).
pub fn record_compute_pass<'a>(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    pipeline: &wgpu::ComputePipeline,
    groups: impl IntoIterator<Item = &'a wgpu::BindGroup>,
    [x, y, z]: [u32; 3],
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some(label),
        timestamp_writes: None,
    });
    pass.set_pipeline(pipeline);
    for group in groups {
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups(x, y, z);
    }
}

/// A bind group of `layout` giving `resources` the bindings 0, 1, 2, ... in order.
pub(crate) fn bind_in_order<'r>(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    resources: impl IntoIterator<Item = wgpu::BindingResource<'r>>,
) -> wgpu::BindGroup {
    bind_numbered(device, layout, label, (0..).zip(resources))
}

/// A bind group of `layout` giving each resource of `resources` the binding number paired with
/// it: for kernels whose bindings have gaps, or differ between their entry points.
pub(crate) fn bind_numbered<'r>(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    label: &str,
    resources: impl IntoIterator<Item = (u32, wgpu::BindingResource<'r>)>,
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
        .into_iter()
        .map(|(binding, resource)| wgpu::BindGroupEntry { binding, resource })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// A level texture of the fragment backends (`target`: rendered into by the steps) of
/// `extent`'s width and height.
pub(crate) fn level_texture(
    device: &wgpu::Device,
    label: &str,
    extent: wgpu::Extent3d,
    (format, target): (wgpu::TextureFormat, bool),
) -> wgpu::Texture {
    let size = (extent.width, extent.height);
    texture_2d(device, label, size, format, level_usage(target))
}

/// The usage of a level texture of the fragment backends: bound, written by uploads, read
/// back, and (`target`) rendered into by the steps.
pub(crate) fn level_usage(target: bool) -> wgpu::TextureUsages {
    let usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    if target {
        usage | wgpu::TextureUsages::RENDER_ATTACHMENT
    } else {
        usage
    }
}
