//! A hull's closed triangle mesh on the GPU, uploaded once and drawn every frame by
//! [`crate::ContactMaskRenderer`] wherever the hull is that frame.

use glam::Vec3;

use crate::device_calls::{check_limit, validated};
use crate::error::GpuError;

/// A closed triangle mesh in the hull's local frame (metres), counter-clockwise seen from
/// outside, in GPU buffers.
///
/// The mesh must be closed for the contact mask to be right: a cell counts as cut when the first
/// face above its centre is one the hull is left through, so a hole lets the cells under it
/// through. Any closed mesh works, convex or not. The mask follows the mesh, not the shape it
/// approximates: chords that cut a round hull a tenth of a cell short move its rim by that much.
#[derive(Debug)]
pub struct HullMesh {
    pub(crate) vertices: wgpu::Buffer,
    pub(crate) indices: wgpu::Buffer,
    pub(crate) index_count: u32,
    /// Largest distance of a vertex from the local origin, metres: with a transform's linear
    /// part it bounds where the hull can be without reading the vertices back.
    pub(crate) reach: f32,
    device: wgpu::Device,
}

impl HullMesh {
    /// Uploads `vertices` (local metres) and `triangles` (indices into `vertices`,
    /// counter-clockwise seen from outside) to `device`.
    ///
    /// # Errors
    /// [`GpuError::EmptyHullMesh`] without a triangle; [`GpuError::HullMeshVertex`] for a
    /// non-finite vertex; [`GpuError::HullMeshIndex`] for an index past the vertices;
    /// [`GpuError::TooLarge`] when the buffers exceed the device's limits.
    pub fn new(
        device: &wgpu::Device,
        vertices: &[Vec3],
        triangles: &[[u32; 3]],
    ) -> Result<Self, GpuError> {
        if triangles.is_empty() || vertices.len() < 3 {
            return Err(GpuError::EmptyHullMesh {
                vertices: vertices.len(),
                triangles: triangles.len(),
            });
        }
        if let Some(vertex) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(GpuError::HullMeshVertex {
                vertex,
                value: vertices[vertex].to_array(),
            });
        }
        for (triangle, corners) in triangles.iter().enumerate() {
            if let Some(&index) = corners.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(GpuError::HullMeshIndex {
                    triangle,
                    index,
                    vertices: vertices.len(),
                });
            }
        }
        let limit = device.limits().max_buffer_size;
        let index_bytes = triangles.len() as u64 * 12;
        check_limit("hull mesh index buffer (bytes)", index_bytes, limit)?;
        check_limit(
            "hull mesh vertex buffer (bytes)",
            vertices.len() as u64 * 12,
            limit,
        )?;
        // Draw calls count indices in u32.
        check_limit(
            "hull mesh indices",
            triangles.len() as u64 * 3,
            u64::from(u32::MAX),
        )?;
        let positions: Vec<[f32; 3]> = vertices.iter().map(|v| v.to_array()).collect();
        let reach = vertices.iter().map(|v| v.length()).fold(0.0_f32, f32::max);
        let (vertex_buffer, index_buffer) = validated(device, || {
            use wgpu::util::DeviceExt;
            (
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("water hull vertices"),
                    contents: bytemuck::cast_slice(&positions),
                    usage: wgpu::BufferUsages::VERTEX,
                }),
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("water hull indices"),
                    contents: bytemuck::cast_slice(triangles),
                    usage: wgpu::BufferUsages::INDEX,
                }),
            )
        })?;
        Ok(Self {
            vertices: vertex_buffer,
            indices: index_buffer,
            index_count: (triangles.len() * 3) as u32,
            reach,
            device: device.clone(),
        })
    }

    /// Triangles in the mesh.
    #[must_use]
    pub fn triangles(&self) -> usize {
        self.index_count as usize / 3
    }

    /// Largest distance of a vertex from the local origin, metres.
    #[must_use]
    pub fn reach(&self) -> f32 {
        self.reach
    }

    /// Whether the mesh lives on `device`.
    #[must_use]
    pub fn is_on(&self, device: &wgpu::Device) -> bool {
        &self.device == device
    }

    /// The vertex buffer: local positions, three f32 a vertex.
    #[must_use]
    pub fn vertices(&self) -> &wgpu::Buffer {
        &self.vertices
    }

    /// The index buffer: u32 triangles, counter-clockwise seen from outside.
    #[must_use]
    pub fn indices(&self) -> &wgpu::Buffer {
        &self.indices
    }

    /// How many indices the index buffer holds (three a triangle).
    #[must_use]
    pub fn index_count(&self) -> u32 {
        self.index_count
    }
}

/// Closed meshes of axis-aligned boxes, each given by its `(min, max)` corners (metres), for
/// [`HullMesh::new`]: eight vertices and twelve triangles per box, counter-clockwise seen from
/// outside. Land, walls and rims are drawn from these.
///
/// ```
/// use glam::Vec3;
/// let (vertices, triangles) = water_gpu::box_meshes(&[(Vec3::ZERO, Vec3::ONE)]);
/// assert_eq!((vertices.len(), triangles.len()), (8, 12));
/// ```
#[must_use]
pub fn box_meshes(boxes: &[(Vec3, Vec3)]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut vertices = Vec::with_capacity(boxes.len() * 8);
    let mut triangles = Vec::with_capacity(boxes.len() * 12);
    for &(min, max) in boxes {
        let base = vertices.len() as u32;
        // Corner k takes x from bit 0, y from bit 1, z from bit 2.
        for k in 0..8 {
            vertices.push(Vec3::new(
                if k & 1 == 0 { min.x } else { max.x },
                if k & 2 == 0 { min.y } else { max.y },
                if k & 4 == 0 { min.z } else { max.z },
            ));
        }
        for [a, b, c] in [
            [0, 2, 3],
            [0, 3, 1], // -z
            [4, 5, 7],
            [4, 7, 6], // +z
            [0, 1, 5],
            [0, 5, 4], // -y
            [2, 6, 7],
            [2, 7, 3], // +y
            [0, 4, 6],
            [0, 6, 2], // -x
            [1, 3, 7],
            [1, 7, 5], // +x
        ] {
            triangles.push([base + a, base + b, base + c]);
        }
    }
    (vertices, triangles)
}
