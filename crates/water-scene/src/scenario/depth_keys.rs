//! The depth keys of `[grid]` (DESIGN.md, "Depth and dispersion"): `depth` (uniform, m) or
//! `depth_map` (a `.npy` file of f32 `[height, width]`, m, land where <= 0), `gravity` (m/s^2,
//! 9.81) and `model` (`"wave"`).

use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use water_core::{check_gravity, Depth, GridMode, GridSize, STANDARD_GRAVITY};

use super::ScenarioError;

type Locate<'a> = &'a dyn Fn(Range<usize>, String) -> ScenarioError;

/// The files built-in scenarios name (their `depth_map`s), by file name.
pub const BUILTIN_FILES: &[(&str, &[u8])] = &[(
    "beach-depth.npy",
    include_bytes!("../../../../scenarios/beach-depth.npy"),
)];

/// The depth keys as written.
pub(super) struct DepthKeys<'k> {
    pub depth: Option<&'k Spanned<f64>>,
    pub depth_map: Option<&'k Spanned<String>>,
    pub gravity: Option<&'k Spanned<f64>>,
    pub model: Option<&'k Spanned<String>>,
}

/// What the depth keys describe: the depth (if any) and gravity.
pub(super) struct DepthSetting {
    pub depth: Option<Depth>,
    pub gravity: f64,
}

impl DepthKeys<'_> {
    /// Checks the keys and reads the depth; `source` is the scenario's file (a `depth_map` is
    /// read beside it) or `<builtin NAME>`.
    pub(super) fn read(
        &self,
        size: GridSize,
        mode: GridMode,
        source: &str,
        at: Locate<'_>,
    ) -> Result<DepthSetting, ScenarioError> {
        if let Some(model) = self.model {
            match model.get_ref().as_str() {
                "wave" => {}
                "dispersive" => {
                    return Err(at(
                        model.span(),
                        "model = \"dispersive\" is not available yet; the grid steps the wave \
                         model (leave out `model`, or give model = \"wave\")"
                            .into(),
                    ))
                }
                other => {
                    return Err(at(
                        model.span(),
                        format!("unknown model {other:?}; expected \"wave\""),
                    ))
                }
            }
        }
        let depth = match (self.depth, self.depth_map) {
            (Some(_), Some(map)) => {
                return Err(at(
                    map.span(),
                    "give `depth` (uniform) or `depth_map` (per cell), not both".into(),
                ))
            }
            (Some(d), None) => Some((d.span(), uniform(size, d, at)?)),
            (None, Some(map)) => Some((map.span(), from_file(size, map, source, at)?)),
            (None, None) => None,
        };
        if let (Some((span, _)), GridMode::Classic) = (&depth, mode) {
            return Err(at(
                span.clone(),
                water_core::WaterError::ClassicTakesNo { what: "depth" }.to_string(),
            ));
        }
        let gravity = match self.gravity {
            Some(g) if depth.is_none() => {
                return Err(at(
                    g.span(),
                    "gravity sets the speed of water of a given depth; give `depth` or \
                     `depth_map` with it"
                        .into(),
                ))
            }
            Some(g) => check_gravity(*g.get_ref()).map_err(|e| at(g.span(), e.to_string()))?,
            None => STANDARD_GRAVITY,
        };
        Ok(DepthSetting {
            depth: depth.map(|(_, d)| d),
            gravity,
        })
    }
}

fn uniform(size: GridSize, d: &Spanned<f64>, at: Locate<'_>) -> Result<Depth, ScenarioError> {
    let metres = *d.get_ref();
    // Checked in f64 first, so a value past f32 is named as written.
    if !(metres.is_finite() && metres > 0.0 && metres <= water_core::MAX_DEPTH) {
        return Err(at(
            d.span(),
            format!(
                "depth must be a number of metres in (0, {}], got {metres:?}",
                water_core::MAX_DEPTH
            ),
        ));
    }
    Depth::uniform(size, metres as f32).map_err(|e| at(d.span(), e.to_string()))
}

fn from_file(
    size: GridSize,
    map: &Spanned<String>,
    source: &str,
    at: Locate<'_>,
) -> Result<Depth, ScenarioError> {
    let name = map.get_ref();
    let fail = |why: String| at(map.span(), format!("depth_map {name:?}: {why}"));
    let bytes = if source.starts_with("<builtin") {
        BUILTIN_FILES
            .iter()
            .find(|(file, _)| file == name)
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| fail("no such file among the built-in scenarios' files".into()))?
    } else {
        let beside = Path::new(source)
            .parent()
            .unwrap_or(Path::new("."))
            .join(name);
        std::fs::read(&beside)
            .map_err(|e| fail(format!("cannot read {}: {e}", beside.display())))?
    };
    let metres = crate::npy::read_f32_grid(&bytes, "depth_map", size.width(), size.height())
        .map_err(|e| fail(e.to_string()))?;
    Depth::from_cells(size, metres).map_err(|e| fail(e.to_string()))
}
