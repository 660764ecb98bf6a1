//! `[foam]`: white water on the grid (DESIGN.md, "Open water"). Keys: `half_life` (s, > 0),
//! `wake` (coverage a bow or stern event adds, 0 to 1, default 0.5) and `jacobian_threshold`
//! (cells where the `[ocean]`'s Jacobian falls below it turn white, -1 to 1; default 0.3 with
//! an `[ocean]`, none without one) and `shore_depth` (m: wet cells shallower than it foam where
//! the surf breaks, the surface above 0.78 of their depth; needs the grid's `depth` or
//! `depth_map`; none by default).
//!
//! ```toml
//! [foam]
//! half_life = 4.0
//! ```

use serde::Deserialize;
use toml::Spanned;

use water_core::Depth;

use super::ScenarioError;
use crate::scene::FoamSettings;

type Span = std::ops::Range<usize>;

/// The breaking threshold at sea when none is given.
pub const DEFAULT_JACOBIAN_THRESHOLD: f32 = 0.3;
/// The coverage a bow or stern event adds when none is given.
pub const DEFAULT_FOAM_WAKE: f32 = 0.5;
/// The longest half-life, s: a day.
const MAX_HALF_LIFE: f64 = 86_400.0;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFoam {
    half_life: Spanned<f64>,
    wake: Option<Spanned<f64>>,
    jacobian_threshold: Option<Spanned<f64>>,
    shore_depth: Option<Spanned<f64>>,
}

/// The deepest shore, m.
const MAX_SHORE_DEPTH: f64 = 1000.0;

/// Why a grid has no depth in its cells for shore foam to be found in.
pub(super) const NO_DEPTH: &str =
    "needs the grid's `depth` or `depth_map` (shores are where the water grows shallow)";
/// The same for the dispersive model without a map, whose relation holds its depth.
pub(super) const DEPTH_IN_THE_RELATION: &str =
    "needs a `depth_map` with model = \"dispersive\": its depth without one (a uniform `depth`, \
     or deep water) lives in the waves' dispersion relation, not in the cells where shores are \
     found";

/// How the scene keeps a foam key's value, which sets its checks: above 0 in f64
/// (`half_life`, `shore_depth`), or from its range's low end in f32 (`wake`,
/// `jacobian_threshold`), where a value f32 holds only as a subnormal is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kept {
    AboveZero,
    Single,
}

/// The foam of `[foam]`, every value checked at its line; `ocean`: the scenario has a sea;
/// `cell_depth`: its grid's depth in its cells (a `depth` or a `depth_map`), or why it has
/// none; `bodies`: it has bodies (whose wakes foam). A `[foam]` that none of its sources can
/// feed is refused: it would stay 0 everywhere; so is a `shore_depth` no wet cell is shallower
/// than (no shore would ever foam).
pub(super) fn parse(
    raw: &Spanned<RawFoam>,
    (ocean, cell_depth, bodies): (bool, Result<&Depth, &str>, bool),
    at: &dyn Fn(Span, String) -> ScenarioError,
) -> Result<FoamSettings, ScenarioError> {
    let f = raw.get_ref();
    let within = |v: &Spanned<f64>, name: &str, (lo, hi): (f64, f64), unit: &str, kept: Kept| {
        let x = *v.get_ref();
        // A value the scene keeps in f32 that f32 holds only as a subnormal is 0 there
        // (flushed): taken and lost.
        if kept == Kept::Single && water_core::below_f32_normal(x) {
            return Err(at(
                v.span(),
                format!(
                    "foam {name} = {} is 0 in single precision: write 0, or at least \
                     1.17549435e-38 in size",
                    water_core::readable_exact(x)
                ),
            ));
        }
        let above_zero = kept == Kept::AboveZero;
        if (lo..=hi).contains(&x) && (!above_zero || x > 0.0) {
            Ok(x)
        } else {
            let low = if above_zero {
                "above 0".to_owned()
            } else {
                format!("from {lo}")
            };
            Err(at(
                v.span(),
                format!(
                    "foam {name} must be {low} to {hi}{unit}, got {}",
                    water_core::readable_exact(x)
                ),
            ))
        }
    };
    let half_life = within(
        &f.half_life,
        "half_life",
        (0.0, MAX_HALF_LIFE),
        " s",
        Kept::AboveZero,
    )?;
    let wake = match &f.wake {
        Some(w) => within(w, "wake", (0.0, 1.0), "", Kept::Single)? as f32,
        None => DEFAULT_FOAM_WAKE,
    };
    let jacobian_threshold = match (&f.jacobian_threshold, ocean) {
        (Some(t), true) => {
            Some(within(t, "jacobian_threshold", (-1.0, 1.0), "", Kept::Single)? as f32)
        }
        (Some(t), false) => {
            return Err(at(
                t.span(),
                "foam jacobian_threshold needs an [ocean] (breaking crests are the sea's)".into(),
            ))
        }
        (None, true) => Some(DEFAULT_JACOBIAN_THRESHOLD),
        (None, false) => None,
    };
    let shore_depth = match (&f.shore_depth, cell_depth) {
        (Some(d), Ok(depth)) => {
            let metres = within(
                d,
                "shore_depth",
                (0.0, MAX_SHORE_DEPTH),
                " m",
                Kept::AboveZero,
            )?;
            // The scene keeps depths in f32: one that rounds to 0 there is no shore.
            if metres as f32 <= 0.0 {
                return Err(at(
                    d.span(),
                    format!(
                        "foam shore_depth must be above 0 to {MAX_SHORE_DEPTH} m, got {} \
                         (0 in single precision)",
                        water_core::readable_exact(metres)
                    ),
                ));
            }
            let shallowest = depth
                .cells()
                .iter()
                .copied()
                .filter(|&c| c > 0.0)
                .fold(f32::INFINITY, f32::min);
            if shallowest >= metres as f32 {
                return Err(at(
                    d.span(),
                    format!(
                        "foam shore_depth = {} m reaches no shore: no wet cell is \
                         shallower (the shallowest is {shallowest} m), so none would foam; \
                         raise it past {shallowest} m or leave it out",
                        water_core::readable_exact(metres)
                    ),
                ));
            }
            Some(metres as f32)
        }
        (Some(d), Err(why)) => {
            return Err(at(
                d.span(),
                format!(
                    "foam shore_depth = {} m {why}",
                    water_core::readable_exact(*d.get_ref())
                ),
            ))
        }
        (None, _) => None,
    };
    if !(bodies && wake > 0.0) && jacobian_threshold.is_none() && shore_depth.is_none() {
        return Err(at(
            raw.span(),
            format!(
                "[foam] has nothing to make foam: {}, no [ocean] whose crests break \
                 (jacobian_threshold) and no shore_depth (with the grid's depth)",
                if bodies {
                    "its wake is 0"
                } else {
                    "no bodies whose wakes foam"
                }
            ),
        ));
    }
    Ok(FoamSettings {
        half_life,
        wake,
        jacobian_threshold,
        shore_depth,
    })
}
