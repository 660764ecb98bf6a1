//! Hull surfaces as closed triangle meshes fine enough to follow the waves under them.
//!
//! Buoyancy integrates over the hull's surface (see [`crate::hull`]), with the water depth
//! interpolated linearly across each triangle; triangles must therefore be small next to the
//! hull, or a wave under a long flat bottom would be sampled only at its corners. Boxes and
//! convex meshes are refined by splitting every triangle into four (flat faces stay flat, so
//! their volume stays exact); spheres and capsules are swept from a profile with rings whose
//! polygon area equals the circle's, so every cross-section across the axis has the true area,
//! and cap rings set out by the chords' mean sag, so slices keep their volume.

use std::collections::HashMap;
use std::f32::consts::{PI, TAU};

use glam::Vec3;

use crate::error::{BuoyancyError, Result};
use crate::shape::Shape;

/// Most triangles a hull's surface may have.
pub const MAX_TRIANGLES: usize = 1 << 18;

/// A closed triangle mesh, counter-clockwise seen from outside, in the hull's local frame.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceMesh {
    /// Vertices, local metres.
    pub vertices: Vec<Vec3>,
    /// Triangles.
    pub triangles: Vec<[u32; 3]>,
}

impl SurfaceMesh {
    /// The surface of `shape` with no edge longer than `max_edge` metres (polygonal rings of at
    /// least 16 segments for round shapes).
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `max_edge`; [`BuoyancyError::OutOfRange`] when
    /// that would take more than [`MAX_TRIANGLES`] triangles.
    pub fn of(shape: &Shape, max_edge: f32) -> Result<Self> {
        crate::error::positive("hull max edge", max_edge)?;
        let mesh = match shape {
            Shape::Cuboid { half_extents } => refined(cuboid(*half_extents), max_edge)?,
            Shape::ConvexMesh(mesh) => refined(
                Self {
                    vertices: mesh.vertices().to_vec(),
                    triangles: mesh.triangles().to_vec(),
                },
                max_edge,
            )?,
            Shape::Sphere { radius } => swept(*radius, 0.0, max_edge)?,
            Shape::Capsule {
                radius,
                half_length,
            } => swept(*radius, *half_length, max_edge)?,
        };
        Ok(mesh)
    }

    /// The surface of `shape` sampled as finely as a grid of `cell_size` metres samples the
    /// water, and no finer: a box's faces are cut into rectangles of at most one cell a side
    /// (two triangles each), round shapes into quads of at most one cell a side, convex meshes
    /// refined to edges of at most a cell's diagonal. The depth under such a mesh is linear
    /// between samples one cell apart, as the grid's own bilinear surface is; finer triangles
    /// would only interpolate the same four heights again.
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `cell_size`; [`BuoyancyError::OutOfRange`] when
    /// that would take more than [`MAX_TRIANGLES`] triangles.
    pub fn matched_to_cells(shape: &Shape, cell_size: f32) -> Result<Self> {
        crate::error::positive("hull cell size", cell_size)?;
        let diagonal = cell_size * std::f32::consts::SQRT_2;
        match shape {
            Shape::Cuboid { half_extents } => gridded_box(*half_extents, cell_size),
            // Quads of sides up to `diagonal / sqrt 2`, one cell.
            Shape::Sphere { radius } => swept(*radius, 0.0, diagonal),
            Shape::Capsule {
                radius,
                half_length,
            } => swept(*radius, *half_length, diagonal),
            Shape::ConvexMesh(_) => Self::of(shape, diagonal),
        }
    }

    /// Enclosed volume, m^3 (divergence theorem over the triangles).
    #[must_use]
    pub fn volume(&self) -> f32 {
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| self.vertices[i as usize].as_dvec3());
                a.dot(b.cross(c)) / 6.0
            })
            .sum::<f64>() as f32
    }
}

fn too_many(triangles: usize) -> BuoyancyError {
    BuoyancyError::OutOfRange {
        name: "hull surface triangles",
        value: triangles as f64,
        range: "at most 262144 (raise max_edge)",
    }
}

/// The 12 triangles of a box, corners indexed by bits (x: 1, y: 2, z: 4).
fn cuboid(h: Vec3) -> SurfaceMesh {
    let corner = |i: u32| {
        h * Vec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        )
    };
    SurfaceMesh {
        vertices: (0..8).map(corner).collect(),
        triangles: vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ],
    }
}

/// A box of half extents `h` with each face cut into a lattice of equal rectangles at most
/// `side` metres a side, each rectangle two triangles. The lattice steps along each axis are
/// shared by the faces that meet there, so the mesh is closed.
fn gridded_box(h: Vec3, side: f32) -> Result<SurfaceMesh> {
    // Whole cells along each axis; the 1e-4 keeps an edge of exactly k cells at k.
    let counts = (2.0 * h / side * (1.0 - 1e-4))
        .ceil()
        .max(Vec3::ONE)
        .to_array()
        .map(|c| c as usize);
    let triangles = 4 * (counts[0] * counts[1] + counts[1] * counts[2] + counts[2] * counts[0]);
    if triangles > MAX_TRIANGLES {
        return Err(too_many(triangles));
    }
    let mut vertices = Vec::new();
    let mut index: HashMap<[usize; 3], u32> = HashMap::new();
    let mut vertex = |lattice: [usize; 3]| {
        *index.entry(lattice).or_insert_with(|| {
            let at =
                |axis: usize| -h[axis] + 2.0 * h[axis] * lattice[axis] as f32 / counts[axis] as f32;
            vertices.push(Vec3::new(at(0), at(1), at(2)));
            (vertices.len() - 1) as u32
        })
    };
    let mut tris = Vec::with_capacity(triangles);
    // Each face: its normal axis, the side it is on, and tangent axes (u, v) with u x v along
    // the outward normal, so the quads (i, j) -> (i+1, j) -> (i+1, j+1) turn counter-clockwise
    // seen from outside.
    for (normal, high, u, v) in [
        (0, true, 1, 2),
        (0, false, 2, 1),
        (1, true, 2, 0),
        (1, false, 0, 2),
        (2, true, 0, 1),
        (2, false, 1, 0),
    ] {
        let at = |i: usize, j: usize| {
            let mut lattice = [0; 3];
            lattice[normal] = if high { counts[normal] } else { 0 };
            lattice[u] = i;
            lattice[v] = j;
            lattice
        };
        for j in 0..counts[v] {
            for i in 0..counts[u] {
                let a = vertex(at(i, j));
                let b = vertex(at(i + 1, j));
                let c = vertex(at(i + 1, j + 1));
                let d = vertex(at(i, j + 1));
                tris.extend([[a, b, c], [a, c, d]]);
            }
        }
    }
    Ok(SurfaceMesh {
        vertices,
        triangles: tris,
    })
}

/// Splits every triangle into four (edge midpoints shared, so the mesh stays closed) until no
/// edge is longer than `max_edge`.
fn refined(mut mesh: SurfaceMesh, max_edge: f32) -> Result<SurfaceMesh> {
    while longest_edge(&mesh) > max_edge {
        if mesh.triangles.len() * 4 > MAX_TRIANGLES {
            return Err(too_many(mesh.triangles.len() * 4));
        }
        let mut midpoints: HashMap<(u32, u32), u32> = HashMap::new();
        let mut triangles = Vec::with_capacity(mesh.triangles.len() * 4);
        for &[a, b, c] in &mesh.triangles {
            let mut mid = |u: u32, v: u32| {
                *midpoints.entry((u.min(v), u.max(v))).or_insert_with(|| {
                    mesh.vertices
                        .push(0.5 * (mesh.vertices[u as usize] + mesh.vertices[v as usize]));
                    (mesh.vertices.len() - 1) as u32
                })
            };
            let (ab, bc, ca) = (mid(a, b), mid(b, c), mid(c, a));
            triangles.extend([[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]);
        }
        mesh.triangles = triangles;
    }
    Ok(mesh)
}

/// The length of the mesh's longest edge, m.
fn longest_edge(mesh: &SurfaceMesh) -> f32 {
    mesh.triangles
        .iter()
        .flat_map(|t| {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            [a.distance(b), b.distance(c), c.distance(a)]
        })
        .fold(0.0_f32, f32::max)
}

/// A sphere (`half_length = 0`) or a capsule along z, swept around z from its profile.
fn swept(radius: f32, half_length: f32, max_edge: f32) -> Result<SurfaceMesh> {
    // Quads of sides up to max_edge / sqrt 2 keep their diagonals within max_edge.
    let side = max_edge / std::f32::consts::SQRT_2;
    let segments = ((TAU * radius / side).ceil() as usize).max(16);
    let cap_rings = ((0.5 * PI * radius / side).ceil() as usize).max(4);
    let body_rings = (2.0 * half_length / side).ceil() as usize;
    let triangles = 2 * segments * (2 * cap_rings + body_rings);
    if triangles > MAX_TRIANGLES {
        return Err(too_many(triangles));
    }
    // A regular polygon of circumradius rho has area (n/2) rho^2 sin(2 pi / n): scale the rings
    // so that equals pi r^2.
    let area_scale = (TAU / (segments as f32 * (TAU / segments as f32).sin())).sqrt();
    // Ring profile from the bottom pole to the top (the poles themselves are separate).
    // Along a meridian the chords between rings sit inside the circle, on average by a share
    // step^2/12 of the radius: place the cap rings that much further out, so each slice between
    // rings keeps its volume (to fourth order in the step).
    let step = 0.5 * PI / cap_rings as f32;
    let cap_radius = radius / (1.0 - step * step / 12.0);
    let mut profile: Vec<(f32, f32)> = Vec::new();
    for k in 1..=cap_rings {
        let polar = PI - step * k as f32;
        profile.push((
            cap_radius * polar.sin(),
            cap_radius * polar.cos() - half_length,
        ));
    }
    for k in 1..body_rings {
        let z = -half_length + 2.0 * half_length * k as f32 / body_rings as f32;
        profile.push((radius, z));
    }
    for k in 0..cap_rings {
        let polar = 0.5 * PI - step * k as f32;
        if k == 0 && half_length == 0.0 {
            continue; // the sphere's equator is already in from the lower cap
        }
        profile.push((
            cap_radius * polar.sin(),
            cap_radius * polar.cos() + half_length,
        ));
    }
    let mut vertices = vec![Vec3::new(0.0, 0.0, -cap_radius - half_length)];
    for &(rho, z) in &profile {
        for s in 0..segments {
            let angle = TAU * s as f32 / segments as f32;
            vertices.push(Vec3::new(
                rho * area_scale * angle.cos(),
                rho * area_scale * angle.sin(),
                z,
            ));
        }
    }
    let top = vertices.len() as u32;
    vertices.push(Vec3::new(0.0, 0.0, cap_radius + half_length));
    let n = segments as u32;
    let ring = |r: usize, s: u32| 1 + r as u32 * n + s % n;
    let mut triangles = Vec::new();
    for s in 0..n {
        triangles.push([0, ring(0, s + 1), ring(0, s)]);
    }
    for r in 0..profile.len() - 1 {
        for s in 0..n {
            let (a, b, c, d) = (
                ring(r, s),
                ring(r, s + 1),
                ring(r + 1, s),
                ring(r + 1, s + 1),
            );
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
    }
    let last = profile.len() - 1;
    for s in 0..n {
        triangles.push([top, ring(last, s), ring(last, s + 1)]);
    }
    Ok(SurfaceMesh {
        vertices,
        triangles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle's edges, each as it runs counter-clockwise, sorted.
    fn directed_edges(mesh: &SurfaceMesh) -> Vec<(u32, u32)> {
        let mut edges: Vec<(u32, u32)> = mesh
            .triangles
            .iter()
            .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
            .collect();
        edges.sort_unstable();
        edges
    }

    /// Every surface is closed (each directed edge has its reverse) and encloses about the
    /// shape's volume with positive orientation.
    #[test]
    fn surfaces_are_closed_and_enclose_the_shape() {
        let shapes = [
            Shape::cuboid(Vec3::new(1.0, 0.5, 0.25)).unwrap(),
            Shape::sphere(0.7).unwrap(),
            Shape::capsule(0.3, 0.8).unwrap(),
        ];
        for shape in &shapes {
            let mesh = SurfaceMesh::of(shape, 0.1).unwrap();
            let edges = directed_edges(&mesh);
            for &(a, b) in &edges {
                assert!(
                    edges.binary_search(&(b, a)).is_ok(),
                    "{shape:?}: open edge {a}-{b}"
                );
            }
            let (v, exact) = (mesh.volume(), shape.volume());
            assert!(
                (v - exact).abs() < 1e-3 * exact,
                "{shape:?}: {v} vs {exact}"
            );
            let longest = longest_edge(&mesh);
            // Swept rings are area-scaled a little beyond the radius.
            assert!(longest <= 0.1 * 1.05, "{shape:?}: edge {longest}");
        }
    }

    /// The grid-matched box: closed, counter-clockwise, its exact volume, one cell a side.
    #[test]
    fn a_box_matched_to_cells_has_one_rectangle_per_cell() {
        let half = Vec3::new(0.4, 0.25, 0.2);
        let shape = Shape::cuboid(half).unwrap();
        let mesh = SurfaceMesh::matched_to_cells(&shape, 0.1).unwrap();
        // 8 x 5 x 4 cells: 2 (8*5 + 5*4 + 4*8) rectangles, two triangles each.
        assert_eq!(mesh.triangles.len(), 2 * 2 * (40 + 20 + 32));
        assert_eq!(mesh.vertices.len(), 9 * 6 * 5 - 7 * 4 * 3);
        let edges = directed_edges(&mesh);
        for w in edges.windows(2) {
            assert_ne!(w[0], w[1], "an edge used twice the same way");
        }
        for &(a, b) in &edges {
            assert!(edges.binary_search(&(b, a)).is_ok(), "open edge {a}-{b}");
        }
        assert!((mesh.volume() - shape.volume()).abs() < 1e-5 * shape.volume());
        for &[a, b, c] in &mesh.triangles {
            let [a, b, c] = [a, b, c].map(|i| mesh.vertices[i as usize]);
            // Every triangle lies in a face and faces out.
            let n = (b - a).cross(c - a);
            let centre = (a + b + c) / 3.0;
            assert!(n.dot(centre) > 0.0, "inward triangle at {centre}");
            for (p, q) in [(a, b), (b, c), (c, a)] {
                assert!((p - q).abs().max_element() <= 0.1 + 1e-6, "{p} - {q}");
            }
        }
    }

    #[test]
    fn too_fine_a_surface_is_refused() {
        let err = SurfaceMesh::of(&Shape::sphere(1.0).unwrap(), 1e-4).unwrap_err();
        assert!(err.to_string().contains("hull surface triangles"), "{err}");
    }
}
