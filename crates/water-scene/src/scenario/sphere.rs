//! Sphere scenarios: a `[sphere]` table and `[[click]]` entries instead of `[grid]`.
//!
//! ```toml
//! steps = 400
//! [sphere]
//! level = 4                 # 2562 vertices
//! radius = 1.0              # m
//! wave_speed = 0.5          # m/s
//! dt = 0.01                 # s
//! damping = 0.999           # per step (or damping_per_second)
//! stepper = "laplace-beltrami"   # or "mean" (the demo's; optional `a`)
//! [[click]]
//! direction = [0.0, 0.0, 1.0]
//! radius = 0.3              # radians along the surface
//! amplitude = 0.05          # m
//! step = 0
//! ```
//!
//! The mean stepper's `a`, when not given, is `4 (c dt / h)^2` with `h` the mean edge length:
//! on a mesh of near-equilateral triangles the neighbour mean minus the vertex is about
//! `h^2/4` times the Laplacian, so that `a` makes waves run at about `c`.

use std::collections::HashSet;

use glam::Vec3;
use serde::Deserialize;
use toml::Spanned;
use water_core::{readable_exact, readable_exact_list, DT_RANGE, WAVE_SPEED_RANGE};
use water_sphere::{Icosphere, SphereError, SphereImpulse, SphereStepper, SphereWater};

use super::{damping_keys, memory, toml_message, Numbers, ScenarioError};
use crate::water::Water;

/// Largest sphere radius, m: a hundred times the Earth's, far inside f32 with room for the
/// products of positions that normals and areas take.
pub const MAX_SPHERE_RADIUS: f64 = 1e9;

/// Largest |click amplitude|, m: heights stay far below f32's range (3.4e38) however many clicks
/// a run adds up.
pub const MAX_CLICK_AMPLITUDE: f64 = 1e6;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSphereScenario {
    steps: Spanned<u64>,
    sphere: RawSphere,
    #[serde(default)]
    click: Vec<Spanned<RawClick>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSphere {
    level: Spanned<u32>,
    radius: Spanned<f64>,
    wave_speed: Spanned<f64>,
    dt: Spanned<f64>,
    damping: Option<Spanned<f64>>,
    damping_per_second: Option<Spanned<f64>>,
    stepper: Option<Spanned<String>>,
    a: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClick {
    direction: Spanned<Numbers<3>>,
    radius: Spanned<f64>,
    amplitude: Spanned<f64>,
    #[serde(default)]
    step: u64,
}

/// A validated sphere scenario.
#[derive(Debug, Clone)]
pub struct SphereScenario {
    /// Where it came from.
    pub source: String,
    /// Steps to run.
    pub steps: u64,
    /// The water, at rest, ready to run.
    pub water: SphereWater,
    /// Clicks and the step before which each lands, sorted by step.
    pub clicks: Vec<(u64, SphereImpulse)>,
}

/// Mean edge length of the sphere, m.
fn mean_edge(sphere: &Icosphere) -> f64 {
    let p = sphere.positions();
    let edges: HashSet<(u32, u32)> = sphere
        .faces()
        .iter()
        .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    edges
        .iter()
        .map(|&(a, b)| f64::from(p[a as usize].distance(p[b as usize])))
        .sum::<f64>()
        / edges.len() as f64
}

impl SphereScenario {
    /// Parses and validates; `at` turns a byte span and a message into a located error.
    pub(crate) fn parse(
        text: &str,
        source: &str,
        at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
    ) -> Result<Self, ScenarioError> {
        let raw: RawSphereScenario = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            at(span.clone(), toml_message(text, span.start, e.message()))
        })?;
        let s = &raw.sphere;
        let level = *s.level.get_ref();
        let vertices = water_sphere::vertex_count(level);
        if vertices <= water_sphere::MAX_VERTICES {
            memory::check_memory(
                &format!("a level-{level} sphere ({vertices} vertices)"),
                memory::sphere_bytes(vertices),
            )
            .map_err(|e| at(s.level.span(), e.to_string()))?;
        }
        let radius = *s.radius.get_ref();
        if !(radius > 0.0 && radius <= MAX_SPHERE_RADIUS) {
            return Err(at(
                s.radius.span(),
                format!(
                    "sphere radius must be greater than 0 and at most {MAX_SPHERE_RADIUS:e} m, \
                     got {}",
                    readable_exact(radius)
                ),
            ));
        }
        let sphere = Icosphere::new(level, radius as f32).map_err(|e| {
            let span = match e {
                SphereError::TooManyVertices { .. } => s.level.span(),
                _ => s.radius.span(),
            };
            at(span, e.to_string())
        })?;
        let damping = damping_keys(&s.damping, &s.damping_per_second, s.dt.span(), at)?;
        let (c, dt) = (*s.wave_speed.get_ref(), *s.dt.get_ref());
        // The grid's ranges: a speed or step of 1e-300 would be taken and step nothing.
        for (key, value, span, (low, high), unit) in [
            (
                "wave_speed",
                c,
                s.wave_speed.span(),
                WAVE_SPEED_RANGE,
                "m/s",
            ),
            ("dt", dt, s.dt.span(), DT_RANGE, "s"),
        ] {
            if !(low..=high).contains(&value) {
                return Err(at(
                    span,
                    format!(
                        "{key} = {} is outside the allowed range [{low:e}, {high:e}] \
                         {unit}",
                        readable_exact(value)
                    ),
                ));
            }
        }
        let stepper_name = s
            .stepper
            .as_ref()
            .map_or("laplace-beltrami", |v| v.get_ref().as_str());
        let stepper = match stepper_name {
            "laplace-beltrami" => {
                if let Some(a) = &s.a {
                    return Err(at(a.span(), "a applies only to stepper = \"mean\"".into()));
                }
                SphereStepper::LaplaceBeltrami { wave_speed: c, dt }
            }
            "mean" => SphereStepper::Mean {
                a: s.a.as_ref().map_or_else(
                    || {
                        let k = c * dt / mean_edge(&sphere);
                        4.0 * k * k
                    },
                    |a| *a.get_ref(),
                ),
            },
            other => {
                let span = s.stepper.as_ref().map_or(0..0, Spanned::span);
                return Err(at(
                    span,
                    format!("unknown stepper {other:?}; expected laplace-beltrami or mean"),
                ));
            }
        };
        let water = SphereWater::new(sphere, stepper, damping.0).map_err(|e| {
            let span = match &e {
                SphereError::Unstable { name: "a", .. } => {
                    s.a.as_ref().map_or(s.dt.span(), Spanned::span)
                }
                SphereError::DampingPerSecond | SphereError::Invalid(_) => damping.1.clone(),
                _ => s.dt.span(),
            };
            at(span, e.to_string())
        })?;
        let mut clicks = Vec::new();
        for spanned in &raw.click {
            let k = spanned.get_ref();
            let d = k.direction.get_ref().0;
            // Normalised in f64: [1e20, 0, 0] is a direction like any other, but its f32
            // length squared overflows.
            let length = d.iter().map(|v| v * v).sum::<f64>().sqrt();
            let scale = d.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            let unit = if d.iter().all(|v| v.is_finite()) && scale > 0.0 {
                let r = d.map(|v| v / scale);
                let n = r.iter().map(|v| v * v).sum::<f64>().sqrt();
                Some(r.map(|v| (v / n) as f32))
            } else {
                None
            };
            let Some([x, y, z]) = unit else {
                return Err(at(
                    k.direction.span(),
                    format!(
                        "click direction must be finite and not zero, got {} (length {})",
                        readable_exact_list(&d),
                        readable_exact(length)
                    ),
                ));
            };
            let amplitude = *k.amplitude.get_ref();
            if amplitude.is_nan() || amplitude.abs() > MAX_CLICK_AMPLITUDE {
                return Err(at(
                    k.amplitude.span(),
                    format!(
                        "click amplitude must be within ±{MAX_CLICK_AMPLITUDE:e} m, got {}",
                        readable_exact(amplitude)
                    ),
                ));
            }
            if *raw.steps.get_ref() == 0 {
                return Err(at(
                    spanned.span(),
                    "no click lands in a run of 0 steps (it writes the state at t = 0)".into(),
                ));
            }
            if k.step >= *raw.steps.get_ref() {
                return Err(at(
                    spanned.span(),
                    format!(
                        "click at step {} would never land: the run has {} steps (0 to {})",
                        k.step,
                        raw.steps.get_ref(),
                        raw.steps.get_ref().saturating_sub(1)
                    ),
                ));
            }
            let radius = *k.radius.get_ref();
            if !(radius > 0.0 && radius <= std::f64::consts::PI) {
                return Err(at(
                    k.radius.span(),
                    format!(
                        "click radius must be in (0, pi] rad, got {}",
                        readable_exact(radius)
                    ),
                ));
            }
            let click = SphereImpulse::new(Vec3::new(x, y, z), radius as f32, amplitude as f32)
                .map_err(|e| at(spanned.span(), e.to_string()))?;
            // A cap between vertices would be taken and change nothing.
            if !click.reaches(water.sphere()) {
                return Err(at(
                    k.radius.span(),
                    format!(
                        "a click of radius {radius:?} rad here reaches no vertex of the sphere \
                         (its raised cap, half the radius, falls between them; edges are about \
                         {:.2e} rad): widen the radius",
                        mean_edge(water.sphere()) / f64::from(water.sphere().radius())
                    ),
                ));
            }
            clicks.push((k.step, click));
        }
        clicks.sort_by_key(|(step, _)| *step);
        Ok(Self {
            source: source.to_owned(),
            steps: *raw.steps.get_ref(),
            water,
            clicks,
        })
    }

    /// Plays the scenario on `water` (built from [`SphereScenario::water`] on any backend)
    /// from step `from` to step `until` (at most the scenario's steps): each click lands just
    /// before its step; `on_step` is told the steps done after each run of at most
    /// [`super::RUN_CHUNK_STEPS`].
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn play(
        &self,
        water: &mut crate::BackendSphere,
        from: u64,
        until: u64,
        mut on_step: impl FnMut(u64),
    ) -> Result<(), crate::SceneError> {
        let until = until.min(self.steps);
        let mut clicks = self.clicks.iter().filter(|(at, _)| *at >= from).peekable();
        let mut step = from;
        while step < until {
            while let Some((_, click)) = clicks.next_if(|(at, _)| *at <= step) {
                water.add_impulse(click)?;
            }
            let run_end = clicks
                .peek()
                .map_or(until, |(at, _)| (*at).min(until))
                .min(step + super::run::RUN_CHUNK_STEPS);
            water.step_many(run_end - step)?;
            step = run_end;
            on_step(step);
        }
        Ok(())
    }
}
