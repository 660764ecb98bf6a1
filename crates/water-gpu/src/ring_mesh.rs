//! The sea's camera-centred level-of-detail mesh: a square of the finest spacing around the
//! camera, then rings of doubling spacing out to kilometres, then a skirt to the horizon. Drawn
//! by `shaders/render_ocean_surface.wgsl` (`vs_main`), which displaces each vertex by the sea.
//!
//! Level `k` has spacing `s_k = s_0 2^k` and covers the square of half-width `n s_k` around its
//! own centre, the camera's position rounded to a multiple of `2 s_k`, less the square of level
//! `k - 1`. Rounding each level to its own lattice keeps vertices fixed in the world while the
//! camera moves (waves do not crawl over the mesh) and puts every level's rim on the next
//! level's lattice, so the rings nest with no gap.
//!
//! Where a ring meets the finer one inside it, every second fine vertex on the seam has no
//! coarse vertex beside it (a T-junction). Such a vertex carries the half-length and axis of
//! the coarse edge it sits on, and the shader places it at the mean of that edge's two ends
//! ([`RingVertex::heights_pinned`]), on the coarse edge's straight line: no crack opens however
//! the sea moves the ends.

use glam::Vec2;

/// Most quads from a level's centre to its rim.
pub const MAX_HALF_QUADS: u32 = 256;
/// Most rings around the centre square.
pub const MAX_RINGS: u32 = 16;
/// Farthest a camera may be from the world's origin, in finest spacings, for the mesh's
/// lattice (out to the skirt) to stay exact in f32: 2^24 less the widest mesh.
pub const MAX_CAMERA_UNITS: f32 = 8_000_000.0;

/// The shape of a [`RingMesh`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RingLayout {
    /// Spacing of the centre square's vertices, metres (> 0).
    pub finest_spacing: f32,
    /// Quads from each level's centre to its rim, `n` (even, 4 to [`MAX_HALF_QUADS`]): the
    /// centre square is `2n x 2n` quads, each ring `3 n^2`.
    pub half_quads: u32,
    /// Rings of doubling spacing around the centre square (0 to [`MAX_RINGS`]).
    pub rings: u32,
    /// How far the skirt reaches past the last ring, as a multiple of its half-width (>= 1).
    pub skirt: f32,
}

impl RingLayout {
    /// Half-width of level `level`'s square, metres.
    #[must_use]
    pub fn half_width(&self, level: u32) -> f32 {
        self.half_quads as f32 * self.finest_spacing * (1u64 << level) as f32
    }

    /// Half-width of the outermost ring, metres (the skirt goes on to [`RingLayout::skirt`]
    /// times this).
    #[must_use]
    pub fn reach(&self) -> f32 {
        self.half_width(self.rings)
    }
}

/// One vertex of a [`RingMesh`], as `vs_main` reads it: `(x, y, pin, axis)`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RingVertex {
    /// Undisplaced position in the world, metres.
    pub position: [f32; 2],
    /// Half-length of the coarse edge a seam vertex sits on, metres (0 for every other vertex).
    pub pin: f32,
    /// Axis of that edge: 0 along x, 1 along y.
    pub axis: f32,
}

impl RingVertex {
    /// The two ends of the coarse edge this vertex is pinned to, or `None` when it is free.
    #[must_use]
    pub fn pinned_ends(&self) -> Option<(Vec2, Vec2)> {
        if self.pin == 0.0 {
            return None;
        }
        let p = Vec2::from(self.position);
        let e = if self.axis == 0.0 {
            Vec2::new(self.pin, 0.0)
        } else {
            Vec2::new(0.0, self.pin)
        };
        Some((p - e, p + e))
    }

    /// The height the shader gives this vertex over a sea of heights `height`: its own, or the
    /// mean of its coarse edge's ends (`vs_main`'s rule, which keeps the seams closed).
    pub fn heights_pinned(&self, height: impl Fn(Vec2) -> f32) -> f32 {
        match self.pinned_ends() {
            Some((a, b)) => 0.5 * (height(a) + height(b)),
            None => height(Vec2::from(self.position)),
        }
    }
}

/// The vertices and triangles of the sea around one camera position.
#[derive(Debug, Clone, PartialEq)]
pub struct RingMesh {
    /// Every vertex, levels in order from the finest, then the skirt's far rim.
    pub vertices: Vec<RingVertex>,
    /// Three vertex indices a triangle.
    pub indices: Vec<u32>,
    /// Each level's centre, metres (the camera rounded to twice the level's spacing).
    pub centres: Vec<Vec2>,
}

/// Each level's centre for a camera at `camera` (metres): the camera rounded to twice the
/// level's spacing. The mesh changes only when one of them does.
#[must_use]
pub fn level_centres(camera: Vec2, layout: &RingLayout) -> Vec<Vec2> {
    (0..=layout.rings)
        .map(|level| {
            let (cx, cy) = centre_units(camera, layout.finest_spacing, level);
            Vec2::new(cx as f32, cy as f32) * layout.finest_spacing
        })
        .collect()
}

/// Level `level`'s centre in units of the finest spacing: a multiple of `2^(level + 1)`.
fn centre_units(camera: Vec2, finest_spacing: f32, level: u32) -> (i64, i64) {
    let twice_step = 2i64 << level;
    let round = |c: f32| {
        (f64::from(c) / f64::from(finest_spacing) / twice_step as f64).round() as i64 * twice_step
    };
    (round(camera.x), round(camera.y))
}

impl RingMesh {
    /// The mesh of `layout` around `camera` (the camera's position on the sea, metres). The
    /// layout is taken as valid (`water_render::OceanSurfaceStyle::validate` checks it), and
    /// the camera within [`MAX_CAMERA_UNITS`] finest spacings of the origin (where the lattice
    /// is exact in f32; `water_render::OceanSurfaceRenderer::prepare` checks it).
    #[must_use]
    pub fn around(camera: Vec2, layout: &RingLayout) -> Self {
        let n = i64::from(layout.half_quads);
        let s0 = layout.finest_spacing;
        let mut mesh = Self {
            vertices: Vec::new(),
            indices: Vec::new(),
            centres: Vec::new(),
        };
        // Lattice coordinates in units of the finest spacing; level k's centre is a multiple
        // of 2^(k+1) units.
        let mut inner: Option<(i64, i64, i64)> = None;
        let mut rim: Vec<u32> = Vec::new();
        for level in 0..=layout.rings {
            let step = 1i64 << level;
            let centre_unit = |c: f32| {
                (f64::from(c) / f64::from(s0) / (2 * step) as f64).round() as i64 * 2 * step
            };
            let (cx, cy) = (centre_unit(camera.x), centre_unit(camera.y));
            mesh.centres.push(Vec2::new(cx as f32 * s0, cy as f32 * s0));
            let side = 2 * n + 1;
            let first = mesh.vertices.len() as u32;
            let is_last = level == layout.rings;
            for j in 0..side {
                for i in 0..side {
                    let (ux, uy) = (cx + (i - n) * step, cy + (j - n) * step);
                    let on_x_rim = i == 0 || i == side - 1;
                    let on_y_rim = j == 0 || j == side - 1;
                    // A seam vertex: on this level's rim (inside the next level) at an odd
                    // lattice position along the rim.
                    let (pin, axis) = if is_last {
                        (0.0, 0.0)
                    } else if on_x_rim && (uy / step) % 2 != 0 {
                        (step as f32 * s0, 1.0)
                    } else if on_y_rim && (ux / step) % 2 != 0 {
                        (step as f32 * s0, 0.0)
                    } else {
                        (0.0, 0.0)
                    };
                    mesh.vertices.push(RingVertex {
                        position: [ux as f32 * s0, uy as f32 * s0],
                        pin,
                        axis,
                    });
                }
            }
            let index = |i: i64, j: i64| first + (j * side + i) as u32;
            for j in 0..2 * n {
                for i in 0..2 * n {
                    let covered = inner.is_some_and(|(ix, iy, half)| {
                        let (x0, y0) = (cx + (i - n) * step, cy + (j - n) * step);
                        x0 >= ix - half
                            && x0 + step <= ix + half
                            && y0 >= iy - half
                            && y0 + step <= iy + half
                    });
                    if !covered {
                        let (a, b, c, d) = (
                            index(i, j),
                            index(i + 1, j),
                            index(i, j + 1),
                            index(i + 1, j + 1),
                        );
                        mesh.indices.extend_from_slice(&[a, b, d, a, d, c]);
                    }
                }
            }
            inner = Some((cx, cy, n * step));
            if is_last {
                rim = perimeter(side).map(|(i, j)| index(i, j)).collect();
            }
        }
        let centre = *mesh.centres.last().expect("one level at least");
        let far_first = mesh.vertices.len() as u32;
        for &v in &rim {
            let p = Vec2::from(mesh.vertices[v as usize].position);
            let far = centre + (p - centre) * layout.skirt;
            mesh.vertices.push(RingVertex {
                position: far.to_array(),
                pin: 0.0,
                axis: 0.0,
            });
        }
        let count = rim.len() as u32;
        for k in 0..count {
            let next = (k + 1) % count;
            let (a, b) = (rim[k as usize], rim[next as usize]);
            let (c, d) = (far_first + k, far_first + next);
            mesh.indices.extend_from_slice(&[a, b, d, a, d, c]);
        }
        mesh
    }
}

/// The rim of a `side x side` lattice, once around, as `(i, j)`.
fn perimeter(side: i64) -> impl Iterator<Item = (i64, i64)> {
    let last = side - 1;
    (0..last)
        .map(move |i| (i, 0))
        .chain((0..last).map(move |j| (last, j)))
        .chain((0..last).map(move |i| (last - i, last)))
        .chain((0..last).map(move |j| (0, last - j)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn layout() -> RingLayout {
        RingLayout {
            finest_spacing: 0.5,
            half_quads: 4,
            rings: 3,
            skirt: 8.0,
        }
    }

    /// A smooth, unrelated function to stand in for the sea's heights.
    fn sea(p: Vec2) -> f32 {
        (0.7 * p.x + 0.3).sin() + (0.45 * p.y - 1.1).cos() * (0.2 * p.x).sin()
    }

    /// Edges used by one triangle only, with their heights at the ends.
    fn open_edges(mesh: &RingMesh) -> Vec<[(Vec2, f32); 2]> {
        let mut count: HashMap<(u32, u32), u32> = HashMap::new();
        for t in mesh.indices.chunks(3) {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                *count.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        let end = |v: u32| {
            let vertex = mesh.vertices[v as usize];
            (Vec2::from(vertex.position), vertex.heights_pinned(sea))
        };
        count
            .into_iter()
            .filter(|(_, n)| *n == 1)
            .map(|((a, b), _)| [end(a), end(b)])
            .collect()
    }

    /// Where the seam between rings lies, the surface from each side meets: at points along
    /// every edge with one triangle (other than the skirt's far rim), another such edge passes
    /// through the same point at the same height. Without the pinned vertices (or with a ring
    /// whose hole missed the finer level by a cell) this fails.
    #[test]
    fn rings_meet_without_cracks_under_any_heights() {
        for camera in [Vec2::ZERO, Vec2::new(3.3, -7.9), Vec2::new(-100.2, 55.5)] {
            let mesh = RingMesh::around(camera, &layout());
            let far = layout().reach() * 2.0;
            let edges: Vec<_> = open_edges(&mesh)
                .into_iter()
                .filter(|[(a, _), (b, _)]| {
                    (*a - *mesh.centres.last().unwrap()).abs().max_element() < far
                        && (*b - *mesh.centres.last().unwrap()).abs().max_element() < far
                })
                .collect();
            assert!(!edges.is_empty(), "the rings have seams to check");
            for (e, [(a, ha), (b, hb)]) in edges.iter().enumerate() {
                for t in [0.25_f32, 0.5, 0.75] {
                    let q = a.lerp(*b, t);
                    let h = ha + (hb - ha) * t;
                    let other = edges
                        .iter()
                        .enumerate()
                        .find_map(|(f, [(c, hc), (d, hd)])| {
                            if f == e {
                                return None;
                            }
                            let along = (q - *c).dot(*d - *c) / (*d - *c).length_squared();
                            let off = (*c + (*d - *c) * along - q).length();
                            (off < 1e-4 && (-1e-6..=1.0 + 1e-6).contains(&along))
                                .then(|| hc + (hd - hc) * along)
                        });
                    let other = other.unwrap_or_else(|| {
                        panic!("camera {camera}: nothing meets the edge {a} - {b} at {q}")
                    });
                    assert!(
                        (other - h).abs() < 1e-4,
                        "camera {camera}: a crack at {q}: {h} against {other}"
                    );
                }
            }
        }
    }

    #[test]
    fn each_level_doubles_and_reaches_past_the_skirt() {
        let mesh = RingMesh::around(Vec2::new(1.1, 2.2), &layout());
        assert_eq!(mesh.centres.len(), 4);
        assert!((layout().reach() - 16.0).abs() < 1e-6);
        let farthest = mesh
            .vertices
            .iter()
            .map(|v| Vec2::from(v.position).length())
            .fold(0.0_f32, f32::max);
        assert!(farthest > 8.0 * 16.0 * 0.9, "{farthest}");
        // 2n x 2n quads in the centre, 3n^2 in each ring, 8n quads of skirt per ring-side step.
        let quads = 64 + 3 * 48 + 4 * 8;
        assert_eq!(mesh.indices.len(), quads * 6);
    }

    /// Vertices stay fixed in the world while the camera moves less than a level's rounding:
    /// no wave crawls over the mesh.
    #[test]
    fn a_small_camera_move_keeps_the_vertices_in_place() {
        let a = RingMesh::around(Vec2::new(0.1, 0.1), &layout());
        let b = RingMesh::around(Vec2::new(0.3, -0.2), &layout());
        assert_eq!(a, b);
        assert_eq!(level_centres(Vec2::new(0.3, -0.2), &layout()), b.centres);
        let moved = RingMesh::around(Vec2::new(0.7, -0.2), &layout());
        assert_ne!(
            moved.centres, b.centres,
            "past the finest rounding the mesh moves"
        );
        assert_eq!(
            moved.indices.len(),
            b.indices.len(),
            "by the same count of triangles"
        );
    }
}
