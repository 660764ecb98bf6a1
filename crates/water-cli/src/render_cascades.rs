//! The coarser cascades of a render at sea: every cascade beyond the scene's grid resampled,
//! blended as the scene blends them ([`Scene::cascade_heights_over`]), onto one grid over the
//! coarsest cascade, uploaded each frame and drawn around the grid
//! ([`water_render::SurroundingWater`]): a wake carried on past the finest grid shows.

use water_core::{GridSize, HeightView};
use water_gpu::wgpu;
use water_render::{CpuSurfaceTexture, SurroundingWater};
use water_scene::{Scene, SceneError};

use crate::run::RunError;

/// Most cells along a side of the resampled grid: 1024 x 1024 texels of 16 bytes (16 MiB),
/// whatever the cascades' reach.
pub const MAX_SURROUNDING_CELLS: usize = 1024;

/// The resampled grid of a cascaded scene and its texture.
pub struct CascadeSurround {
    texture: CpuSurfaceTexture,
    /// Its cell, m: cascade 1's, or coarser where the coarsest cascade's reach needs more than
    /// [`MAX_SURROUNDING_CELLS`] of those.
    cell: f32,
}

impl CascadeSurround {
    /// For `scene`'s cascades, `None` with the grid alone.
    ///
    /// # Errors
    /// The cascades' specs (none for a scene that has them).
    pub fn for_scene(device: &wgpu::Device, scene: &Scene) -> Result<Option<Self>, RunError> {
        let count = scene.cascade_count();
        if count < 2 {
            return Ok(None);
        }
        let coarsest = scene.cascade_spec(count - 1)?;
        let reach =
            coarsest.size.width().max(coarsest.size.height()) as f64 * coarsest.params.cell_size();
        let cell = scene
            .cascade_spec(1)?
            .params
            .cell_size()
            .max(reach / MAX_SURROUNDING_CELLS as f64);
        let side = ((reach / cell).ceil() as usize).clamp(1, MAX_SURROUNDING_CELLS);
        let size = GridSize::new(side, side).map_err(SceneError::from)?;
        Ok(Some(Self {
            texture: CpuSurfaceTexture::new(device, size),
            cell: cell as f32,
        }))
    }

    /// The cascades now, resampled and uploaded, placed over the coarsest cascade.
    ///
    /// # Errors
    /// What the scene's reads and the upload report.
    pub fn update(
        &mut self,
        scene: &mut Scene,
        queue: &wgpu::Queue,
    ) -> Result<SurroundingWater<'_>, RunError> {
        let origin = scene.cascade_origin(scene.cascade_count() - 1)?.as_vec2();
        let size = self.texture.size();
        let heights = scene.cascade_heights_over(origin, self.cell, size)?;
        let view = HeightView::new(size, self.cell, &heights).map_err(SceneError::from)?;
        self.texture.write(queue, &view)?;
        Ok(SurroundingWater {
            surface: self.texture.view(),
            size,
            cell_size: self.cell,
            origin,
        })
    }

    /// Bytes of its texture and heights on the host, for the memory check: at the largest
    /// size it takes ([`MAX_SURROUNDING_CELLS`] a side), whatever the scene's cascades reach.
    #[must_use]
    pub fn bytes(scene_cascades: usize) -> u64 {
        if scene_cascades < 2 {
            return 0;
        }
        let cells = (MAX_SURROUNDING_CELLS * MAX_SURROUNDING_CELLS) as u64;
        // The texels (16 bytes), their staging copy, and the heights (4 bytes).
        cells * (16 + 16 + 4)
    }
}
