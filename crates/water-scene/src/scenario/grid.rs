//! Grid scenarios: `[grid]`, `[[impulse]]`, `[[land]]`, `[contacts]` and `[[body]]`.

use glam::Vec2;
use serde::Deserialize;
use toml::Spanned;
use water_core::{
    Boundary, ClassicGrid, GridMode, GridSize, Impulse, ImpulseShape, LandMask, WaterError,
    WaveParams, DEFAULT_CLASSIC_SHIFT,
};
use water_gpu::{GpuContext, GridSpec};

use super::{bodies, damping_keys, locator, ScenarioError};
use crate::body::BodySpec;
use crate::error::SceneError;
use crate::scene::{Scene, SceneSettings};
use crate::Backend;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    steps: Spanned<u64>,
    grid: RawGrid,
    #[serde(default)]
    impulse: Vec<Spanned<RawImpulse>>,
    #[serde(default)]
    land: Vec<Spanned<RawLand>>,
    contacts: Option<bodies::RawContacts>,
    #[serde(default)]
    body: Vec<Spanned<bodies::RawBody>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrid {
    width: Spanned<usize>,
    height: Spanned<usize>,
    cell_size: Spanned<f64>,
    wave_speed: Spanned<f64>,
    dt: Spanned<f64>,
    damping: Option<Spanned<f64>>,
    damping_per_second: Option<Spanned<f64>>,
    #[serde(default)]
    boundary: Option<Spanned<String>>,
    #[serde(default)]
    mode: Option<Spanned<String>>,
    classic_shift: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawImpulse {
    x: Spanned<f64>,
    y: Spanned<f64>,
    #[serde(default)]
    radius: Option<Spanned<f64>>,
    amplitude: Spanned<f64>,
    #[serde(default)]
    shape: Option<Spanned<String>>,
    #[serde(default)]
    step: u64,
    #[serde(default)]
    displacement: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLand {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

/// An impulse and the step before which it is added.
#[derive(Debug, Clone, PartialEq)]
pub struct TimedImpulse {
    /// Added to `z^step`, just before step `step` runs.
    pub step: u64,
    /// The impulse.
    pub impulse: Impulse,
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
    /// Land.
    pub land: LandMask,
    /// Floating bodies (`[[body]]`).
    pub bodies: Vec<BodySpec>,
    /// Bow and stern wave amplitude (`[contacts]`), m per m/s of body speed.
    pub contact_amplitude: f32,
}

impl Scenario {
    /// Parses and validates scenario text; `source` names it in errors.
    ///
    /// # Errors
    /// [`ScenarioError`] at the line and column of the first problem.
    pub fn parse(source: &str, text: &str) -> Result<Self, ScenarioError> {
        let locate = locator(source, text);
        let at = &locate;
        let raw: RawScenario = toml::from_str(text)
            .map_err(|e| at(e.span().unwrap_or(0..0), e.message().trim().to_owned()))?;
        let g = &raw.grid;
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
        let damping = damping_keys(&g.damping, &g.damping_per_second, g.dt.span(), at)?;
        let params = WaveParams::new(
            *g.cell_size.get_ref(),
            *g.wave_speed.get_ref(),
            *g.dt.get_ref(),
            damping.0,
        )
        .map_err(|e| {
            let span = match &e {
                WaterError::NotFinite { name, .. }
                | WaterError::NotPositive { name, .. }
                | WaterError::OutOfRange { name, .. } => match *name {
                    "cell_size" => g.cell_size.span(),
                    "wave_speed" => g.wave_speed.span(),
                    "dt" => g.dt.span(),
                    _ => damping.1.clone(),
                },
                _ => g.dt.span(),
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
        if mode == GridMode::Classic && boundary != Boundary::Fixed {
            let span = g.boundary.as_ref().map_or(0..0, Spanned::span);
            return Err(at(
                span,
                WaterError::ClassicBoundary {
                    boundary: boundary.name(),
                }
                .to_string(),
            ));
        }
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
                let shift = u32::try_from(v).unwrap_or(u32::MAX);
                // Validated by the grid itself, so the message and range live in one place.
                ClassicGrid::new(size, 1.0, Some(shift)).map_err(water(k.span()))?;
                Some(shift)
            }
            None => Some(DEFAULT_CLASSIC_SHIFT),
        };

        let mut impulses = Vec::with_capacity(raw.impulse.len());
        for spanned in &raw.impulse {
            let imp = spanned.get_ref();
            let shape = match &imp.shape {
                Some(s) => s
                    .get_ref()
                    .parse::<ImpulseShape>()
                    .map_err(|e| at(s.span(), e.to_string()))?,
                None => ImpulseShape::Cosine,
            };
            let radius = imp.radius.as_ref().map_or(0.0, |r| *r.get_ref());
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
            impulses.push(TimedImpulse {
                step: imp.step,
                impulse: impulse.with_displacement(imp.displacement),
            });
        }
        impulses.sort_by_key(|t| t.step);

        let mut land = LandMask::empty(size);
        for spanned in &raw.land {
            let r = spanned.get_ref();
            land.add_rect(r.x0, r.y0, r.x1, r.y1)
                .map_err(water(spanned.span()))?;
        }

        let (contact_amplitude, bodies) = bodies::parse(raw.contacts.as_ref(), &raw.body, at)?;
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
            bodies,
            contact_amplitude,
        })
    }
}

impl Scenario {
    /// What the grid simulates.
    #[must_use]
    pub fn spec(&self) -> GridSpec {
        GridSpec::new(self.size, self.params, self.boundary, self.mode)
            .with_classic_shift(self.classic_shift)
    }

    /// The scene at step 0 on `backend` (GPU backends run on `gpu`): the grid with its land and
    /// its bodies at their start, z up. Play the impulses with [`super::ScenarioRun`].
    ///
    /// # Errors
    /// What [`Scene::new`] and [`Scene::add_body`] report.
    pub fn scene(&self, backend: Backend, gpu: Option<&GpuContext>) -> Result<Scene, SceneError> {
        let settings = SceneSettings {
            backend,
            contact_amplitude: self.contact_amplitude,
            ..SceneSettings::default()
        };
        let mut scene = Scene::new(self.spec(), self.land.clone(), settings, gpu)?;
        for body in &self.bodies {
            scene.add_body(body.clone())?;
        }
        Ok(scene)
    }
}
