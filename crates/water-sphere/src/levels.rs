//! The two time levels of sphere water, kept in one of the [`SphereLayout`]s.
//!
//! The gather layout stores them in vertex order. The rhombus layout stores them padded, in
//! ten patches, and makes vertex-order copies only when asked for them (heights for drawing, a
//! click's volume): after each step the copies are dropped and rebuilt on the next request, so
//! steps never pay for them.

use std::sync::OnceLock;

use water_core::AlignedBuffer;

use crate::rhombus::RhombusLayout;
use crate::rhombus_step::RhombusStencil;
use crate::sphere_layout::SphereLayout;
use crate::sphere_step::{sphere_step, SlotTable};

/// Vertices per parallel work item of the gather layout.
const VERTEX_BLOCK: usize = 4096;

/// The levels in their layout.
#[derive(Debug, Clone)]
pub(crate) enum Levels {
    Gather { cur: Vec<f32>, old: Vec<f32> },
    Rhombus(Box<RhombusLevels>),
}

/// Padded levels, the stencil, and vertex-order copies made on demand.
#[derive(Debug, Clone)]
pub(crate) struct RhombusLevels {
    stencil: RhombusStencil,
    cur: AlignedBuffer,
    old: AlignedBuffer,
    /// Vertex-order copies of `cur` and `old`, made when first asked for since the last change.
    views: [OnceLock<Vec<f32>>; 2],
    /// Which copies were handed out mutably and may hold changes the padded levels lack.
    edited: [bool; 2],
}

impl RhombusLevels {
    fn view<'a>(&'a self, layout: &RhombusLayout, which: usize) -> &'a [f32] {
        self.views[which].get_or_init(|| {
            let mut values = vec![0.0; layout.cells().len()];
            layout.gather(if which == 0 { &self.cur } else { &self.old }, &mut values);
            values
        })
    }

    /// Moves changes made through the copies into the padded levels.
    fn commit(&mut self, layout: &RhombusLayout) {
        let edited = std::mem::take(&mut self.edited);
        for ((view, cells), edited) in self
            .views
            .iter()
            .zip([&mut self.cur, &mut self.old])
            .zip(edited)
        {
            if edited {
                layout.scatter(view.get().expect("edited copies exist"), cells);
            }
        }
    }

    /// The vertex-order copy of level `which`, mutably; its changes reach the next step.
    fn view_mut(&mut self, layout: &RhombusLayout, which: usize) -> &mut [f32] {
        self.view(layout, which);
        self.edited[which] = true;
        self.views[which].get_mut().expect("made above")
    }
}

impl Levels {
    /// Still water in `layout`.
    pub(crate) fn new(
        layout: SphereLayout,
        rhombi: &RhombusLayout,
        slots: &SlotTable,
        cur: Vec<f32>,
        old: Vec<f32>,
    ) -> Self {
        match layout {
            SphereLayout::Gather => Self::Gather { cur, old },
            SphereLayout::Rhombus => {
                let mut padded = [
                    AlignedBuffer::zeroed(rhombi.len()),
                    AlignedBuffer::zeroed(rhombi.len()),
                ];
                rhombi.scatter(&cur, &mut padded[0]);
                rhombi.scatter(&old, &mut padded[1]);
                let [cur_cells, old_cells] = padded;
                Self::Rhombus(Box::new(RhombusLevels {
                    stencil: RhombusStencil::new(rhombi, slots),
                    cur: cur_cells,
                    old: old_cells,
                    views: [OnceLock::from(cur), OnceLock::from(old)],
                    edited: [false; 2],
                }))
            }
        }
    }

    pub(crate) fn layout(&self) -> SphereLayout {
        match self {
            Self::Gather { .. } => SphereLayout::Gather,
            Self::Rhombus(_) => SphereLayout::Rhombus,
        }
    }

    /// Current heights in vertex order.
    pub(crate) fn current<'a>(&'a self, rhombi: &RhombusLayout) -> &'a [f32] {
        match self {
            Self::Gather { cur, .. } => cur,
            Self::Rhombus(r) => r.view(rhombi, 0),
        }
    }

    /// Previous heights in vertex order.
    pub(crate) fn previous<'a>(&'a self, rhombi: &RhombusLayout) -> &'a [f32] {
        match self {
            Self::Gather { old, .. } => old,
            Self::Rhombus(r) => r.view(rhombi, 1),
        }
    }

    /// Both levels in vertex order, mutably; changes reach the next step.
    pub(crate) fn both_mut(&mut self, rhombi: &RhombusLayout) -> (&mut [f32], &mut [f32]) {
        match self {
            Self::Gather { cur, old } => (cur, old),
            Self::Rhombus(r) => {
                r.view_mut(rhombi, 0);
                r.view_mut(rhombi, 1);
                let [cur, old] = &mut r.views;
                (
                    cur.get_mut().expect("made above"),
                    old.get_mut().expect("made above"),
                )
            }
        }
    }

    /// The current level in vertex order, mutably; changes reach the next step.
    pub(crate) fn current_mut(&mut self, rhombi: &RhombusLayout) -> &mut [f32] {
        match self {
            Self::Gather { cur, .. } => cur,
            Self::Rhombus(r) => r.view_mut(rhombi, 0),
        }
    }

    /// Sets both levels (one value per vertex, checked by the caller).
    pub(crate) fn set_both(&mut self, rhombi: &RhombusLayout, heights: &[f32]) {
        match self {
            Self::Gather { cur, old } => {
                cur.copy_from_slice(heights);
                old.copy_from_slice(heights);
            }
            Self::Rhombus(r) => {
                rhombi.scatter(heights, &mut r.cur);
                rhombi.scatter(heights, &mut r.old);
                r.views = [
                    OnceLock::from(heights.to_vec()),
                    OnceLock::from(heights.to_vec()),
                ];
                r.edited = [false; 2];
            }
        }
    }

    /// Adds `dz` (one value per vertex) to the current heights.
    pub(crate) fn add_to_current(&mut self, rhombi: &RhombusLayout, dz: &[f32]) {
        match self {
            Self::Gather { cur, .. } => {
                for (z, dz) in cur.iter_mut().zip(dz) {
                    *z += dz;
                }
            }
            Self::Rhombus(r) => {
                r.commit(rhombi);
                assert_eq!(dz.len(), rhombi.cells().len(), "one value per vertex");
                for (&cell, dz) in rhombi.cells().iter().zip(dz) {
                    r.cur[cell as usize] += dz;
                }
                r.views[0] = OnceLock::new();
            }
        }
    }

    /// One step with coefficient `k` and damping `d` on `threads` threads of the current pool.
    pub(crate) fn step(
        &mut self,
        rhombi: &RhombusLayout,
        slots: &SlotTable,
        k: f32,
        d: f32,
        threads: usize,
    ) {
        match self {
            Self::Gather { cur, old } => {
                let cur_ref: &[f32] = cur;
                let block = |(b, out): (usize, &mut [f32])| {
                    sphere_step(slots, cur_ref, b * VERTEX_BLOCK, out, k, d);
                };
                if threads > 1 {
                    use rayon::prelude::*;
                    old.par_chunks_mut(VERTEX_BLOCK).enumerate().for_each(block);
                } else {
                    old.chunks_mut(VERTEX_BLOCK).enumerate().for_each(block);
                }
                std::mem::swap(cur, old);
            }
            Self::Rhombus(r) => {
                r.commit(rhombi);
                r.stencil
                    .step(rhombi, &mut r.cur, &mut r.old, k, d, threads);
                std::mem::swap(&mut r.cur, &mut r.old);
                r.views = Default::default();
            }
        }
    }
}
