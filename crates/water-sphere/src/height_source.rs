//! Sphere water answers "where is the water?" for floating bodies: height along the radius,
//! gravity toward the centre.
//!
//! A query direction is located on the rest mesh by a greedy walk over the vertex graph (from
//! where the thread's last walk ended, always to the neighbour closest to the direction; on a mesh of points on a sphere
//! whose faces are its convex hull, as an icosphere's are, that walk ends at the nearest vertex),
//! then among the triangles around that vertex and its neighbours. Heights are interpolated
//! barycentrically on that triangle and stand on the exact sphere of radius `R`: still water is
//! the sphere `|x| = R` however coarse the mesh. The normal tilts from the radial by the
//! triangle's height gradient.

use std::cell::Cell;

use glam::Vec3;

use water_core::{HeightSource, SurfaceLevel, SurfaceSample};

use crate::sphere_water::SphereWater;

thread_local! {
    /// Vertex the last walk on this thread ended at.
    static WALK_START: Cell<usize> = const { Cell::new(0) };
}

/// A located direction: the triangle's vertices and barycentric weights.
struct Located {
    vertices: [usize; 3],
    weights: [f32; 3],
}

impl SphereWater {
    fn locate(&self, direction: Vec3) -> Option<Located> {
        let positions = self.sphere().positions();
        let adjacency = self.adjacency();
        let closeness = |v: usize| positions[v].dot(direction);
        // Queries come in runs close together (a hull's surface, a row of probes): start from
        // where the last query on this thread ended. Any start reaches the same vertex.
        let mut v = WALK_START.with(Cell::get);
        if v >= positions.len() {
            v = 0;
        }
        loop {
            let best = adjacency
                .neighbours(v)
                .iter()
                .map(|&n| n as usize)
                .max_by(|&a, &b| closeness(a).total_cmp(&closeness(b)))?;
            if closeness(best) <= closeness(v) {
                break;
            }
            v = best;
        }
        WALK_START.with(|start| start.set(v));
        // The containing triangle touches the nearest vertex on all but badly shaped meshes;
        // the neighbours' fans cover those, and a full search is the last resort.
        std::iter::once(v)
            .chain(adjacency.neighbours(v).iter().map(|&n| n as usize))
            .find_map(|u| {
                let ring = adjacency.neighbours(u);
                (0..ring.len()).find_map(|k| {
                    let tri = [u, ring[k] as usize, ring[(k + 1) % ring.len()] as usize];
                    self.barycentric(tri, direction)
                })
            })
            .or_else(|| {
                self.sphere()
                    .faces()
                    .iter()
                    .find_map(|f| self.barycentric(f.map(|i| i as usize), direction))
            })
    }

    /// Where the ray from the centre along `direction` crosses triangle `tri`, if it does.
    fn barycentric(&self, tri: [usize; 3], direction: Vec3) -> Option<Located> {
        let [a, b, c] = tri.map(|i| self.sphere().positions()[i]);
        let (e1, e2) = (b - a, c - a);
        let h = direction.cross(e2);
        let det = e1.dot(h);
        if det.abs() < 1e-20 {
            return None;
        }
        let s = -a / det;
        let u = s.dot(h);
        let v = direction.dot(s.cross(e1));
        // A direction through an edge or vertex belongs to every triangle there: accept a hair
        // of slack so rounding never leaves it in none.
        const SLACK: f32 = 1e-5;
        let inside =
            u >= -SLACK && v >= -SLACK && u + v <= 1.0 + SLACK && e2.dot(s.cross(e1)) > 0.0;
        inside.then_some(Located {
            vertices: tri,
            weights: [1.0 - u - v, u, v],
        })
    }

    fn interpolated_height(&self, at: &Located) -> f32 {
        let heights = self.heights();
        (0..3)
            .map(|k| at.weights[k] * heights[at.vertices[k]])
            .sum()
    }
}

/// The sphere is centred at the origin; heights are along the radius and "up" is radial.
impl HeightSource for SphereWater {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        let up = position.try_normalize()?;
        let at = self.locate(up)?;
        let height = self.interpolated_height(&at);
        let radius = self.sphere().radius();
        // Height gradient over the rest triangle: sum of h_i grad(lambda_i).
        let [a, b, c] = at.vertices.map(|i| self.sphere().positions()[i]);
        let n = (b - a).cross(c - a);
        let heights = self.heights();
        let gradient = (n.cross(c - b) * heights[at.vertices[0]]
            + n.cross(a - c) * heights[at.vertices[1]]
            + n.cross(b - a) * heights[at.vertices[2]])
            / n.length_squared();
        // Along the displaced surface, at radius R + h, arcs are (R + h)/R times longer.
        let tangential = (gradient - up * gradient.dot(up)) * (radius / (radius + height));
        Some(SurfaceSample {
            point: up * (radius + height),
            normal: (up - tangential).normalize(),
            up,
        })
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        let up = position.try_normalize()?;
        let at = self.locate(up)?;
        Some(SurfaceLevel {
            point: up * (self.sphere().radius() + self.interpolated_height(&at)),
            up,
        })
    }
}
