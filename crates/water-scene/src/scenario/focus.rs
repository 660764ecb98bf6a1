//! `[focus]`: what the grid follows through the world (DESIGN.md, "Open water"). Keys: `follow`
//! (a body's name) or `path` (`[[x, y], ...]`, metres, two or more points) with `speed` (m/s).
//!
//! ```toml
//! [focus]
//! follow = "boat"
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::bodies::{coordinate_limit, tow_path, RawPath, MAX_COORDINATE, MAX_COORDINATE_CELLS};
use super::ScenarioError;
use crate::body::BodySpec;
use crate::tow_path::TowPath;

type Span = std::ops::Range<usize>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFocus {
    follow: Option<Spanned<String>>,
    path: Option<RawPath>,
    speed: Option<Spanned<f64>>,
}

impl RawFocus {
    /// Whether the grid's route is bounded by the file: a `path`, or a body towed along one
    /// (`towed`: the names of the bodies with a path). A free body may drift anywhere.
    pub(super) fn route_is_written(&self, towed: &[String]) -> bool {
        self.path.is_some()
            || self
                .follow
                .as_ref()
                .is_some_and(|name| towed.contains(name.get_ref()))
    }
}

/// What a scenario's grid follows ([`crate::SceneFocus`] once its bodies are in a scene).
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioFocus {
    /// The body of this name (`follow`).
    Body(String),
    /// A route travelled from time 0 (`path`, `speed`), metres and m/s.
    Path(TowPath),
}

/// The focus of `[focus]`, checked against the scenario's bodies, depth, edges and cell size
/// (m).
pub(super) fn parse(
    raw: &Spanned<RawFocus>,
    bodies: &[BodySpec],
    (depth_map, boundary): (bool, water_core::Boundary),
    cell_size: f64,
    at: &dyn Fn(Span, String) -> ScenarioError,
) -> Result<ScenarioFocus, ScenarioError> {
    let f = raw.get_ref();
    // A window's edges lie wherever it has moved to: waves must leave through them as through
    // open sea. A wall or a wrap there would move with the grid, reflecting or wrapping waves
    // at a line that is not in the world.
    if boundary != water_core::Boundary::Absorbing {
        return Err(at(
            raw.span(),
            format!(
                "[focus] moves the grid through the world, so its edges must let waves out: \
                 give [grid] boundary = \"absorbing\", not {:?}",
                boundary.name()
            ),
        ));
    }
    if depth_map {
        return Err(at(
            raw.span(),
            "[focus] moves the grid through the world, off the cells a depth_map describes; \
             give a uniform `depth` instead"
                .into(),
        ));
    }
    match (&f.follow, &f.path, &f.speed) {
        (Some(name), None, None) => {
            if bodies.iter().any(|b| b.name == *name.get_ref()) {
                return Ok(ScenarioFocus::Body(name.get_ref().clone()));
            }
            let names: Vec<&str> = bodies.iter().map(|b| b.name.as_str()).collect();
            Err(at(
                name.span(),
                format!(
                    "focus follows {:?}, which is no body of this scenario (its bodies: {})",
                    name.get_ref(),
                    if names.is_empty() {
                        "none".to_owned()
                    } else {
                        names.join(", ")
                    }
                ),
            ))
        }
        (Some(name), _, _) => Err(at(
            name.span(),
            "give either `follow` (a body) or `path` with `speed`, not both".into(),
        )),
        (None, Some(path), Some(speed)) => {
            let route = tow_path(
                path,
                speed,
                coordinate_limit(cell_size),
                (
                    "a focus",
                    "without a [focus] the grid stays where it starts",
                ),
                at,
            )?;
            Ok(ScenarioFocus::Path(route))
        }
        (None, Some(path), None) => {
            Err(at(path.span(), "a focus path needs a `speed` (m/s)".into()))
        }
        (None, None, Some(speed)) => Err(at(
            speed.span(),
            "`speed` applies only with a `path`".into(),
        )),
        (None, None, None) => Err(at(
            raw.span(),
            "[focus] needs `follow` (a body's name) or `path` with `speed`".into(),
        )),
    }
}

// The grid's corner is kept in whole cells, at most `MAX_WINDOW_ORIGIN_CELLS` from the origin:
// every path point within `coordinate_limit` lies well inside that on any cells allowed (the
// metres' floor on the finest cells, the cells' limit on any), so every route a scenario can
// write can be followed.
const _: () = assert!(
    MAX_COORDINATE / water_core::CELL_SIZE_RANGE.0 < water_core::MAX_WINDOW_ORIGIN_CELLS
        && MAX_COORDINATE_CELLS < water_core::MAX_WINDOW_ORIGIN_CELLS
);
