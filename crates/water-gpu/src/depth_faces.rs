//! Water of varying depth on the GPU: water-core's [`FaceCourants`] as the step kernels read
//! them (`face_at` of `shaders/grid_step.wgsl` and `shaders/grid_step_fragment.wgsl`, for the
//! `depth_enabled` path of `shaders/shared/depth_cell.wgsl`), and the checks both backends
//! make before they take a depth.

use water_core::kernels::depth_step::FaceCourants;
use water_core::{Depth, GridMode, LandMask};

use crate::error::GpuError;
use crate::spec::GridSpec;
use crate::storage::StorageFormat;

/// The name of the pipeline constant that turns the depth path on.
pub(crate) const DEPTH_ENABLED: &str = "depth_enabled";

/// One `vec4<f32>` per cell, row-major: the east face's and the south face's Courant numbers,
/// Mur's coefficient of the cell's own `a`, and 0.
pub(crate) fn face_texels(faces: &FaceCourants) -> Vec<[f32; 4]> {
    faces
        .east()
        .iter()
        .zip(faces.south())
        .zip(faces.mur())
        .map(|((&east, &south), &mur)| [east, south, mur, 0.0])
        .collect()
}

/// The faces of `depth` for a grid of `spec` stored as `storage`, once the grid may take a
/// depth: a signed or split grid with f32 storage, of the depth's size.
pub(crate) fn faces_for(
    spec: &GridSpec,
    storage: StorageFormat,
    depth: &Depth,
) -> Result<FaceCourants, GpuError> {
    if spec.mode == GridMode::Classic {
        return Err(GpuError::WrongMode {
            operation: "set_depth",
            mode: spec.mode,
            instead: "a signed or split grid (classic heights have no physical units)",
        });
    }
    if storage != StorageFormat::F32 {
        return Err(GpuError::StorageNotOffered {
            storage,
            reason: "for water of varying depth, which steps with f32 storage",
        });
    }
    spec.size.check_len("depth map", depth.cells().len())?;
    Ok(FaceCourants::new(
        depth,
        spec.coefficients().a,
        spec.boundary,
    ))
}

/// The land a grid holds: what the caller set, and the depth's dry cells.
#[derive(Debug, Clone)]
pub(crate) struct LandParts {
    /// As the caller set it.
    pub placed: LandMask,
    /// The depth's cells at or below 0 m.
    pub dry: Option<LandMask>,
}

impl LandParts {
    /// No land.
    pub(crate) fn none(spec: &GridSpec) -> Self {
        Self {
            placed: LandMask::empty(spec.size),
            dry: None,
        }
    }

    /// Both moved with a window shift (new cell `(x, y)` takes old cell `(x + dx, y + dy)`),
    /// as the CPU grids move their land; the union after the move.
    pub(crate) fn shift(&mut self, dx: isize, dy: isize) -> Result<LandMask, GpuError> {
        self.placed.shift(dx, dy);
        if let Some(dry) = &mut self.dry {
            dry.shift(dx, dy);
        }
        self.combined()
    }

    /// The union of both.
    pub(crate) fn combined(&self) -> Result<LandMask, GpuError> {
        Ok(match &self.dry {
            Some(dry) => self.placed.union(dry)?,
            None => self.placed.clone(),
        })
    }
}
