//! The meshes `water render` draws beside the water: each floating body's hulls, and the
//! scenario's land as blocks.

use glam::{Affine3A, Vec2, Vec3};
use water_buoyancy::FloatingBody;
use water_core::{GridSize, LandMask};
use water_gpu::{box_meshes, GpuError, HullMesh};
use water_render::BodyDraw;
use water_scene::Scene;

/// The scene's floating bodies in the water's frame.
pub(crate) fn bodies_of(scene: &Scene) -> impl Iterator<Item = &FloatingBody> {
    scene
        .body_ids()
        .filter_map(move |id| scene.floating_body(id).ok())
}

/// Hull meshes of a scenario's bodies, and one mesh for its land.
pub(crate) struct BodyMeshes {
    /// Per body, per hull.
    hulls: Vec<Vec<HullMesh>>,
    land: Option<HullMesh>,
}

impl BodyMeshes {
    pub(crate) fn new<'a>(
        device: &wgpu::Device,
        bodies: impl Iterator<Item = &'a FloatingBody>,
        land: &LandMask,
        cell: f32,
    ) -> Result<Self, GpuError> {
        let hulls = bodies
            .map(|body| {
                body.hulls
                    .iter()
                    .map(|h| HullMesh::new(device, &h.surface().vertices, &h.surface().triangles))
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut meshes = Self { hulls, land: None };
        meshes.set_land(device, land, cell)?;
        Ok(meshes)
    }

    /// Builds the land's mesh anew (a grid that follows a focus brings land in and out).
    pub(crate) fn set_land(
        &mut self,
        device: &wgpu::Device,
        land: &LandMask,
        cell: f32,
    ) -> Result<(), GpuError> {
        let (vertices, triangles) = land_blocks(land, cell);
        self.land = if triangles.is_empty() {
            None
        } else {
            Some(HullMesh::new(device, &vertices, &triangles)?)
        };
        Ok(())
    }

    /// This frame's draws: bodies where they float (their height drawn at the waves' scale, so
    /// they ride the drawn waves) in a frame whose origin is at `origin` in the world, land as
    /// it is.
    pub(crate) fn draws<'a>(
        &'a self,
        bodies: impl Iterator<Item = &'a FloatingBody>,
        height_scale: f32,
        origin: Vec2,
    ) -> Vec<BodyDraw<'a>> {
        let mut draws = Vec::new();
        for (body, meshes) in bodies.zip(&self.hulls) {
            let mut pose = body.body.state.pose;
            pose.position -= origin.extend(0.0);
            pose.position.z *= height_scale.min(1.0);
            for (hull, mesh) in body.hulls.iter().zip(meshes) {
                let world = hull.world_pose(&pose);
                draws.push(BodyDraw {
                    mesh,
                    transform: Affine3A::from_rotation_translation(
                        world.orientation,
                        world.position,
                    ),
                    colour: Vec3::new(0.55, 0.32, 0.12),
                });
            }
        }
        if let Some(land) = &self.land {
            draws.push(BodyDraw {
                mesh: land,
                transform: Affine3A::IDENTITY,
                colour: Vec3::new(0.45, 0.42, 0.35),
            });
        }
        draws
    }
}

/// Land as blocks, one per run of land cells along a row, from well under the floor to a little
/// above the water: `(vertices, triangles)` counter-clockwise seen from outside.
pub(crate) fn land_blocks(land: &LandMask, cell: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let size: GridSize = land.size();
    let (bottom, top) = (-(size.width().max(size.height()) as f32) * cell, 2.0 * cell);
    let mut boxes = Vec::new();
    for y in 0..size.height() {
        let mut x = 0;
        while x < size.width() {
            if !land.is_land(x, y) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < size.width() && land.is_land(x, y) {
                x += 1;
            }
            boxes.push((
                Vec3::new(x0 as f32 * cell, y as f32 * cell, bottom),
                Vec3::new(x as f32 * cell, (y + 1) as f32 * cell, top),
            ));
        }
    }
    box_meshes(&boxes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn land_blocks_cover_each_run_of_land_once() {
        let size = GridSize::new(6, 3).expect("size");
        let mut land = LandMask::empty(size);
        land.add_rect(1, 0, 3, 2).expect("rect");
        land.add_rect(5, 2, 6, 3).expect("rect");
        let (vertices, triangles) = land_blocks(&land, 0.5);
        // Rows 0 and 1 have one run each, row 2 one: three blocks.
        assert_eq!(vertices.len(), 3 * 8);
        assert_eq!(triangles.len(), 3 * 12);
        // Every face points away from its block's centre.
        for block in 0..3 {
            let corners = &vertices[block * 8..block * 8 + 8];
            let centre = corners.iter().copied().sum::<Vec3>() / 8.0;
            for t in &triangles[block * 12..block * 12 + 12] {
                let [a, b, c] = t.map(|i| vertices[i as usize]);
                assert!((b - a).cross(c - a).dot(a - centre) > 0.0, "{t:?}");
            }
        }
    }
}
