//! The cascades read as one surface ([`crate::Scene::set_cascades`]): every cascade's heights
//! (borrowed from CPU grids, read back from GPU ones) and the blend that takes each point from
//! the finest cascade covering it.

use std::borrow::Cow;

use glam::{Vec2, Vec3};
use water_core::{HeightSource, HeightView, PlacedWater, SurfaceLevel, SurfaceSample};
use water_gpu::GridSpec;

use super::cascades::{cascade_weight, edge_cells, signed_field, SceneCascades};
use crate::backend_grid::BackendGrid;
use crate::error::SceneError;
use crate::water::Water;

/// The cascades as one surface for the bodies ([`Scene::set_cascades`]): each point from the
/// finest cascade covering it, blended into the coarser ones and, across the coarsest's own
/// band, into still water, as [`Scene::cascade_height_at`] blends them; no water beyond the
/// coarsest.
pub(super) struct NestedWater<'a> {
    /// Coarsest first.
    levels: Vec<NestedLevel<'a>>,
}

struct NestedLevel<'a> {
    view: HeightView<'a>,
    /// The grid's corner (world, m), extent (m), cell (m) and absorbing band (cells).
    corner: Vec2,
    extent: Vec2,
    cell: f32,
    edge: f32,
}

/// Every cascade's current heights, coarsest first: borrowed in place from CPU grids, read
/// back from GPU ones (a wait). [`CascadeHeights::nested`] reads them as one surface.
pub(super) struct CascadeHeights<'a> {
    levels: Vec<(Cow<'a, [f32]>, GridSpec, Vec2)>,
}

impl<'a> CascadeHeights<'a> {
    /// The heights of the scene's grid `finest` (of `spec`, its corner at `corner`) and of
    /// `cascades`.
    ///
    /// # Errors
    /// [`SceneError::Cascades`] for a CPU grid that holds no signed heights (cascades never
    /// run on one); a failed GPU readback.
    pub(super) fn read(
        (finest, spec, corner): (&'a BackendGrid, &GridSpec, Vec2),
        cascades: &'a SceneCascades,
    ) -> Result<Self, SceneError> {
        let count = cascades.levels.len() + 1;
        let heights = |water: &'a BackendGrid| -> Result<Cow<'a, [f32]>, SceneError> {
            match water.gpu() {
                Some(_) => Ok(Cow::Owned(water.heights()?)),
                None => Ok(Cow::Borrowed(signed_field(water, count)?.current())),
            }
        };
        let mut levels = Vec::with_capacity(count);
        for c in cascades.levels.iter().rev() {
            levels.push((heights(&c.water)?, c.spec, c.window.origin().as_vec2()));
        }
        levels.push((heights(finest)?, *spec, corner));
        Ok(Self { levels })
    }

    /// The cascades as one surface.
    ///
    /// # Errors
    /// Heights of another length than their grid (cannot happen for a grid's own).
    pub(super) fn nested(&self) -> Result<NestedWater<'_>, SceneError> {
        let levels = self
            .levels
            .iter()
            .map(|(heights, spec, corner)| {
                let cell = spec.params.cell_size() as f32;
                let view = HeightView::new(spec.size, cell, heights)?;
                Ok(NestedLevel::new(view, spec, *corner))
            })
            .collect::<Result<_, SceneError>>()?;
        Ok(NestedWater { levels })
    }
}

impl<'a> NestedWater<'a> {
    /// One grid's heights `view` (of `spec`, its corner at `corner`) alone.
    pub(super) fn single(view: HeightView<'a>, spec: &GridSpec, corner: Vec2) -> Self {
        Self {
            levels: vec![NestedLevel::new(view, spec, corner)],
        }
    }

    /// `read` of each level covering `position`, folded from the coarsest in: each finer
    /// answer blended over the coarser by its level's weight, the coarsest's over `still`.
    fn blend<T: Copy>(
        &self,
        position: Vec3,
        read: impl Fn(&PlacedWater<'_, HeightView<'a>>) -> Option<T>,
        still: T,
        mix: impl Fn(T, T, f32) -> T,
    ) -> Option<T> {
        let mut found = None;
        for level in &self.levels {
            let Some(w) = level.weight(position.truncate()) else {
                continue;
            };
            let Some(answer) = read(&PlacedWater::new(&level.view, level.corner)) else {
                continue;
            };
            found = Some(mix(found.unwrap_or(still), answer, w));
        }
        found
    }
}

impl<'a> NestedLevel<'a> {
    /// `view`, the heights of a grid `spec` whose corner is at `corner` (world, m).
    fn new(view: HeightView<'a>, spec: &GridSpec, corner: Vec2) -> Self {
        let cell = spec.params.cell_size() as f32;
        Self {
            view,
            corner,
            extent: Vec2::new(spec.size.width() as f32, spec.size.height() as f32) * cell,
            cell,
            edge: edge_cells(spec),
        }
    }

    /// The hand-over weight at world point `xy`; `None` outside the grid.
    fn weight(&self, xy: Vec2) -> Option<f32> {
        let local = xy - self.corner;
        let distance = local.min(self.extent - local).min_element() / self.cell;
        (distance > 0.0).then(|| cascade_weight(distance, self.edge))
    }
}

impl HeightSource for NestedWater<'_> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        // Inside the coarsest's band the water fades to still water.
        let still = SurfaceSample {
            point: position.truncate().extend(0.0),
            normal: Vec3::Z,
            up: Vec3::Z,
        };
        self.blend(
            position,
            |water| water.surface_at(position),
            still,
            |outer, s, w| SurfaceSample {
                point: outer.point.lerp(s.point, w),
                normal: outer.normal.lerp(s.normal, w).normalize_or(s.normal),
                up: s.up,
            },
        )
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        let still = SurfaceLevel {
            point: position.truncate().extend(0.0),
            up: Vec3::Z,
        };
        self.blend(
            position,
            |water| water.level_at(position),
            still,
            |outer, l, w| SurfaceLevel {
                point: outer.point.lerp(l.point, w),
                up: l.up,
            },
        )
    }
}
