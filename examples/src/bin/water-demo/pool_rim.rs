//! The stone rim around the pool: four boxes drawn with the crates (never in the contact masks:
//! it stands outside the water), so the water has an edge to end at.

use glam::Vec3;
use water_gpu::box_meshes;

/// Colour of the rim, linear RGB: pale stone.
pub const RIM_COLOUR: Vec3 = Vec3::new(0.42, 0.40, 0.36);

/// Four boxes framing the square `[0, side] x [0, side]`, `width` metres wide, from `bottom` to
/// `top` metres: `(vertices, triangles)`, each box closed and counter-clockwise seen from outside.
#[must_use]
pub fn rim_boxes(side: f32, width: f32, bottom: f32, top: f32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let (lo, hi) = (-width, side + width);
    let boxes = [
        // South and north run the whole length, corners included; west and east fit between.
        (Vec3::new(lo, lo, bottom), Vec3::new(hi, 0.0, top)),
        (Vec3::new(lo, side, bottom), Vec3::new(hi, hi, top)),
        (Vec3::new(lo, 0.0, bottom), Vec3::new(0.0, side, top)),
        (Vec3::new(side, 0.0, bottom), Vec3::new(hi, side, top)),
    ];
    box_meshes(&boxes)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn every_box_is_closed_and_faces_outward() {
        let (vertices, triangles) = rim_boxes(10.0, 1.0, -2.0, 0.2);
        assert_eq!(triangles.len(), 48);
        // Closed: each directed edge appears once and its reverse once.
        let mut edges = HashMap::new();
        for t in &triangles {
            for i in 0..3 {
                *edges.entry((t[i], t[(i + 1) % 3])).or_insert(0) += 1;
            }
        }
        for (&(a, b), &n) in &edges {
            assert_eq!(n, 1, "edge {a}-{b} used {n} times");
            assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}-{b} has no twin");
        }
        // Outward: each face's normal points away from its box's centre.
        for (i, t) in triangles.iter().enumerate() {
            let box_vertices = &vertices[i / 12 * 8..i / 12 * 8 + 8];
            let centre = box_vertices.iter().copied().sum::<Vec3>() / 8.0;
            let [a, b, c] = t.map(|v| vertices[v as usize]);
            assert!((b - a).cross(c - a).dot(a - centre) > 0.0, "triangle {i}");
        }
        // The boxes frame the water without covering it.
        for v in &vertices {
            let inside = v.x > 0.0 && v.x < 10.0 && v.y > 0.0 && v.y < 10.0;
            assert!(!inside, "{v}");
        }
    }
}
