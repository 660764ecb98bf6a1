//! Hull shapes in their local frame: box, sphere, capsule and convex triangle mesh.
//!
//! Buoyancy integrates over a shape's surface ([`crate::tessellation`]); contact masks ask
//! whether a point is inside; bounds come from the support function.

use std::f32::consts::PI;

use glam::{Mat3, Vec3};

use crate::convex_mesh::ConvexMesh;
use crate::error::{finite_vec, non_negative, positive, Result};

/// A convex solid centred on its local origin (the mesh: wherever its vertices are).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A box with these half extents along local x, y, z, metres.
    Cuboid {
        /// Half the side lengths, metres.
        half_extents: Vec3,
    },
    /// A ball.
    Sphere {
        /// Radius, metres.
        radius: f32,
    },
    /// A cylinder along local z capped by two hemispheres.
    Capsule {
        /// Radius of the cylinder and the caps, metres.
        radius: f32,
        /// Half the length of the cylindrical part, metres (0: a sphere).
        half_length: f32,
    },
    /// A closed convex triangle mesh.
    ConvexMesh(ConvexMesh),
}

/// Largest length of a shape (a half extent, radius or half length), metres: ten kilometres,
/// the scale past which a body is no longer floating on water a grid can hold, and far enough
/// inside f32 that its volume, inertia and surface mesh stay finite.
pub const MAX_SHAPE_LENGTH: f32 = 1e4;

/// `value` if it is at most [`MAX_SHAPE_LENGTH`].
fn within_length(name: &'static str, value: f32) -> Result<f32> {
    if value > MAX_SHAPE_LENGTH {
        return Err(crate::BuoyancyError::OutOfRange {
            name,
            value: f64::from(value),
            range: "at most 1e4 m",
        });
    }
    Ok(value)
}

impl Shape {
    /// A box of half extents `half_extents` (m).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotPositive`] / [`crate::BuoyancyError::NotFinite`] for a bad extent,
    /// [`crate::BuoyancyError::OutOfRange`] above [`MAX_SHAPE_LENGTH`].
    pub fn cuboid(half_extents: Vec3) -> Result<Self> {
        finite_vec("box half extents", half_extents)?;
        for e in half_extents.to_array() {
            positive("box half extent", e)?;
            within_length("box half extent", e)?;
        }
        Ok(Self::Cuboid { half_extents })
    }

    /// A ball of `radius` (m).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotPositive`] / [`crate::BuoyancyError::NotFinite`] for a bad radius,
    /// [`crate::BuoyancyError::OutOfRange`] above [`MAX_SHAPE_LENGTH`].
    pub fn sphere(radius: f32) -> Result<Self> {
        positive("sphere radius", radius)?;
        within_length("sphere radius", radius)?;
        Ok(Self::Sphere { radius })
    }

    /// A capsule along local z of `radius` (m) and cylinder half length `half_length` (m).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::NotPositive`] for a bad radius, [`crate::BuoyancyError::Negative`] for a
    /// negative half length, [`crate::BuoyancyError::OutOfRange`] above [`MAX_SHAPE_LENGTH`].
    pub fn capsule(radius: f32, half_length: f32) -> Result<Self> {
        positive("capsule radius", radius)?;
        non_negative("capsule half length", half_length)?;
        within_length("capsule radius", radius)?;
        within_length("capsule half length", half_length)?;
        Ok(Self::Capsule {
            radius,
            half_length,
        })
    }

    /// A convex mesh (see [`ConvexMesh::new`] for what is checked).
    ///
    /// # Errors
    /// [`crate::BuoyancyError::DegenerateMesh`] naming the problem.
    pub fn convex_mesh(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Self> {
        ConvexMesh::new(vertices, triangles).map(Self::ConvexMesh)
    }

    /// Volume, m^3.
    #[must_use]
    pub fn volume(&self) -> f32 {
        match self {
            Self::Cuboid { half_extents: h } => 8.0 * h.x * h.y * h.z,
            Self::Sphere { radius: r } => 4.0 / 3.0 * PI * r.powi(3),
            Self::Capsule {
                radius: r,
                half_length: l,
            } => PI * r * r * (2.0 * l) + 4.0 / 3.0 * PI * r.powi(3),
            Self::ConvexMesh(mesh) => mesh.volume(),
        }
    }

    /// Centroid of the solid, local metres (the origin but for meshes).
    #[must_use]
    pub fn centroid(&self) -> Vec3 {
        match self {
            Self::ConvexMesh(mesh) => mesh.centroid(),
            _ => Vec3::ZERO,
        }
    }

    /// Whether a local point is inside (or on) the shape.
    #[must_use]
    pub fn contains(&self, p: Vec3) -> bool {
        match self {
            Self::Cuboid { half_extents } => p.abs().cmple(*half_extents).all(),
            Self::Sphere { radius } => p.length_squared() <= radius * radius,
            Self::Capsule {
                radius,
                half_length,
            } => {
                let on_axis = Vec3::new(0.0, 0.0, p.z.clamp(-half_length, *half_length));
                p.distance_squared(on_axis) <= radius * radius
            }
            Self::ConvexMesh(mesh) => mesh.contains(p),
        }
    }

    /// Largest `x . direction` over the shape, metres (`direction` a unit vector, local axes).
    #[must_use]
    pub fn support(&self, direction: Vec3) -> f32 {
        match self {
            Self::Cuboid { half_extents } => direction.abs().dot(*half_extents),
            Self::Sphere { radius } => radius * direction.length(),
            Self::Capsule {
                radius,
                half_length,
            } => direction.z.abs() * half_length + radius * direction.length(),
            Self::ConvexMesh(mesh) => mesh.support(direction),
        }
    }

    /// Inertia tensor about the local origin of a uniform solid of `mass` kg, kg m^2.
    #[must_use]
    pub fn inertia(&self, mass: f32) -> Mat3 {
        match self {
            Self::Cuboid { half_extents: h } => {
                let s = *h * *h;
                Mat3::from_diagonal(Vec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (mass / 3.0))
            }
            Self::Sphere { radius } => {
                Mat3::from_diagonal(Vec3::splat(0.4 * mass * radius * radius))
            }
            Self::Capsule {
                radius: r,
                half_length: l,
            } => {
                // Cylinder plus two hemispheres sharing the mass by volume; each hemisphere's
                // centroid sits 3r/8 beyond the cylinder's end (parallel axes).
                let (cylinder, caps) = (PI * r * r * 2.0 * l, 4.0 / 3.0 * PI * r.powi(3));
                let density = mass / (cylinder + caps);
                let (mc, mh) = (density * cylinder, density * caps);
                let height = 2.0 * l;
                let axial = mc * r * r / 2.0 + mh * 0.4 * r * r;
                let across = mc * (height * height / 12.0 + r * r / 4.0)
                    + mh * (0.4 * r * r + height * height / 4.0 + 3.0 * height * r / 8.0);
                Mat3::from_diagonal(Vec3::new(across, across, axial))
            }
            Self::ConvexMesh(mesh) => mesh.inertia(mass),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capsule_inertia_matches_sphere_when_it_has_no_cylinder() {
        let capsule = Shape::capsule(0.5, 0.0).unwrap().inertia(3.0);
        let ball = Shape::sphere(0.5).unwrap().inertia(3.0);
        assert!((capsule - ball).abs_diff_eq(Mat3::ZERO, 1e-6));
    }
}
