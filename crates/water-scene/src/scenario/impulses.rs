//! `[[impulse]]` entries of a grid scenario: each checked against the grid it lands on, so
//! that none is accepted and then lost (beyond the grid, on land, after the run, rounding to
//! nothing in classic mode).

use glam::Vec2;
use serde::Deserialize;
use toml::Spanned;
use water_core::{
    check_impulse_amplitude, readable_exact, Boundary, Depth, GridMode, GridSize, Impulse,
    ImpulseShape, LandMask, WaterError, MAX_IMPULSE_RADIUS,
};

use super::ScenarioError;

type Locate<'a> = &'a dyn Fn(std::ops::Range<usize>, String) -> ScenarioError;

/// One `[[impulse]]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawImpulse {
    x: Spanned<f64>,
    y: Spanned<f64>,
    #[serde(default)]
    radius: Option<Spanned<f64>>,
    amplitude: Spanned<f64>,
    #[serde(default)]
    shape: Option<Spanned<String>>,
    #[serde(default)]
    step: Option<Spanned<u64>>,
    #[serde(default)]
    displacement: bool,
}

/// An impulse and the step before which it is added.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedImpulse {
    /// Added to `z^step`, just before step `step` runs.
    pub step: u64,
    /// The impulse.
    pub impulse: Impulse,
}

/// What the impulses are checked against: the grid's size, mode, rim, land and depth, its
/// cascades (as written; the count is checked at its own line) and the run's steps.
pub(super) struct GridForImpulses<'a> {
    pub size: GridSize,
    pub mode: GridMode,
    pub boundary: Boundary,
    pub cascades: Option<i64>,
    pub steps: u64,
    /// No `[focus]` moves the grid: the water under an impulse now is the water it lands on.
    pub fixed_in_place: bool,
    /// The `[focus]` follows a route the file writes (its `path`, or a towed body's): the grid
    /// then stays within [`super::bodies::coordinate_limit`] of the origin. (A free body it
    /// follows may drift anywhere.)
    pub route_is_written: bool,
    /// Cell size, m: where a following grid can go is bounded in metres.
    pub cell_size: f64,
    pub land: &'a LandMask,
    pub depth: Option<&'a Depth>,
}

/// The impulses of `raw`, in the order of their steps.
pub(super) fn parse(
    raw: &[Spanned<RawImpulse>],
    grid: &GridForImpulses<'_>,
    at: Locate<'_>,
) -> Result<Vec<TimedImpulse>, ScenarioError> {
    // The cascades' reach (the count is checked at its own line).
    let cascades = grid
        .cascades
        .and_then(|c| usize::try_from(c).ok())
        .filter(|k| (1..=crate::scene::MAX_CASCADES).contains(k))
        .unwrap_or(1);
    // A grid that stays where it starts, alone, must get something from each impulse (a
    // `[focus]` or the cascades may bring water under it that is not there now): the land
    // they are checked against, made once, the rectangles and the depth map's dry cells (as
    // `Scenario::all_land` makes it once the scenario is built).
    let all_land = if grid.fixed_in_place && cascades == 1 && !raw.is_empty() {
        Some(match grid.depth.map(Depth::land) {
            Some(dry) => grid.land.union(&dry).map_err(|e| at(0..0, e.to_string()))?,
            None => grid.land.clone(),
        })
    } else {
        None
    };
    let mut impulses = Vec::with_capacity(raw.len());
    for spanned in raw {
        let imp = spanned.get_ref();
        let shape = match &imp.shape {
            Some(s) => s
                .get_ref()
                .parse::<ImpulseShape>()
                .map_err(|e| at(s.span(), e.to_string()))?,
            None => ImpulseShape::Cosine,
        };
        let radius = imp.radius.as_ref().map_or(0.0, |r| *r.get_ref());
        let step = imp.step.as_ref().map_or(0, |s| *s.get_ref());
        // Classic mode's own range first: the general one, [-1e6, 1e6], is wider.
        let amplitude = *imp.amplitude.get_ref();
        if grid.mode == GridMode::Classic && amplitude.abs() > f64::from(i16::MAX) {
            return Err(at(
                imp.amplitude.span(),
                format!(
                    "impulse amplitude = {} is outside [-32767, 32767]: classic \
                     mode's heights are 16-bit integers",
                    readable_exact(amplitude)
                ),
            ));
        }
        check_impulse(
            imp,
            spanned.span(),
            (grid, cascades),
            radius,
            shape,
            grid.steps,
            at,
        )?;
        let impulse = Impulse::new(
            Vec2::new(*imp.x.get_ref() as f32, *imp.y.get_ref() as f32),
            radius as f32,
            *imp.amplitude.get_ref() as f32,
            shape,
        )
        .map_err(|e| {
            let span = match &e {
                WaterError::NotFinite { name, .. } | WaterError::NotPositive { name, .. } => {
                    match *name {
                        "impulse x" => imp.x.span(),
                        "impulse y" => imp.y.span(),
                        "impulse amplitude" => imp.amplitude.span(),
                        _ => imp.radius.as_ref().map_or(spanned.span(), Spanned::span),
                    }
                }
                _ => spanned.span(),
            };
            at(span, e.to_string())
        })?;
        if let Some(all_land) = &all_land {
            check_impulse_lands(
                &impulse,
                (grid.size, grid.boundary, grid.mode),
                all_land,
                spanned.span(),
                at,
            )?;
        }
        impulses.push(TimedImpulse {
            step,
            impulse: impulse.with_displacement(imp.displacement),
        });
    }
    impulses.sort_by_key(|t| t.step);
    Ok(impulses)
}

/// Refuses an impulse that could not change the water: numbers past their limits (checked in
/// f64, so the message names what was written), a centre whose reach holds no cell of the grid
/// nor of a cascade that resolves it (on a grid `fixed_in_place`: one that follows a `[focus]`
/// is somewhere else by the impulse's step, and the run names an impulse it left behind), or a
/// step at or after the run's end.
fn check_impulse(
    imp: &RawImpulse,
    whole: std::ops::Range<usize>,
    (grid, cascades): (&GridForImpulses<'_>, usize),
    radius: f64,
    shape: ImpulseShape,
    steps: u64,
    at: Locate<'_>,
) -> Result<(), ScenarioError> {
    let (size, fixed_in_place) = (grid.size, grid.fixed_in_place);
    check_impulse_amplitude(*imp.amplitude.get_ref())
        .map_err(|e| at(imp.amplitude.span(), e.to_string()))?;
    if let Some(r) = &imp.radius {
        if !r.get_ref().is_finite() {
            return Err(at(
                r.span(),
                format!(
                    "impulse radius must be a finite number, got {}",
                    readable_exact(*r.get_ref())
                ),
            ));
        }
        if *r.get_ref() < 0.0 {
            return Err(at(
                r.span(),
                format!(
                    "impulse radius must not be negative (0 only for shape = \"point\"), got \
                     {} cells",
                    readable_exact(*r.get_ref())
                ),
            ));
        }
        if *r.get_ref() > MAX_IMPULSE_RADIUS {
            return Err(at(
                r.span(),
                format!(
                    "impulse radius must be at most {MAX_IMPULSE_RADIUS:e} cells, got {}",
                    readable_exact(*r.get_ref())
                ),
            ));
        }
    }
    // Checked in f64 and as the f32 the impulse keeps: 1e-300 cells is named as written, not
    // as the 0 it rounds to.
    if shape != ImpulseShape::Point && (radius as f32) <= 0.0 {
        return Err(at(
            imp.radius.as_ref().map_or(whole.clone(), Spanned::span),
            format!(
                "impulse radius must be greater than 0 cells for a shape other than \"point\" \
                 (and past f32's least, 1.4e-45), got {}",
                readable_exact(radius)
            ),
        ));
    }
    let (x, y) = (*imp.x.get_ref(), *imp.y.get_ref());
    for (name, v, span) in [("x", x, imp.x.span()), ("y", y, imp.y.span())] {
        if !v.is_finite() {
            return Err(at(
                span,
                format!(
                    "impulse {name} must be a finite number, got {}",
                    readable_exact(v)
                ),
            ));
        }
    }
    // A grid that follows a written route goes where it does, within `coordinate_limit` of
    // the origin, its cascades around it: an impulse past that could never land (the run
    // stopped at its step).
    if grid.route_is_written {
        let extent = size.width().max(size.height()) as f64 * f64::from(1u32 << (cascades - 1));
        let limit = super::bodies::coordinate_limit(grid.cell_size) / grid.cell_size + extent;
        for (name, v, span) in [("x", x, imp.x.span()), ("y", y, imp.y.span())] {
            if v.abs() - radius > limit {
                return Err(at(
                    span,
                    format!(
                        "impulse {name} = {} cells lies past every place a following grid \
                         can reach: within {limit:.0} cells of the origin (its path's \
                         {:e} m and its own and its cascades' {extent} cells)",
                        readable_exact(v),
                        super::bodies::coordinate_limit(grid.cell_size)
                    ),
                ));
            }
        }
    }
    // Cell centres sit at integer coordinates 0..W-1, 0..H-1. A point impulse lands on the
    // nearest one; others on those within `radius`.
    let (w, h) = (size.width() as f64, size.height() as f64);
    // On the grid: as the scene lands it (`Impulse::reaches`, in f32, as it lands).
    let probe = Impulse::new(Vec2::new(x as f32, y as f32), radius as f32, 1.0, shape).ok();
    let reaches = if shape == ImpulseShape::Point {
        probe.map_or_else(
            || (0.0..w).contains(&x.round()) && (0.0..h).contains(&y.round()),
            |probe| probe.reaches(size),
        )
    } else {
        let within = |x: f64, y: f64, radius: f64| {
            let dx = x - x.clamp(0.0, w - 1.0);
            let dy = y - y.clamp(0.0, h - 1.0);
            dx.hypot(dy) <= radius
        };
        // Cascade k (as `Scene::set_cascades` places it around the grid where the grid starts,
        // its centre cell over the grid's; a `[focus]` may move both before the impulse lands,
        // as it may move the grid away from any impulse) has cells 2^k wide; it takes the
        // impulses whose radius spans CASCADE_IMPULSE_MIN_CELLS of them.
        probe.map_or_else(|| within(x, y, radius), |probe| probe.reaches(size))
            || (1..cascades).any(|k| {
                let scale = f64::from(1u32 << k);
                // Its corner, in its cells: the grid's centre cell's centre in its centre cell.
                let origin = |cells: f64| {
                    let half = (cells / 2.0).floor();
                    ((half + 0.5) / scale).floor() - half
                };
                let r = radius / scale;
                r >= f64::from(crate::scene::CASCADE_IMPULSE_MIN_CELLS)
                    && within(
                        (x + 0.5) / scale - 0.5 - origin(w),
                        (y + 0.5) / scale - 0.5 - origin(h),
                        r,
                    )
            })
    };
    if fixed_in_place && !reaches {
        return Err(at(
            whole,
            format!(
                "impulse at ({}, {}) with radius {} reaches no cell of the {} x {} grid \
                 (cell centres span 0 to {} along x and 0 to {} along y){}",
                readable_exact(x),
                readable_exact(y),
                readable_exact(radius),
                size.width(),
                size.height(),
                size.width() - 1,
                size.height() - 1,
                if cascades > 1 {
                    " nor of a cascade whose cells it spans 2 of"
                } else {
                    ""
                }
            ),
        ));
    }
    if steps == 0 {
        return Err(at(
            imp.step.as_ref().map_or(whole, Spanned::span),
            "no impulse lands in a run of 0 steps (it writes the state at t = 0)".into(),
        ));
    }
    if let Some(step) = &imp.step {
        if *step.get_ref() >= steps {
            return Err(at(
                step.span(),
                format!(
                    "impulse at step {} would never land: the run has {steps} steps, so the \
                     last impulse step is {}",
                    step.get_ref(),
                    steps.saturating_sub(1)
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses an impulse that would add nothing to the grid: every cell it reaches is land
/// (`all_land`: the `[[land]]` rectangles and the depth map's dry cells; or a fixed rim), or
/// its amounts are all 0 (in classic mode: round to 0 height units).
fn check_impulse_lands(
    impulse: &Impulse,
    (size, boundary, mode): (GridSize, Boundary, GridMode),
    all_land: &LandMask,
    whole: std::ops::Range<usize>,
    at: Locate<'_>,
) -> Result<(), ScenarioError> {
    let (mut wet, mut adds) = (false, false);
    let interior_only = boundary == Boundary::Fixed || mode == GridMode::Classic;
    impulse.for_each_cell(size, interior_only, Some(all_land), |_, amount| {
        wet = true;
        adds |= if mode == GridMode::Classic {
            amount.round() != 0.0
        } else {
            amount != 0.0
        };
    });
    if !wet {
        return Err(at(
            whole,
            "the impulse reaches only land (the [[land]] rectangles, the depth map's dry cells \
             or the fixed rim): it would add nothing"
                .into(),
        ));
    }
    if !adds {
        let why = if mode == GridMode::Classic {
            "round to 0 height units in classic mode"
        } else {
            "are 0"
        };
        return Err(at(
            whole,
            format!(
                "the impulse's amounts all {why} (its amplitude is {}; at least 0.5 in size \
                 reaches a cell in classic mode, anything but 0 otherwise)",
                impulse.amplitude()
            ),
        ));
    }
    Ok(())
}
