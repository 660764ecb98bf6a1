//! [`Water`]: the component that makes an entity a simulated water surface, and what it
//! simulates (grid size, cell size, wave speed, damping, boundary, land, backend).

use bevy::prelude::*;
use water_scene::water_core::ocean::OceanSpec;
use water_scene::water_core::{
    max_stable_dt, Boundary, ContactSource, Damping, GridMode, GridSize, GridSpec, LandMask,
    WaterError, WaveParams,
};
use water_scene::{Backend, BodyWater, FoamSettings, DEFAULT_CONTACT_AMPLITUDE};

/// Fraction of the largest stable step ([`max_stable_dt`]) the water steps at when
/// [`Water::dt`] is left to the plugin: `a = 0.5 * 0.8^2 = 0.32`, clear of the limit so that
/// rounding never refuses it, and still few steps per fixed tick.
pub const STABLE_STEP_FRACTION: f64 = 0.8;

/// A rectangle of land on the water, in cells: `[x0, x1) x [row0, row1)`, where cell `(x, row)`
/// is centred `((x + 0.5) h, 0, -(row + 0.5) h)` from the water's north-west corner (see
/// [`Water`]). Parts outside the grid are clipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LandRect {
    /// First column of land.
    pub x0: usize,
    /// First row of land.
    pub row0: usize,
    /// One past the last column.
    pub x1: usize,
    /// One past the last row.
    pub row1: usize,
}

/// A simulated, rendered water surface.
///
/// The grid lies in the entity's horizontal (x, z) plane, centred on its [`Transform`]'s
/// translation, still water at the translation's height: it covers `W h` metres along x and
/// `H h` along z (`W` x `H` cells of `h` metres). Grid rows run toward `-z` from the north-west
/// corner at `translation + (-W h / 2, 0, H h / 2)`. The entity's rotation and scale are not
/// used by the simulation (water is level) and should stay the identity.
///
/// The simulation is built from these settings once, the frame after the component is added;
/// to change them, insert a new `Water` on a new entity (or remove [`crate::WaterSimulation`]
/// and the surface to rebuild it).
///
/// ```
/// use water_bevy::Water;
/// let pond = Water::new(128, 96).with_cell_size(0.1).with_wave_speed(1.5);
/// assert_eq!(pond.extent().x, 12.8); // metres along x
/// ```
#[derive(Component, Debug, Clone, PartialEq)]
#[require(Transform, Visibility)]
pub struct Water {
    /// Cells along x.
    pub width: usize,
    /// Cells along z (grid rows).
    pub height: usize,
    /// Cell size `h`, metres. Default 0.1 m: a crate of half a metre spans five cells, enough
    /// for its wake to have a shape.
    pub cell_size: f32,
    /// Wave speed `c`, m/s. Default 1.5 m/s: shallow water about 23 cm deep (`c = sqrt(g d)`),
    /// a pond's ripples that cross a 25 m grid in some 17 s.
    pub wave_speed: f32,
    /// Fraction of a wave's amplitude left after one second, in (0, 1]. Default 0.7: a click's
    /// rings fade within a few seconds, as in a pond.
    pub damping_per_second: f32,
    /// The step, seconds; `None` (the default) picks [`STABLE_STEP_FRACTION`] of the largest
    /// stable step.
    pub dt: Option<f32>,
    /// What the edges do. Default [`Boundary::Absorbing`]: waves leave an open pond.
    pub boundary: Boundary,
    /// Land, in cells: no water there, waves reflect off it.
    pub land: Vec<LandRect>,
    /// Where the water steps. Default [`Backend::Cpu`]: heights are on the host every step, for
    /// gameplay in the same frame. [`Backend::Gpu`] steps on Bevy's render device: the surface
    /// is drawn from a GPU-side copy, and gameplay heights ([`crate::WaterQuery`]) arrive by an
    /// asynchronous readback a frame late.
    pub backend: Backend,
    /// How floating bodies make waves. Default [`ContactSource::Displacement`]: each body
    /// presses the water with its weight, a wake that does not grow as the step shrinks (the
    /// step follows `cell_size`; on this wave model a towed boat's wake at a quarter of the
    /// step is within 25% of its wake at the step, tested, where the events' grows 7x seen);
    /// [`ContactSource::Events`] are the classic bow and stern waves ([`Water::with_contacts`]).
    pub contact_source: ContactSource,
    /// The contact source's amplitude: for the displacement a scale of each body's weight head,
    /// for the events m of wave per m/s of body speed. `None` (the default): the source's own
    /// default, 1 for the displacement and [`DEFAULT_CONTACT_AMPLITUDE`] for the events.
    pub contact_amplitude: Option<f32>,
    /// Which step's water floating bodies read ([`BodyWater`]). Default
    /// [`BodyWater::Current`], the CPU reference's order. On [`Backend::Gpu`] the bodies read
    /// back only their patches of water; with [`BodyWater::OneStepLate`] a frame of two fixed
    /// steps waits for the GPU never, where the default waits for the first step's patches.
    pub body_water: BodyWater,
    /// The ambient sea around the grid ([`Water::with_ocean`]); `None` (the default): the grid
    /// is all the water there is.
    pub ocean: Option<OceanSpec>,
    /// Foam on the grid ([`Water::with_foam`]), drawn white; `None` (the default): none.
    pub foam: Option<FoamSettings>,
}

impl Default for Water {
    fn default() -> Self {
        Self::new(128, 128)
    }
}

impl Water {
    /// A `width` x `height`-cell surface with the default settings (see the fields).
    #[must_use]
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            cell_size: 0.1,
            wave_speed: 1.5,
            damping_per_second: 0.7,
            dt: None,
            boundary: Boundary::Absorbing,
            land: Vec::new(),
            backend: Backend::Cpu,
            contact_source: ContactSource::Displacement,
            contact_amplitude: None,
            body_water: BodyWater::Current,
            ocean: None,
            foam: None,
        }
    }

    /// The same surface with floating bodies making waves by `source` at `amplitude` (see
    /// [`Water::contact_source`]).
    ///
    /// ```
    /// use water_bevy::{ContactSource, Water};
    /// // The classic bow and stern waves, 1 cm of wave per m/s of hull speed.
    /// let pond = Water::new(64, 64).with_contacts(ContactSource::Events, 0.01);
    /// assert_eq!(pond.contact_source, ContactSource::Events);
    /// ```
    #[must_use]
    pub fn with_contacts(mut self, source: ContactSource, amplitude: f32) -> Self {
        self.contact_source = source;
        self.contact_amplitude = Some(amplitude);
        self
    }

    /// The amplitude its contact source steps with: [`Water::contact_amplitude`], or the
    /// source's own default.
    ///
    /// ```
    /// use water_bevy::{ContactSource, Water, DEFAULT_CONTACT_AMPLITUDE};
    /// assert_eq!(Water::new(8, 8).effective_contact_amplitude(), 1.0);
    /// let events = Water { contact_source: ContactSource::Events, ..Water::new(8, 8) };
    /// assert_eq!(events.effective_contact_amplitude(), DEFAULT_CONTACT_AMPLITUDE);
    /// ```
    #[must_use]
    pub fn effective_contact_amplitude(&self) -> f32 {
        self.contact_amplitude.unwrap_or(match self.contact_source {
            ContactSource::Events => DEFAULT_CONTACT_AMPLITUDE,
            ContactSource::Displacement => 1.0,
        })
    }

    /// The same surface with cells of `metres`.
    #[must_use]
    pub fn with_cell_size(mut self, metres: f32) -> Self {
        self.cell_size = metres;
        self
    }

    /// The same surface with waves at `metres_per_second`.
    #[must_use]
    pub fn with_wave_speed(mut self, metres_per_second: f32) -> Self {
        self.wave_speed = metres_per_second;
        self
    }

    /// The same surface keeping `fraction` of a wave's amplitude per second.
    #[must_use]
    pub fn with_damping_per_second(mut self, fraction: f32) -> Self {
        self.damping_per_second = fraction;
        self
    }

    /// The same surface stepping every `seconds`.
    #[must_use]
    pub fn with_dt(mut self, seconds: f32) -> Self {
        self.dt = Some(seconds);
        self
    }

    /// The same surface with `boundary` at its edges.
    #[must_use]
    pub fn with_boundary(mut self, boundary: Boundary) -> Self {
        self.boundary = boundary;
        self
    }

    /// The same surface with land over `rect`.
    #[must_use]
    pub fn with_land(mut self, rect: LandRect) -> Self {
        self.land.push(rect);
        self
    }

    /// The same surface stepped on `backend`.
    #[must_use]
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// The same surface with floating bodies reading `body_water`.
    #[must_use]
    pub fn with_body_water(mut self, body_water: BodyWater) -> Self {
        self.body_water = body_water;
        self
    }

    /// The same surface inside an ambient sea of `spec` without end: a sea to the horizon
    /// around the camera (drawn by [`crate::OceanSurfaceMaterial`]), the grid's water added to
    /// it where the grid lies. Floating bodies and [`crate::WaterQuery`] see the sum, on the
    /// CPU and GPU backends alike; off the grid they see the sea alone. The spec's directions
    /// are the water's: 0 degrees toward `+x`, 90 toward `-z` (y up).
    ///
    /// ```
    /// use water_bevy::ocean::{OceanSpec, WaveSpectrum};
    /// use water_bevy::Water;
    /// let swell = OceanSpec::new(WaveSpectrum::Jonswap {
    ///     wind_speed: 8.0,     // m/s
    ///     fetch: 20_000.0,     // m
    ///     peak_enhancement: 3.3,
    /// })
    /// .with_direction(30.0)
    /// .with_seed(7);
    /// let bay = Water::new(256, 256).with_ocean(swell);
    /// assert!(bay.ocean.is_some());
    /// ```
    #[must_use]
    pub fn with_ocean(mut self, spec: OceanSpec) -> Self {
        self.ocean = Some(spec);
        self
    }

    /// The same surface with foam ([`water_scene::Scene::set_foam`]): bodies' bow and stern
    /// events and, inside an ambient sea, its breaking crests turn the water white, fading by
    /// the half-life; the surface draws it, and the sea to the horizon draws its own breaking
    /// crests where its Jacobian falls below the same threshold. A shore depth is refused (the
    /// plugin's water has no depth map). [`crate::WaterSimulation`] reports bad settings when
    /// it builds the water.
    ///
    /// ```
    /// use water_bevy::{FoamSettings, Water};
    /// let wake = FoamSettings { half_life: 3.0, wake: 0.8, jacobian_threshold: None, shore_depth: None };
    /// let pond = Water::new(64, 64).with_foam(wake);
    /// assert_eq!(pond.foam.map(|f| f.half_life), Some(3.0));
    /// ```
    #[must_use]
    pub fn with_foam(mut self, settings: FoamSettings) -> Self {
        self.foam = Some(settings);
        self
    }

    /// Width and depth of the surface, metres: `(W h, H h)`.
    #[must_use]
    pub fn extent(&self) -> Vec2 {
        Vec2::new(
            self.width as f32 * self.cell_size,
            self.height as f32 * self.cell_size,
        )
    }

    /// The grid this surface simulates (signed heights, metres).
    ///
    /// # Errors
    /// [`WaterError`] naming the size, cell size, wave speed, damping or step that is out of
    /// range or unstable.
    pub fn grid_spec(&self) -> Result<GridSpec, WaterError> {
        let size = GridSize::new(self.width, self.height)?;
        let h = f64::from(self.cell_size);
        let c = f64::from(self.wave_speed);
        let dt = match self.dt {
            Some(dt) => f64::from(dt),
            None if h.is_finite() && c.is_finite() && h > 0.0 && c > 0.0 => {
                STABLE_STEP_FRACTION * max_stable_dt(h, c)
            }
            // Let WaveParams name the bad value.
            None => 1.0,
        };
        let damping = Damping::PerSecond(f64::from(self.damping_per_second));
        let params = WaveParams::new(h, c, dt, damping)?;
        Ok(GridSpec::new(size, params, self.boundary, GridMode::Signed))
    }

    /// The land of this surface as a mask.
    ///
    /// # Errors
    /// [`WaterError::EmptyRect`] for a rectangle with no cells.
    pub fn land_mask(&self, size: GridSize) -> Result<LandMask, WaterError> {
        let mut mask = LandMask::empty(size);
        for r in &self.land {
            mask.add_rect(r.x0, r.row0, r.x1, r.row1)?;
        }
        Ok(mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_step_is_stable_with_room() {
        let spec = Water::new(64, 32).grid_spec().expect("default water");
        let a = spec.params.courant();
        assert!(
            (a - 0.5 * STABLE_STEP_FRACTION.powi(2)).abs() < 1e-9,
            "a = {a}"
        );
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let err = Water::new(64, 32)
            .with_cell_size(-1.0)
            .grid_spec()
            .unwrap_err();
        assert!(err.to_string().contains("cell_size"), "{err}");
        let err = Water::new(64, 32).with_dt(1.0).grid_spec().unwrap_err();
        assert!(err.to_string().contains("0.5"), "{err}");
        assert!(Water::new(1, 32).grid_spec().is_err());
    }
}
