//! A grid's normal-and-height texture written from heights on the CPU: what the renderers read
//! from a GPU grid ([`water_gpu::GpuGridWater::update_normal_height`]), for water stepped on the CPU (a
//! scene's cascades, say, which run there only).

use water_core::{GridSize, HeightView};

use super::cell_texture::CellTexture;
use water_gpu::GpuError;

/// One `Rgba32Float` texel per cell: the unit normal (xyz) and the height (w, m), the layout of
/// `shaders/surface_normals.wgsl`, with the normals from its CPU twin
/// ([`HeightView::cell_normal`]). Pass [`CpuSurfaceTexture::view`] where a renderer takes a
/// grid's surface.
///
/// ```no_run
/// # fn draw(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), Box<dyn std::error::Error>> {
/// use water_core::{GridSize, HeightView};
/// use water_render::CpuSurfaceTexture;
/// let size = GridSize::new(64, 64)?;
/// let mut surface = CpuSurfaceTexture::new(device, size);
/// let heights = vec![0.0; 64 * 64]; // the CPU grid's heights
/// surface.write(queue, &HeightView::new(size, 0.25, &heights)?)?;
/// // Pass `surface.view()` as `InteractiveGrid::surface`.
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct CpuSurfaceTexture {
    cells: CellTexture,
    /// The texels as written.
    scratch: Vec<f32>,
}

impl CpuSurfaceTexture {
    /// Still water (zero texels) on `size` cells.
    #[must_use]
    pub fn new(device: &wgpu::Device, size: GridSize) -> Self {
        Self {
            cells: CellTexture::rgba(device, "water surface from the CPU", size),
            scratch: Vec::with_capacity(size.cells() * 4),
        }
    }

    /// The grid's size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.cells.size()
    }

    /// Replaces the texels with each cell's normal and height in `heights`.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when `heights` is not of this texture's size.
    pub fn write(&mut self, queue: &wgpu::Queue, heights: &HeightView<'_>) -> Result<(), GpuError> {
        let size = self.size();
        if heights.size() != size {
            return Err(GpuError::BadRenderSetting {
                what: "surface heights (cells)",
                value: format!("{} x {}", heights.size().width(), heights.size().height()),
                requirement: "the surface texture's size",
            });
        }
        self.scratch.clear();
        for y in 0..size.height() {
            for x in 0..size.width() {
                let n = heights.cell_normal(x, y);
                let h = heights.cell(x, y);
                // A height that is not finite is drawn flat (the scene refuses to go on with one).
                let (n, h) = if n.is_finite() && h.is_finite() {
                    (n, h)
                } else {
                    (glam::Vec3::Z, 0.0)
                };
                self.scratch.extend_from_slice(&[n.x, n.y, n.z, h]);
            }
        }
        self.cells
            .write(queue, &self.scratch, "surface texels (normal and height)")
    }

    /// The view to pass where a renderer takes a grid's surface.
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        self.cells.view()
    }
}
