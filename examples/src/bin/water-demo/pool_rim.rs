//! The stone rim around the pool: four boxes drawn with the crates (never in the contact masks:
//! it stands outside the water), so the water has an edge to end at.

use glam::Vec3;

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
    let mut vertices = Vec::with_capacity(32);
    let mut triangles = Vec::with_capacity(48);
    for (min, max) in boxes {
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
