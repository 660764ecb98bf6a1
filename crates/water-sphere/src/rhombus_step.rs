//! `rhombus_step`: the sphere step of [`crate::sphere_step`] on the rhombus layout
//! ([`crate::rhombus`]), a row at a time:
//!
//! ```text
//! z_new = d * ((z + z) - z_old + k * sum_s w_s (z[cell + offset_s] - z))
//! ```
//!
//! with the six [`DIRECTIONS`] as offsets `+1, +stride+1, +stride, -1, -stride-1, -stride` and
//! the terms summed in that order, starting from zero: the order of the slot table's slots, whose
//! slot `s` is direction `s`, so both layouts give the same bits. The weights are one value for
//! the whole sphere (the demo's mean: `1/6` at every six-neighbour vertex) or six arrays in the
//! layout of the heights (Laplace-Beltrami), streamed beside them. The twelve corners, whose
//! stencil is wrong, are updated apart by [`Corner::update`], from the slot table.
//!
//! On x86-64 CPUs with AVX2 a row goes eight cells at a time, without fused multiply-adds (they
//! would round differently from the scalar loop). With threads, each rhombus is a task that
//! first refreshes its own halo cells, so no thread waits on a serial halo exchange.
#![allow(
    unsafe_code,
    reason = "AVX2 intrinsics on rows whose bounds are checked once per row, and tasks that \
              write disjoint halo cells of one buffer while reading cells nobody writes"
)]

use std::marker::PhantomData;

use water_core::AlignedBuffer;

use crate::adjacency::SLOTS;
use crate::rhombus::{RhombusLayout, DIRECTIONS, LEFT_PAD, RHOMBI};
#[cfg(target_arch = "x86_64")]
use crate::sphere_step::wave_update_avx2;
use crate::sphere_step::{wave_update, SlotTable};

/// The weights of a row: one for every cell and direction, or one row per direction.
#[derive(Debug, Clone, Copy)]
pub enum RowWeights<'a> {
    /// The same weight in every direction at every cell.
    Uniform(f32),
    /// `w[s][x]`: cell `x`'s weight in direction `s`.
    PerDirection([&'a [f32]; SLOTS]),
}

/// The six neighbour offsets of a layout with rows of `stride` cells, in [`DIRECTIONS`] order.
#[must_use]
pub fn offsets(stride: usize) -> [isize; SLOTS] {
    DIRECTIONS.map(|[di, dj]| di + dj * stride as isize)
}

/// Steps the cells `first..first + out.len()` of `cur` (one padded row's owned cells) into
/// `out`, which holds their previous heights.
///
/// # Panics
/// If a neighbour of the row lies outside `cur`, or a weight row is shorter than `out`.
#[inline]
pub fn rhombus_row(
    cur: &[f32],
    first: usize,
    stride: usize,
    weights: RowWeights<'_>,
    out: &mut [f32],
    k: f32,
    d: f32,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: AVX2 is available; the function checks the bounds its loads rely on.
        unsafe { rhombus_row_avx2(cur, first, stride, weights, out, k, d) };
        return;
    }
    rhombus_row_scalar(cur, first, stride, weights, out, k, d);
}

/// The plain loop.
///
/// # Panics
/// As [`rhombus_row`].
pub fn rhombus_row_scalar(
    cur: &[f32],
    first: usize,
    stride: usize,
    weights: RowWeights<'_>,
    out: &mut [f32],
    k: f32,
    d: f32,
) {
    let offsets = offsets(stride);
    for (x, o) in out.iter_mut().enumerate() {
        let c = first + x;
        let z = cur[c];
        let mut sum = 0.0f32;
        for (s, &offset) in offsets.iter().enumerate() {
            let w = match weights {
                RowWeights::Uniform(w) => w,
                RowWeights::PerDirection(w) => w[s][x],
            };
            sum += w * (cur[c.wrapping_add_signed(offset)] - z);
        }
        *o = wave_update(z, *o, sum, k, d);
    }
}

/// Eight cells at a time with AVX2; the rest (rows shorter than eight) with the plain loop.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rhombus_row_avx2(
    cur: &[f32],
    first: usize,
    stride: usize,
    weights: RowWeights<'_>,
    out: &mut [f32],
    k: f32,
    d: f32,
) {
    use std::arch::x86_64::{
        _mm256_add_ps, _mm256_loadu_ps, _mm256_mul_ps, _mm256_set1_ps, _mm256_setzero_ps,
        _mm256_storeu_ps, _mm256_sub_ps,
    };
    let n = out.len();
    // Every load below reads cells first - stride - 1 ..= first + n + stride of `cur` and the
    // first n cells of each weight row.
    assert!(
        first > stride && first + n + stride < cur.len(),
        "row {first}..{} and its neighbours lie in the {} cells",
        first + n,
        cur.len()
    );
    if let RowWeights::PerDirection(w) = weights {
        assert!(w.iter().all(|row| row.len() >= n), "a weight per cell");
    }
    let offsets = offsets(stride);
    let (kv, dv) = (_mm256_set1_ps(k), _mm256_set1_ps(d));
    let vectors = n / 8;
    let base = cur.as_ptr();
    for b in 0..vectors {
        let x = b * 8;
        let c = first + x;
        // SAFETY: cells c + offset .. c + offset + 8 lie within the range asserted above, and
        // weight cells x .. x + 8 below n.
        unsafe {
            let z = _mm256_loadu_ps(base.add(c));
            let mut sum = _mm256_setzero_ps();
            for (s, &offset) in offsets.iter().enumerate() {
                let nbr = _mm256_loadu_ps(base.offset(c as isize + offset));
                let w = match weights {
                    RowWeights::Uniform(w) => _mm256_set1_ps(w),
                    RowWeights::PerDirection(w) => _mm256_loadu_ps(w[s].as_ptr().add(x)),
                };
                sum = _mm256_add_ps(sum, _mm256_mul_ps(w, _mm256_sub_ps(nbr, z)));
            }
            let o = out.as_mut_ptr().add(x);
            let old = _mm256_loadu_ps(o);
            _mm256_storeu_ps(o, wave_update_avx2(z, old, sum, kv, dv));
        }
    }
    let done = vectors * 8;
    if done == n {
        return;
    }
    let rest = match weights {
        RowWeights::Uniform(w) => RowWeights::Uniform(w),
        RowWeights::PerDirection(w) => RowWeights::PerDirection(w.map(|row| &row[done..])),
    };
    rhombus_row_scalar(cur, first + done, stride, rest, &mut out[done..], k, d);
}

/// One of the twelve corners, stepped from its slot-table row with the cells of its neighbours:
/// five neighbours, and the sixth slot pointing at itself with weight 0, exactly as the gather
/// step sums it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    cell: u32,
    taps: [u32; SLOTS],
    weights: [f32; SLOTS],
}

impl Corner {
    /// The corner's new height from the current heights `cur` and its previous height in `old`.
    #[must_use]
    pub fn update(&self, cur: &[f32], old: &[f32], k: f32, d: f32) -> f32 {
        let z = cur[self.cell as usize];
        let mut sum = 0.0f32;
        for (&tap, &w) in self.taps.iter().zip(&self.weights) {
            sum += w * (cur[tap as usize] - z);
        }
        wave_update(z, old[self.cell as usize], sum, k, d)
    }

    /// The corner's cell.
    #[must_use]
    pub fn cell(&self) -> usize {
        self.cell as usize
    }
}

/// Weights of the rhombus stencil, built from the slot table.
#[derive(Debug, Clone, PartialEq)]
pub enum StencilWeights {
    /// Every six-neighbour vertex has this weight in every slot.
    Uniform(f32),
    /// `w[s][cell]`: the weight of direction `s` at each cell (zero in halo and padding cells).
    PerDirection(Box<[AlignedBuffer; SLOTS]>),
}

/// Everything a rhombus step reads besides the heights: the stencil's weights and the corners.
#[derive(Debug, Clone, PartialEq)]
pub struct RhombusStencil {
    weights: StencilWeights,
    corners: [Corner; 12],
}

impl RhombusStencil {
    /// The stencil of `slots` on `layout`.
    ///
    /// # Panics
    /// If `slots` is not the table of the layout's sphere with slot `s` in direction `s` (a bug
    /// in the caller).
    #[must_use]
    pub fn new(layout: &RhombusLayout, slots: &SlotTable) -> Self {
        let cells = layout.cells();
        assert_eq!(slots.len(), cells.len(), "a slot row per vertex");
        let six: Vec<usize> = (0..cells.len())
            .filter(|&v| layout.first_neighbours()[v] != crate::adjacency::NO_NEIGHBOUR)
            .collect();
        for &v in &six {
            assert_eq!(
                slots.indices()[0][v],
                layout.first_neighbours()[v],
                "slot 0 of vertex {v} is its neighbour in direction 0"
            );
        }
        let w = slots.weights();
        let uniform = six.first().map_or(0.0, |&v| w[0][v]);
        let weights = if six
            .iter()
            .all(|&v| (0..SLOTS).all(|s| w[s][v].to_bits() == uniform.to_bits()))
        {
            StencilWeights::Uniform(uniform)
        } else {
            let mut per = Box::new(std::array::from_fn(|_| AlignedBuffer::zeroed(layout.len())));
            for &v in &six {
                for s in 0..SLOTS {
                    per[s][cells[v] as usize] = w[s][v];
                }
            }
            StencilWeights::PerDirection(per)
        };
        let corners = layout.corners().map(|v| {
            let v = v as usize;
            Corner {
                cell: cells[v],
                taps: std::array::from_fn(|s| cells[slots.indices()[s][v] as usize]),
                weights: std::array::from_fn(|s| w[s][v]),
            }
        });
        Self { weights, corners }
    }

    /// The stencil's weights.
    #[must_use]
    pub fn weights(&self) -> &StencilWeights {
        &self.weights
    }

    /// The twelve corners.
    #[must_use]
    pub fn corners(&self) -> &[Corner; 12] {
        &self.corners
    }

    /// One step: refreshes the halo of `cur`, then writes the new heights over the previous ones
    /// in `old` (every owned cell and the poles). With `threads > 1`, on the current rayon pool,
    /// a rhombus per task, each refreshing its own halo cells and then stepping its rows.
    ///
    /// # Panics
    /// If `cur` or `old` has not [`RhombusLayout::len`] cells.
    pub fn step(
        &self,
        layout: &RhombusLayout,
        cur: &mut [f32],
        old: &mut [f32],
        k: f32,
        d: f32,
        threads: usize,
    ) {
        assert_eq!(cur.len(), layout.len(), "cells of this layout");
        assert_eq!(old.len(), layout.len(), "cells of this layout");
        // The corners read their previous heights, which the rows are about to overwrite, and
        // only owned cells of `cur`, so they need no halo.
        let corners = self.corners.map(|c| c.update(cur, old, k, d));
        let block = layout.rhombus_len();
        let stepped = &mut old[..RHOMBI * block];
        if threads > 1 {
            use rayon::prelude::*;
            let shared = SharedCells::new(cur);
            // A rhombus per task: ten tasks balance two threads exactly and leave work to steal
            // when one of them is slow to start.
            stepped
                .par_chunks_mut(block)
                .enumerate()
                .for_each(|(r, out)| {
                    // SAFETY: each task writes only the halo cells of its own rhombus and reads
                    // owned cells, which no task writes (the step writes `old`); the cells of
                    // its rhombus are read by no other task.
                    let cells =
                        unsafe { shared.refresh(layout.halo_of(r..r + 1), r * block, block) };
                    self.step_rhombi(layout, cells, r, r * block, out, k, d);
                });
        } else {
            layout.exchange_halo(cur);
            self.step_rhombi(layout, cur, 0, 0, stepped, k, d);
        }
        for (corner, z) in self.corners.iter().zip(corners) {
            old[corner.cell()] = z;
        }
    }

    /// Steps the owned rows of consecutive rhombi from `first_rhombus`: `cur` holds their
    /// current cells from cell `offset` of the layout on, `out` their previous cells, whole
    /// rhombi.
    #[allow(
        clippy::too_many_arguments,
        reason = "one row loop's inputs, all used together"
    )]
    fn step_rhombi(
        &self,
        layout: &RhombusLayout,
        cur: &[f32],
        first_rhombus: usize,
        offset: usize,
        out: &mut [f32],
        k: f32,
        d: f32,
    ) {
        let (n, stride, block) = (layout.side(), layout.stride(), layout.rhombus_len());
        for (r, rhombus) in out.chunks_mut(block).enumerate() {
            // Rows 0 and n + 1 are halo.
            for (j, row) in rhombus.chunks_mut(stride).enumerate().take(n + 1).skip(1) {
                let first = (first_rhombus + r) * block + j * stride + LEFT_PAD;
                let weights = match &self.weights {
                    StencilWeights::Uniform(w) => RowWeights::Uniform(*w),
                    StencilWeights::PerDirection(w) => {
                        RowWeights::PerDirection(std::array::from_fn(|s| &w[s][first..first + n]))
                    }
                };
                let row = &mut row[LEFT_PAD..LEFT_PAD + n];
                rhombus_row(cur, first - offset, stride, weights, row, k, d);
            }
        }
    }
}

/// The current heights, shared by tasks that each refresh one rhombus's halo cells before
/// stepping its rows: writes and reads that never meet, which references cannot express.
struct SharedCells<'a> {
    ptr: *mut f32,
    len: usize,
    _cells: PhantomData<&'a mut [f32]>,
}

// SAFETY: the tasks' accesses are disjoint (see `refresh`); the pointer comes from a `&mut`
// borrow held for the wrapper's lifetime.
unsafe impl Sync for SharedCells<'_> {}

impl<'a> SharedCells<'a> {
    fn new(cells: &'a mut [f32]) -> Self {
        Self {
            ptr: cells.as_mut_ptr(),
            len: cells.len(),
            _cells: PhantomData,
        }
    }

    /// Copies each `[halo cell, owner cell]` pair of `halo`, whose halo cells lie in the
    /// rhombus whose cells start at `first`, and returns that rhombus's cells.
    ///
    /// # Safety
    /// While the returned slice lives, nothing writes in the rhombus; while this runs, nothing
    /// else reads or writes its halo cells, or writes the owner cells.
    unsafe fn refresh(&self, halo: &[[u32; 2]], first: usize, len: usize) -> &[f32] {
        let range = first..first + len;
        assert!(
            range.end <= self.len,
            "rhombus {range:?} of {} cells",
            self.len
        );
        for &[halo, owner] in halo {
            let (halo, owner) = (halo as usize, owner as usize);
            assert!(
                range.contains(&halo) && owner < self.len,
                "halo of the rhombus"
            );
            // SAFETY: both cells are in bounds, and the caller rules out other accesses to
            // them that could race.
            unsafe { self.ptr.add(halo).write(self.ptr.add(owner).read()) };
        }
        // SAFETY: in bounds; the caller rules out writes to the range while the slice lives.
        unsafe { std::slice::from_raw_parts(self.ptr.add(range.start), range.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_and_plain_rows_give_the_same_bits() {
        let stride = 48;
        let cur: Vec<f32> = (0..stride * 3).map(|i| (i as f32 * 0.37).sin()).collect();
        let w: Vec<Vec<f32>> = (0..SLOTS)
            .map(|s| (0..40).map(|x| ((x + s) % 7) as f32 * 0.05).collect())
            .collect();
        let per = RowWeights::PerDirection(std::array::from_fn(|s| w[s].as_slice()));
        for weights in [RowWeights::Uniform(1.0 / 6.0), per] {
            // 37 cells: four vectors and a remainder of five.
            let old: Vec<f32> = (0..37).map(|i| (i as f32 * 0.21).cos()).collect();
            let (mut fast, mut plain) = (old.clone(), old.clone());
            rhombus_row(&cur, stride + 3, stride, weights, &mut fast, 0.4, 0.99);
            rhombus_row_scalar(&cur, stride + 3, stride, weights, &mut plain, 0.4, 0.99);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&plain));
            assert_ne!(bits(&fast), bits(&old), "the row was stepped");
        }
    }
}
