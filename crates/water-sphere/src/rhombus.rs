//! The rhombus layout: the icosphere's vertices as ten regular `2^n x 2^n` patches, so a step
//! reads its neighbours at fixed offsets along rows instead of gathering them one by one.
//!
//! The icosahedron's twenty faces pair into ten rhombi across ten of its edges: five around the
//! north pole (a cap face and the belt face below it) and five around the south pole. Each
//! rhombus has two 120-degree corners, joined by the shared edge (its short diagonal), and two
//! 60-degree ones. Its lattice coordinates `(i, j)`, `0 <= i, j <= N = 2^level`, start at one
//! 120-degree corner, the *origin*; the short diagonal runs along `(1, 1)` to the other one, and
//! `i` and `j` run along the edges, counter-clockwise in that order seen from outside. Every
//! vertex inside the rhombus then has its six neighbours at the [`DIRECTIONS`]
//! `(1,0), (1,1), (0,1), (-1,0), (-1,-1), (0,-1)`, counter-clockwise.
//!
//! Each rhombus *owns* the cells `0 <= i, j < N`: its interior, its two edges through the origin
//! and the origin itself. That covers every vertex exactly once except the two poles, which no
//! rhombus owns: `10 * N^2 + 2` vertices. (The origins are the ten icosahedron corners other than
//! the poles; each of the thirty icosahedron edges is a diagonal or one rhombus's owned edge.)
//!
//! A rhombus is stored as `N + 2` rows of [`RhombusLayout::stride`] cells: owned rows `0..N`
//! with one halo row on either side, and in each row the halo column `i = -1`, the owned cells
//! (starting [`LEFT_PAD`] cells in, on a 32-byte boundary) and the halo column `i = N`, padded
//! to a multiple of eight cells. The ten rhombi follow each other, then one row holding the two
//! poles. A halo cell holds a copy of the vertex that sits there on the sphere, which another
//! rhombus (or a pole) owns: [`RhombusLayout::exchange_halo`] refreshes the copies before each
//! step. The twelve corners have five neighbours, not six, so the regular stencil is wrong there
//! (the halo corner `(-1, -1)` of each origin stands for no vertex at all); the steppers update
//! them separately, with their own five-neighbour sum.

use crate::adjacency::{Adjacency, NO_NEIGHBOUR};
use crate::icosphere::{Icosphere, ICOSAHEDRON_FACES};

/// Rhombi on an icosphere.
pub const RHOMBI: usize = 10;

/// Lattice offsets `(di, dj)` of a vertex's six neighbours inside a rhombus, counter-clockwise
/// seen from outside, starting along the rhombus's first axis. Slot `s` of every six-neighbour
/// vertex in [`crate::SphereWater::slot_table`] is its neighbour in direction `s`.
pub const DIRECTIONS: [[isize; 2]; 6] = [[1, 0], [1, 1], [0, 1], [-1, 0], [-1, -1], [0, -1]];

/// Cells before column 0 in a padded row: the halo column and padding that puts the owned
/// cells on a 32-byte boundary of an aligned buffer, so eight-lane loads of the centre row do not
/// straddle cache lines.
pub const LEFT_PAD: usize = 8;

/// Where each vertex lives in the padded rhombus layout, and which vertex each halo cell copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RhombusLayout {
    side: usize,
    stride: usize,
    /// The cell holding each vertex (its owner cell; the pole row for the poles).
    cell_of: Vec<u32>,
    /// `[halo cell, owner cell]`, sorted by halo cell.
    halo: Vec<[u32; 2]>,
    /// Each six-neighbour vertex's neighbour in direction 0; [`NO_NEIGHBOUR`] for the corners.
    first_neighbours: Vec<u32>,
    /// The twelve five-neighbour vertices.
    corners: [u32; 12],
}

impl RhombusLayout {
    /// Finds the ten rhombi on `sphere` (whose ordered neighbours are `adjacency`) and lays
    /// them out.
    ///
    /// # Panics
    /// If the mesh is not an icosphere with counter-clockwise rings (never for an [`Icosphere`]
    /// and its [`Adjacency`]); each check says what did not fit.
    #[must_use]
    pub fn new(sphere: &Icosphere, adjacency: &Adjacency) -> Self {
        let n = 1usize << sphere.level();
        let stride = (LEFT_PAD + n + 1).next_multiple_of(8);
        let vertices = adjacency.len();
        let corners = sphere.corners();
        let rhombi = rhombus_corners(corners);
        let lattices: Vec<Vec<u32>> = rhombi
            .iter()
            .map(|&rhombus| lattice(adjacency, rhombus, n))
            .collect();
        let mut layout = Self {
            side: n,
            stride,
            cell_of: vec![u32::MAX; vertices],
            halo: Vec::new(),
            first_neighbours: vec![NO_NEIGHBOUR; vertices],
            corners,
        };
        let at = |r: usize, i: usize, j: usize| lattices[r][j * (n + 1) + i];
        for r in 0..RHOMBI {
            for j in 0..n {
                for i in 0..n {
                    layout.own(at(r, i, j), layout.cell(r, i as isize, j as isize));
                }
            }
        }
        let [north, south] = layout.pole_cells();
        layout.own(corners[0], north);
        layout.own(corners[pole_opposite(0)], south);
        if let Some(v) = layout.cell_of.iter().position(|&c| c == u32::MAX) {
            panic!("vertex {v} lies in no rhombus");
        }
        let mut halo_source = vec![u32::MAX; layout.len()];
        for r in 0..RHOMBI {
            for j in 0..n {
                for i in 0..n {
                    let v = at(r, i, j);
                    let ring = adjacency.neighbours(v as usize);
                    if ring.len() != 6 {
                        continue; // a corner: stepped on its own
                    }
                    let start = ring
                        .iter()
                        .position(|&u| u == at(r, i + 1, j))
                        .expect("lattice neighbours are mesh neighbours");
                    layout.first_neighbours[v as usize] = ring[start];
                    for (s, [di, dj]) in DIRECTIONS.into_iter().enumerate() {
                        let u = ring[(start + s) % 6];
                        let (ii, jj) = (i as isize + di, j as isize + dj);
                        let closed = 0..=n as isize;
                        if closed.contains(&ii) && closed.contains(&jj) {
                            assert_eq!(
                                u,
                                at(r, ii as usize, jj as usize),
                                "direction {s} of vertex {v}: the ring turns the other way"
                            );
                        }
                        let owned = 0..n as isize;
                        if owned.contains(&ii) && owned.contains(&jj) {
                            continue;
                        }
                        let (cell, source) = (layout.cell(r, ii, jj), layout.cell_of[u as usize]);
                        let slot = &mut halo_source[cell];
                        assert!(
                            *slot == u32::MAX || *slot == source,
                            "halo cell {cell} stands for two vertices"
                        );
                        *slot = source;
                    }
                }
            }
        }
        layout.halo = halo_source
            .iter()
            .enumerate()
            .filter(|&(_, &source)| source != u32::MAX)
            .map(|(cell, &source)| [cell as u32, source])
            .collect();
        layout
    }

    fn own(&mut self, vertex: u32, cell: usize) {
        let slot = &mut self.cell_of[vertex as usize];
        assert_eq!(*slot, u32::MAX, "vertex {vertex} lies in two rhombi");
        *slot = cell as u32;
    }

    /// `N = 2^level`: owned cells along each side of a rhombus.
    #[must_use]
    pub fn side(&self) -> usize {
        self.side
    }

    /// Cells per padded row (a multiple of 8).
    #[must_use]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Padded rows per rhombus: `N` owned rows and a halo row on either side.
    #[must_use]
    pub fn rows_per_rhombus(&self) -> usize {
        self.side + 2
    }

    /// Cells per rhombus, halo and padding included.
    #[must_use]
    pub fn rhombus_len(&self) -> usize {
        self.rows_per_rhombus() * self.stride
    }

    /// Cells in all: ten rhombi and the poles' row.
    #[must_use]
    pub fn len(&self) -> usize {
        RHOMBI * self.rhombus_len() + self.stride
    }

    /// Never true: there are always ten rhombi.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The cell of lattice point `(i, j)` of rhombus `rhombus`, for `-1 <= i, j <= N` (the owned
    /// cells and the halo ring).
    ///
    /// # Panics
    /// If the rhombus or the point lies outside the layout.
    #[must_use]
    pub fn cell(&self, rhombus: usize, i: isize, j: isize) -> usize {
        let ring = -1..=self.side as isize;
        assert!(
            rhombus < RHOMBI && ring.contains(&i) && ring.contains(&j),
            "lattice point ({i}, {j}) of rhombus {rhombus}: rhombi are 0..{RHOMBI}, \
             coordinates -1..={}",
            self.side
        );
        rhombus * self.rhombus_len()
            + (j + 1) as usize * self.stride
            + (LEFT_PAD as isize + i) as usize
    }

    /// The cells of the north and south poles, which no rhombus owns.
    #[must_use]
    pub fn pole_cells(&self) -> [usize; 2] {
        let row = RHOMBI * self.rhombus_len() + LEFT_PAD;
        [row, row + 1]
    }

    /// The cell holding each vertex.
    #[must_use]
    pub fn cells(&self) -> &[u32] {
        &self.cell_of
    }

    /// `[halo cell, owner cell]` for every halo cell a six-neighbour vertex reads, sorted by
    /// halo cell.
    #[must_use]
    pub fn halo(&self) -> &[[u32; 2]] {
        &self.halo
    }

    /// The part of [`RhombusLayout::halo`] whose halo cells lie in `rhombi`.
    ///
    /// # Panics
    /// If the range runs past the ten rhombi.
    #[must_use]
    pub fn halo_of(&self, rhombi: std::ops::Range<usize>) -> &[[u32; 2]] {
        assert!(rhombi.end <= RHOMBI, "rhombi {rhombi:?} of {RHOMBI}");
        let at = |r: usize| {
            let first_cell = (r * self.rhombus_len()) as u32;
            self.halo.partition_point(|&[halo, _]| halo < first_cell)
        };
        &self.halo[at(rhombi.start)..at(rhombi.end)]
    }

    /// Each vertex's neighbour in direction 0 of its rhombus ([`NO_NEIGHBOUR`] for the twelve
    /// corners and the poles): where its ring of slots starts.
    #[must_use]
    pub fn first_neighbours(&self) -> &[u32] {
        &self.first_neighbours
    }

    /// The twelve vertices with five neighbours (see [`Icosphere::corners`]).
    #[must_use]
    pub fn corners(&self) -> [u32; 12] {
        self.corners
    }

    /// Copies per-vertex values into their cells. Halo and padding cells keep what they held.
    ///
    /// # Panics
    /// If `values` has not one value per vertex or `cells` not [`RhombusLayout::len`] cells.
    pub fn scatter<T: Copy>(&self, values: &[T], cells: &mut [T]) {
        self.check(values.len(), cells.len());
        for (&cell, &value) in self.cell_of.iter().zip(values) {
            cells[cell as usize] = value;
        }
    }

    /// Copies each vertex's value out of its cell.
    ///
    /// # Panics
    /// If `values` has not one value per vertex or `cells` not [`RhombusLayout::len`] cells.
    pub fn gather<T: Copy>(&self, cells: &[T], values: &mut [T]) {
        self.check(values.len(), cells.len());
        for (value, &cell) in values.iter_mut().zip(&self.cell_of) {
            *value = cells[cell as usize];
        }
    }

    /// Refreshes every halo cell from the cell that owns its vertex.
    ///
    /// # Panics
    /// If `cells` has not [`RhombusLayout::len`] cells.
    pub fn exchange_halo<T: Copy>(&self, cells: &mut [T]) {
        assert_eq!(cells.len(), self.len(), "cells of this layout");
        for &[halo, owner] in &self.halo {
            cells[halo as usize] = cells[owner as usize];
        }
    }

    fn check(&self, values: usize, cells: usize) {
        assert_eq!(values, self.cell_of.len(), "one value per vertex");
        assert_eq!(cells, self.len(), "cells of this layout");
    }
}

/// The icosahedron corner opposite corner `pole`: the one that shares no face with `pole` or
/// with any of its five neighbours.
fn pole_opposite(pole: u32) -> usize {
    let touches = |a: u32, b: u32| {
        ICOSAHEDRON_FACES
            .iter()
            .any(|f| f.contains(&a) && f.contains(&b))
    };
    (0..12u32)
        .find(|&c| c != pole && !(0..12).any(|m| touches(pole, m) && touches(m, c)))
        .expect("an icosahedron corner has an opposite corner") as usize
}

/// The third corner of the icosahedron face in which `b` follows `a` counter-clockwise.
fn third(a: u32, b: u32) -> u32 {
    ICOSAHEDRON_FACES
        .iter()
        .find_map(|&[p, q, r]| match (a, b) {
            _ if (p, q) == (a, b) => Some(r),
            _ if (q, r) == (a, b) => Some(p),
            _ if (r, p) == (a, b) => Some(q),
            _ => None,
        })
        .expect("every directed icosahedron edge lies in one face")
}

/// Each rhombus as mesh vertices `[origin, first-axis corner, far corner, second-axis corner]`:
/// the five whose diagonal is an edge of the north pole's (corner 0's) ring, then the five
/// whose diagonal is an edge of the south pole's ring.
fn rhombus_corners(corners: [u32; 12]) -> [[u32; 4]; RHOMBI] {
    let south = pole_opposite(0) as u32;
    // Ring edges `(p, q)` as they run counter-clockwise in the caps' faces `(pole, p, q)`.
    let ring = |pole: u32| {
        let mut edges = Vec::with_capacity(5);
        let first = ICOSAHEDRON_FACES
            .iter()
            .find_map(|f| f.iter().position(|&c| c == pole).map(|k| f[(k + 1) % 3]))
            .expect("the pole lies in a face");
        let mut p = first;
        loop {
            let q = third(pole, p);
            edges.push((p, q));
            p = q;
            if p == first {
                break edges;
            }
        }
    };
    // A rhombus is the two faces on either side of its diagonal `origin -> far`: `(origin, a,
    // far)` puts the first axis towards `a`, `(origin, far, b)` the second towards `b`.
    let rhombus = |origin: u32, far: u32| {
        [origin, third(far, origin), far, third(origin, far)].map(|c| corners[c as usize])
    };
    let north: Vec<_> = ring(0).into_iter().map(|(p, q)| rhombus(p, q)).collect();
    // Around the south pole the same edges run the other way, so that each southern origin owns
    // the belt edge its northern neighbour leaves and its own edge to the pole.
    let southern: Vec<_> = ring(south)
        .into_iter()
        .map(|(p, q)| rhombus(q, p))
        .collect();
    let all: Vec<[u32; 4]> = north.into_iter().chain(southern).collect();
    all.try_into().expect("five rhombi around each pole")
}

/// The vertex after `cur`, straight on from `prev` (opposite `prev` in `cur`'s ring of six), or
/// `None` at a five-neighbour vertex.
fn straight_on(adjacency: &Adjacency, prev: u32, cur: u32) -> Option<u32> {
    let ring = adjacency.neighbours(cur as usize);
    let back = ring.iter().position(|&u| u == prev)?;
    (ring.len() == 6).then(|| ring[(back + 3) % 6])
}

/// The `n + 1` vertices of the subdivided icosahedron edge from corner `a` to corner `b`.
fn edge_path(adjacency: &Adjacency, a: u32, b: u32, n: usize) -> Vec<u32> {
    for &first in adjacency.neighbours(a as usize) {
        let mut path = vec![a, first];
        while path.len() < n + 1 {
            match straight_on(adjacency, path[path.len() - 2], path[path.len() - 1]) {
                Some(next) => path.push(next),
                None => break,
            }
        }
        if path.len() == n + 1 && path[n] == b {
            return path;
        }
    }
    panic!("no straight path of {n} edges joins corners {a} and {b}");
}

/// The vertices of a rhombus's closed lattice, `(n + 1)^2` of them, point `(i, j)` at
/// `j * (n + 1) + i`.
fn lattice(adjacency: &Adjacency, [origin, a, far, b]: [u32; 4], n: usize) -> Vec<u32> {
    let width = n + 1;
    let mut at = vec![NO_NEIGHBOUR; width * width];
    for (i, v) in edge_path(adjacency, origin, a, n).into_iter().enumerate() {
        at[i] = v;
    }
    for (j, v) in edge_path(adjacency, origin, b, n).into_iter().enumerate() {
        at[j * width] = v;
    }
    for j in 1..=n {
        for i in 1..=n {
            // (i-1, j) and (i, j-1) share two neighbours: (i-1, j-1) and (i, j).
            let (left, below, corner) = (
                at[j * width + i - 1],
                at[(j - 1) * width + i],
                at[(j - 1) * width + i - 1],
            );
            let below_ring = adjacency.neighbours(below as usize);
            let mut shared = adjacency
                .neighbours(left as usize)
                .iter()
                .filter(|&&u| u != corner && below_ring.contains(&u));
            let (Some(&v), None) = (shared.next(), shared.next()) else {
                panic!("lattice point ({i}, {j}) is not one vertex");
            };
            at[j * width + i] = v;
        }
    }
    assert_eq!(
        at[width * width - 1],
        far,
        "the lattice ends at the far corner"
    );
    at
}
