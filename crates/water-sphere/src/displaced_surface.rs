//! The sphere's surface as the water displaces it: positions, vertex normals and picking with
//! a ray.

use glam::Vec3;

use crate::icosphere::Icosphere;

/// Vertex positions pushed out along the radius by `heights` (m): `p * (R + h) / R`.
///
/// # Panics
/// If `heights` has not one value per vertex.
#[must_use]
pub fn displaced_positions(sphere: &Icosphere, heights: &[f32]) -> Vec<Vec3> {
    assert_eq!(
        heights.len(),
        sphere.positions().len(),
        "one height per vertex"
    );
    let r = sphere.radius();
    sphere
        .positions()
        .iter()
        .zip(heights)
        .map(|(p, h)| *p * ((r + h) / r))
        .collect()
}

/// Area-weighted normals of the displaced surface: for each vertex the sum of its faces' normals,
/// each weighted by the face's area (the unnormalised cross product), as the demo's shader does.
/// Not normalised.
fn area_weighted_normals(sphere: &Icosphere, positions: &[Vec3]) -> Vec<Vec3> {
    let mut normals = vec![Vec3::ZERO; positions.len()];
    for &[a, b, c] in sphere.faces() {
        let (pa, pb, pc) = (
            positions[a as usize],
            positions[b as usize],
            positions[c as usize],
        );
        // |cross| is twice the area, so the sum weights each face by its area.
        let n = (pb - pa).cross(pc - pa);
        for v in [a, b, c] {
            normals[v as usize] += n;
        }
    }
    normals
}

/// The tilt of still water's area-weighted normals away from the radius: the icosphere's
/// triangles around a vertex are not symmetric, which tilts its normal by up to about 1e-2 rad
/// at level 2 (less on finer spheres). [`vertex_normals`] subtracts it.
#[must_use]
pub fn rest_tilt(sphere: &Icosphere) -> Vec<Vec3> {
    area_weighted_normals(sphere, sphere.positions())
        .iter()
        .zip(sphere.positions())
        .map(|(n, p)| n.normalize() - p.normalize())
        .collect()
}

/// Unit vertex normals of the displaced surface: the area-weighted sum of the faces' normals
/// (as the demo's shader computes them), less the rest tilt of the mesh (see [`rest_tilt`]), so
/// still water's normals are exactly radial and a wave's slopes tilt them.
///
/// # Panics
/// If `heights` has not one value per vertex, or `rest_tilt` was made for another sphere.
#[must_use]
pub fn vertex_normals_with(sphere: &Icosphere, heights: &[f32], rest_tilt: &[Vec3]) -> Vec<Vec3> {
    let p = displaced_positions(sphere, heights);
    assert_eq!(rest_tilt.len(), p.len(), "rest tilt of this sphere");
    area_weighted_normals(sphere, &p)
        .iter()
        .zip(rest_tilt)
        .map(|(n, tilt)| (n.normalize() - *tilt).normalize())
        .collect()
}

/// [`vertex_normals_with`], computing the rest tilt on the way (keep it with the sphere when
/// calling this every frame; [`crate::SphereWater::normals`] does).
///
/// # Panics
/// If `heights` has not one value per vertex.
#[must_use]
pub fn vertex_normals(sphere: &Icosphere, heights: &[f32]) -> Vec<Vec3> {
    vertex_normals_with(sphere, heights, &rest_tilt(sphere))
}

/// The vertex nearest to where a ray first hits the displaced surface, or `None` if it misses.
/// `direction` need not be normalised.
///
/// # Panics
/// If `heights` has not one value per vertex.
#[must_use]
pub fn pick(sphere: &Icosphere, heights: &[f32], origin: Vec3, direction: Vec3) -> Option<usize> {
    let p = displaced_positions(sphere, heights);
    let mut best: Option<(f32, [u32; 3], Vec3)> = None;
    for &face in sphere.faces() {
        let [a, b, c] = face.map(|v| p[v as usize]);
        if let Some(t) = ray_triangle(origin, direction, a, b, c) {
            if best.is_none_or(|(bt, _, _)| t < bt) {
                best = Some((t, face, origin + direction * t));
            }
        }
    }
    let (_, face, hit) = best?;
    face.into_iter().map(|v| v as usize).min_by(|&u, &v| {
        p[u].distance_squared(hit)
            .total_cmp(&p[v].distance_squared(hit))
    })
}

/// Möller-Trumbore: the ray parameter of the hit, if the ray (t > 0) crosses the triangle.
fn ray_triangle(origin: Vec3, dir: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let h = dir.cross(e2);
    let det = e1.dot(h);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = origin - a;
    // A ray through a shared vertex or edge must hit one of the triangles that meet there,
    // whatever the rounding: accept barycentric coordinates a hair outside [0, 1].
    const EDGE_SLACK: f32 = 1e-5;
    let u = s.dot(h) * inv;
    if !(-EDGE_SLACK..=1.0 + EDGE_SLACK).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = dir.dot(q) * inv;
    if v < -EDGE_SLACK || u + v > 1.0 + EDGE_SLACK {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > 0.0).then_some(t)
}
