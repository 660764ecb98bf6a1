//! A headless device for programs and tests that have no renderer of their own.
//!
//! A library user with a renderer passes its own `&wgpu::Device` and `&wgpu::Queue` to the
//! backends instead; [`GpuContext`] is only a convenience.

use crate::error::GpuError;

/// An adapter, a device and its queue.
#[derive(Debug, Clone)]
pub struct GpuContext {
    /// The adapter the device came from.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// Features the backends use when the adapter offers them: timestamp queries for GPU timing
    /// (`water bench`). Nothing else is required.
    #[must_use]
    pub fn wanted_features() -> wgpu::Features {
        wgpu::Features::TIMESTAMP_QUERY
    }

    /// Creates a device on the first adapter wgpu finds (any backend, hardware preferred,
    /// software rasterisers such as lavapipe accepted), with the adapter's own limits so large
    /// grids fit.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when there is no adapter, [`GpuError::RequestDevice`] when it
    /// refuses the device.
    pub fn headless() -> Result<Self, GpuError> {
        pollster::block_on(Self::headless_async())
    }

    /// The async form of [`GpuContext::headless`].
    ///
    /// # Errors
    /// As [`GpuContext::headless`].
    pub async fn headless_async() -> Result<Self, GpuError> {
        // Vulkan, Metal or DX12 first; OpenGL only where none of those has an adapter.
        let mut errors = Vec::new();
        let mut found = None;
        for backends in [wgpu::Backends::PRIMARY, wgpu::Backends::SECONDARY] {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
                backends,
                ..wgpu::InstanceDescriptor::new_without_display_handle()
            });
            let request = instance.request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            });
            match request.await {
                Ok(adapter) => {
                    found = Some(adapter);
                    break;
                }
                Err(e) => errors.push(format!("{backends:?}: {e}")),
            }
        }
        let adapter = found.ok_or_else(|| GpuError::NoAdapter(errors.join("; ")))?;
        let features = adapter.features() & Self::wanted_features();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("water headless device"),
                required_features: features,
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::RequestDevice(e.to_string()))?;
        Ok(Self {
            adapter,
            device,
            queue,
        })
    }

    /// A one-line description of the adapter: name, backend and device type.
    #[must_use]
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }
}
