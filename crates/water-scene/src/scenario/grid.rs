//! Grid scenarios: `[grid]`, `[[impulse]]`, `[[land]]`, `[contacts]` and `[[body]]`.

use glam::Vec2;
use serde::Deserialize;
use toml::Spanned;
use water_core::kernels::spectral_depth::check_depth_nodes;
use water_core::ocean::OceanSpec;
use water_core::{
    readable, readable_apart, AiryDispersion, Boundary, ClassicGrid, ContactSource, Damping, Depth,
    GridMode, GridSize, LandMask, WaterError, WaveParams, DEFAULT_CLASSIC_SHIFT,
    GRID_COURANT_LIMIT, MAX_CLASSIC_SHIFT,
};
use water_gpu::GridSpec;

use super::depth_keys::{DepthKeys, DepthSetting};
use super::impulses::{RawImpulse, TimedImpulse};
use super::{bodies, damping_keys, locator, toml_message, ScenarioError};

/// Classic mode's step when neither `wave_speed` nor `dt` is given, s: one step a second, so
/// the simulated time is the step count (classic mode has no physical units).
pub const CLASSIC_DEFAULT_DT: f64 = 1.0;

/// Classic mode's cell size when none is given, m.
pub const CLASSIC_DEFAULT_CELL_SIZE: f64 = 1.0;

/// How far from 1/2 the `a` of a classic scenario's `cell_size`, `wave_speed` and `dt` may be
/// (relative): decimals written to 7 significant digits, such as `dt = 0.03535534` for
/// `h / (c sqrt 2)`, agree; anything else describes another simulation than the one run.
const CLASSIC_COURANT_TOLERANCE: f64 = 1e-6;
use crate::body::BodySpec;
use crate::scene::Scene;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    steps: Spanned<u64>,
    grid: Spanned<RawGrid>,
    #[serde(default)]
    impulse: Vec<Spanned<RawImpulse>>,
    #[serde(default)]
    land: Vec<Spanned<RawLand>>,
    contacts: Option<bodies::RawContacts>,
    #[serde(default)]
    body: Vec<Spanned<bodies::RawBody>>,
    ocean: Option<Spanned<super::ocean::RawOcean>>,
    focus: Option<Spanned<super::focus::RawFocus>>,
    foam: Option<Spanned<super::foam::RawFoam>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrid {
    width: Spanned<usize>,
    height: Spanned<usize>,
    /// Required, except in classic mode (default 1 m there).
    cell_size: Option<Spanned<f64>>,
    /// Required, except in classic mode.
    wave_speed: Option<Spanned<f64>>,
    /// Required, except in classic mode.
    dt: Option<Spanned<f64>>,
    damping: Option<Spanned<f64>>,
    damping_per_second: Option<Spanned<f64>>,
    #[serde(default)]
    boundary: Option<Spanned<String>>,
    #[serde(default)]
    mode: Option<Spanned<String>>,
    classic_shift: Option<Spanned<i64>>,
    /// Still-water depth, m (uniform).
    depth: Option<Spanned<f64>>,
    /// Still-water depth per cell: a `.npy` file beside the scenario.
    depth_map: Option<Spanned<String>>,
    /// m/s^2, with a depth.
    gravity: Option<Spanned<f64>>,
    model: Option<Spanned<String>>,
    /// N/m, dispersive model.
    surface_tension: Option<Spanned<f64>>,
    /// kg/m^3, dispersive model.
    density: Option<Spanned<f64>>,
    /// Grids around the focus, cell size doubling (1: the grid alone).
    cascades: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLand {
    x0: Spanned<usize>,
    y0: Spanned<usize>,
    x1: Spanned<usize>,
    y1: Spanned<usize>,
}

/// A validated scenario, ready to build a simulation from.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Where it came from, for messages.
    pub source: String,
    /// Steps to run.
    pub steps: u64,
    /// Grid size.
    pub size: GridSize,
    /// Physical parameters (classic mode steps at `a = 1/2` whatever `dt` says).
    pub params: WaveParams,
    /// Edge treatment.
    pub boundary: Boundary,
    /// Stepper.
    pub mode: GridMode,
    /// Classic damping shift (`None`: undamped).
    pub classic_shift: Option<u32>,
    /// Impulses, sorted by step.
    pub impulses: Vec<TimedImpulse>,
    /// Land (the depth's dry cells are land too, once the depth is set).
    pub land: LandMask,
    /// Still-water depth per cell (`depth` or `depth_map`): the waves travel at
    /// `c = sqrt(g d)` over it.
    pub depth: Option<Depth>,
    /// `model = "dispersive"`: Airy's relation the grid steps with.
    pub dispersion: Option<AiryDispersion>,
    /// Floating bodies (`[[body]]`).
    pub bodies: Vec<BodySpec>,
    /// The contact source's amplitude (`[contacts]`): m per m/s of body speed for the events,
    /// a scale of the body's weight head for the displacement.
    pub contact_amplitude: f32,
    /// How the bodies make waves (`[contacts] source`).
    pub contact_source: ContactSource,
    /// The ambient sea around the grid (`[ocean]`).
    pub ocean: Option<OceanSpec>,
    /// What the grid follows through the world (`[focus]`); `None`: it stays at the origin.
    pub focus: Option<super::ScenarioFocus>,
    /// White water on the grid (`[foam]`).
    pub foam: Option<crate::FoamSettings>,
    /// Cascades, the grid counted (`[grid] cascades`, default 1).
    pub cascades: usize,
}

impl Scenario {
    /// Parses and validates scenario text; `source` names it in errors.
    ///
    /// # Errors
    /// [`ScenarioError`] at the line and column of the first problem.
    pub fn parse(source: &str, text: &str) -> Result<Self, ScenarioError> {
        let locate = locator(source, text);
        let at = &locate;
        let raw: RawScenario = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            at(span.clone(), toml_message(text, span.start, e.message()))
        })?;
        let grid_span = raw.grid.span();
        let g = raw.grid.get_ref();
        let water =
            |span: std::ops::Range<usize>| move |e: WaterError| at(span.clone(), e.to_string());

        let width = *g.width.get_ref();
        let size = GridSize::new(width, *g.height.get_ref()).map_err(|e| {
            let span = match e {
                WaterError::GridDimension { axis: "height", .. } => g.height.span(),
                _ => g.width.span(),
            };
            at(span, e.to_string())
        })?;
        let boundary = match &g.boundary {
            Some(b) => b
                .get_ref()
                .parse::<Boundary>()
                .map_err(|e| at(b.span(), e.to_string()))?,
            None => Boundary::default(),
        };
        let mode = match &g.mode {
            Some(m) => GridMode::ALL
                .into_iter()
                .find(|v| v.name() == m.get_ref())
                .ok_or_else(|| {
                    at(
                        m.span(),
                        format!(
                            "unknown mode {:?}; expected one of signed, split, classic",
                            m.get_ref()
                        ),
                    )
                })?,
            None => GridMode::default(),
        };
        // The model first: a dispersive classic grid is refused for the model, not for its
        // boundary (whichever boundary it then took, one of the two would refuse it).
        if let Some(model) = g.model.as_ref().filter(|m| m.get_ref() == "dispersive") {
            if mode != GridMode::Signed {
                return Err(at(
                    model.span(),
                    format!("model = \"dispersive\" steps signed grids, not mode {mode}"),
                ));
            }
        }
        if mode == GridMode::Classic && boundary != Boundary::Fixed {
            let refusal = WaterError::ClassicBoundary {
                boundary: boundary.name(),
            };
            // Unwritten, the boundary is the default: said so, at the mode that needs another.
            return Err(match (&g.boundary, &g.mode) {
                (None, Some(m)) => at(
                    m.span(),
                    format!(
                        "{refusal}, the default without a `boundary` key: write boundary = \
                         \"fixed\""
                    ),
                ),
                (b, _) => at(b.as_ref().map_or(0..0, Spanned::span), refusal.to_string()),
            });
        }
        let depth = DepthKeys {
            depth: g.depth.as_ref(),
            depth_map: g.depth_map.as_ref(),
            gravity: g.gravity.as_ref(),
            model: g.model.as_ref(),
            surface_tension: g.surface_tension.as_ref(),
            density: g.density.as_ref(),
            wave_speed: g.wave_speed.as_ref(),
        }
        .read(size, (mode, boundary), source, at)?;
        let params = grid_params(g, mode, &depth, grid_span.clone(), at)?;
        let classic_shift = match &g.classic_shift {
            Some(k) if mode != GridMode::Classic => {
                return Err(at(
                    k.span(),
                    "classic_shift applies only to mode = \"classic\"".into(),
                ))
            }
            Some(k) if *k.get_ref() == 0 => None,
            Some(k) => {
                let v = *k.get_ref();
                let shift = u32::try_from(v)
                    .ok()
                    .filter(|s| *s <= MAX_CLASSIC_SHIFT)
                    .ok_or_else(|| {
                        at(
                            k.span(),
                            format!(
                                "classic_shift = {v} is outside 0..={MAX_CLASSIC_SHIFT} (0: no \
                                 damping; k: each step takes 1/2^k of the height off)"
                            ),
                        )
                    })?;
                ClassicGrid::new(size, 1.0, Some(shift)).map_err(water(k.span()))?;
                Some(shift)
            }
            None => Some(DEFAULT_CLASSIC_SHIFT),
        };

        let mut land = LandMask::empty(size);
        for spanned in &raw.land {
            let r = spanned.get_ref();
            let [x0, y0, x1, y1] = [&r.x0, &r.y0, &r.x1, &r.y1].map(|v| *v.get_ref());
            // The key that reaches past the grid is blamed at its own line.
            let beyond = (x1 > size.width())
                .then(|| r.x1.span())
                .or_else(|| (y1 > size.height()).then(|| r.y1.span()));
            if let Some(span) = beyond {
                return Err(at(
                    span,
                    format!(
                        "land rectangle [{x0}, {x1}) x [{y0}, {y1}) reaches beyond the {} x {} \
                         grid (x1 <= {}, y1 <= {})",
                        size.width(),
                        size.height(),
                        size.width(),
                        size.height()
                    ),
                ));
            }
            land.add_rect(x0, y0, x1, y1)
                .map_err(water(spanned.span()))?;
        }

        let impulses = super::impulses::parse(
            &raw.impulse,
            &super::impulses::GridForImpulses {
                size,
                mode,
                boundary,
                cascades: g.cascades.as_ref().map(|c| *c.get_ref()),
                steps: *raw.steps.get_ref(),
                fixed_in_place: raw.focus.is_none(),
                route_is_written: raw.focus.as_ref().is_some_and(|f| {
                    f.get_ref()
                        .route_is_written(&bodies::towed_names(&raw.body))
                }),
                cell_size: params.cell_size(),
                land: &land,
                depth: depth.depth.as_ref(),
            },
            at,
        )?;

        let ocean = match &raw.ocean {
            Some(o) => Some(super::ocean::parse(
                o,
                &super::ocean::GridForOcean {
                    gravity: depth.gravity,
                    depth: g.depth.as_ref().map(|d| *d.get_ref()),
                    depth_map: g.depth_map.is_some(),
                    cell_size: params.cell_size(),
                    classic: mode == GridMode::Classic,
                },
                at,
            )?),
            None => None,
        };
        let (contacts, bodies) =
            bodies::parse(raw.contacts.as_ref(), &raw.body, params.cell_size(), at)?;
        bodies::check_step_fits(&bodies, &raw.body, params.dt(), at)?;
        if let (ContactSource::Displacement, Some(span)) = (contacts.source, &contacts.source_span)
        {
            if mode != GridMode::Signed {
                return Err(at(
                    span.clone(),
                    format!(
                        "contacts source \"displacement\" needs signed mode (heights in metres \
                         on one field), not {}",
                        mode.name()
                    ),
                ));
            }
        }
        let focus = match &raw.focus {
            Some(f) => Some(super::focus::parse(
                f,
                &bodies,
                (g.depth_map.is_some(), boundary),
                params.cell_size(),
                at,
            )?),
            None => None,
        };
        let foam = match &raw.foam {
            Some(f) => Some(super::foam::parse(
                f,
                (
                    ocean.is_some(),
                    // The depth the scene is given per cell, where shores are found.
                    match (&depth.depth, &depth.dispersion) {
                        (Some(d), _) => Ok(d),
                        (None, Some(_)) => Err(super::foam::DEPTH_IN_THE_RELATION),
                        (None, None) => Err(super::foam::NO_DEPTH),
                    },
                    !bodies.is_empty(),
                ),
                at,
            )?),
            None => None,
        };
        let cascades = super::cascades::parse(
            g.cascades.as_ref(),
            &super::cascades::GridForCascades {
                mode,
                boundary,
                depth_map: g.depth_map.is_some(),
                params,
            },
            at,
        )?;
        // A following grid may come to a body that starts far from it.
        if ocean.is_none() && focus.is_none() {
            check_bodies_reach_the_grid(&raw.body, &bodies, size, params.cell_size(), at)?;
        }
        if mode == GridMode::Classic {
            if let Some(b) = raw.body.first() {
                return Err(at(
                    b.span(),
                    "bodies need heights in metres; classic mode's are integer units".into(),
                ));
            }
        }

        Ok(Self {
            source: source.to_owned(),
            steps: *raw.steps.get_ref(),
            size,
            params,
            boundary,
            mode,
            classic_shift,
            impulses,
            land,
            depth: depth.depth,
            dispersion: depth.dispersion,
            bodies,
            contact_amplitude: contacts.amplitude,
            contact_source: contacts.source,
            ocean,
            focus,
            foam,
            cascades,
        })
    }
}

type Locate<'a> = &'a dyn Fn(std::ops::Range<usize>, String) -> ScenarioError;

/// The physical parameters of `[grid]`. Signed and split modes need `cell_size`, `wave_speed`
/// and `dt`. Classic mode steps at `a = 1/2` in height units: it needs none of them, and those
/// given must agree with `a = 1/2` (a `dt` that says otherwise would be reported as simulated
/// time the run never had); its damping is `classic_shift`, so damping keys are refused.
fn grid_params(
    g: &RawGrid,
    mode: GridMode,
    depth: &DepthSetting,
    grid_span: std::ops::Range<usize>,
    at: Locate<'_>,
) -> Result<WaveParams, ScenarioError> {
    let span_of = |name: &str| {
        let key = match name {
            "cell_size" => g.cell_size.as_ref(),
            "wave_speed" => g.wave_speed.as_ref(),
            "dt" => g.dt.as_ref(),
            _ => None,
        };
        key.map_or_else(|| grid_span.clone(), Spanned::span)
    };
    // A wave speed the scenario did not write (classic mode's h / (dt sqrt 2), a depth's
    // sqrt(g d), the dispersive model's shortest wave) is blamed on what was written.
    let derived_speed = |value: f64| {
        let range = "[1e-6, 1e6] m/s";
        if mode == GridMode::Classic {
            let span =
                g.dt.as_ref()
                    .or(g.cell_size.as_ref())
                    .map_or_else(|| grid_span.clone(), Spanned::span);
            at(
                span,
                format!(
                    "classic mode steps at a = 1/2, so its wave speed is cell_size / (dt sqrt 2): \
                     these give {} m/s, outside {range}; choose dt and cell_size to bring \
                     it within",
                    readable(value)
                ),
            )
        } else if depth.dispersion.is_some() {
            at(
                span_of("cell_size"),
                format!(
                    "cell_size gives the shortest wave it resolves a phase speed of {value:?} m/s, \
                     outside {range}"
                ),
            )
        } else {
            let span = g
                .depth
                .as_ref()
                .map(Spanned::span)
                .or_else(|| g.depth_map.as_ref().map(Spanned::span))
                .unwrap_or_else(|| grid_span.clone());
            let deepest = depth.depth.as_ref().map_or(0.0, Depth::deepest);
            at(
                span,
                format!(
                    "the deepest water, {} m, gives waves at c = sqrt(g d) = {} m/s, outside \
                     {range}",
                    readable(f64::from(deepest)),
                    readable_apart(value, value.clamp(1e-6, 1e6))
                ),
            )
        }
    };
    let blame = |e: WaterError| {
        if g.wave_speed.is_none() {
            if let WaterError::NotFinite {
                name: "wave_speed",
                value,
            }
            | WaterError::NotPositive {
                name: "wave_speed",
                value,
            }
            | WaterError::OutOfRange {
                name: "wave_speed",
                value,
                ..
            } = e
            {
                return derived_speed(value);
            }
        }
        let span = match e.parameter() {
            Some("damping" | "damping_per_second") => g
                .damping
                .as_ref()
                .or(g.damping_per_second.as_ref())
                .map_or_else(|| grid_span.clone(), Spanned::span),
            Some(other) => span_of(other),
            None => {
                g.dt.as_ref()
                    .map_or_else(|| grid_span.clone(), Spanned::span)
            }
        };
        at(span, e.to_string())
    };
    let value = |key: &Option<Spanned<f64>>| key.as_ref().map(|v| *v.get_ref());
    if mode == GridMode::Classic {
        if let Some(d) = g.damping.as_ref().or(g.damping_per_second.as_ref()) {
            return Err(at(
                d.span(),
                "classic mode does not take damping or damping_per_second: its damping is \
                 classic_shift (0 for none)"
                    .into(),
            ));
        }
        let h = value(&g.cell_size).unwrap_or(CLASSIC_DEFAULT_CELL_SIZE);
        let params = match (value(&g.wave_speed), value(&g.dt)) {
            (Some(c), None) => WaveParams::at_limit(h, c, Damping::NONE),
            (None, dt) => {
                let dt = dt.unwrap_or(CLASSIC_DEFAULT_DT);
                // The speed that makes a = 1/2; checked against its range like a given one.
                WaveParams::new(h, h / (dt * std::f64::consts::SQRT_2), dt, Damping::NONE)
            }
            (Some(c), Some(dt)) => WaveParams::new(h, c, dt, Damping::NONE),
        }
        .map_err(blame)?;
        let a = params.courant();
        if (a / GRID_COURANT_LIMIT - 1.0).abs() > CLASSIC_COURANT_TOLERANCE {
            return Err(at(
                span_of("dt"),
                format!(
                    "classic mode steps at a = 1/2, but cell_size, wave_speed and dt give \
                     a = (c*dt/h)^2 = {a}; give dt = h / (c*sqrt 2) = {} s, or leave out \
                     wave_speed or dt",
                    params.max_stable_dt()
                ),
            ));
        }
        return Ok(params);
    }
    let required = |key: &Option<Spanned<f64>>, name: &str, unit: &str| {
        value(key).ok_or_else(|| {
            at(
                grid_span.clone(),
                format!("[grid] needs `{name}` ({unit}) in {} mode", mode.name()),
            )
        })
    };
    let h = required(&g.cell_size, "cell_size", "m")?;
    let dt = required(&g.dt, "dt", "s")?;
    let dt_span = span_of("dt");
    let damping = damping_keys(&g.damping, &g.damping_per_second, dt_span, at)?;
    if let Some(airy) = &depth.dispersion {
        let params = WaveParams::dispersive(h, airy, dt, damping.0).map_err(blame)?;
        if let Some(map) = &depth.depth {
            // Over a varying depth the step must also keep the reference depths' accuracy:
            // refused here, at `dt` with the largest step that does (or at the map when no
            // step does), not when the scene is built.
            check_depth_nodes(map, h, dt, airy).map_err(|e| {
                let span = match e {
                    WaterError::DepthRangeTooWide {
                        largest_dt: None, ..
                    } => g
                        .depth_map
                        .as_ref()
                        .map(Spanned::span)
                        .or_else(|| g.depth.as_ref().map(Spanned::span))
                        .unwrap_or_else(|| grid_span.clone()),
                    _ => span_of("dt"),
                };
                at(span, e.to_string())
            })?;
        }
        return Ok(params);
    }
    if let Some(d) = &depth.depth {
        // The wave model over a depth takes its speed from it.
        if let Some(c) = &g.wave_speed {
            return Err(at(
                c.span(),
                "wave_speed and a depth both given: over a depth the waves travel at \
                 c = sqrt(g d) (give `gravity` to change g); leave out one of them"
                    .into(),
            ));
        }
        return WaveParams::shallow_water(h, d, depth.gravity, dt, damping.0).map_err(blame);
    }
    let c = required(&g.wave_speed, "wave_speed", "m/s")?;
    WaveParams::new(h, c, dt, damping.0).map_err(blame)
}

/// Refuses a body that starts wholly beyond the grid and is towed nowhere over it: without an
/// `[ocean]` there is no water under it, so it would only ever float on still water at rest
/// level, never meeting the waves (as an impulse or land beyond the grid is refused).
fn check_bodies_reach_the_grid(
    raw: &[Spanned<bodies::RawBody>],
    specs: &[BodySpec],
    size: GridSize,
    cell_size: f64,
    at: Locate<'_>,
) -> Result<(), ScenarioError> {
    let extent = Vec2::new(size.width() as f32, size.height() as f32) * cell_size as f32;
    let over = |p: Vec2, reach: f32| {
        p.x + reach > 0.0 && p.x - reach < extent.x && p.y + reach > 0.0 && p.y - reach < extent.y
    };
    for (spanned, spec) in raw.iter().zip(specs) {
        let pose = spec.body.body.state.pose;
        let starts_over = spec.body.hulls.iter().any(|hull| {
            over(
                hull.world_pose(&pose).position.truncate(),
                hull.bounding_radius(),
            )
        });
        // Along its path's legs, not only at their corners: a leg may cross the grid from one
        // side to the other.
        let towed_over = spec.path.as_ref().is_some_and(|path| {
            let points = path.points();
            points.iter().any(|p| over(*p, 0.0))
                || points
                    .windows(2)
                    .any(|leg| leg_crosses(leg[0], leg[1], Vec2::ZERO, extent))
        });
        if !starts_over && !towed_over {
            let p = pose.position;
            return Err(at(
                spanned.span(),
                format!(
                    "body {:?} at ({}, {}) m lies wholly beyond the {} x {} grid (0 to {} m \
                     along x, 0 to {} m along y) and is towed nowhere over it: there is no \
                     water under it (an [ocean] table puts a sea around the grid)",
                    spec.name,
                    p.x,
                    p.y,
                    size.width(),
                    size.height(),
                    extent.x,
                    extent.y
                ),
            ));
        }
    }
    Ok(())
}

/// Whether the leg from `a` to `b` passes through the open rectangle from `min` to `max`
/// (Liang and Barsky's clipping: the part of the leg inside each slab, intersected).
fn leg_crosses(a: Vec2, b: Vec2, min: Vec2, max: Vec2) -> bool {
    let d = b - a;
    let (mut enter, mut leave) = (0.0_f32, 1.0_f32);
    for (start, step, low, high) in [(a.x, d.x, min.x, max.x), (a.y, d.y, min.y, max.y)] {
        if step == 0.0 {
            if start <= low || start >= high {
                return false;
            }
            continue;
        }
        let (t0, t1) = ((low - start) / step, (high - start) / step);
        enter = enter.max(t0.min(t1));
        leave = leave.min(t0.max(t1));
    }
    enter < leave
}

impl Scenario {
    /// What the grid simulates.
    #[must_use]
    pub fn spec(&self) -> GridSpec {
        let spec = GridSpec::new(self.size, self.params, self.boundary, self.mode)
            .with_classic_shift(self.classic_shift);
        match self.dispersion {
            Some(airy) => spec.with_dispersion(airy),
            None => spec,
        }
    }

    /// All the land the water has: the `[[land]]` rectangles and the depth's dry cells (at or
    /// below 0 m).
    ///
    /// # Panics
    /// Never: the depth was read for this grid's size.
    #[must_use]
    pub fn all_land(&self) -> LandMask {
        match &self.depth {
            Some(depth) => self
                .land
                .union(&depth.land())
                .expect("the depth is of the scenario's grid"),
            None => self.land.clone(),
        }
    }

    /// The land under the grid of `scene` (made from this scenario) as it is now: where a
    /// `[focus]` has moved the grid, the `[[land]]` rectangles as they lie under it; else
    /// [`Scenario::all_land`].
    #[must_use]
    pub fn land_now(&self, scene: &Scene) -> LandMask {
        if self.focus.is_some() {
            scene.window_land().clone()
        } else {
            self.all_land()
        }
    }
}
