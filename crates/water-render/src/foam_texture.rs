//! A grid's foam coverage uploaded from the CPU (`water_scene::Scene::foam_coverage`, or a
//! `water_core::FoamField`), drawn white by [`super::OceanSurfaceRenderer`] where the grid lies.

use water_core::GridSize;

use super::cell_texture::CellTexture;
use water_gpu::GpuError;

/// One `R32Float` texel per cell: the foam's coverage, 0 (none) to 1 (white).
///
/// ```no_run
/// # fn draw(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), Box<dyn std::error::Error>> {
/// use water_core::GridSize;
/// use water_render::FoamTexture;
/// let mut foam = FoamTexture::new(device, GridSize::new(64, 64)?);
/// let coverage = vec![0.25; 64 * 64]; // a quarter white everywhere
/// foam.write(queue, &coverage)?;
/// // Pass `foam.view()` as `InteractiveGrid::foam`.
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct FoamTexture {
    cells: CellTexture,
    /// The coverage as written: clamped to [0, 1], NaN as 0.
    scratch: Vec<f32>,
}

impl FoamTexture {
    /// No foam on `size` cells.
    #[must_use]
    pub fn new(device: &wgpu::Device, size: GridSize) -> Self {
        Self {
            cells: CellTexture::new(device, "water foam", size),
            scratch: Vec::with_capacity(size.cells()),
        }
    }

    /// The grid's size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.cells.size()
    }

    /// Replaces the coverage with `coverage` (row-major, one value per cell), each clamped to
    /// `[0, 1]` and a NaN taken as no foam.
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when `coverage` is not one value per cell.
    pub fn write(&mut self, queue: &wgpu::Queue, coverage: &[f32]) -> Result<(), GpuError> {
        self.scratch.clear();
        self.scratch.extend(coverage.iter().map(
            |&f| {
                if f.is_nan() {
                    0.0
                } else {
                    f.clamp(0.0, 1.0)
                }
            },
        ));
        self.cells
            .write(queue, &self.scratch, "foam coverage cells")
    }

    /// The view to pass as [`super::InteractiveGrid::foam`].
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        self.cells.view()
    }
}
