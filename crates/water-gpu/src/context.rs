//! A headless device for programs and tests that have no renderer of their own.
//!
//! A library user with a renderer passes its own `&wgpu::Device` and `&wgpu::Queue` to the
//! backends instead; [`GpuContext`] is only a convenience.

use std::sync::{Arc, Mutex, PoisonError};

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
    /// Errors the device raised outside the crate's error scopes, kept for
    /// [`GpuContext::raised_error`] ([`GpuContext::headless`] installs the handler that keeps
    /// them; a context made with [`GpuContext::new`] leaves the caller's handler alone).
    pub device_errors: DeviceErrors,
}

/// The first error a device raised outside any error scope, kept instead of wgpu's default
/// handler's panic (an out-of-memory texture in a render, say), so a program can report it as a
/// [`GpuError`] and exit cleanly. The work that raised it produced an invalid resource; what
/// uses that resource afterwards fails too, and this error names the cause.
#[derive(Debug, Clone, Default)]
pub struct DeviceErrors(Arc<Mutex<Option<GpuError>>>);

impl DeviceErrors {
    /// Installs the keeping handler on `device` and returns its store.
    #[must_use]
    pub fn install(device: &wgpu::Device) -> Self {
        let errors = Self::default();
        let store = Arc::clone(&errors.0);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            let error = match error {
                wgpu::Error::OutOfMemory { .. } => GpuError::OutOfMemory(error.to_string()),
                other => GpuError::Validation(other.to_string()),
            };
            store
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(error);
        }));
        errors
    }

    /// The first error kept since the last call, taken out of the store.
    pub fn take(&self) -> Option<GpuError> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

impl GpuContext {
    /// A context of the caller's own adapter, device and queue (a renderer's). Nothing is
    /// installed on the device: errors outside the crate's scopes go to the caller's handler.
    #[must_use]
    pub fn new(adapter: wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Self {
        Self {
            adapter,
            device,
            queue,
            device_errors: DeviceErrors::default(),
        }
    }

    /// The first error the device raised outside the crate's error scopes since the last call,
    /// as a [`GpuError`] (only [`GpuContext::headless`] devices keep them).
    ///
    /// # Errors
    /// That error.
    pub fn raised_error(&self) -> Result<(), GpuError> {
        self.device_errors.take().map_or(Ok(()), Err)
    }

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
        // wgpu's default handler panics on an error outside a scope (an out-of-memory texture
        // under `ulimit -v`, say): keep it and let the caller report it.
        let device_errors = DeviceErrors::install(&device);
        Ok(Self {
            adapter,
            device,
            queue,
            device_errors,
        })
    }

    /// A one-line description of the adapter: name, backend and device type.
    #[must_use]
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
    }
}
