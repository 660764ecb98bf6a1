//! The device and the window's surface: an adapter that can present to the window, Vulkan
//! first (lavapipe presents to X11 too), OpenGL where Vulkan has none.

use std::sync::Arc;

use winit::event_loop::OwnedDisplayHandle;
use winit::window::Window;

use crate::error::DemoError;

/// A device, its queue and what it runs on.
#[derive(Debug)]
pub struct Gpu {
    /// The device everything is made on.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter it came from.
    pub adapter: wgpu::Adapter,
    /// What the adapter is.
    pub info: wgpu::AdapterInfo,
}

impl Gpu {
    /// A device without a window, for `--headless` checks.
    ///
    /// # Errors
    /// [`DemoError::Gpu`] when there is no adapter or it refuses a device.
    pub fn headless() -> Result<Self, DemoError> {
        let context = water_gpu::GpuContext::headless()?;
        Ok(Self {
            info: context.adapter.get_info(),
            device: context.device,
            queue: context.queue,
            adapter: context.adapter,
        })
    }

    /// The device as the library's scenes take it (handles to the same device and queue).
    #[must_use]
    pub fn context(&self) -> water_gpu::GpuContext {
        water_gpu::GpuContext::new(
            self.adapter.clone(),
            self.device.clone(),
            self.queue.clone(),
        )
    }

    /// Whether the adapter is a software rasteriser (lavapipe, llvmpipe): its timings say
    /// nothing about a GPU's.
    #[must_use]
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// `llvmpipe (LLVM 15.0.6, 256 bits), Vulkan, software rendering`.
    #[must_use]
    pub fn describe(&self) -> String {
        let kind = if self.is_software() {
            "software rendering".to_owned()
        } else {
            format!("{:?}", self.info.device_type)
        };
        format!("{}, {:?}, {kind}", self.info.name, self.info.backend)
    }
}

/// The window's swapchain and how it is configured.
#[derive(Debug)]
pub struct WindowSurface {
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    /// Set when the last texture was suboptimal: configure again before the next.
    stale: bool,
}

/// Makes a device that can draw into `window`, and the window's surface configured for it.
///
/// # Errors
/// [`DemoError::NoAdapter`] naming what each backend said; [`DemoError::Device`] when the
/// adapter refuses a device.
pub fn connect(
    window: &Arc<Window>,
    display: &OwnedDisplayHandle,
) -> Result<(Gpu, WindowSurface), DemoError> {
    let mut tried = Vec::new();
    // OpenGL needs the display connection up front; Vulkan takes it from the window.
    for (backends, with_display) in [(wgpu::Backends::PRIMARY, false), (wgpu::Backends::GL, true)] {
        let descriptor = if with_display {
            wgpu::InstanceDescriptor::new_with_display_handle(Box::new(display.clone()))
        } else {
            wgpu::InstanceDescriptor::new_without_display_handle()
        };
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends,
            ..descriptor
        });
        let surface = match instance.create_surface(Arc::clone(window)) {
            Ok(surface) => surface,
            Err(e) => {
                tried.push(format!("{backends:?}: no surface ({e})"));
                continue;
            }
        };
        let request = instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: Some(&surface),
        });
        let adapter = match pollster::block_on(request) {
            Ok(adapter) => adapter,
            Err(e) => {
                tried.push(format!("{backends:?}: {e}"));
                continue;
            }
        };
        let gpu = device_on(&adapter)?;
        let size = window.inner_size();
        let config = configuration(&surface, &adapter, size.width, size.height)?;
        surface.configure(&gpu.device, &config);
        return Ok((
            gpu,
            WindowSurface {
                surface,
                config,
                stale: false,
            },
        ));
    }
    Err(DemoError::NoAdapter(tried.join("; ")))
}

/// A device with the adapter's own limits (so the 1024-cell grid fits) and timestamp queries
/// where offered, as the library's headless device has.
fn device_on(adapter: &wgpu::Adapter) -> Result<Gpu, DemoError> {
    let features = adapter.features() & water_gpu::GpuContext::wanted_features();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("water-demo device"),
        required_features: features,
        required_limits: adapter.limits(),
        ..Default::default()
    }))
    .map_err(|e| DemoError::Device(e.to_string()))?;
    Ok(Gpu {
        device,
        queue,
        adapter: adapter.clone(),
        info: adapter.get_info(),
    })
}

/// An sRGB format if the surface has one (the picture is stored sRGB-encoded, and an sRGB
/// window keeps those bytes), and vsync (the one present mode every surface has).
fn configuration(
    surface: &wgpu::Surface<'_>,
    adapter: &wgpu::Adapter,
    width: u32,
    height: u32,
) -> Result<wgpu::SurfaceConfiguration, DemoError> {
    let caps = surface.get_capabilities(adapter);
    let mut config = surface
        .get_default_config(adapter, width.max(1), height.max(1))
        .ok_or_else(|| DemoError::NoAdapter("the adapter cannot present to the window".into()))?;
    if let Some(&srgb) = caps.formats.iter().find(|f| f.is_srgb()) {
        config.format = srgb;
    }
    config.present_mode = wgpu::PresentMode::AutoVsync;
    Ok(config)
}

impl WindowSurface {
    /// The swapchain's texel format.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// Follows the window to `width x height` pixels (a minimised window, 0 wide, keeps the
    /// last size: there is nothing to draw).
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        if width > 0 && height > 0 && (width, height) != (self.config.width, self.config.height) {
            self.config.width = width;
            self.config.height = height;
            self.surface.configure(device, &self.config);
            self.stale = false;
        }
    }

    /// The swapchain's size in pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// The next texture to draw into, or `None` when this frame should be skipped (the window
    /// is hidden, the swapchain was out of date and has been configured again).
    ///
    /// # Errors
    /// [`DemoError::Gpu`] when acquiring raised a validation error.
    pub fn acquire(
        &mut self,
        device: &wgpu::Device,
    ) -> Result<Option<wgpu::SurfaceTexture>, DemoError> {
        if self.stale {
            self.surface.configure(device, &self.config);
            self.stale = false;
        }
        match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(texture) => Ok(Some(texture)),
            wgpu::CurrentSurfaceTexture::Suboptimal(texture) => {
                self.stale = true;
                Ok(Some(texture))
            }
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => {
                Ok(None)
            }
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(device, &self.config);
                Ok(None)
            }
            wgpu::CurrentSurfaceTexture::Validation => Err(DemoError::Gpu(
                water_gpu::GpuError::Validation("acquiring the window's next texture".into()),
            )),
        }
    }
}
