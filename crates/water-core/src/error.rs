//! Typed errors for everything in the CPU reference solver.

use thiserror::Error;

/// Everything that can go wrong when building or driving a water simulation.
///
/// Every variant carries the offending value and the limit it broke, so the message alone tells
/// a user what to change.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WaterError {
    /// A parameter was NaN or infinite.
    #[error("{name} must be a finite number, got {}", crate::readable_exact(*.value))]
    NotFinite {
        /// Name of the parameter, as in the scenario file.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A parameter that must be strictly positive was zero or negative.
    #[error("{name} must be greater than 0, got {}", crate::readable_exact(*.value))]
    NotPositive {
        /// Name of the parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A parameter lies outside its allowed closed or half-open range.
    // Not f64's Display (1e300 in 301 digits) nor its Debug (1.608e7 as 16080000.0).
    #[error("{name} = {} is outside the allowed range {range}", crate::readable_exact(*.value))]
    OutOfRange {
        /// Name of the parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, written as an interval, e.g. `(0, 1]`.
        range: &'static str,
    },
    /// The Courant number `a = (c*dt/h)^2` exceeds the von Neumann limit.
    #[error(
        "unstable: Courant number a = (c*dt/h)^2 = {} exceeds the limit {limit}; {}",
        crate::readable_apart(*courant, *limit),
        stable_step(*max_stable_dt)
    )]
    Unstable {
        /// The Courant number the parameters give.
        courant: f64,
        /// The stability limit of the stencil (0.5 for the five-point grid stencil).
        limit: f64,
        /// The largest time step (s) that would be stable, `h / (c*sqrt 2)` on the grid.
        max_stable_dt: f64,
    },
    /// A dispersive step at or past the period limit of the fastest wave the grid resolves.
    #[error(
        "unstable: dt = {} s is not below pi / omega_max = {} s, the limit of the fastest wave \
         these cells resolve (omega_max = {} rad/s); use a smaller dt or larger cells",
        crate::readable_exact(*dt),
        crate::readable_at_most(*max_stable_dt),
        crate::readable(*omega_max)
    )]
    DispersiveUnstable {
        /// The time step given, s.
        dt: f64,
        /// The largest stable time step, s: `pi / omega_max`.
        max_stable_dt: f64,
        /// Airy's omega at the diagonal Nyquist mode, rad/s.
        omega_max: f64,
    },
    /// A depth map the dispersive model cannot step within its accuracy at this step.
    #[error(
        "dt = {dt} s: over a depth map from {shallowest} m to {deepest} m the dispersive model \
         keeps Airy's omega within {tolerance_percent}% with {nodes} reference depths \
         ({error_percent:.2}% at this dt) {}",
        match largest_dt {
            Some(t) => format!("only up to dt = {t:.6} s: take dt at most that"),
            None => "at no dt: narrow the depth range".to_owned(),
        }
    )]
    DepthRangeTooWide {
        /// The shallowest wet face, m.
        shallowest: f64,
        /// The deepest wet face, m.
        deepest: f64,
        /// The reference depths tried (the most offered).
        nodes: usize,
        /// The largest omega error they leave, %.
        error_percent: f64,
        /// The error allowed, %.
        tolerance_percent: f64,
        /// The step asked for, s.
        dt: f64,
        /// The largest step at which the reference depths do, s (`None`: none does).
        largest_dt: Option<f64>,
    },
    /// A grid dimension is too small or too large.
    #[error("grid {axis} = {value} cells is outside the supported range {min}..={max}")]
    GridDimension {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The value given.
        value: usize,
        /// Smallest supported value.
        min: usize,
        /// Largest supported value.
        max: usize,
    },
    /// The allocator refused a buffer (out of memory, or an address-space limit).
    #[error(
        "{what} needs {bytes} bytes ({:.2} GiB), and the allocator refused them: \
         not enough memory for this grid",
        *bytes as f64 / f64::from(1u32 << 30)
    )]
    OutOfMemory {
        /// What the buffer is for.
        what: &'static str,
        /// Its size, bytes.
        bytes: u64,
    },
    /// The grid has more cells than the solver supports.
    #[error("grid of {width} x {height} = {cells} cells exceeds the limit of {max_cells} cells")]
    TooManyCells {
        /// Width in cells.
        width: usize,
        /// Height in cells.
        height: usize,
        /// `width * height` (saturating).
        cells: usize,
        /// The largest supported number of cells.
        max_cells: usize,
    },
    /// A per-cell buffer does not have one entry per grid cell.
    #[error("{what} has {actual} values but the {width} x {height} grid needs {expected}")]
    SizeMismatch {
        /// What the buffer is (e.g. `"land mask"`).
        what: &'static str,
        /// Grid width in cells.
        width: usize,
        /// Grid height in cells.
        height: usize,
        /// `width * height`.
        expected: usize,
        /// Number of values supplied.
        actual: usize,
    },
    /// A rectangle of cells (a patch of heights) is empty or reaches past the grid.
    #[error(
        "cell rectangle at ({x0}, {y0}), {width} x {height} cells, is empty or reaches past the \
         {grid_width} x {grid_height} grid"
    )]
    RectOutsideGrid {
        /// First column.
        x0: usize,
        /// First row.
        y0: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Grid width in cells.
        grid_width: usize,
        /// Grid height in cells.
        grid_height: usize,
    },
    /// A rectangle of land is empty or inverted.
    #[error("land rectangle [{x0}, {x1}) x [{y0}, {y1}) is empty or inverted")]
    EmptyRect {
        /// Left edge (inclusive), cells.
        x0: usize,
        /// Top edge (inclusive), cells.
        y0: usize,
        /// Right edge (exclusive), cells.
        x1: usize,
        /// Bottom edge (exclusive), cells.
        y1: usize,
    },
    /// A contact mask value was negative, not finite, or above
    /// [`crate::contact_masks::MAX_MASK_VALUE`].
    #[error(
        "{what} value {value} at cell ({x}, {y}) must be from 0 to {} (a speed factor, m/s)",
        crate::contact_masks::MAX_MASK_VALUE
    )]
    BadMaskValue {
        /// Which mask.
        what: &'static str,
        /// Cell column.
        x: usize,
        /// Cell row.
        y: usize,
        /// The value found.
        value: f32,
    },
    /// A grid mode a water model does not offer.
    #[error("the {model} model offers {offered} mode, not {mode}")]
    ModeNotOffered {
        /// The mode asked for.
        mode: &'static str,
        /// The model (e.g. `"dispersive"`).
        model: &'static str,
        /// The modes it offers.
        offered: &'static str,
    },
    /// A boundary a water model does not offer.
    #[error("the {model} model offers {offered} edges, not {boundary}")]
    BoundaryNotOffered {
        /// The boundary asked for.
        boundary: &'static str,
        /// The model (e.g. `"dispersive"`).
        model: &'static str,
        /// The boundaries it offers.
        offered: &'static str,
    },
    /// A contact source a grid does not take (a displacement needs heights in metres on one
    /// signed field: signed mode or the dispersive model).
    #[error("{mode} mode takes the {offered} contact source, not {source_name}")]
    ContactSourceNotOffered {
        /// The source asked for ([`crate::ContactSource::name`]).
        source_name: &'static str,
        /// The grid's mode.
        mode: &'static str,
        /// The sources it takes.
        offered: &'static str,
    },
    /// Something classic mode does not take (its heights are integer units, not metres).
    #[error("classic mode takes no {what}: its heights are integer units, not metres")]
    ClassicTakesNo {
        /// What was asked for (e.g. `"depth"`).
        what: &'static str,
    },
    /// Two values that must agree do not.
    #[error("{first} and {second} disagree: {detail}")]
    Conflict {
        /// The first key.
        first: &'static str,
        /// The second key (or what it is).
        second: &'static str,
        /// The two values.
        detail: String,
    },
    /// An ambient sea whose peak wave is shorter than 2 cells of the finest grid: most of its
    /// energy lies in waves the grid cannot hold (all of it, for a wind far too light).
    #[error(
        "the sea's peak wavelength, {} m, is shorter than 2 cells of {cell_size} m: its waves \
         are too short to hold; raise wind_speed (or, for jonswap and tma, fetch){}",
        crate::readable_apart(*peak_wavelength_m, 2.0 * *cell_size),
        smaller_cells(*max_cell_size)
    )]
    OceanPeakUnresolved {
        /// The spectrum's peak wavelength, m.
        peak_wavelength_m: f64,
        /// The finest grid's cell size, m.
        cell_size: f64,
        /// The largest cell size that holds the peak (half the peak wavelength), m.
        max_cell_size: f64,
    },
    /// A fetch-limited sea (JONSWAP, TMA) whose fetch is longer than the one that fully
    /// develops its wind's sea: the fetch-limited formulas grow the sea without end there.
    #[error(
        "fetch = {} m is past full development at wind_speed = {} m/s, where the sea grows \
         no further (g F / U^2 of 15777, where JONSWAP's peak falls to Pierson-Moskowitz's): \
         {}remove `fetch` and use spectrum = \"pierson-moskowitz\" for the fully developed sea",
        crate::readable_exact(*fetch),
        crate::readable_exact(*wind_speed),
        shorter_fetch(*max_fetch)
    )]
    FetchPastFullDevelopment {
        /// The fetch given, m.
        fetch: f64,
        /// The wind speed, m/s.
        wind_speed: f64,
        /// The fetch that fully develops that wind's sea, m.
        max_fetch: f64,
    },
    /// An ambient sea whose wavelengths span more than its tiles can hold.
    #[error(
        "an ambient sea from {longest_m} m waves (8 peak wavelengths) down to {shortest_m} m \
         (2 cells of {cell_size} m) needs more than {max_tiles} tiles; use cells of at least \
         {min_cell_size} m"
    )]
    OceanBandTooWide {
        /// The longest wavelength the sea must hold, m.
        longest_m: f64,
        /// The shortest, m.
        shortest_m: f64,
        /// The finest grid's cell size, m.
        cell_size: f64,
        /// The most tiles offered.
        max_tiles: usize,
        /// The smallest cell size the tiles can serve, m.
        min_cell_size: f64,
    },
    /// The classic (Hugo Elias) mode only supports the fixed boundary.
    #[error("classic mode supports only the fixed boundary, got {boundary}")]
    ClassicBoundary {
        /// The boundary requested.
        boundary: &'static str,
    },
}

impl WaterError {
    /// The parameter a value check refused ([`WaterError::NotFinite`],
    /// [`WaterError::NotPositive`], [`WaterError::OutOfRange`]), by its scenario name: what a
    /// caller maps back to where the value was written. `None` for every other error.
    ///
    /// ```
    /// let e = water_core::WaterError::NotPositive { name: "dt", value: 0.0 };
    /// assert_eq!(e.parameter(), Some("dt"));
    /// ```
    #[must_use]
    pub fn parameter(&self) -> Option<&'static str> {
        match self {
            Self::NotFinite { name, .. }
            | Self::NotPositive { name, .. }
            | Self::OutOfRange { name, .. } => Some(name),
            _ => None,
        }
    }
}

/// Short alias used throughout the crate.
pub type Result<T, E = WaterError> = std::result::Result<T, E>;

/// Checks that `value` is finite and strictly positive.
pub(crate) fn positive(name: &'static str, value: f64) -> Result<f64> {
    if !value.is_finite() {
        return Err(WaterError::NotFinite { name, value });
    }
    if value <= 0.0 {
        return Err(WaterError::NotPositive { name, value });
    }
    Ok(value)
}

/// Checks that `value` is finite.
pub(crate) fn finite(name: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(WaterError::NotFinite { name, value })
    }
}

/// Checks that `value` lies in the closed range `[range.0, range.1]`, which `text` writes out in
/// the [`WaterError::OutOfRange`] it answers otherwise. A NaN lies outside every range: callers
/// check [`finite`] (or [`positive`]) first, for the error that names it.
pub(crate) fn within(
    name: &'static str,
    value: f64,
    range: (f64, f64),
    text: &'static str,
) -> Result<f64> {
    if (range.0..=range.1).contains(&value) {
        Ok(value)
    } else {
        Err(WaterError::OutOfRange {
            name,
            value,
            range: text,
        })
    }
}

/// The largest stable step, as a reader can write it back, or why none can be written: one
/// shorter than the shortest `dt` allowed ([`crate::DT_RANGE`]) is no advice.
fn stable_step(max_stable_dt: f64) -> String {
    let (shortest, _) = crate::DT_RANGE;
    if max_stable_dt < shortest {
        format!(
            "no allowed dt is stable for this cell size and wave speed: the largest stable one, \
             {} s, is below the shortest allowed, {shortest:e} s; use larger cells or a slower \
             wave",
            crate::readable_at_most(max_stable_dt)
        )
    } else {
        format!(
            "the largest stable dt for this cell size and wave speed is {} s",
            crate::readable_at_most(max_stable_dt)
        )
    }
}

/// The advice of [`WaterError::FetchPastFullDevelopment`]: a fetch the wind develops, unless
/// the wind is so light that not a micrometre of fetch would be left.
fn shorter_fetch(max_fetch: f64) -> String {
    if max_fetch >= 1e-6 {
        format!(
            "give a fetch of at most {} m, or ",
            crate::readable_at_most(max_fetch)
        )
    } else {
        "raise wind_speed, or ".to_owned()
    }
}

/// The end of [`WaterError::OceanPeakUnresolved`]'s advice: cells of at most `max_cell_size`
/// (m), where a grid takes cells that small ([`crate::CELL_SIZE_RANGE`]); none otherwise (a
/// wind of 1e-300 m/s has a peak of 0 m, and cells of "at most 0 m" are no advice).
fn smaller_cells(max_cell_size: f64) -> String {
    if max_cell_size >= crate::CELL_SIZE_RANGE.0 {
        format!(
            ", or use cells of at most {} m",
            crate::readable_at_most(max_cell_size)
        )
    } else {
        format!(
            " (it would take cells under {:e} m, the least a grid takes)",
            crate::CELL_SIZE_RANGE.0
        )
    }
}
