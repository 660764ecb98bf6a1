//! Classic mode: Hugo Elias's i16 ripple, bit for bit.

use crate::boundary::Boundary;
use crate::contact_masks::ContactMasks;
use crate::diagnostics::{discrete_energy, volume};
use crate::error::{positive, Result, WaterError};
use crate::grid_water::{GridMode, GridWater};
use crate::impulse::Impulse;
use crate::kernels::classic_step::classic_step;
use crate::kernels::temporal_blocking::{classic_steps_blocked, TemporalBlocking};
use crate::kernels::Parallelism;
use crate::land::LandMask;
use crate::size::GridSize;

/// Default damping shift `k` of the classic ripple: each step keeps about `1 - 1/32` of the
/// amplitude, as in the original.
pub const DEFAULT_CLASSIC_SHIFT: u32 = 5;
/// Largest damping shift: i16 values shifted right by 15 are only 0 or -1.
pub const MAX_CLASSIC_SHIFT: u32 = 15;

/// Hugo Elias's ripple on i16 heights: fixed boundary, `a = 1/2`, damping `dst -= dst >> k`.
///
/// ```
/// use glam::Vec2;
/// use water_core::{ClassicGrid, GridSize, GridWater, Impulse, ImpulseShape};
/// let mut ripple = ClassicGrid::new(GridSize::new(64, 64)?, 1.0, Some(5))?;
/// ripple.add_impulse(&Impulse::new(Vec2::new(32.0, 32.0), 3.0, 500.0, ImpulseShape::Cosine)?);
/// ripple.step();
/// assert_ne!(ripple.current()[32 * 64 + 33], 0);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ClassicGrid {
    size: GridSize,
    cell_size: f64,
    shift: Option<u32>,
    cur: Vec<i16>,
    old: Vec<i16>,
    land: Option<LandMask>,
    parallelism: Parallelism,
    blocking: TemporalBlocking,
    steps: u64,
    /// The caller was handed the levels to edit: land and the rim are zeroed before the next
    /// step (DESIGN.md: edge cells stay 0), as the GPU backends zero them on upload.
    edited: bool,
}

impl ClassicGrid {
    /// Still water. `cell_size` (m) is used for sampling and volume only; `shift` is the damping
    /// shift `k` in `1..=15` (`None`: undamped).
    ///
    /// # Errors
    /// [`WaterError::OutOfRange`] for a shift outside `1..=15`; bad `cell_size` as
    /// [`crate::WaveParams::new`]; [`WaterError::OutOfMemory`] when the allocator refuses the
    /// heights (they are allocated fallibly).
    pub fn new(size: GridSize, cell_size: f64, shift: Option<u32>) -> Result<Self> {
        positive("cell_size", cell_size)?;
        if let Some(k) = shift {
            if !(1..=MAX_CLASSIC_SHIFT).contains(&k) {
                return Err(WaterError::OutOfRange {
                    name: "classic_shift",
                    value: f64::from(k),
                    range: "1..=15",
                });
            }
        }
        Ok(Self {
            size,
            cell_size,
            shift,
            cur: zeroed_i16(size)?,
            old: zeroed_i16(size)?,
            land: None,
            parallelism: Parallelism::Auto,
            blocking: TemporalBlocking::Auto,
            steps: 0,
            edited: false,
        })
    }

    /// Damping shift `k`, if damped.
    #[must_use]
    pub fn shift(&self) -> Option<u32> {
        self.shift
    }

    /// Current heights (integer units).
    #[must_use]
    pub fn current(&self) -> &[i16] {
        &self.cur
    }

    /// Previous heights.
    #[must_use]
    pub fn previous(&self) -> &[i16] {
        &self.old
    }

    /// Both levels, mutably: `(current, previous)`. Edge cells stay 0 (the fixed boundary)
    /// and land stays dry: whatever is written there is zeroed before the next step.
    pub fn levels_mut(&mut self) -> (&mut [i16], &mut [i16]) {
        self.edited = true;
        (&mut self.cur, &mut self.old)
    }

    /// Zeroes land and the rim in both levels after an edit, before a step.
    fn settle_edits(&mut self) {
        if std::mem::take(&mut self.edited) {
            for level in [&mut self.cur, &mut self.old] {
                if let Some(land) = &self.land {
                    land.clear(level);
                }
                crate::field::zero_rim(level, self.size);
            }
        }
    }

    fn clear_land_and_rim(&mut self) {
        if let Some(land) = &self.land {
            land.clear(&mut self.cur);
        }
        crate::field::zero_rim(&mut self.cur, self.size);
    }
}

impl GridWater for ClassicGrid {
    fn size(&self) -> GridSize {
        self.size
    }

    fn cell_size(&self) -> f64 {
        self.cell_size
    }

    fn mode(&self) -> GridMode {
        GridMode::Classic
    }

    fn boundary(&self) -> Boundary {
        Boundary::Fixed
    }

    fn steps_taken(&self) -> u64 {
        self.steps
    }

    fn set_parallelism(&mut self, parallelism: Parallelism) {
        self.parallelism = parallelism;
    }

    fn set_temporal_blocking(&mut self, blocking: TemporalBlocking) {
        self.blocking = blocking;
    }

    /// Temporally blocked like the f32 grids when [`TemporalBlocking`] says so (judged by the
    /// i16 levels' size), bit for bit the same as single steps.
    fn blocks(&self, steps: u64) -> bool {
        let cells = self.size.cells();
        let threads = self.parallelism.threads(cells);
        self.blocking
            .applies(Boundary::Fixed, cells, size_of::<i16>(), steps, threads)
    }

    fn step_many(&mut self, steps: u64) {
        self.settle_edits();
        if self.blocks(steps) {
            let newest_in_old = classic_steps_blocked(
                self.size,
                self.shift,
                self.land.as_ref(),
                &mut self.cur,
                &mut self.old,
                usize::try_from(steps).unwrap_or(usize::MAX),
                self.parallelism.threads(self.size.cells()),
            );
            if newest_in_old {
                std::mem::swap(&mut self.cur, &mut self.old);
            }
            self.steps += steps;
        } else {
            for _ in 0..steps {
                self.step();
            }
        }
    }

    fn step(&mut self) {
        self.settle_edits();
        classic_step(
            self.size,
            &self.cur,
            &mut self.old,
            self.shift,
            self.parallelism,
        );
        std::mem::swap(&mut self.cur, &mut self.old);
        if let Some(land) = &self.land {
            land.clear(&mut self.cur);
        }
        self.steps += 1;
    }

    /// Classic mode has a single signed channel: bow events add `round(A*C_new)` and stern
    /// events subtract `round(A*C_old)`, saturating at the i16 range.
    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<()> {
        self.size
            .check_len("contact mask", contacts.new_mask().len())?;
        contacts.check_offered(GridMode::Classic)?;
        self.step();
        let mut delta = vec![0.0f32; self.size.cells()];
        contacts.apply_signed(&mut delta);
        for (z, d) in self.cur.iter_mut().zip(delta) {
            *z = z.saturating_add(d.round() as i16);
        }
        self.clear_land_and_rim();
        Ok(())
    }

    /// Adds `round(amp * f)` to each covered interior water cell, saturating at the i16 range;
    /// a displacement adds it to the previous level too.
    fn add_impulse(&mut self, impulse: &Impulse) {
        let (cur, old) = (&mut self.cur, &mut self.old);
        let displacement = impulse.displacement();
        impulse.for_each_cell(self.size, true, self.land.as_ref(), |i, v| {
            let v = v.round() as i16;
            cur[i] = cur[i].saturating_add(v);
            if displacement {
                old[i] = old[i].saturating_add(v);
            }
        });
    }

    fn set_land(&mut self, land: LandMask) -> Result<()> {
        self.size.check_len("land mask", land.cells().len())?;
        self.land = (!land.is_empty()).then_some(land);
        if let Some(land) = &self.land {
            land.clear(&mut self.cur);
            land.clear(&mut self.old);
        }
        Ok(())
    }

    fn shift_window(&mut self, dx: isize, dy: isize) {
        crate::window::shift_cells(&mut self.cur, self.size, dx, dy, 0);
        crate::window::shift_cells(&mut self.old, self.size, dx, dy, 0);
        crate::field::zero_rim(&mut self.cur, self.size);
        crate::field::zero_rim(&mut self.old, self.size);
        if let Some(land) = &mut self.land {
            land.shift(dx, dy);
        }
        if self.land.as_ref().is_some_and(LandMask::is_empty) {
            self.land = None;
        }
    }

    fn heights(&self) -> Vec<f32> {
        self.cur.iter().map(|&v| f32::from(v)).collect()
    }

    fn volume(&self) -> f64 {
        volume(&self.cur, self.cell_size)
    }

    fn energy(&self) -> f64 {
        discrete_energy(self.size, Boundary::Fixed, 0.5, &self.cur, &self.old)
    }
}

/// `size.cells()` zero heights, allocated fallibly.
fn zeroed_i16(size: GridSize) -> Result<Vec<i16>> {
    let mut level = Vec::new();
    level
        .try_reserve_exact(size.cells())
        .map_err(|_| WaterError::OutOfMemory {
            what: "a classic height level",
            bytes: size.cells() as u64 * 2,
        })?;
    level.resize(size.cells(), 0);
    Ok(level)
}
