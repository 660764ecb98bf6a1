//! The cross-check scenario: everything a grid does, in one run that every backend repeats.

use glam::Vec2;
use water_core::{
    AiryDispersion, Boundary, ContactMasks, Damping, Depth, GridMode, GridSize, Impulse,
    ImpulseShape, LandMask, WaveParams,
};
use water_gpu::{GpuContext, GridSpec};
use water_scene::{Backend, BackendGrid, SceneError};
use water_scene::{Water as _, WaterGrid as _};

/// A scenario with land, impulses of every shape and a moving hull making bow and stern waves,
/// for one mode and boundary.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossCheck {
    /// Grid description.
    pub spec: GridSpec,
    /// Steps to run (at least 200).
    pub steps: u64,
    /// Whether the water has a varying depth ([`CrossCheck::depth`]).
    pub over_depth: bool,
}

/// Every mode x boundary combination the CPU reference supports (classic: fixed only), and the
/// dispersive model on its two boundaries; the signed, split and dispersive ones also over a
/// varying depth.
#[must_use]
pub fn all_cases() -> Vec<CrossCheck> {
    let mut cases = Vec::new();
    for mode in GridMode::ALL {
        for boundary in Boundary::ALL {
            if mode == GridMode::Classic && boundary != Boundary::Fixed {
                continue;
            }
            cases.push(CrossCheck::new(mode, boundary));
            if mode != GridMode::Classic {
                cases.push(CrossCheck {
                    over_depth: true,
                    ..CrossCheck::new(mode, boundary)
                });
            }
        }
    }
    for boundary in [Boundary::Periodic, Boundary::Absorbing] {
        cases.push(CrossCheck::dispersive(boundary));
        cases.push(CrossCheck {
            over_depth: true,
            ..CrossCheck::dispersive(boundary)
        });
    }
    cases
}

/// The height of the scenarios' impulses in `mode`: classic heights are integers, so impulses
/// of a few thousand units, as in the original; half a metre in the f32 modes.
#[must_use]
pub fn impulse_amplitude(mode: GridMode) -> f32 {
    if mode == GridMode::Classic {
        3000.0
    } else {
        0.5
    }
}

impl CrossCheck {
    /// The standard case for a mode and boundary: 72 x 56 cells, 240 steps.
    ///
    /// # Panics
    /// Never for these constants.
    #[must_use]
    pub fn new(mode: GridMode, boundary: Boundary) -> Self {
        let size = GridSize::new(72, 56).expect("valid size");
        let params =
            WaveParams::new(0.1, 2.0, 0.025, Damping::PerStep(0.998)).expect("stable parameters");
        Self {
            spec: GridSpec::new(size, params, boundary, mode),
            steps: 240,
            over_depth: false,
        }
    }

    /// The dispersive model on `boundary` (periodic or absorbing): 64 x 64 cells of 0.1 m
    /// (power-of-two sides, as the GPU's transforms need), 240 steps of 0.05 s (a third of the
    /// limit `pi / omega_max`). Periodic: shallow water (5 cm, half a cell: slow modes near
    /// the recurrence's double root, where rounding is amplified most); absorbing: every term
    /// of Airy's relation (0.5 m deep, water's surface tension).
    ///
    /// # Panics
    /// Never for these constants.
    #[must_use]
    pub fn dispersive(boundary: Boundary) -> Self {
        let size = GridSize::new(64, 64).expect("valid size");
        let airy = if boundary == Boundary::Periodic {
            AiryDispersion::new(9.81, 0.0, 1000.0, Some(0.05))
        } else {
            AiryDispersion::new(9.81, 0.0728, 1000.0, Some(0.5))
        }
        .expect("Earth's water");
        let params = WaveParams::dispersive(0.1, &airy, 0.05, Damping::PerStep(0.998))
            .expect("stable parameters");
        Self {
            spec: GridSpec::new(size, params, boundary, GridMode::Signed).with_dispersion(airy),
            steps: 240,
            over_depth: false,
        }
    }

    /// The depth of the cases over varying depth: a beach shoaling from 2 m at the left edge to
    /// dry land along the right edge, with a deep trench across it (so faces of every size
    /// and dry cells beside wet ones).
    ///
    /// # Panics
    /// Never for this grid's size.
    #[must_use]
    pub fn depth(&self) -> Depth {
        let size = self.spec.size;
        let w = size.width() as f32;
        let metres = (0..size.cells())
            .map(|i| {
                let (x, y) = ((i % size.width()) as f32, (i / size.width()) as f32);
                let beach = 2.0 - 2.2 * x / (w - 1.0);
                if (20.0..24.0).contains(&y) {
                    beach.max(1.5)
                } else {
                    beach
                }
            })
            .collect();
        Depth::from_cells(size, metres).expect("a wet grid of this size")
    }

    /// A short name for messages and dump files.
    #[must_use]
    pub fn name(&self) -> String {
        let depth = if self.over_depth { "-depth" } else { "" };
        let model = if self.spec.dispersion.is_some() {
            "dispersive-"
        } else {
            ""
        };
        format!(
            "{model}{}-{}{depth}",
            self.spec.mode.name(),
            self.spec.boundary.name()
        )
    }

    /// Runs the scenario on `kind` and returns the backend in its final state.
    ///
    /// # Errors
    /// Whatever the backend reports.
    pub fn run(&self, kind: Backend, gpu: Option<&GpuContext>) -> Result<BackendGrid, SceneError> {
        let size = self.spec.size;
        let (w, h) = (size.width(), size.height());
        let mut land = LandMask::empty(size);
        land.add_rect(w / 2 - 3, 0, w / 2 + 3, h / 3)?; // a pier from the top edge
        land.add_rect(8, h - 14, 16, h - 8)?; // an island
        let mut backend = BackendGrid::new(self.spec, land, kind, gpu)?;
        if self.over_depth {
            backend.set_depth(&self.depth())?;
        }

        let amp = impulse_amplitude(self.spec.mode);
        let impulses = [
            (0, Vec2::new(20.0, 20.0), 6.0, amp, ImpulseShape::Cosine),
            (
                30,
                Vec2::new(55.0, 40.0),
                5.0,
                -0.6 * amp,
                ImpulseShape::Linear,
            ),
            (60, Vec2::new(1.0, 28.0), 7.0, 0.8 * amp, ImpulseShape::Drop), // clipped at the rim
            (90, Vec2::new(40.6, 12.4), 0.0, amp, ImpulseShape::Point),
        ];
        let mut contacts = ContactMasks::new(size, amp * 0.2)?;
        let hull_row = h * 2 / 3;
        let mut step = 0;
        for (at, centre, radius, amplitude, shape) in impulses {
            if at > step {
                backend.step_many(at - step)?;
                step = at;
            }
            backend.add_impulse(&Impulse::new(centre, radius, amplitude, shape)?)?;
            // A hull 5 cells long crossing the grid, one cell per step, for 12 steps.
            for k in 0..12 {
                let mut mask = vec![0.0; size.cells()];
                let x0 = 20 + (step as usize + k) % (w - 30);
                for dx in 0..5 {
                    mask[hull_row * w + x0 + dx] = 1.0 + 0.1 * dx as f32;
                    mask[(hull_row + 1) * w + x0 + dx] = 1.0;
                }
                contacts.advance(&mask)?;
                backend.step_with_contacts(&contacts)?;
                step += 1;
            }
            // The hull leaves the water: its last cells become stern events.
            contacts.advance(&vec![0.0; size.cells()])?;
            backend.step_with_contacts(&contacts)?;
            step += 1;
        }
        backend.step_many(self.steps.saturating_sub(step))?;
        Ok(backend)
    }
}
