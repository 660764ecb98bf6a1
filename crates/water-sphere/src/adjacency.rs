//! Per-vertex neighbours of an icosphere, in cyclic order: consecutive neighbours share an edge
//! (they span one of the vertex's triangles) and go counter-clockwise seen from outside. Twelve
//! vertices have five neighbours, all others six.

use crate::icosphere::Icosphere;

/// Slots per vertex in the fixed-width table.
pub const SLOTS: usize = 6;
/// Value of an unused slot (pentagon vertices use five).
pub const NO_NEIGHBOUR: u32 = u32::MAX;

/// Ordered neighbours as compressed rows (CSR): the neighbours of vertex `v` are
/// `indices[offsets[v]..offsets[v + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjacency {
    offsets: Vec<u32>,
    indices: Vec<u32>,
}

impl Adjacency {
    /// Orders each vertex's neighbours by walking its triangles: in a counter-clockwise triangle
    /// `(a, b, c)` the neighbour after `b` around `a` is `c`.
    ///
    /// # Panics
    /// If the mesh is not a closed manifold (never for an [`Icosphere`]).
    #[must_use]
    pub fn new(sphere: &Icosphere) -> Self {
        let n = sphere.positions().len();
        // For each vertex, pairs (b, c): c follows b around it. At most six per vertex.
        let mut next: Vec<[(u32, u32); SLOTS]> = vec![[(NO_NEIGHBOUR, NO_NEIGHBOUR); SLOTS]; n];
        let mut count = vec![0u8; n];
        for &[a, b, c] in sphere.faces() {
            for (v, p, q) in [(a, b, c), (b, c, a), (c, a, b)] {
                let k = usize::from(count[v as usize]);
                next[v as usize][k] = (p, q);
                count[v as usize] += 1;
            }
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut indices = Vec::with_capacity(n * SLOTS);
        offsets.push(0);
        for v in 0..n {
            let pairs = &next[v][..usize::from(count[v])];
            let mut current = pairs[0].0;
            for _ in 0..pairs.len() {
                indices.push(current);
                current = pairs
                    .iter()
                    .find(|(p, _)| *p == current)
                    .map(|(_, q)| *q)
                    .expect("every neighbour starts one of the vertex's triangles");
            }
            offsets.push(indices.len() as u32);
        }
        Self { offsets, indices }
    }

    /// Number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True for an empty mesh (never for an icosphere).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Neighbours of vertex `v`, counter-clockwise seen from outside.
    #[must_use]
    pub fn neighbours(&self, v: usize) -> &[u32] {
        &self.indices[self.row(v)]
    }

    /// Where vertex `v`'s neighbours, and anything kept per neighbour, stand in the CSR arrays.
    pub(crate) fn row(&self, v: usize) -> std::ops::Range<usize> {
        self.offsets[v] as usize..self.offsets[v + 1] as usize
    }

    /// CSR offsets (`len() + 1` entries).
    #[must_use]
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// CSR neighbour indices.
    #[must_use]
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// The fixed-width table shaders read: six slots per vertex, [`NO_NEIGHBOUR`] in the sixth
    /// slot of the twelve pentagon vertices.
    #[must_use]
    pub fn table(&self) -> Vec<[u32; SLOTS]> {
        (0..self.len())
            .map(|v| {
                let mut row = [NO_NEIGHBOUR; SLOTS];
                for (slot, &n) in row.iter_mut().zip(self.neighbours(v)) {
                    *slot = n;
                }
                row
            })
            .collect()
    }
}
