//! `water compare`: runs a scenario on the CPU reference and on GPU backends and prints how far
//! each GPU result is from the CPU's.

use water_core::GridMode;
use water_gpu::GpuContext;
use water_gpu::{Comparison, F32_TOLERANCE};

use water_scene::scenario::Scenario;
use water_scene::{Backend, GridOutputs};

use crate::progress::Progress;
use crate::run::{simulate, RunError};
use water_scene::WaterGrid as _;

/// One backend's distance from the CPU reference.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    /// Backend name.
    pub backend: &'static str,
    /// Largest absolute difference (m; classic: integer units).
    pub max_abs: f32,
    /// Root-mean-square difference.
    pub rms: f32,
    /// Allowed largest difference: [`F32_TOLERANCE`] times the reference's largest |height|;
    /// 0 in classic mode, which must match bit for bit.
    pub allowed: f32,
    /// Cells that differ at all.
    pub differing_cells: usize,
    /// Cells whose height is NaN or infinite in this backend's result or the reference's: a
    /// result that blew up agrees with nothing, whatever the differences say (inf - inf is NaN,
    /// and NaN compares as neither over nor under the allowance).
    pub non_finite_cells: usize,
}

impl CompareRow {
    /// True when every height is finite and the largest difference is within the allowance.
    #[must_use]
    pub fn passes(&self) -> bool {
        self.non_finite_cells == 0 && self.max_abs <= self.allowed
    }

    /// Why this row fails, in one line.
    #[must_use]
    pub fn failure(&self) -> String {
        if self.non_finite_cells > 0 {
            format!(
                "{} has {} cells of NaN or infinite height (in its result or the CPU's); \
                 every height must be finite",
                self.backend, self.non_finite_cells
            )
        } else {
            format!(
                "{} differs from the CPU by {:.3e}, over the allowed {:.3e}",
                self.backend, self.max_abs, self.allowed
            )
        }
    }
}

/// The scenario's final state on `backend`, floating bodies included; with cascades, the
/// coarser cascades' heights after the grid's, coarser last (one field compared as a whole).
fn run(
    scenario: &Scenario,
    backend: Backend,
    gpu: Option<&GpuContext>,
) -> Result<GridOutputs, RunError> {
    let mut scene = scenario.scene(backend, gpu)?;
    let label = format!("compare ({})", backend.name());
    let mut progress = Progress::new(&label, scenario.steps, true);
    simulate(&mut scene, scenario, None, |done| progress.update(done))?;
    progress.finish();
    let mut outputs = scene.water().outputs()?;
    for k in 1..scene.cascade_count() {
        outputs.heights.extend(scene.cascade_heights(k)?);
    }
    Ok(outputs)
}

/// Runs the CPU reference and each of `backends`, and measures each against the reference.
///
/// # Errors
/// GPU failures (no adapter, limits, lost device); floating bodies whose forces stop being
/// finite.
pub fn compare(scenario: &Scenario, backends: &[Backend]) -> Result<Vec<CompareRow>, RunError> {
    let needs_gpu = backends.iter().any(|b| *b != Backend::Cpu);
    let gpu = if needs_gpu {
        Some(GpuContext::headless()?)
    } else {
        None
    };
    // Every backend's scene is made before anything runs, so one that refuses the scenario
    // (cascades on the fragment backend, say) says so at once, not after the CPU's whole run.
    for &backend in backends {
        drop(scenario.scene(backend, gpu.as_ref())?);
    }
    let reference = run(scenario, Backend::Cpu, None)?;
    let mut rows = Vec::new();
    for &backend in backends {
        let outputs = run(scenario, backend, gpu.as_ref())?;
        let c = Comparison::measure(&reference.heights, &outputs.heights);
        let allowed = if scenario.mode == GridMode::Classic {
            0.0
        } else {
            F32_TOLERANCE * c.scale
        };
        rows.push(CompareRow {
            backend: backend.name(),
            max_abs: c.max_abs,
            rms: c.rms,
            allowed,
            differing_cells: reference
                .heights
                .iter()
                .zip(&outputs.heights)
                .filter(|(a, b)| a.to_bits() != b.to_bits())
                .count(),
            non_finite_cells: reference
                .heights
                .iter()
                .zip(&outputs.heights)
                .filter(|(a, b)| !a.is_finite() || !b.is_finite())
                .count(),
        });
    }
    Ok(rows)
}

/// The table `water compare` prints.
#[must_use]
pub fn table(rows: &[CompareRow]) -> String {
    let mut s = format!(
        "{:<14} {:>12} {:>12} {:>12} {:>10}  result\n",
        "backend", "max |diff|", "rms", "allowed", "differing"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<14} {:>12.3e} {:>12.3e} {:>12.3e} {:>10}  {}\n",
            r.backend,
            r.max_abs,
            r.rms,
            r.allowed,
            r.differing_cells,
            if r.non_finite_cells > 0 {
                "NOT FINITE"
            } else if r.passes() {
                "ok"
            } else {
                "OVER TOLERANCE"
            }
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(max_abs: f32, non_finite_cells: usize) -> CompareRow {
        CompareRow {
            backend: "gpu",
            max_abs,
            rms: max_abs / 2.0,
            allowed: 1e-4,
            differing_cells: 3,
            non_finite_cells,
        }
    }

    /// What makes `water compare` exit 1: a backend over the tolerance, or any non-finite
    /// height, which no tolerance excuses.
    #[test]
    fn rows_fail_over_the_tolerance_or_with_non_finite_heights() {
        assert!(row(5e-5, 0).passes());
        let over = row(2e-4, 0);
        assert!(!over.passes());
        assert!(table(&[over]).contains("OVER TOLERANCE"));
        let nan = row(0.0, 7);
        assert!(!nan.passes(), "a NaN cell fails however small the rest");
        assert!(table(std::slice::from_ref(&nan)).contains("NOT FINITE"));
        assert!(nan.failure().contains('7'), "{}", nan.failure());
    }

    /// With cascades, the compared field is every cascade's heights, the grid's first: a
    /// difference in a coarser cascade alone is a difference `water compare` sees.
    #[test]
    fn a_run_with_cascades_compares_every_cascade() {
        let text = include_str!("../tests/scenarios/ripple.toml");
        let scenario = Scenario::parse("ripple.toml", text).expect("scenario");
        assert_eq!(scenario.cascades, 3);
        let outputs = run(&scenario, Backend::Cpu, None).expect("run");
        let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
        simulate(&mut scene, &scenario, None, |_| {}).expect("run");
        let mut expected = scene.cascade_heights(0).expect("grid");
        for k in 1..3 {
            let heights = scene.cascade_heights(k).expect("cascade");
            assert!(heights.iter().any(|&h| h != 0.0), "cascade {k} holds water");
            expected.extend(heights);
        }
        assert_eq!(outputs.heights, expected);
    }
}
