//! Wind-sea frequency spectra `S(omega)` (m^2 s): how the sea's variance is spread over wave
//! frequencies. `../../docs/math.md` section 14 gives the formulas and their sources.

use crate::error::{positive, within, Result, WaterError};

/// Phillips' constant of the Pierson-Moskowitz spectrum.
pub const PIERSON_MOSKOWITZ_ALPHA: f64 = 8.1e-3;
/// The Pierson-Moskowitz shape constant `beta`.
pub const PIERSON_MOSKOWITZ_BETA: f64 = 0.74;
/// JONSWAP's default peak enhancement `gamma`.
pub const DEFAULT_PEAK_ENHANCEMENT: f64 = 3.3;
/// Wind speeds accepted, m/s: a calm breath to a strong hurricane.
pub const WIND_SPEED_RANGE: (f64, f64) = (0.0, 100.0);
/// Fetches accepted, m: a pond's width to an ocean basin.
pub const FETCH_RANGE: (f64, f64) = (0.0, 1e7);
/// Peak enhancements accepted (JONSWAP's `gamma`; 1 is Pierson-Moskowitz's shape).
pub const PEAK_ENHANCEMENT_RANGE: (f64, f64) = (1.0, 20.0);

/// A wind-sea spectrum: the variance density `S(omega)` over angular frequency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WaveSpectrum {
    /// A fully developed sea (Pierson & Moskowitz 1964):
    /// `S = alpha g^2 omega^-5 exp(-beta (g / (U omega))^4)`; `wind_speed` U in m/s **measured
    /// at 19.5 m** above the sea, as the formula is defined. `Hs = 0.2092 U^2 / g`.
    PiersonMoskowitz {
        /// U at 19.5 m, m/s.
        wind_speed: f64,
    },
    /// A fetch-limited sea (Hasselmann et al. 1973): Pierson-Moskowitz's tail with a peak
    /// enhanced by `gamma`; `wind_speed` U in m/s **measured at 10 m**, `fetch` F in m.
    Jonswap {
        /// U at 10 m, m/s.
        wind_speed: f64,
        /// The distance over which the wind has blown, m.
        fetch: f64,
        /// `gamma` (3.3 in the JONSWAP experiment).
        peak_enhancement: f64,
    },
    /// JONSWAP over finite depth (Bouws et al. 1985): times Kitaigorodskii's factor
    /// `Phi(omega sqrt(d / g))`.
    Tma {
        /// U at 10 m, m/s.
        wind_speed: f64,
        /// Fetch, m.
        fetch: f64,
        /// `gamma`.
        peak_enhancement: f64,
        /// Still-water depth, m.
        depth: f64,
    },
}

fn in_open_closed(
    name: &'static str,
    value: f64,
    range: (f64, f64),
    text: &'static str,
) -> Result<()> {
    positive(name, value)?;
    if value <= range.0 || value > range.1 {
        return Err(WaterError::OutOfRange {
            name,
            value,
            range: text,
        });
    }
    Ok(())
}

/// A [`WaveSpectrum`]'s parameters by what they shape, so each formula and check is written
/// once for the spectra that share it.
struct SpectrumParameters {
    /// Wind speed, m/s.
    wind_speed: f64,
    /// Fetch (m) and peak enhancement of a fetch-limited (JONSWAP-shaped) sea.
    fetch_limited: Option<(f64, f64)>,
    /// Water depth, m, of a finite-depth (TMA) sea.
    depth: Option<f64>,
}

impl WaveSpectrum {
    /// The spectrum's scenario name (`spectrum = "..."`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::PiersonMoskowitz { .. } => "pierson-moskowitz",
            Self::Jonswap { .. } => "jonswap",
            Self::Tma { .. } => "tma",
        }
    }

    /// The height above the sea (m) at which this spectrum's wind speed is defined.
    #[must_use]
    pub fn wind_height(&self) -> f64 {
        match self {
            Self::PiersonMoskowitz { .. } => 19.5,
            Self::Jonswap { .. } | Self::Tma { .. } => 10.0,
        }
    }

    /// Checks every parameter, naming the scenario key and the limit it broke.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`]:
    /// `wind_speed` in (0, 100] m/s, `fetch` in (0, 1e7] m, `peak_enhancement` in [1, 20],
    /// `depth` in [1e-6, 11000] m ([`crate::MIN_DEPTH`]).
    pub fn validate(&self) -> Result<()> {
        let parameters = self.parameters();
        in_open_closed(
            "wind_speed",
            parameters.wind_speed,
            WIND_SPEED_RANGE,
            "(0, 100] m/s",
        )?;
        if let Some((fetch, gamma)) = parameters.fetch_limited {
            in_open_closed("fetch", fetch, FETCH_RANGE, "(0, 1e7] m")?;
            crate::error::finite("peak_enhancement", gamma)?;
            within("peak_enhancement", gamma, PEAK_ENHANCEMENT_RANGE, "[1, 20]")?;
        }
        if let Some(depth) = parameters.depth {
            crate::check_depth(depth)?;
        }
        Ok(())
    }

    /// The fetch (m) by which a fetch-limited sea of this wind is fully developed: where
    /// JONSWAP's peak frequency `22 (g^2 / (U F))^(1/3)` falls to Pierson-Moskowitz's
    /// `(4 beta / 5)^(1/4) g / U`, at `g F / U^2 = (22 / (4 beta / 5)^(1/4))^3`, about 15,777.
    /// Past it the fetch-limited formulas no longer describe a sea (their Hs would go on
    /// growing without end: 22.7 m at 8 m/s over 1e7 m). `None` for Pierson-Moskowitz, which
    /// is the fully developed sea.
    #[must_use]
    pub fn fully_developed_fetch(&self, gravity: f64) -> Option<f64> {
        let parameters = self.parameters();
        parameters.fetch_limited?;
        let dimensionless = (22.0 / (0.8 * PIERSON_MOSKOWITZ_BETA).powf(0.25)).powi(3);
        Some(dimensionless * parameters.wind_speed * parameters.wind_speed / gravity)
    }

    /// Checks that a fetch-limited sea's fetch is within its wind's
    /// [`fully_developed_fetch`](Self::fully_developed_fetch) under gravity `g` (m/s^2).
    ///
    /// # Errors
    /// [`WaterError::FetchPastFullDevelopment`] naming the fetch, the wind and the longest
    /// fetch.
    pub fn check_development(&self, gravity: f64) -> Result<()> {
        let parameters = self.parameters();
        match (
            parameters.fetch_limited,
            self.fully_developed_fetch(gravity),
        ) {
            (Some((fetch, _)), Some(max_fetch)) if fetch > max_fetch => {
                Err(WaterError::FetchPastFullDevelopment {
                    fetch,
                    wind_speed: parameters.wind_speed,
                    max_fetch,
                })
            }
            _ => Ok(()),
        }
    }

    /// The peak angular frequency `omega_p`, rad/s, for gravity `g` (m/s^2).
    #[must_use]
    pub fn peak_omega(&self, gravity: f64) -> f64 {
        let parameters = self.parameters();
        match parameters.fetch_limited {
            // dS/domega = 0 at omega^4 = (4/5) beta (g/U)^4.
            None => (0.8 * PIERSON_MOSKOWITZ_BETA).powf(0.25) * gravity / parameters.wind_speed,
            Some((fetch, _)) => 22.0 * (gravity * gravity / (parameters.wind_speed * fetch)).cbrt(),
        }
    }

    /// `S(omega)`, m^2 s, at angular frequency `omega` (rad/s; 0 at and below 0).
    #[must_use]
    pub fn density(&self, omega: f64, gravity: f64) -> f64 {
        if omega <= 0.0 {
            return 0.0;
        }
        let parameters = self.parameters();
        let wind_speed = parameters.wind_speed;
        let deep = match parameters.fetch_limited {
            None => {
                let x = gravity / (wind_speed * omega);
                PIERSON_MOSKOWITZ_ALPHA
                    * (gravity * gravity)
                    * omega.powi(-5)
                    * (-PIERSON_MOSKOWITZ_BETA * x.powi(4)).exp()
            }
            Some((fetch, gamma)) => jonswap(omega, gravity, wind_speed, fetch, gamma),
        };
        match parameters.depth {
            Some(depth) => deep * kitaigorodskii(omega * (depth / gravity).sqrt()),
            None => deep,
        }
    }

    /// The parameters by what they shape: every spectrum's wind, JONSWAP's (and TMA's) fetch
    /// and peak enhancement, TMA's depth.
    fn parameters(&self) -> SpectrumParameters {
        match *self {
            Self::PiersonMoskowitz { wind_speed } => SpectrumParameters {
                wind_speed,
                fetch_limited: None,
                depth: None,
            },
            Self::Jonswap {
                wind_speed,
                fetch,
                peak_enhancement,
            } => SpectrumParameters {
                wind_speed,
                fetch_limited: Some((fetch, peak_enhancement)),
                depth: None,
            },
            Self::Tma {
                wind_speed,
                fetch,
                peak_enhancement,
                depth,
            } => SpectrumParameters {
                wind_speed,
                fetch_limited: Some((fetch, peak_enhancement)),
                depth: Some(depth),
            },
        }
    }

    /// The spectrum's zeroth moment `m0 = integral of S(omega) d omega` (m^2), by quadrature
    /// independent of any synthesis: Simpson's rule on a log-spaced frequency axis from
    /// `omega_p / 20` to `200 omega_p`, plus the `omega^-5` tail beyond in closed form.
    #[must_use]
    pub fn variance(&self, gravity: f64) -> f64 {
        let wp = self.peak_omega(gravity);
        let (lo, hi) = ((wp / 20.0).ln(), (wp * 200.0).ln());
        let n = 20_000;
        let step = (hi - lo) / f64::from(n);
        // In u = ln omega: integral of S(e^u) e^u du.
        let f = |u: f64| {
            let w = u.exp();
            self.density(w, gravity) * w
        };
        let mut sum = f(lo) + f(hi);
        for i in 1..n {
            let weight = if i % 2 == 1 { 4.0 } else { 2.0 };
            sum += weight * f(lo + step * f64::from(i));
        }
        let body = sum * step / 3.0;
        // Past 200 omega_p every spectrum here is S(w_hi) (w_hi / w)^5: integral S w_hi / 4.
        let w_hi = hi.exp();
        body + self.density(w_hi, gravity) * w_hi / 4.0
    }
}

/// JONSWAP: `alpha g^2 omega^-5 exp(-5/4 (omega_p/omega)^4) gamma^r`.
fn jonswap(omega: f64, gravity: f64, wind_speed: f64, fetch: f64, gamma: f64) -> f64 {
    let alpha = 0.076 * (wind_speed * wind_speed / (fetch * gravity)).powf(0.22);
    let wp = 22.0 * (gravity * gravity / (wind_speed * fetch)).cbrt();
    let sigma = if omega <= wp { 0.07 } else { 0.09 };
    let r = (-(omega - wp).powi(2) / (2.0 * sigma * sigma * wp * wp)).exp();
    alpha
        * gravity
        * gravity
        * omega.powi(-5)
        * (-1.25 * (wp / omega).powi(4)).exp()
        * gamma.powf(r)
}

/// Kitaigorodskii's depth factor `Phi(omega_h)`, `omega_h = omega sqrt(d / g)`.
#[must_use]
pub fn kitaigorodskii(omega_h: f64) -> f64 {
    if omega_h <= 1.0 {
        0.5 * omega_h * omega_h
    } else if omega_h <= 2.0 {
        1.0 - 0.5 * (2.0 - omega_h).powi(2)
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pierson_moskowitz_variance_is_its_closed_form() {
        // m0 = alpha g^2 / (4 beta) (U/g)^4, so Hs = 4 sqrt(m0) = 0.2092 U^2 / g.
        let g = 9.81;
        for u in [5.0, 12.0, 25.0] {
            let s = WaveSpectrum::PiersonMoskowitz { wind_speed: u };
            let exact =
                PIERSON_MOSKOWITZ_ALPHA * g * g / (4.0 * PIERSON_MOSKOWITZ_BETA) * (u / g).powi(4);
            let m0 = s.variance(g);
            assert!((m0 / exact - 1.0).abs() < 1e-6, "{m0} vs {exact}");
            let hs = 4.0 * m0.sqrt();
            assert!((hs / (0.2092 * u * u / g) - 1.0).abs() < 1e-3);
        }
    }

    #[test]
    fn the_peak_is_where_the_density_is_largest() {
        let g = 9.81;
        for s in [
            WaveSpectrum::PiersonMoskowitz { wind_speed: 10.0 },
            WaveSpectrum::Jonswap {
                wind_speed: 10.0,
                fetch: 1e5,
                peak_enhancement: 3.3,
            },
        ] {
            let wp = s.peak_omega(g);
            let at = s.density(wp, g);
            assert!(
                at > s.density(wp * 0.98, g) && at > s.density(wp * 1.02, g),
                "{s:?}"
            );
        }
    }

    /// At the fully developed fetch JONSWAP's peak is Pierson-Moskowitz's of the same wind, and
    /// its Hs from 0.9 to 1.35 times theirs (the peak enhancement lifts it); that fetch is
    /// accepted and one 0.1% longer is refused, naming the fetch, the wind and the longest
    /// fetch. At 8 m/s over 1e7 m the formulas would give Hs = 22.7 m against the fully
    /// developed 1.36 m.
    #[test]
    fn a_fetch_past_full_development_is_refused() {
        let g = 9.81;
        for u in [0.8, 8.0, 30.0] {
            let fully = WaveSpectrum::PiersonMoskowitz { wind_speed: u };
            assert_eq!(fully.fully_developed_fetch(g), None);
            let longest = WaveSpectrum::Jonswap {
                wind_speed: u,
                fetch: 1.0,
                peak_enhancement: 3.3,
            }
            .fully_developed_fetch(g)
            .expect("a fetch-limited sea");
            let at = |fetch: f64| WaveSpectrum::Jonswap {
                wind_speed: u,
                fetch,
                peak_enhancement: 3.3,
            };
            let developed = at(longest);
            assert!((developed.peak_omega(g) / fully.peak_omega(g) - 1.0).abs() < 1e-12);
            let hs_ratio = (developed.variance(g) / fully.variance(g)).sqrt();
            assert!((0.9..1.35).contains(&hs_ratio), "Hs ratio {hs_ratio}");
            developed.check_development(g).expect("the longest fetch");
            let e = at(longest * 1.001)
                .check_development(g)
                .expect_err("past full development");
            let named = matches!(
                e,
                WaterError::FetchPastFullDevelopment { max_fetch, .. } if max_fetch == longest
            );
            assert!(named, "{e}");
            let text = e.to_string();
            assert!(
                text.contains("fetch = ") && text.contains("pierson-moskowitz"),
                "{text}"
            );
        }
        let e = WaveSpectrum::Tma {
            wind_speed: 8.0,
            fetch: 1e7,
            peak_enhancement: 3.3,
            depth: 30.0,
        }
        .check_development(g)
        .expect_err("TMA past full development");
        assert!(e.to_string().contains("at most 102900 m"), "{e}");
    }

    #[test]
    fn kitaigorodskii_is_continuous_and_reaches_one() {
        assert!((kitaigorodskii(1.0) - 0.5).abs() < 1e-12);
        assert!((kitaigorodskii(2.0) - 1.0).abs() < 1e-12);
        assert!((kitaigorodskii(1.0 + 1e-9) - 0.5).abs() < 1e-8);
        assert_eq!(kitaigorodskii(5.0), 1.0);
    }

    #[test]
    fn bad_winds_and_fetches_are_named() {
        let e = WaveSpectrum::PiersonMoskowitz { wind_speed: -1.0 }
            .validate()
            .expect_err("negative");
        assert!(e.to_string().contains("wind_speed"), "{e}");
        let e = WaveSpectrum::Jonswap {
            wind_speed: 10.0,
            fetch: 0.0,
            peak_enhancement: 3.3,
        }
        .validate()
        .expect_err("zero fetch");
        assert!(e.to_string().contains("fetch"), "{e}");
        let e = WaveSpectrum::PiersonMoskowitz { wind_speed: 150.0 }
            .validate()
            .expect_err("too fast");
        assert!(e.to_string().contains("(0, 100] m/s"), "{e}");
    }
}
