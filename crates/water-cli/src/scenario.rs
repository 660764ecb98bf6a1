//! Scenario files: TOML descriptions of a whole run (see `DESIGN.md`, "Scenario files").
//!
//! Unknown keys and bad values are refused with the file, line and column they stand at.

use std::path::{Path, PathBuf};

use glam::Vec2;
use serde::Deserialize;
use toml::Spanned;
use water_core::{
    Boundary, ClassicGrid, Damping, GridMode, GridSize, Impulse, ImpulseShape, LandMask,
    WaterError, WaveParams, DEFAULT_CLASSIC_SHIFT,
};

/// A scenario that failed to load: where, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ScenarioError {
    /// The file (or `<builtin NAME>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    steps: Spanned<u64>,
    grid: RawGrid,
    #[serde(default)]
    impulse: Vec<Spanned<RawImpulse>>,
    #[serde(default)]
    land: Vec<Spanned<RawLand>>,
    contacts: Option<crate::bodies::RawContacts>,
    #[serde(default)]
    body: Vec<Spanned<crate::bodies::RawBody>>,
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
    pub bodies: Vec<crate::bodies::BodySpec>,
    /// Bow and stern wave amplitude (`[contacts]`), m per m/s of body speed.
    pub contact_amplitude: f32,
}

/// The scenarios built into the `water` binary, by name.
pub const BUILTIN: &[(&str, &str)] = &[
    ("harbour", include_str!("../../../scenarios/harbour.toml")),
    (
        "rock-pool",
        include_str!("../../../scenarios/rock-pool.toml"),
    ),
    ("open-sea", include_str!("../../../scenarios/open-sea.toml")),
    (
        "boat-wake",
        include_str!("../../../scenarios/boat-wake.toml"),
    ),
    (
        "sky-aquarium",
        include_str!("../../../scenarios/sky-aquarium.toml"),
    ),
];

/// The scenario `water run` uses when given none.
pub const DEFAULT_BUILTIN: &str = "harbour";

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
                impulse,
            });
        }
        impulses.sort_by_key(|t| t.step);

        let mut land = LandMask::empty(size);
        for spanned in &raw.land {
            let r = spanned.get_ref();
            land.add_rect(r.x0, r.y0, r.x1, r.y1)
                .map_err(water(spanned.span()))?;
        }

        let (contact_amplitude, bodies) =
            crate::bodies::parse(raw.contacts.as_ref(), &raw.body, at)?;
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

/// A scenario of either kind.
#[derive(Debug, Clone)]
pub enum ScenarioFile {
    /// `[grid]` water.
    Grid(Box<Scenario>),
    /// `[sphere]` water.
    Sphere(Box<crate::sphere_scenario::SphereScenario>),
}

impl ScenarioFile {
    /// Reads a scenario file of either kind (a top-level `[sphere]` table makes it a sphere
    /// scenario).
    ///
    /// # Errors
    /// [`ScenarioError`] at the offending line and column.
    pub fn load(path: &Path) -> Result<Self, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError {
            file: path.display().to_string(),
            line: 0,
            column: 0,
            message: format!("cannot read: {e}"),
        })?;
        Self::parse(&path.display().to_string(), &text)
    }

    /// Parses scenario text of either kind.
    ///
    /// # Errors
    /// [`ScenarioError`] at the offending line and column.
    pub fn parse(source: &str, text: &str) -> Result<Self, ScenarioError> {
        let at = locator(source, text);
        let is_sphere = text
            .parse::<toml::Table>()
            .is_ok_and(|t| t.contains_key("sphere"));
        if is_sphere {
            Ok(Self::Sphere(Box::new(
                crate::sphere_scenario::SphereScenario::parse(text, source, &at)?,
            )))
        } else {
            Ok(Self::Grid(Box::new(Scenario::parse(source, text)?)))
        }
    }

    /// A built-in scenario by name.
    ///
    /// # Errors
    /// [`ScenarioError`] if no built-in has that name.
    pub fn builtin(name: &str) -> Result<Self, ScenarioError> {
        Self::parse(&format!("<builtin {name}>"), builtin_text(name)?)
    }
}

/// Turns a byte span of `text` and a message into an error at that line and column.
pub(crate) fn locator<'a>(
    source: &'a str,
    text: &'a str,
) -> impl Fn(std::ops::Range<usize>, String) -> ScenarioError + 'a {
    move |span, message| {
        let (line, column) = line_column(text, span.start);
        ScenarioError {
            file: source.to_owned(),
            line,
            column,
            message,
        }
    }
}

/// The damping of a `damping` (per step) or `damping_per_second` key, and the span to blame when
/// it is refused (`fallback` when neither is given: no damping).
///
/// # Errors
/// Both keys given.
pub(crate) fn damping_keys(
    per_step: &Option<Spanned<f64>>,
    per_second: &Option<Spanned<f64>>,
    fallback: std::ops::Range<usize>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(Damping, std::ops::Range<usize>), ScenarioError> {
    Ok(match (per_step, per_second) {
        (Some(_), Some(b)) => {
            return Err(at(
                b.span(),
                "give either damping (per step) or damping_per_second, not both".into(),
            ))
        }
        (Some(d), None) => (Damping::PerStep(*d.get_ref()), d.span()),
        (None, Some(d)) => (Damping::PerSecond(*d.get_ref()), d.span()),
        (None, None) => (Damping::NONE, fallback),
    })
}

/// The text of a built-in scenario.
fn builtin_text(name: &str) -> Result<&'static str, ScenarioError> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .ok_or_else(|| ScenarioError {
            file: format!("<builtin {name}>"),
            line: 0,
            column: 0,
            message: format!(
                "no built-in scenario {name:?}; built-ins: {}",
                BUILTIN
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// 1-based line and column of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before.len(), |nl| before.len() - nl - 1)
        + 1;
    (line, column)
}

/// Every `*.toml` file directly inside `dir`, sorted.
///
/// # Errors
/// The I/O error of reading the folder.
pub fn scenario_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}
