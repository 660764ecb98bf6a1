//! [`Floating`]: a hull (box, sphere, capsule or a convex Bevy [`Mesh`]) that floats on the
//! water by Archimedes and makes waves (its weight pressing the water, or the classic bow and
//! stern waves: [`crate::Water::contact_source`]); [`FloatingMotion`] and [`FloatingForce`]:
//! what a game reads from it and pushes it with.

use std::collections::HashMap;

use bevy::mesh::{Indices, VertexAttributeValues};
use bevy::prelude::*;
use water_scene::water_buoyancy::{
    BodyState, BuoyancyError, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
    FRESH_WATER_DENSITY,
};

use crate::error::WaterBevyError;

/// The solid a floating body displaces water with, in the entity's local frame (y up, as
/// Bevy's primitives are), centred on its origin.
#[derive(Debug, Clone, PartialEq)]
pub enum FloatingHull {
    /// A cylinder along local y capped by two hemispheres (as Bevy's `Capsule3d`).
    Capsule {
        /// The radius of both, metres.
        radius: f32,
        /// Half the length of the cylindrical part, metres.
        half_length: f32,
    },
    /// A ball (as Bevy's `Sphere`).
    Sphere {
        /// Its radius, metres.
        radius: f32,
    },
    /// A box of these half extents, metres (as Bevy's `Cuboid::half_size`).
    Cuboid {
        /// Half the side lengths along local x, y, z, metres.
        half_extents: Vec3,
    },
    /// A closed convex triangle mesh, counter-clockwise seen from outside, metres.
    ConvexMesh {
        /// Vertex positions.
        vertices: Vec<Vec3>,
        /// Triangles, as indices into `vertices`.
        triangles: Vec<[u32; 3]>,
    },
}

/// A body floating on the water, held up by the weight of the water its hull displaces
/// (Archimedes) and damped by drag; as it moves it draws its hull into the water's contact
/// masks and so leaves a wake ([`crate::Water::contact_source`]).
///
/// Its pose comes from the entity's [`Transform`] when it joins the water (the next fixed
/// tick after it is spawned); from then on the plugin writes the transform each fixed tick.
/// Insert [`FloatingMotion`] with it to throw it with a velocity.
///
/// ```
/// use bevy::prelude::*;
/// use water_bevy::Floating;
/// // A 40 kg crate of 0.6 x 0.3 x 0.6 m.
/// let crate_ = Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), 40.0);
/// assert!((crate_.archimedes_draft().unwrap() - 40.0 / (1000.0 * 0.36)).abs() < 1e-6);
/// ```
#[derive(Component, Debug, Clone, PartialEq)]
#[require(Transform, FloatingMotion)]
pub struct Floating {
    /// The hull.
    pub hull: FloatingHull,
    /// Mass, kg, spread uniformly through the hull.
    pub mass: f32,
    /// Drag rates; [`DragRates::DEFAULT`] unless set: a dropped body stops bobbing within a
    /// few heave periods and still rides the waves.
    pub drag: DragRates,
    /// Density of the water it floats in, kg/m^3; fresh water (1000) unless set.
    pub water_density: f32,
}

impl Floating {
    /// A box of `half_extents` (m) and `mass` (kg).
    #[must_use]
    pub fn cuboid(half_extents: Vec3, mass: f32) -> Self {
        Self::of(FloatingHull::Cuboid { half_extents }, mass)
    }

    /// A ball of `radius` (m) and `mass` (kg).
    #[must_use]
    pub fn sphere(radius: f32, mass: f32) -> Self {
        Self::of(FloatingHull::Sphere { radius }, mass)
    }

    /// A capsule along local y of `radius` and `half_length` (m) and `mass` (kg).
    #[must_use]
    pub fn capsule(radius: f32, half_length: f32, mass: f32) -> Self {
        Self::of(
            FloatingHull::Capsule {
                radius,
                half_length,
            },
            mass,
        )
    }

    /// The convex hull given by `mesh`'s triangles (a `TriangleList` with positions; vertices at
    /// the same position are joined, so Bevy's flat-shaded primitives with split vertices work)
    /// and `mass` (kg). The mesh itself must be closed and convex.
    ///
    /// # Errors
    /// [`WaterBevyError::Mesh`] for a mesh without `Float32x3` positions or that is not a
    /// triangle list.
    pub fn convex_mesh(mesh: &Mesh, mass: f32) -> Result<Self, WaterBevyError> {
        let (vertices, triangles) = welded_triangles(mesh)?;
        Ok(Self::of(
            FloatingHull::ConvexMesh {
                vertices,
                triangles,
            },
            mass,
        ))
    }

    fn of(hull: FloatingHull, mass: f32) -> Self {
        Self {
            hull,
            mass,
            drag: DragRates::DEFAULT,
            water_density: FRESH_WATER_DENSITY,
        }
    }

    /// The same body with drag `rates`.
    #[must_use]
    pub fn with_drag(mut self, rates: DragRates) -> Self {
        self.drag = rates;
        self
    }

    /// How deep a box floats upright on still water, metres: `m / (rho A)` with `A` its
    /// horizontal (x z) area; `None` for other hulls.
    #[must_use]
    pub fn archimedes_draft(&self) -> Option<f32> {
        match self.hull {
            FloatingHull::Cuboid { half_extents } => {
                Some(self.mass / (self.water_density * 4.0 * half_extents.x * half_extents.z))
            }
            _ => None,
        }
    }

    /// The water-buoyancy shape and its pose in the body's frame (the capsule turned from
    /// water-buoyancy's local z to Bevy's local y).
    fn shape(&self) -> Result<(Shape, Pose), BuoyancyError> {
        Ok(match &self.hull {
            FloatingHull::Cuboid { half_extents } => {
                (Shape::cuboid(*half_extents)?, Pose::IDENTITY)
            }
            FloatingHull::Sphere { radius } => (Shape::sphere(*radius)?, Pose::IDENTITY),
            FloatingHull::Capsule {
                radius,
                half_length,
            } => (
                Shape::capsule(*radius, *half_length)?,
                Pose::new(
                    Vec3::ZERO,
                    Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
                )?,
            ),
            FloatingHull::ConvexMesh {
                vertices,
                triangles,
            } => (
                Shape::convex_mesh(vertices.clone(), triangles.clone())?,
                Pose::IDENTITY,
            ),
        })
    }

    /// The water-buoyancy body, posed at `pose` with `motion` (in the scene's y-up frame), its
    /// hull sampled as finely as cells of `cell_size` metres.
    pub(crate) fn floating_body(
        &self,
        pose: Pose,
        motion: &FloatingMotion,
        cell_size: f32,
    ) -> Result<FloatingBody, BuoyancyError> {
        let (shape, local) = self.shape()?;
        let rotation = Mat3::from_quat(local.orientation);
        let inertia = rotation * shape.inertia(self.mass) * rotation.transpose();
        let state = BodyState {
            pose,
            linear_velocity: motion.velocity,
            angular_velocity: motion.angular_velocity,
        };
        let body = RigidBody::new(self.mass, inertia, state)?;
        let hulls = vec![Hull::matched_to_cells(shape, local, cell_size)?];
        FloatingBody::archimedes(body, hulls, self.water_density, self.drag)
    }
}

/// How a floating body moves, in the world frame. Insert it with a velocity to throw a body;
/// the plugin writes it every fixed tick.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
pub struct FloatingMotion {
    /// Velocity of the centre of mass, m/s.
    pub velocity: Vec3,
    /// Angular velocity, rad/s.
    pub angular_velocity: Vec3,
    /// Water displaced at the last step, m^3 (`None` before the body's first step).
    pub submerged_volume: Option<f32>,
    /// Whether part of the body was beyond the water's edge at the last step (it floats on
    /// still water at rest level there).
    pub off_water: bool,
}

/// A force and torque applied to a floating body at every fixed step, world frame: a motor, a
/// rudder, a player's push. Gravity, buoyancy and drag come on top.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
pub struct FloatingForce {
    /// Force at the centre of mass, N.
    pub force: Vec3,
    /// Torque about the centre of mass, N m.
    pub torque: Vec3,
}

/// Marks a floating body that a physics engine integrates (feature `avian` inserts it on avian
/// rigid bodies): the water reads its pose each tick and the engine applies the water's force;
/// the plugin never writes its transform.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IntegratedElsewhere;

/// `mesh`'s triangle list with vertices at equal positions joined.
fn welded_triangles(mesh: &Mesh) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), WaterBevyError> {
    let bad = |reason: &str| WaterBevyError::Mesh {
        reason: reason.to_owned(),
    };
    if mesh.primitive_topology() != bevy::mesh::PrimitiveTopology::TriangleList {
        return Err(bad("not a triangle list"));
    }
    let Some(VertexAttributeValues::Float32x3(positions)) =
        mesh.attribute(Mesh::ATTRIBUTE_POSITION)
    else {
        return Err(bad("no Float32x3 positions"));
    };
    let indices: Vec<usize> = match mesh.indices() {
        Some(Indices::U16(i)) => i.iter().map(|&i| usize::from(i)).collect(),
        Some(Indices::U32(i)) => i.iter().map(|&i| i as usize).collect(),
        None => (0..positions.len()).collect(),
    };
    if !indices.len().is_multiple_of(3) {
        return Err(WaterBevyError::Mesh {
            reason: format!("{} indices, not a multiple of 3", indices.len()),
        });
    }
    let mut joined: HashMap<[u32; 3], u32> = HashMap::new();
    let mut vertices = Vec::new();
    let mut remap = Vec::with_capacity(positions.len());
    for p in positions {
        let key = p.map(f32::to_bits);
        let index = *joined.entry(key).or_insert_with(|| {
            vertices.push(Vec3::from_array(*p));
            (vertices.len() - 1) as u32
        });
        remap.push(index);
    }
    let mut triangles = Vec::with_capacity(indices.len() / 3);
    for t in indices.chunks_exact(3) {
        let corner = |k: usize| {
            remap
                .get(t[k])
                .copied()
                .ok_or_else(|| WaterBevyError::Mesh {
                    reason: format!("index {} past the {} vertices", t[k], positions.len()),
                })
        };
        triangles.push([corner(0)?, corner(1)?, corner(2)?]);
    }
    Ok((vertices, triangles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bevy_cuboid_mesh_is_a_closed_convex_hull_of_its_volume() {
        let mesh = Mesh::from(Cuboid::new(1.0, 0.5, 2.0));
        let floating = Floating::convex_mesh(&mesh, 100.0).expect("mesh hull");
        let (shape, _) = floating.shape().expect("convex shape");
        assert!((shape.volume() - 1.0).abs() < 1e-5, "{}", shape.volume());
    }

    #[test]
    fn a_capsule_lies_along_local_y() {
        let capsule = Floating::capsule(0.2, 0.5, 10.0);
        let (shape, local) = capsule.shape().expect("capsule");
        let hull = Hull::new(shape, local).expect("hull");
        // The tip along local y is inside; as far along x is not.
        assert!(hull.contains(&Pose::IDENTITY, Vec3::new(0.0, 0.65, 0.0)));
        assert!(!hull.contains(&Pose::IDENTITY, Vec3::new(0.65, 0.0, 0.0)));
    }

    #[test]
    fn a_line_list_is_refused() {
        let mesh = Mesh::new(
            bevy::mesh::PrimitiveTopology::LineList,
            bevy::asset::RenderAssetUsages::default(),
        );
        let err = Floating::convex_mesh(&mesh, 1.0).unwrap_err();
        assert!(err.to_string().contains("triangle list"), "{err}");
    }
}
