//! `[ocean]`: the ambient sea around the grid (DESIGN.md, "Open water"). Keys: `spectrum`
//! (`"pierson-moskowitz"`, `"jonswap"`, `"tma"`), `wind_speed` (m/s; at 19.5 m for
//! Pierson-Moskowitz, 10 m for the others), `fetch` (m; JONSWAP and TMA), `peak_enhancement`
//! (JONSWAP and TMA, 3.3), `depth` (m), `direction` (degrees the waves travel to, 0 = +x),
//! `spreading` (s >= 1, 10), `seed` (0), `choppiness` (0 to 2, 0).

use serde::Deserialize;
use toml::Spanned;
use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum, DEFAULT_PEAK_ENHANCEMENT};
use water_core::{readable, readable_apart, readable_at_most, WaterError};

use super::ScenarioError;

type Span = std::ops::Range<usize>;
type Locate<'a> = &'a dyn Fn(Span, String) -> ScenarioError;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOcean {
    spectrum: Spanned<String>,
    wind_speed: Spanned<f64>,
    fetch: Option<Spanned<f64>>,
    peak_enhancement: Option<Spanned<f64>>,
    depth: Option<Spanned<f64>>,
    direction: Option<Spanned<f64>>,
    spreading: Option<Spanned<f64>>,
    seed: Option<Spanned<i64>>,
    choppiness: Option<Spanned<f64>>,
}

/// What the grid says that the sea depends on.
pub(super) struct GridForOcean {
    /// `[grid] gravity` (9.81 when not given).
    pub gravity: f64,
    /// The grid's uniform `depth`, if given.
    pub depth: Option<f64>,
    /// The grid has a `depth_map`.
    pub depth_map: bool,
    /// The finest grid's cell size, m.
    pub cell_size: f64,
    /// Classic mode (heights in integer units).
    pub classic: bool,
}

/// The sea of `[ocean]`, every value checked at its line.
pub(super) fn parse(
    raw: &Spanned<RawOcean>,
    grid: &GridForOcean,
    at: Locate<'_>,
) -> Result<OceanSpec, ScenarioError> {
    let table = raw.span();
    let o = raw.get_ref();
    if grid.classic {
        return Err(at(
            table,
            "[ocean] needs heights in metres; classic mode's are integer units".into(),
        ));
    }
    let name = o.spectrum.get_ref().as_str();
    let needs_fetch = matches!(name, "jonswap" | "tma");
    if !matches!(name, "pierson-moskowitz" | "jonswap" | "tma") {
        return Err(at(
            o.spectrum.span(),
            format!("unknown spectrum {name:?}; expected one of pierson-moskowitz, jonswap, tma"),
        ));
    }
    if !needs_fetch {
        for (key, value) in [
            ("fetch", &o.fetch),
            ("peak_enhancement", &o.peak_enhancement),
        ] {
            if let Some(v) = value {
                return Err(at(
                    v.span(),
                    format!(
                        "[ocean] {key} applies to jonswap and tma; pierson-moskowitz is a fully \
                         developed sea: remove it"
                    ),
                ));
            }
        }
    }
    // The depth: [ocean] depth, else the grid's uniform depth, else deep water.
    let depth =
        match (o.depth.as_ref(), grid.depth, grid.depth_map) {
            (None, _, true) => return Err(at(
                table,
                "the grid has a depth_map: give [ocean] `depth`, the depth the sea's waves feel"
                    .into(),
            )),
            #[allow(
                clippy::float_cmp,
                reason = "one depth written twice must agree exactly"
            )]
            (Some(d), Some(g), _) if *d.get_ref() != g => {
                return Err(at(
                    d.span(),
                    format!(
                        "[ocean] depth = {} m and [grid] depth = {g} m disagree; give one",
                        d.get_ref()
                    ),
                ))
            }
            (Some(d), _, _) => Some(*d.get_ref()),
            (None, g, false) => g,
        };
    let wind_speed = *o.wind_speed.get_ref();
    let gamma = o
        .peak_enhancement
        .as_ref()
        .map_or(DEFAULT_PEAK_ENHANCEMENT, |g| *g.get_ref());
    let fetch = || {
        o.fetch.as_ref().map(|f| *f.get_ref()).ok_or_else(|| {
            at(
                table.clone(),
                format!("spectrum = \"{name}\" needs `fetch` (m)"),
            )
        })
    };
    let spectrum = match name {
        "pierson-moskowitz" => WaveSpectrum::PiersonMoskowitz { wind_speed },
        "jonswap" => WaveSpectrum::Jonswap {
            wind_speed,
            fetch: fetch()?,
            peak_enhancement: gamma,
        },
        _ => WaveSpectrum::Tma {
            wind_speed,
            fetch: fetch()?,
            peak_enhancement: gamma,
            depth: depth.ok_or_else(|| {
                at(
                    o.spectrum.span(),
                    "spectrum = \"tma\" needs a depth: [ocean] depth or [grid] depth".into(),
                )
            })?,
        },
    };
    let seed = match &o.seed {
        Some(s) => u64::try_from(*s.get_ref()).map_err(|_| {
            at(
                s.span(),
                format!("seed must be from 0 to {}, got {}", i64::MAX, s.get_ref()),
            )
        })?,
        None => 0,
    };
    let mut spec = OceanSpec::new(spectrum)
        .with_gravity(grid.gravity)
        .with_seed(seed);
    spec.depth = depth;
    if let Some(d) = &o.direction {
        spec.direction_degrees = *d.get_ref();
    }
    if let Some(s) = &o.spreading {
        spec.spreading = *s.get_ref();
    }
    if let Some(c) = &o.choppiness {
        // The displacement is f32: a choppiness f32 holds only as a subnormal is 0 there.
        if water_core::below_f32_normal(*c.get_ref()) {
            return Err(at(
                c.span(),
                format!(
                    "[ocean] choppiness = {} is 0 in single precision: write 0, or at least \
                     1.17549435e-38",
                    water_core::readable_exact(*c.get_ref())
                ),
            ));
        }
        spec.choppiness = *c.get_ref();
    }
    let blame = |e: WaterError| {
        let key = match e {
            // The wind sets the peak first; the fetch (JONSWAP, TMA) shortens it further.
            WaterError::OceanPeakUnresolved { .. } => Some("wind_speed"),
            WaterError::FetchPastFullDevelopment { .. } => Some("fetch"),
            _ => e.parameter(),
        };
        // A wind whose fully developed sea is too short for the cells is the wind's fault:
        // no fetch up to full development would hold (the fetch's advice went in a circle).
        if let WaterError::FetchPastFullDevelopment { .. } = e {
            if let Some(refusal) = wind_too_light(&spec, grid.cell_size, o, at) {
                return refusal;
            }
        }
        let span = match key {
            Some("wind_speed") => Some(o.wind_speed.span()),
            Some("fetch") => o.fetch.as_ref().map(Spanned::span),
            Some("peak_enhancement") => o.peak_enhancement.as_ref().map(Spanned::span),
            Some("depth") => o.depth.as_ref().map(Spanned::span),
            Some("direction") => o.direction.as_ref().map(Spanned::span),
            Some("spreading") => o.spreading.as_ref().map(Spanned::span),
            Some("choppiness") => o.choppiness.as_ref().map(Spanned::span),
            _ => None,
        };
        at(
            span.unwrap_or_else(|| table.clone()),
            format!("[ocean] {e}"),
        )
    };
    spec.validate().map_err(blame)?;
    // The tiles must hold the band from 8 peak wavelengths down to 2 cells.
    AmbientSea::new(&spec, grid.cell_size).map_err(|e| {
        shortened_peak(&e, &spec, grid.cell_size, o, table.clone(), at).unwrap_or_else(|| blame(e))
    })?;
    Ok(spec)
}

/// The refusal of a peak too short to hold when the depth or the fetch, not the wind, shortens
/// it. The depth is blamed where in deep water (`lambda = 2 pi g / omega_p^2`) the peak would
/// fit in 2 cells, at its line (`[ocean] depth`, else the table: the grid's depth); the fetch
/// where the fully developed sea of the same wind (Pierson-Moskowitz, the longest fetch's) would.
fn shortened_peak(
    e: &WaterError,
    spec: &OceanSpec,
    cell_size: f64,
    o: &RawOcean,
    table: std::ops::Range<usize>,
    at: Locate<'_>,
) -> Option<ScenarioError> {
    let WaterError::OceanPeakUnresolved {
        peak_wavelength_m, ..
    } = *e
    else {
        return None;
    };
    let g = spec.gravity;
    let deep_wavelength = |spectrum: &WaveSpectrum| {
        let omega = spectrum.peak_omega(g);
        std::f64::consts::TAU * g / (omega * omega)
    };
    let deep = deep_wavelength(&spec.spectrum);
    let max_cell = 0.5 * peak_wavelength_m;
    if let Some(depth) = spec.dispersion_depth().filter(|_| deep >= 2.0 * cell_size) {
        return Some(at(
            o.depth.as_ref().map_or(table, Spanned::span),
            format!(
                "[ocean] at a depth of {} m the sea's peak wavelength is {} m ({} m in \
                 deep water), shorter than 2 cells of {cell_size} m: its waves are too short to \
                 hold; deepen the water or use cells of at most {} m",
                water_core::readable_exact(depth),
                readable_apart(peak_wavelength_m, 2.0 * cell_size),
                readable(deep),
                readable_at_most(max_cell)
            ),
        ));
    }
    let fetch = o.fetch.as_ref()?;
    if let Some(refusal) = wind_too_light(spec, cell_size, o, at) {
        return Some(refusal);
    }
    let longest = fully_developed_wavelength(spec);
    (longest >= 2.0 * cell_size).then(|| {
        at(
            fetch.span(),
            format!(
                "[ocean] over a fetch of {} m the sea's peak wavelength is {} m ({} m fully \
                 developed), shorter than 2 cells of {cell_size} m: its waves are too short to \
                 hold; raise fetch or use cells of at most {} m",
                water_core::readable_exact(*fetch.get_ref()),
                readable_apart(peak_wavelength_m, 2.0 * cell_size),
                readable(longest),
                readable_at_most(max_cell)
            ),
        )
    })
}

/// The deep-water peak wavelength (m) of the fully developed sea of `spec`'s wind
/// (Pierson-Moskowitz's, which JONSWAP's peak reaches at the longest fetch it takes): the
/// longest peak any fetch gives that wind.
fn fully_developed_wavelength(spec: &OceanSpec) -> f64 {
    let g = spec.gravity;
    let wind_speed = match spec.spectrum {
        WaveSpectrum::PiersonMoskowitz { wind_speed }
        | WaveSpectrum::Jonswap { wind_speed, .. }
        | WaveSpectrum::Tma { wind_speed, .. } => wind_speed,
    };
    let omega = WaveSpectrum::PiersonMoskowitz { wind_speed }.peak_omega(g);
    std::f64::consts::TAU * g / (omega * omega)
}

/// The refusal, at the wind's line, of a fetch-limited sea (JONSWAP, TMA) whose wind is too
/// light for any fetch to make waves of 2 cells: the fully developed sea's peak is shorter.
fn wind_too_light(
    spec: &OceanSpec,
    cell_size: f64,
    o: &RawOcean,
    at: Locate<'_>,
) -> Option<ScenarioError> {
    spec.spectrum.fully_developed_fetch(spec.gravity)?;
    let longest = fully_developed_wavelength(spec);
    (longest < 2.0 * cell_size).then(|| {
        let cells = if 0.5 * longest >= water_core::CELL_SIZE_RANGE.0 {
            format!(
                ", or use cells of at most {} m",
                readable_at_most(0.5 * longest)
            )
        } else {
            String::new()
        };
        at(
            o.wind_speed.span(),
            format!(
                "[ocean] at wind_speed = {} m/s even the fully developed sea's peak wavelength, \
                 {} m, is shorter than 2 cells of {cell_size} m: no fetch makes waves the grid \
                 can hold; raise wind_speed{cells}",
                water_core::readable_exact(*o.wind_speed.get_ref()),
                readable_apart(longest, 2.0 * cell_size),
            ),
        )
    })
}
