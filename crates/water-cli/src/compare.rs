//! `water compare`: runs a scenario on the CPU reference and on GPU backends and prints how far
//! each GPU result is from the CPU's.

use water_core::GridMode;
use water_gpu::GpuContext;
use water_gpu::{Comparison, F32_TOLERANCE};

use water_scene::scenario::Scenario;
use water_scene::Backend;

use crate::progress::Progress;
use crate::run::{simulate, RunError};
use water_scene::WaterGrid as _;

/// One backend's distance from the CPU reference: over its whole result, or over one cascade's.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareRow {
    /// Backend name.
    pub backend: &'static str,
    /// `None`: every cascade's heights together (the grid alone without cascades); `Some(k)`:
    /// cascade `k`'s alone (0 the grid), measured against the whole's allowance.
    pub cascade: Option<usize>,
    /// Largest absolute difference (m; classic: integer units).
    pub max_abs: f32,
    /// Root-mean-square difference.
    pub rms: f32,
    /// Allowed largest difference: [`F32_TOLERANCE`] times the reference's largest |height|
    /// over every cascade (a coarse cascade's small waves carry the errors of the finer ones
    /// that feed them, so its own scale would be the wrong yardstick); 0 in classic mode,
    /// which must match bit for bit.
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
        let what = self.label();
        if self.non_finite_cells > 0 {
            format!(
                "{what} has {} cells of NaN or infinite height (in its result or the CPU's); \
                 every height must be finite",
                self.non_finite_cells
            )
        } else {
            format!(
                "{what} differs from the CPU by {:.3e}, over the allowed {:.3e}",
                self.max_abs, self.allowed
            )
        }
    }

    /// The backend, and the cascade where the row is one cascade's (`gpu cascade 1`).
    #[must_use]
    pub fn label(&self) -> String {
        match self.cascade {
            Some(k) => format!("{} cascade {k}", self.backend),
            None => self.backend.to_owned(),
        }
    }

    /// The row of `result` against `reference`, cell for cell.
    fn measure(
        backend: &'static str,
        cascade: Option<usize>,
        reference: &[f32],
        result: &[f32],
        allowed: f32,
    ) -> Self {
        let c = Comparison::measure(reference, result);
        let pairs = || reference.iter().zip(result);
        Self {
            backend,
            cascade,
            max_abs: c.max_abs,
            rms: c.rms,
            allowed,
            differing_cells: pairs().filter(|(a, b)| a.to_bits() != b.to_bits()).count(),
            non_finite_cells: pairs()
                .filter(|(a, b)| !a.is_finite() || !b.is_finite())
                .count(),
        }
    }
}

/// The scenario's final heights on `backend`, floating bodies included: the grid's, then each
/// coarser cascade's.
fn run(
    scenario: &Scenario,
    backend: Backend,
    gpu: Option<&GpuContext>,
) -> Result<Vec<Vec<f32>>, RunError> {
    let mut scene = scenario.scene(backend, gpu)?;
    let label = format!("compare ({})", backend.name());
    let mut progress = Progress::new(&label, scenario.steps, true);
    simulate(&mut scene, scenario, None, |done| progress.update(done))?;
    progress.finish();
    let mut fields = vec![scene.water().outputs()?.heights];
    for k in 1..scene.cascade_count() {
        fields.push(scene.cascade_heights(k)?);
    }
    Ok(fields)
}

/// The difference the CPU's flush-to-zero may make after `steps` steps, m: it turns each
/// subnormal result (below `f32::MIN_POSITIVE`) to 0 where a GPU may keep it, so each step may
/// differ by up to `f32::MIN_POSITIVE` a cell, carried on by a stencil whose weights sum to at
/// most 8 (the bound of `docs/reliability.md`'s property tests). Waves of 1e-38 m differ there
/// by 1e-37 after 10 steps, far past the f32 tolerance of their own size.
fn flush_allowance(steps: u64) -> f32 {
    f32::MIN_POSITIVE * 8.0 * (steps as f32 + 1.0)
}

/// Runs the CPU reference and each of `backends`, and measures each against the reference.
///
/// # Errors
/// GPU failures (no adapter, limits, lost device); floating bodies whose forces stop being
/// finite.
pub fn compare(scenario: &Scenario, backends: &[Backend]) -> Result<Vec<CompareRow>, RunError> {
    // What a backend refuses without a device is said before an adapter is looked for.
    for &backend in backends {
        scenario.check_backend(backend)?;
    }
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
    let whole_reference = reference.concat();
    let mut rows = Vec::new();
    for &backend in backends {
        let fields = run(scenario, backend, gpu.as_ref())?;
        let whole = fields.concat();
        let allowed = if scenario.mode == GridMode::Classic {
            0.0
        } else {
            (F32_TOLERANCE * Comparison::measure(&whole_reference, &whole).scale)
                .max(flush_allowance(scenario.steps))
        };
        let name = backend.name();
        rows.push(CompareRow::measure(
            name,
            None,
            &whole_reference,
            &whole,
            allowed,
        ));
        // With cascades, each one's own row says where a difference lies.
        if fields.len() > 1 {
            for (k, (r, f)) in reference.iter().zip(&fields).enumerate() {
                rows.push(CompareRow::measure(name, Some(k), r, f, allowed));
            }
        }
    }
    Ok(rows)
}

/// The table `water compare` prints.
#[must_use]
pub fn table(rows: &[CompareRow]) -> String {
    let mut s = format!(
        "{:<22} {:>12} {:>12} {:>12} {:>10}  result\n",
        "backend", "max |diff|", "rms", "allowed", "differing"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<22} {:>12.3e} {:>12.3e} {:>12.3e} {:>10}  {}\n",
            r.label(),
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
            cascade: None,
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
    /// difference in a coarser cascade alone is a difference `water compare` sees, and each
    /// cascade has a row of its own under the whole's allowance.
    #[test]
    fn a_run_with_cascades_compares_every_cascade() {
        let text = include_str!("../tests/scenarios/ripple.toml");
        let scenario = Scenario::parse("ripple.toml", text).expect("scenario");
        assert_eq!(scenario.cascades, 3);
        let fields = run(&scenario, Backend::Cpu, None).expect("run");
        let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
        simulate(&mut scene, &scenario, None, |_| {}).expect("run");
        assert_eq!(fields.len(), 3);
        for (k, field) in fields.iter().enumerate() {
            let heights = scene.cascade_heights(k).expect("cascade");
            assert!(heights.iter().any(|&h| h != 0.0), "cascade {k} holds water");
            assert_eq!(field, &heights, "cascade {k}");
        }
        let rows = compare(&scenario, &[Backend::Cpu]).expect("compare");
        let labels: Vec<String> = rows.iter().map(CompareRow::label).collect();
        assert_eq!(
            labels,
            ["cpu", "cpu cascade 0", "cpu cascade 1", "cpu cascade 2"]
        );
        assert!(rows
            .iter()
            .all(|r| r.allowed == rows[0].allowed && r.allowed > 0.0));
        assert!(table(&rows).contains("cpu cascade 2"));
    }
}
