//! [`OceanSpec`]: everything that defines an ambient sea (a scenario's `[ocean]` table).

use crate::error::{finite, within, Result, WaterError};
use crate::ocean::spectrum::WaveSpectrum;
use crate::ocean::spreading::{DirectionalSpreading, DEFAULT_SPREADING};

/// Builder methods that each set one field and return the spec: `$name($value: $ty) =>
/// $field` defines `pub fn $name(self, $value: $ty) -> Self` setting `$field` to `$value`.
macro_rules! field_setters {
    ($($(#[$doc:meta])* $name:ident($value:ident: $ty:ty) => $field:ident;)*) => {
        $(
            $(#[$doc])*
            #[must_use]
            pub fn $name(mut self, $value: $ty) -> Self {
                self.$field = $value;
                self
            }
        )*
    };
}

/// The choppiness accepted: 0 (heights only) to 2 (crests sharpened to the point of folding).
pub const CHOPPINESS_RANGE: (f64, f64) = (0.0, 2.0);

/// The ambient sea: a spectrum, its directions, a seed and the horizontal displacement.
///
/// ```
/// use water_core::ocean::{OceanSpec, WaveSpectrum};
/// let spec = OceanSpec::new(WaveSpectrum::PiersonMoskowitz { wind_speed: 8.0 })
///     .with_direction(30.0)
///     .with_choppiness(0.8)
///     .with_seed(42);
/// spec.validate()?;
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OceanSpec {
    /// The frequency spectrum.
    pub spectrum: WaveSpectrum,
    /// Where the waves travel to, degrees: 0 = +x, 90 = +y.
    pub direction_degrees: f64,
    /// The spreading exponent `s` of `cos^(2s)((theta - theta0) / 2)`, in [1, 1e4]; 10 by
    /// default (a wind sea).
    pub spreading: f64,
    /// Horizontal displacement `lambda`, in [0, 2]; 0 by default (heights only).
    pub choppiness: f64,
    /// The seed of the sea's random amplitudes: one seed, one sea, on every machine.
    pub seed: u64,
    /// Gravity, m/s^2 (the grid's `gravity`, 9.81 by default).
    pub gravity: f64,
    /// Still-water depth for the dispersion relation, m; `None`: deep water. A TMA spectrum's
    /// own depth is used when this is `None`, and must agree with it otherwise.
    pub depth: Option<f64>,
}

impl OceanSpec {
    /// A sea with `spectrum` and the defaults: toward +x, spreading 10, no choppiness, seed 0,
    /// g = 9.81 m/s^2, deep water (or the TMA spectrum's depth).
    #[must_use]
    pub fn new(spectrum: WaveSpectrum) -> Self {
        Self {
            spectrum,
            direction_degrees: 0.0,
            spreading: DEFAULT_SPREADING,
            choppiness: 0.0,
            seed: 0,
            gravity: crate::depth::STANDARD_GRAVITY,
            depth: None,
        }
    }

    field_setters! {
        /// With the waves travelling toward `degrees` (0 = +x, 90 = +y).
        with_direction(degrees: f64) => direction_degrees;
        /// With spreading exponent `s`.
        with_spreading(s: f64) => spreading;
        /// With choppiness `lambda`.
        with_choppiness(lambda: f64) => choppiness;
        /// With `seed`.
        with_seed(seed: u64) => seed;
        /// With gravity `g`, m/s^2.
        with_gravity(g: f64) => gravity;
    }

    /// Over still water `depth` m deep.
    #[must_use]
    pub fn with_depth(mut self, depth: f64) -> Self {
        self.depth = Some(depth);
        self
    }

    /// The depth the dispersion relation uses: [`OceanSpec::depth`], else the TMA spectrum's.
    #[must_use]
    pub fn dispersion_depth(&self) -> Option<f64> {
        self.depth.or(match self.spectrum {
            WaveSpectrum::Tma { depth, .. } => Some(depth),
            _ => None,
        })
    }

    /// The directional spreading.
    ///
    /// # Errors
    /// As [`DirectionalSpreading::new`].
    pub fn directional_spreading(&self) -> Result<DirectionalSpreading> {
        DirectionalSpreading::new(self.direction_degrees, self.spreading)
    }

    /// Checks every value, naming its key and the limit.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`]
    /// naming the key (`wind_speed`, `fetch`, `peak_enhancement`, `depth`, `direction`,
    /// `spreading`, `choppiness`, `gravity`); [`WaterError::FetchPastFullDevelopment`] for a
    /// fetch past the one that fully develops the wind's sea; [`WaterError::Conflict`] where
    /// `depth` and a TMA spectrum's depth disagree.
    pub fn validate(&self) -> Result<()> {
        self.spectrum.validate()?;
        crate::depth::check_gravity(self.gravity)?;
        self.spectrum.check_development(self.gravity)?;
        self.directional_spreading()?;
        finite("choppiness", self.choppiness)?;
        within("choppiness", self.choppiness, CHOPPINESS_RANGE, "[0, 2]")?;
        if let Some(d) = self.depth {
            crate::airy::AiryDispersion::new(self.gravity, 0.0, crate::WATER_DENSITY, Some(d))?;
            if let WaveSpectrum::Tma { depth, .. } = self.spectrum {
                #[allow(
                    clippy::float_cmp,
                    reason = "the same depth written twice must agree exactly"
                )]
                if depth != d {
                    return Err(WaterError::Conflict {
                        first: "depth",
                        second: "the TMA spectrum's depth",
                        detail: format!("{d} m against {depth} m"),
                    });
                }
            }
        }
        Ok(())
    }
}
