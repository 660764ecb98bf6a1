//! `cascades = K` in `[grid]` (DESIGN.md, "Open water"): K grids of the same cell count around
//! the focus, cell size doubling ([`crate::Scene::set_cascades`]). Checked at its line: 1 to
//! [`MAX_CASCADES`], and beyond 1 only where cascades run: signed mode, absorbing edges, a
//! uniform depth (no `depth_map`), the coarsest cascade's cell size in range. `[[land]]` is
//! seen by every cascade at its own cell size.

use toml::Spanned;
use water_core::{Boundary, GridMode, WaveParams};

use super::ScenarioError;
use crate::scene::MAX_CASCADES;

type Span = std::ops::Range<usize>;

/// What the rest of `[grid]` says that cascades depend on.
pub(super) struct GridForCascades {
    pub mode: GridMode,
    pub boundary: Boundary,
    pub depth_map: bool,
    /// The finest grid's parameters: the coarsest cascade's cell must stay in range.
    pub params: WaveParams,
}

/// The cascade count of `cascades` (1 when absent), checked at its line.
pub(super) fn parse(
    raw: Option<&Spanned<i64>>,
    grid: &GridForCascades,
    at: &dyn Fn(Span, String) -> ScenarioError,
) -> Result<usize, ScenarioError> {
    let Some(raw) = raw else {
        return Ok(1);
    };
    let count = *raw.get_ref();
    let refuse = |why: &str| Err(at(raw.span(), format!("cascades = {count}: {why}")));
    let count = match usize::try_from(count) {
        Ok(k) if (1..=MAX_CASCADES).contains(&k) => k,
        _ => return refuse(&format!("must be 1 to {MAX_CASCADES}")),
    };
    if count == 1 {
        return Ok(1);
    }
    if grid.mode != GridMode::Signed {
        return refuse(&format!(
            "cascades take signed mode (the wave or dispersive model), not {}",
            grid.mode.name()
        ));
    }
    if grid.boundary != Boundary::Absorbing {
        return refuse(&format!(
            "cascades take boundary = \"absorbing\", which lets waves go on outward, not {:?}",
            grid.boundary.name()
        ));
    }
    if grid.depth_map {
        return refuse("cascades take a uniform depth, not a depth_map");
    }
    let p = grid.params;
    let coarsest = p.cell_size() * f64::from(1u32 << (count - 1));
    if let Err(e) = WaveParams::new(coarsest, p.wave_speed(), p.dt(), p.damping()) {
        return refuse(&format!(
            "cascade {}'s cells of {coarsest} m: {e}",
            count - 1
        ));
    }
    Ok(count)
}
