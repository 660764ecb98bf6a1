//! A wave field: the two time levels the leapfrog stencil needs.

use crate::boundary::Boundary;
use crate::buffer::AlignedBuffer;
use crate::error::{Result, WaterError};
use crate::kernels::grid_step::grid_step;
use crate::kernels::temporal_blocking;
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::params::StencilCoefficients;
use crate::size::GridSize;

/// Heights at the current step (`z`) and the one before (`z_old`), both row-major, metres.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveField {
    cur: AlignedBuffer,
    old: AlignedBuffer,
}

impl WaveField {
    /// Still water: both levels zero.
    #[must_use]
    pub fn at_rest(size: GridSize) -> Self {
        Self {
            cur: AlignedBuffer::zeroed(size.cells()),
            old: AlignedBuffer::zeroed(size.cells()),
        }
    }

    /// Still water, allocated fallibly: [`WaterError::OutOfMemory`] naming the bytes when the
    /// allocator refuses them, instead of an abort.
    ///
    /// # Errors
    /// [`WaterError::OutOfMemory`].
    pub fn try_at_rest(size: GridSize) -> Result<Self> {
        let level = || {
            AlignedBuffer::try_zeroed(size.cells()).ok_or(WaterError::OutOfMemory {
                what: "a wave field level",
                bytes: size.cells() as u64 * 4,
            })
        };
        Ok(Self {
            cur: level()?,
            old: level()?,
        })
    }

    /// Current heights `z^n`.
    #[must_use]
    pub fn current(&self) -> &[f32] {
        &self.cur
    }

    /// Previous heights `z^(n-1)`.
    #[must_use]
    pub fn previous(&self) -> &[f32] {
        &self.old
    }

    /// Both levels, mutably: `(current, previous)`.
    pub fn levels_mut(&mut self) -> (&mut [f32], &mut [f32]) {
        (&mut self.cur, &mut self.old)
    }

    /// One stencil step; afterwards `current` is `z^(n+1)` and `previous` is `z^n`.
    pub(crate) fn step(
        &mut self,
        size: GridSize,
        k: StencilCoefficients,
        boundary: Boundary,
        parallelism: Parallelism,
    ) {
        grid_step(size, k, boundary, &self.cur, &mut self.old, parallelism);
        std::mem::swap(&mut self.cur, &mut self.old);
    }

    /// Several steps at once: temporally blocked when `blocked` (which the grid decides with
    /// [`temporal_blocking::TemporalBlocking::applies`]; bit for bit the same as single steps), single steps
    /// otherwise.
    #[allow(
        clippy::too_many_arguments,
        reason = "the step's whole context, passed down flat"
    )]
    pub(crate) fn step_many(
        &mut self,
        size: GridSize,
        k: StencilCoefficients,
        boundary: Boundary,
        land: Option<&LandMask>,
        parallelism: Parallelism,
        blocked: bool,
        steps: u64,
    ) {
        if blocked {
            let steps = usize::try_from(steps).unwrap_or(usize::MAX);
            let threads = parallelism.threads(size.cells());
            let newest_in_old = temporal_blocking::grid_steps_blocked(
                size,
                k,
                boundary,
                land,
                &mut self.cur,
                &mut self.old,
                steps,
                threads,
            );
            if newest_in_old {
                std::mem::swap(&mut self.cur, &mut self.old);
            }
        } else {
            for _ in 0..steps {
                self.step(size, k, boundary, parallelism);
                if let Some(land) = land {
                    land.clear(&mut self.cur);
                }
            }
        }
    }

    /// One step of the variable-coefficient stencil over `faces` (water of varying depth).
    pub(crate) fn step_depth(
        &mut self,
        faces: &crate::kernels::depth_step::FaceCourants,
        damping: f32,
        parallelism: Parallelism,
    ) {
        crate::kernels::depth_step::depth_step(
            faces,
            damping,
            &self.cur,
            &mut self.old,
            parallelism,
        );
        std::mem::swap(&mut self.cur, &mut self.old);
    }

    /// The previous level becomes the current one and the other way round: after a kernel
    /// wrote the new level over the previous one.
    pub(crate) fn swap(&mut self) {
        std::mem::swap(&mut self.cur, &mut self.old);
    }

    /// Both levels moved by whole cells (`window::shift_cells`); behind Mur's absorbing edges
    /// (`mur_edges`), the old edge cells that land inside come in still
    /// (`window::clear_rim_moved_inside`).
    pub(crate) fn shift(&mut self, size: GridSize, dx: isize, dy: isize, mur_edges: bool) {
        for level in [&mut self.cur, &mut self.old] {
            let level: &mut [f32] = level;
            crate::window::shift_cells(level, size, dx, dy, 0.0);
            if mur_edges {
                crate::window::clear_rim_moved_inside(level, size, dx, dy, 0.0);
            }
        }
    }
}

/// Zeroes the rim (x = 0, W-1; y = 0, H-1) of a per-cell buffer.
pub(crate) fn zero_rim<T: Copy + Default>(buf: &mut [T], size: GridSize) {
    let (w, h) = (size.width(), size.height());
    buf[..w].fill(T::default());
    buf[(h - 1) * w..].fill(T::default());
    for y in 1..h - 1 {
        buf[y * w] = T::default();
        buf[y * w + w - 1] = T::default();
    }
}
