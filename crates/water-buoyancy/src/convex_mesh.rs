//! Convex triangle meshes as hulls: validated once, then kept as face planes.
//!
//! Containment is "behind every face plane". Volume and inertia come from summing the signed
//! tetrahedra each triangle makes with the origin.

use glam::{Mat3, Vec3};

use crate::error::{BuoyancyError, Result};

/// A closed convex triangle mesh, counter-clockwise seen from outside, in the hull's local
/// frame (metres).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvexMesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    /// Outward unit normal `n` and offset `d` of each face: inside is `n . x <= d`.
    planes: Vec<(Vec3, f32)>,
    volume: f32,
    centroid: Vec3,
}

impl ConvexMesh {
    /// Validates a mesh.
    ///
    /// # Errors
    /// [`BuoyancyError::DegenerateMesh`] naming the problem: fewer than 4 vertices or
    /// triangles, a non-finite vertex, an index out of range, a triangle without area, an edge
    /// not shared by exactly two triangles of opposite winding (an open or non-manifold mesh),
    /// inward winding (negative volume), or a vertex in front of a face (not convex).
    ///
    /// ```
    /// use glam::Vec3;
    /// use water_buoyancy::ConvexMesh;
    /// let tetrahedron = ConvexMesh::new(
    ///     vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
    ///     vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    /// )?;
    /// assert!((tetrahedron.volume() - 1.0 / 6.0).abs() < 1e-6);
    /// # Ok::<(), water_buoyancy::BuoyancyError>(())
    /// ```
    pub fn new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Self> {
        let bad = |reason: String| Err(BuoyancyError::DegenerateMesh { reason });
        if vertices.len() < 4 || triangles.len() < 4 {
            return bad(format!(
                "a solid needs at least 4 vertices and 4 triangles, got {} and {}",
                vertices.len(),
                triangles.len()
            ));
        }
        if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
            return bad(format!("vertex {i} is not finite: {}", vertices[i]));
        }
        let scale = vertices
            .iter()
            .map(|v| v.abs().max_element())
            .fold(0.0_f32, f32::max)
            .max(f32::MIN_POSITIVE);
        let mut planes = Vec::with_capacity(triangles.len());
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&i) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return bad(format!(
                    "triangle {t} uses vertex {i} but there are {} vertices",
                    vertices.len()
                ));
            }
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            let n = (b - a).cross(c - a);
            // Relative to the mesh's size, so millimetre and kilometre hulls are judged alike.
            if n.length() <= 1e-6 * scale * scale {
                return bad(format!("triangle {t} {tri:?} has no area"));
            }
            let n = n.normalize();
            planes.push((n, n.dot(a)));
        }
        check_closed(&triangles)?;
        let (volume, centroid) = volume_and_centroid(&vertices, &triangles);
        if volume <= 0.0 {
            return bad(format!(
                "signed volume {volume} m^3 is not positive: triangles must wind \
                 counter-clockwise seen from outside"
            ));
        }
        let tolerance = 1e-4 * scale;
        for (t, &(n, d)) in planes.iter().enumerate() {
            if let Some(v) = vertices.iter().position(|&v| n.dot(v) > d + tolerance) {
                return bad(format!(
                    "vertex {v} lies {} m in front of triangle {t}: the mesh is not convex",
                    n.dot(vertices[v]) - d
                ));
            }
        }
        Ok(Self {
            vertices,
            triangles,
            planes,
            volume,
            centroid,
        })
    }

    /// Vertices, local metres.
    #[must_use]
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// Triangles, counter-clockwise seen from outside.
    #[must_use]
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// Enclosed volume, m^3.
    #[must_use]
    pub fn volume(&self) -> f32 {
        self.volume
    }

    /// Centroid of the enclosed solid, local metres.
    #[must_use]
    pub fn centroid(&self) -> Vec3 {
        self.centroid
    }

    /// Whether a local point is inside (or on) the hull.
    #[must_use]
    pub fn contains(&self, p: Vec3) -> bool {
        self.planes.iter().all(|&(n, d)| n.dot(p) <= d)
    }

    /// Largest `x . direction` over the hull (its support function), metres.
    #[must_use]
    pub fn support(&self, direction: Vec3) -> f32 {
        self.vertices
            .iter()
            .map(|v| v.dot(direction))
            .fold(f32::NEG_INFINITY, f32::max)
    }

    /// Inertia tensor about the local origin for a uniform solid of `mass` kg, kg m^2.
    #[must_use]
    pub fn inertia(&self, mass: f32) -> Mat3 {
        // Covariance of the solid from the canonical tetrahedron's: each triangle and the origin
        // form a tetrahedron with covariance det(A) A C A^T (A: the three corners as columns).
        let canonical =
            Mat3::from_cols_array(&[2.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 2.0]) * (1.0 / 120.0);
        let mut covariance = Mat3::ZERO;
        for tri in &self.triangles {
            let [a, b, c] = tri.map(|i| self.vertices[i as usize]);
            let m = Mat3::from_cols(a, b, c);
            covariance += m * canonical * m.transpose() * m.determinant();
        }
        let trace = covariance.x_axis.x + covariance.y_axis.y + covariance.z_axis.z;
        (Mat3::from_diagonal(Vec3::splat(trace)) - covariance) * (mass / self.volume)
    }
}

/// Every directed edge must appear once and its reverse once: closed, manifold, consistently
/// wound.
fn check_closed(triangles: &[[u32; 3]]) -> Result<()> {
    let mut edges: Vec<(u32, u32)> = triangles
        .iter()
        .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
        .collect();
    edges.sort_unstable();
    if let Some(w) = edges.windows(2).find(|w| w[0] == w[1]) {
        return Err(BuoyancyError::DegenerateMesh {
            reason: format!(
                "edge {} -> {} is used twice in the same direction: the mesh is not manifold or \
                 its winding is inconsistent",
                w[0].0, w[0].1
            ),
        });
    }
    if let Some(&(a, b)) = edges
        .iter()
        .find(|&&(a, b)| edges.binary_search(&(b, a)).is_err())
    {
        return Err(BuoyancyError::DegenerateMesh {
            reason: format!("edge {a} -> {b} has no twin {b} -> {a}: the mesh is not closed"),
        });
    }
    Ok(())
}

/// Signed volume and centroid, summed over origin tetrahedra in f64.
fn volume_and_centroid(vertices: &[Vec3], triangles: &[[u32; 3]]) -> (f32, Vec3) {
    let (mut volume, mut moment) = (0.0_f64, glam::DVec3::ZERO);
    for tri in triangles {
        let [a, b, c] = tri.map(|i| vertices[i as usize].as_dvec3());
        let v = a.dot(b.cross(c)) / 6.0;
        volume += v;
        moment += (a + b + c) * (v / 4.0);
    }
    let centroid = if volume != 0.0 {
        (moment / volume).as_vec3()
    } else {
        Vec3::ZERO
    };
    (volume as f32, centroid)
}
