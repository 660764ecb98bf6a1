//! The two graph operators the sphere steppers apply, as per-vertex weights over the ordered
//! neighbours (the CSR of [`crate::Adjacency`]):
//!
//! * the demo's **mean**: `(M z)_i = mean(z_k) - z_i` over the neighbours `k` (weights `1/deg`);
//! * the **Laplace-Beltrami** operator with cotangent weights and lumped (barycentric) mass:
//!   `(L z)_i = (1/A_i) sum_j (cot a_ij + cot b_ij)/2 (z_j - z_i)`, in 1/m^2, whose eigenvalues
//!   on a sphere of radius R tend to `-l(l+1)/R^2`.
//!
//! Both are `(K z)_i = sum_j w_ij (z_j - z_i)`; stability limits come from the spectral radius of
//! `-K`, found by power iteration.

use glam::DVec3;

use crate::adjacency::Adjacency;
use crate::icosphere::Icosphere;

/// Weights `w_ij` of `(K z)_i = sum_j w_ij (z_j - z_i)`, one per CSR entry.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphOperator {
    adjacency: Adjacency,
    weights: Vec<f64>,
}

impl GraphOperator {
    /// The demo's neighbour mean minus the vertex: `w_ij = 1/deg(i)`.
    #[must_use]
    pub fn mean(adjacency: &Adjacency) -> Self {
        let mut weights = Vec::with_capacity(adjacency.indices().len());
        for v in 0..adjacency.len() {
            let ring = adjacency.neighbours(v);
            weights.extend(std::iter::repeat_n(1.0 / ring.len() as f64, ring.len()));
        }
        Self {
            adjacency: adjacency.clone(),
            weights,
        }
    }

    /// The cotangent Laplace-Beltrami operator with lumped mass (1/m^2).
    #[must_use]
    pub fn laplace_beltrami(sphere: &Icosphere, adjacency: &Adjacency) -> Self {
        let p: Vec<DVec3> = sphere.positions().iter().map(|v| v.as_dvec3()).collect();
        let n = p.len();
        let mut mass = vec![0.0f64; n];
        let mut weights = vec![0.0f64; adjacency.indices().len()];
        let slot = |i: u32, j: u32| -> usize {
            adjacency.row(i as usize).start
                + adjacency
                    .neighbours(i as usize)
                    .iter()
                    .position(|&k| k == j)
                    .expect("a face's edge joins neighbours")
        };
        for &[a, b, c] in sphere.faces() {
            let area = 0.5
                * (p[b as usize] - p[a as usize])
                    .cross(p[c as usize] - p[a as usize])
                    .length();
            for (i, j, k) in [(a, b, c), (b, c, a), (c, a, b)] {
                mass[i as usize] += area / 3.0;
                // The angle at k faces edge (i, j).
                let (u, v) = (p[i as usize] - p[k as usize], p[j as usize] - p[k as usize]);
                let half_cot = 0.5 * u.dot(v) / u.cross(v).length();
                weights[slot(i, j)] += half_cot;
                weights[slot(j, i)] += half_cot;
            }
        }
        for (v, area) in mass.iter().enumerate() {
            for w in &mut weights[adjacency.row(v)] {
                *w /= area;
            }
        }
        Self {
            adjacency: adjacency.clone(),
            weights,
        }
    }

    /// Number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.adjacency.len()
    }

    /// True for an empty mesh.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.adjacency.is_empty()
    }

    /// CSR offsets.
    #[must_use]
    pub fn offsets(&self) -> &[u32] {
        self.adjacency.offsets()
    }

    /// CSR neighbour indices.
    #[must_use]
    pub fn indices(&self) -> &[u32] {
        self.adjacency.indices()
    }

    /// Weights `w_ij`, one per CSR entry.
    #[must_use]
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// `out = K z`.
    pub fn apply(&self, z: &[f64], out: &mut [f64]) {
        for (i, o) in out.iter_mut().enumerate() {
            let row = self.adjacency.row(i);
            *o = self
                .adjacency
                .neighbours(i)
                .iter()
                .zip(&self.weights[row])
                .map(|(&j, w)| w * (z[j as usize] - z[i]))
                .sum();
        }
    }

    /// The largest eigenvalue of `-K` by power iteration from a fixed, rough start vector
    /// (it has a component along every mode), `iterations` times; the Rayleigh-like ratio
    /// `|K x| / |x|` of the last iterate.
    #[must_use]
    pub fn spectral_radius(&self, iterations: usize) -> f64 {
        let n = self.len();
        let mut x: Vec<f64> = (0..n)
            .map(|i| {
                ((i as f64 * 0.618_033_988_75).fract() - 0.5) * if i % 2 == 0 { 1.0 } else { -1.0 }
            })
            .collect();
        let mut y = vec![0.0; n];
        let mut estimate = 0.0;
        for _ in 0..iterations {
            self.apply(&x, &mut y);
            let norm_x = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            let norm_y = y.iter().map(|v| v * v).sum::<f64>().sqrt();
            if norm_y == 0.0 {
                return 0.0;
            }
            estimate = norm_y / norm_x;
            for (xi, yi) in x.iter_mut().zip(&y) {
                *xi = yi / norm_y;
            }
        }
        estimate
    }
}
