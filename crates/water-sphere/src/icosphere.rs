//! The icosphere: an icosahedron whose faces are split into four, `level` times, with every
//! new vertex pushed out to the sphere. Shared vertices appear once.

use std::collections::HashMap;

use glam::Vec3;

use crate::error::SphereError;

/// Most vertices an icosphere may have: level 12 (167,772,162), whose f32 positions alone take
/// 2 GiB.
pub const MAX_VERTICES: u64 = 10 * (1 << (2 * MAX_LEVEL)) + 2;

/// The finest icosphere level, the one of [`MAX_VERTICES`] vertices.
pub const MAX_LEVEL: u32 = 12;

/// Allowed radii, m: a micrometre to a million kilometres. Normals, areas and cotangent weights
/// multiply f32 positions (edges of `radius / 2^level`); outside this range those products
/// underflow to 0 or overflow, and the water's heights turn NaN at the first step.
pub const RADIUS_RANGE: (f32, f32) = (1e-6, 1e9);

/// Vertices of an icosphere of `level` subdivisions: `10 * 4^level + 2`.
#[must_use]
pub fn vertex_count(level: u32) -> u64 {
    10u64
        .saturating_mul(4u64.saturating_pow(level))
        .saturating_add(2)
}

/// A triangulated sphere of radius `radius` (m) centred at the origin. Faces are counter-clockwise
/// seen from outside. Vertices are numbered along a Z-order (Morton) curve of their positions, so
/// neighbours on the sphere are mostly near in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Icosphere {
    level: u32,
    radius: f32,
    positions: Vec<Vec3>,
    faces: Vec<[u32; 3]>,
    /// The icosahedron's vertices after renumbering, in the order of [`icosahedron`].
    corners: [u32; 12],
}

/// Bytes an icosphere's build holds at its peak per vertex, generously (about 95 counted:
/// 24 of positions, 48 of faces, 15 of the edge map, 8 of the renumbering).
const ICOSPHERE_BUILD_BYTES_PER_VERTEX: u64 = 128;

impl Icosphere {
    /// Builds the icosphere of `level` subdivisions (level 3: 642 vertices).
    ///
    /// # Errors
    /// [`SphereError::TooManyVertices`] beyond [`MAX_VERTICES`];
    /// [`SphereError::Invalid`] for a radius that is not finite and positive, or outside
    /// [`RADIUS_RANGE`], and for a build the allocator refuses
    /// ([`water_core::WaterError::OutOfMemory`], asked before any of it is allocated).
    ///
    /// ```
    /// let sphere = water_sphere::Icosphere::new(3, 1.0)?;
    /// assert_eq!(sphere.positions().len(), 642);
    /// # Ok::<(), water_sphere::SphereError>(())
    /// ```
    pub fn new(level: u32, radius: f32) -> Result<Self, SphereError> {
        let count = vertex_count(level);
        if count > MAX_VERTICES {
            return Err(SphereError::TooManyVertices {
                subdivisions: level,
                number_of_resulting_points: count,
                limit: MAX_VERTICES,
            });
        }
        if !(radius.is_finite() && radius > 0.0) {
            return Err(water_core::WaterError::NotPositive {
                name: "radius",
                value: f64::from(radius),
            }
            .into());
        }
        if !(RADIUS_RANGE.0..=RADIUS_RANGE.1).contains(&radius) {
            return Err(water_core::WaterError::OutOfRange {
                name: "radius",
                value: f64::from(radius),
                range: "[1e-6, 1e9] m",
            }
            .into());
        }
        // The build's peak, generously: positions and faces twice (subdivided, then copied in
        // locality order), the last subdivision's edge map and the renumbering.
        water_core::probe_allocation(
            "an icosphere's build",
            count.saturating_mul(ICOSPHERE_BUILD_BYTES_PER_VERTEX),
        )?;
        let (mut positions, mut faces) = icosahedron();
        positions.reserve(count as usize - positions.len());
        for _ in 0..level {
            faces = subdivide(&mut positions, &faces);
        }
        for p in &mut positions {
            *p = p.normalize() * radius;
        }
        let (positions, faces, new_index) = in_locality_order(&positions, &faces);
        // Subdivision appends, so the icosahedron's vertices keep indices 0..12 until renumbered.
        let corners = std::array::from_fn(|k| new_index[k]);
        Ok(Self {
            level,
            radius,
            positions,
            faces,
            corners,
        })
    }

    /// Subdivision level.
    #[must_use]
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Radius, metres.
    #[must_use]
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Vertex positions on the sphere, metres.
    #[must_use]
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Triangles, counter-clockwise seen from outside.
    #[must_use]
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// The twelve vertices of the icosahedron the sphere was subdivided from (its only vertices
    /// with five neighbours), as indices into [`Icosphere::positions`]; entry `k` is corner `k`
    /// of [`ICOSAHEDRON_FACES`].
    #[must_use]
    pub fn corners(&self) -> [u32; 12] {
        self.corners
    }

    /// Lumped (barycentric) area of each vertex: a third of each incident triangle, m^2. They
    /// sum to [`Icosphere::area`].
    #[must_use]
    pub fn vertex_areas(&self) -> Vec<f64> {
        let mut areas = vec![0.0; self.positions.len()];
        for &[a, b, c] in &self.faces {
            let (pa, pb, pc) = (
                self.positions[a as usize].as_dvec3(),
                self.positions[b as usize].as_dvec3(),
                self.positions[c as usize].as_dvec3(),
            );
            let third = (pb - pa).cross(pc - pa).length() / 6.0;
            for v in [a, b, c] {
                areas[v as usize] += third;
            }
        }
        areas
    }

    /// Total area of the flat triangles, m^2 (tends to `4 pi R^2` as the level grows).
    #[must_use]
    pub fn area(&self) -> f64 {
        self.faces
            .iter()
            .map(|&[a, b, c]| {
                let (a, b, c) = (
                    self.positions[a as usize].as_dvec3(),
                    self.positions[b as usize].as_dvec3(),
                    self.positions[c as usize].as_dvec3(),
                );
                0.5 * (b - a).cross(c - a).length()
            })
            .sum()
    }
}

/// Renumbers the vertices along a Z-order (Morton) curve of their positions, so that vertices
/// close on the sphere are close in memory: the steppers' neighbour gathers then mostly hit
/// cache lines they have just used. (Subdivision appends each level's midpoints after the
/// previous level's vertices, which scatters every neighbourhood across the array.)
/// Returns the renumbered positions and faces and each old vertex's new index.
fn in_locality_order(
    positions: &[Vec3],
    faces: &[[u32; 3]],
) -> (Vec<Vec3>, Vec<[u32; 3]>, Vec<u32>) {
    fn spread(v: u32) -> u64 {
        // Spread 21 bits so that two zero bits separate each.
        let mut x = u64::from(v) & 0x1f_ffff;
        x = (x | x << 32) & 0x1f_0000_0000_ffff;
        x = (x | x << 16) & 0x1f_0000_ff00_00ff;
        x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
        x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
        x = (x | x << 2) & 0x1249_2492_4924_9249;
        x
    }
    let key = |p: Vec3| {
        let q = (p.normalize() * 0.5 + Vec3::splat(0.5)) * ((1 << 21) - 1) as f32;
        spread(q.x as u32) | spread(q.y as u32) << 1 | spread(q.z as u32) << 2
    };
    let mut order: Vec<u32> = (0..positions.len() as u32).collect();
    order.sort_by_key(|&v| key(positions[v as usize]));
    let mut new_index = vec![0u32; positions.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old as usize] = new as u32;
    }
    let positions = order.iter().map(|&v| positions[v as usize]).collect();
    let faces = faces
        .iter()
        .map(|f| f.map(|v| new_index[v as usize]))
        .collect();
    (positions, faces, new_index)
}

/// The faces of the icosahedron every icosphere is subdivided from, over its corners `0..12`
/// (see [`Icosphere::corners`]), counter-clockwise seen from outside.
pub const ICOSAHEDRON_FACES: [[u32; 3]; 20] = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
];

/// The regular icosahedron on the unit sphere, faces counter-clockwise seen from outside.
fn icosahedron() -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5.0f32.sqrt()) / 2.0;
    let positions = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .map(|(x, y, z)| Vec3::new(x, y, z).normalize())
    .to_vec();
    let faces = ICOSAHEDRON_FACES.to_vec();
    (positions, faces)
}

/// Splits every triangle into four; each edge's midpoint is made once and shared.
fn subdivide(positions: &mut Vec<Vec3>, faces: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let mut midpoints: HashMap<(u32, u32), u32> = HashMap::with_capacity(faces.len() * 3 / 2);
    let mut midpoint = |a: u32, b: u32, positions: &mut Vec<Vec3>| -> u32 {
        let key = (a.min(b), a.max(b));
        *midpoints.entry(key).or_insert_with(|| {
            let m = (positions[a as usize] + positions[b as usize]).normalize();
            positions.push(m);
            (positions.len() - 1) as u32
        })
    };
    let mut out = Vec::with_capacity(faces.len() * 4);
    for &[a, b, c] in faces {
        let ab = midpoint(a, b, positions);
        let bc = midpoint(b, c, positions);
        let ca = midpoint(c, a, positions);
        out.extend_from_slice(&[[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
    }
    out
}
