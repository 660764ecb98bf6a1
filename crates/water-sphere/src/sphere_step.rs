//! `sphere_step`: one leapfrog step of sphere water over six neighbour slots per vertex,
//! `z_new = d * ((z + z) - z_old + k * sum_s w_s (z[n_s] - z))`, slots summed in order.
//! GPU twins: `shaders/sphere_step.wgsl` and `shaders/sphere_step_fragment.wgsl`.
//!
//! The slots are stored slot-major (`index[s][v]`, `weight[s][v]`), so eight consecutive vertices
//! read eight consecutive indices and weights per slot: on x86-64 CPUs with AVX2 the step gathers
//! eight neighbours at once (`vpgatherdd`), in the same order of operations as the scalar loop,
//! so both give the same bits.
#![allow(unsafe_code, reason = "AVX2 gathers")]

use crate::adjacency::SLOTS;

/// The leapfrog update of one vertex, `d * ((z + z) - z_old + k * sum)`, from the neighbour sum
/// `sum_s w_s (z_s - z)`: rounded this way by both layouts' loops, so they give the same bits.
#[inline(always)]
pub(crate) fn wave_update(z: f32, old: f32, sum: f32, k: f32, d: f32) -> f32 {
    d * ((z + z) - old + k * sum)
}

/// [`wave_update`] on eight vertices, with the same operations in the same order (no fused
/// multiply-adds, which would round differently).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn wave_update_avx2(
    z: std::arch::x86_64::__m256,
    old: std::arch::x86_64::__m256,
    sum: std::arch::x86_64::__m256,
    kv: std::arch::x86_64::__m256,
    dv: std::arch::x86_64::__m256,
) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::{_mm256_add_ps, _mm256_mul_ps, _mm256_sub_ps};
    _mm256_mul_ps(
        dv,
        _mm256_add_ps(
            _mm256_sub_ps(_mm256_add_ps(z, z), old),
            _mm256_mul_ps(kv, sum),
        ),
    )
}

/// Slot-major neighbour table and weights for `len` vertices. Every index is below `len`
/// (checked when the table is built), which is what lets the gathers skip bounds checks.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotTable {
    index: [Vec<u32>; SLOTS],
    weight: [Vec<f32>; SLOTS],
}

impl SlotTable {
    /// A table from `index[s][v]` (vertex `v`'s neighbour in slot `s`; itself, with weight 0, in
    /// a pentagon's sixth slot) and `weight[s][v]`.
    ///
    /// # Panics
    /// If the arrays differ in length or an index is out of range (a bug in the caller).
    #[must_use]
    pub fn new(index: [Vec<u32>; SLOTS], weight: [Vec<f32>; SLOTS]) -> Self {
        let n = index[0].len();
        assert!(index.iter().all(|ix| ix.len() == n) && weight.iter().all(|w| w.len() == n));
        assert!(index.iter().all(|ix| ix.iter().all(|&i| (i as usize) < n)));
        Self { index, weight }
    }

    /// `index[s][v]`, slot-major.
    #[must_use]
    pub fn indices(&self) -> &[Vec<u32>; SLOTS] {
        &self.index
    }

    /// `weight[s][v]`, slot-major.
    #[must_use]
    pub fn weights(&self) -> &[Vec<f32>; SLOTS] {
        &self.weight
    }

    /// Vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.index[0].len()
    }

    /// True for no vertices.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One step of vertices `start..start + out.len()` into `out`.
///
/// # Panics
/// If `cur` does not hold one height per vertex of the table, or the range runs past it.
#[inline]
pub fn sphere_step(table: &SlotTable, cur: &[f32], start: usize, out: &mut [f32], k: f32, d: f32) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is available; the function checks the lengths its gathers rely on.
        unsafe { sphere_step_avx2(table, cur, start, out, k, d) };
        return;
    }
    sphere_step_scalar(table, cur, start, out, k, d);
}

/// The plain loop.
pub fn sphere_step_scalar(
    table: &SlotTable,
    cur: &[f32],
    start: usize,
    out: &mut [f32],
    k: f32,
    d: f32,
) {
    for (o, v) in out.iter_mut().zip(start..) {
        let z = cur[v];
        let mut sum = 0.0f32;
        for s in 0..SLOTS {
            sum += table.weight[s][v] * (cur[table.index[s][v] as usize] - z);
        }
        *o = wave_update(z, *o, sum, k, d);
    }
}

/// Eight vertices at a time with AVX2 gathers; the remainder with the plain loop.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sphere_step_avx2(
    table: &SlotTable,
    cur: &[f32],
    start: usize,
    out: &mut [f32],
    k: f32,
    d: f32,
) {
    use std::arch::x86_64::{
        _mm256_add_ps, _mm256_i32gather_ps, _mm256_loadu_ps, _mm256_loadu_si256, _mm256_mul_ps,
        _mm256_set1_ps, _mm256_setzero_ps, _mm256_storeu_ps, _mm256_sub_ps,
    };
    let n = out.len();
    // Indices are below table.len() by construction, so within `cur` when the lengths match.
    assert!(
        cur.len() == table.len() && start + n <= cur.len(),
        "one height per vertex"
    );
    let vectors = n / 8;
    let (kv, dv) = (_mm256_set1_ps(k), _mm256_set1_ps(d));
    for b in 0..vectors {
        let v = start + b * 8;
        // SAFETY: v + 8 <= end <= every array's length (asserted above), and every gathered
        // index is below cur.len().
        unsafe {
            let z = _mm256_loadu_ps(cur.as_ptr().add(v));
            let mut sum = _mm256_setzero_ps();
            for s in 0..SLOTS {
                let idx = _mm256_loadu_si256(table.index[s].as_ptr().add(v).cast());
                let nbr = _mm256_i32gather_ps::<4>(cur.as_ptr(), idx);
                let w = _mm256_loadu_ps(table.weight[s].as_ptr().add(v));
                sum = _mm256_add_ps(sum, _mm256_mul_ps(w, _mm256_sub_ps(nbr, z)));
            }
            let o = out.as_mut_ptr().add(b * 8);
            let old = _mm256_loadu_ps(o);
            _mm256_storeu_ps(o, wave_update_avx2(z, old, sum, kv, dv));
        }
    }
    let done = vectors * 8;
    sphere_step_scalar(table, cur, start + done, &mut out[done..], k, d);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathered_and_plain_steps_give_the_same_bits() {
        let n = 1037;
        let table = SlotTable::new(
            std::array::from_fn(|s| (0..n).map(|v| ((v * 31 + s * 7) % n) as u32).collect()),
            std::array::from_fn(|s| (0..n).map(|v| ((v + s) % 5) as f32 * 0.1).collect()),
        );
        let cur: Vec<f32> = (0..n).map(|i| (i as f32 * 0.3).sin()).collect();
        let old: Vec<f32> = (0..n).map(|i| (i as f32 * 0.2).cos()).collect();
        let (mut fast, mut plain) = (old[5..].to_vec(), old[5..].to_vec());
        sphere_step(&table, &cur, 5, &mut fast, 0.3, 0.99);
        sphere_step_scalar(&table, &cur, 5, &mut plain, 0.3, 0.99);
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fast), bits(&plain));
    }
}
