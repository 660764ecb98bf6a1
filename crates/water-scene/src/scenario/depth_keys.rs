//! The depth and dispersion keys of `[grid]` (DESIGN.md, "Depth and dispersion"): `depth`
//! (uniform, m) or `depth_map` (a `.npy` file of f32 `[height, width]`, m, land where <= 0),
//! `gravity` (m/s^2, 9.81), `model` (`"wave"` or `"dispersive"`), and for the dispersive model
//! `surface_tension` (N/m, 0) and `density` (kg/m^3, 1000).

use std::ops::Range;
use std::path::Path;

use toml::Spanned;
use water_core::{
    check_gravity, AiryDispersion, Boundary, Depth, GridMode, GridSize, STANDARD_GRAVITY,
    WATER_DENSITY,
};

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
    pub surface_tension: Option<&'k Spanned<f64>>,
    pub density: Option<&'k Spanned<f64>>,
    pub wave_speed: Option<&'k Spanned<f64>>,
}

/// What the depth keys describe: the depth (if any) and gravity, or the dispersive model.
pub(super) struct DepthSetting {
    pub depth: Option<Depth>,
    pub gravity: f64,
    pub dispersion: Option<AiryDispersion>,
}

impl DepthKeys<'_> {
    /// Checks the keys and reads the depth; `source` is the scenario's file (a `depth_map` is
    /// read beside it) or `<builtin NAME>`.
    pub(super) fn read(
        &self,
        size: GridSize,
        (mode, boundary): (GridMode, Boundary),
        source: &str,
        at: Locate<'_>,
    ) -> Result<DepthSetting, ScenarioError> {
        let dispersive = match self.model {
            Some(model) => match model.get_ref().as_str() {
                "wave" => false,
                "dispersive" => true,
                other => {
                    return Err(at(
                        model.span(),
                        format!("unknown model {other:?}; expected \"wave\" or \"dispersive\""),
                    ))
                }
            },
            None => false,
        };
        if dispersive {
            return self.dispersive(size, (mode, boundary), source, at);
        }
        if let Some(key) = self.surface_tension.or(self.density) {
            return Err(at(
                key.span(),
                "surface_tension and density belong to model = \"dispersive\" (the wave \
                 model has one speed for every wavelength)"
                    .into(),
            ));
        }
        let depth = self.read_depth(size, source, at)?;
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
            dispersion: None,
        })
    }

    /// The depth of `depth` (uniform) or `depth_map` (read beside `source`), with the span of
    /// the key that gave it; both keys are refused together.
    fn read_depth(
        &self,
        size: GridSize,
        source: &str,
        at: Locate<'_>,
    ) -> Result<Option<(Range<usize>, Depth)>, ScenarioError> {
        Ok(match (self.depth, self.depth_map) {
            (Some(_), Some(map)) => {
                return Err(at(
                    map.span(),
                    "give `depth` (uniform) or `depth_map` (per cell), not both".into(),
                ))
            }
            (Some(d), None) => Some((d.span(), uniform(size, d, at)?)),
            (None, Some(map)) => Some((map.span(), from_file(size, map, source, at)?)),
            (None, None) => None,
        })
    }

    /// The keys of `model = "dispersive"`: Airy's relation from `gravity`, `surface_tension`,
    /// `density` and a uniform `depth` (deep water without one), or a `depth_map` (the relation
    /// then holds the map's deepest cell, which sets the step's limit, and the grid steps each
    /// cell at its own depth).
    fn dispersive(
        &self,
        size: GridSize,
        (mode, boundary): (GridMode, Boundary),
        source: &str,
        at: Locate<'_>,
    ) -> Result<DepthSetting, ScenarioError> {
        let model = self.model.map_or(0..0, Spanned::span);
        if let Some(c) = self.wave_speed {
            return Err(at(
                c.span(),
                "wave_speed is refused with model = \"dispersive\": every wavelength has its \
                 own speed there (Airy's relation from gravity, surface_tension, density and \
                 depth)"
                    .into(),
            ));
        }
        // A uniform depth lives in the relation; a map is stepped cell by cell.
        let map = match self.read_depth(size, source, at)? {
            Some((_, map)) if self.depth_map.is_some() => Some(map),
            _ => None,
        };
        if mode != GridMode::Signed {
            return Err(at(
                model,
                format!("model = \"dispersive\" steps signed grids, not mode {mode}"),
            ));
        }
        if !matches!(boundary, Boundary::Periodic | Boundary::Absorbing) {
            return Err(at(
                model,
                format!(
                    "model = \"dispersive\" offers periodic or absorbing edges, not {boundary}"
                ),
            ));
        }
        let value =
            |key: Option<&Spanned<f64>>, default: f64| key.map_or(default, |v| *v.get_ref());
        let airy = AiryDispersion::new(
            value(self.gravity, STANDARD_GRAVITY),
            value(self.surface_tension, 0.0),
            value(self.density, WATER_DENSITY),
            map.as_ref()
                .map(|m| f64::from(m.deepest()))
                .or(self.depth.map(|d| *d.get_ref())),
        )
        .map_err(|e| {
            // A map's deepest water is the relation's depth: too shallow, the map is named.
            if let (Some("depth"), Some(m), Some(file)) = (e.parameter(), &map, self.depth_map) {
                return at(
                    file.span(),
                    format!(
                        "depth_map's deepest water is {:?} m: the dispersive model takes depths \
                         of 1e-6 to 11000 m",
                        m.deepest()
                    ),
                );
            }
            let span = match e.parameter() {
                Some("gravity") => self.gravity.map(Spanned::span),
                Some("surface_tension") => self.surface_tension.map(Spanned::span),
                Some("density") => self.density.map(Spanned::span),
                Some(_) => self.depth.map(Spanned::span),
                None => None,
            };
            at(span.unwrap_or(model.clone()), e.to_string())
        })?;
        // The density enters Airy's relation only as sigma / rho: without surface tension a
        // density given would change nothing.
        if let (Some(rho), 0.0) = (self.density, value(self.surface_tension, 0.0)) {
            return Err(at(
                rho.span(),
                "density enters the dispersive model only through surface_tension / density; \
                 give surface_tension (N/m, above 0) with it, or leave density out"
                    .into(),
            ));
        }
        Ok(DepthSetting {
            depth: map,
            gravity: airy.gravity(),
            dispersion: Some(airy),
        })
    }
}

fn uniform(size: GridSize, d: &Spanned<f64>, at: Locate<'_>) -> Result<Depth, ScenarioError> {
    let metres = *d.get_ref();
    // Checked in f64 first, so a value past f32 (or one f32 holds as 0) is named as written;
    // one range for both models, Airy's relation's and a TMA sea's.
    water_core::check_depth(metres).map_err(|e| at(d.span(), e.to_string()))?;
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
    let metres = if source.starts_with("<builtin") {
        let bytes = BUILTIN_FILES
            .iter()
            .find(|(file, _)| file == name)
            .map(|(_, bytes)| bytes.to_vec())
            .ok_or_else(|| fail("no such file among the built-in scenarios' files".into()))?;
        crate::npy::read_f32_grid(&bytes, "depth_map", size.width(), size.height())
            .map_err(|e| fail(e.to_string()))?
    } else {
        let beside = Path::new(source)
            .parent()
            .unwrap_or(Path::new("."))
            .join(name);
        // The header first, then only the bytes it promises: `/dev/zero` or a huge file is
        // refused before it is read.
        let path = beside.display().to_string();
        crate::npy::read_f32_grid_file(&beside, &path, size.width(), size.height()).map_err(
            |e| match e.kind() {
                // The reader's own refusals name the file already.
                std::io::ErrorKind::InvalidData | std::io::ErrorKind::InvalidInput => {
                    fail(e.to_string())
                }
                _ => fail(format!("cannot read {path}: {e}")),
            },
        )?
    };
    // A cell the depth refuses, by its place: a map has thousands.
    let bad_cell = metres
        .iter()
        .position(|d| !(d.is_finite() && f64::from(*d) <= water_core::MAX_DEPTH));
    if let Some(i) = bad_cell {
        let (x, y) = (i % size.width(), i / size.width());
        return Err(fail(format!(
            "cell (x {x}, y {y}) holds {:?}; every depth must be a finite number of metres, at \
             most {} (land at or below 0)",
            metres[i],
            water_core::MAX_DEPTH
        )));
    }
    Depth::from_cells(size, metres).map_err(|e| fail(e.to_string()))
}
