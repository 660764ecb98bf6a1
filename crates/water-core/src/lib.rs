//! # water-core
//!
//! The CPU reference solver of Dynamic Water: the five-point wave stencil on a grid, with the
//! formulas every GPU backend and test agrees on.
//!
//! * [`WaveParams`] — cell size `h` (m), wave speed `c` (m/s), step `dt` (s) and damping,
//!   validated against the stability limit `a = (c*dt/h)^2 <= 1/2`.
//! * Three steppers behind one trait, [`GridWater`]: [`SignedGrid`] (one f32 height),
//!   [`SplitGrid`] (the demo's positive and negative channels) and [`ClassicGrid`] (Hugo
//!   Elias's i16 ripple, bit for bit).
//! * [`Boundary`]: fixed, reflective, periodic and absorbing edges; [`LandMask`] for cells
//!   without water; [`ContactMasks`] for bow and stern waves; [`Impulse`] for clicks and drops.
//! * [`HeightView`] samples heights, gradients and normals at world positions;
//!   [`diagnostics`] reports volume and the conserved discrete energy;
//!   [`FixedStepClock`] turns frame times into fixed steps; [`HeightSource`] is what floating
//!   bodies ask of any water.
//!
//! Large grids step their rows in parallel with rayon; inner loops are vectorised (AVX2 where
//! the CPU has it, chosen at run time) and run with flush-to-zero, see [`kernels::float_mode`].
//! Results do not depend on the number of threads: serial and parallel steps agree bit for bit.
//!
//! ```
//! use glam::Vec2;
//! use water_core::{Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, SignedGrid, WaveParams};
//!
//! let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerSecond(0.5))?;
//! let mut water = SignedGrid::new(GridSize::new(128, 128)?, params, Boundary::Absorbing);
//! water.add_impulse(&Impulse::new(Vec2::new(64.0, 64.0), 5.0, 0.2, ImpulseShape::Drop)?);
//! for _ in 0..100 {
//!     water.step();
//! }
//! let normal = water.view().normal(Vec2::new(6.4, 6.4)).expect("inside the grid");
//! assert!(normal.z > 0.0);
//! # Ok::<(), water_core::WaterError>(())
//! ```

/// The glam this crate's API speaks (the version Bevy 0.19 uses), so callers never match
/// versions by hand.
pub use glam;

mod airy;
mod allocation_probe;
mod boundary;
mod buffer;
mod cell_rect;
mod classic_grid;
mod clock;
mod contact_masks;
mod depth;
pub mod diagnostics;
mod dispersive_grid;
mod error;
mod f32_normal;
mod field;
mod foam;
mod following_window;
mod grid_setup;
mod grid_spec;
mod grid_water;
mod height_patches;
mod height_source;
mod impulse;
pub mod kernels;
mod land;
mod mask_pair;
mod named;
pub mod ocean;
mod params;
mod placed_water;
mod readable;
mod sample;
mod signed_grid;
mod size;
mod split_grid;
mod stability;
mod window;

pub use airy::{AiryDispersion, WATER_DENSITY, WATER_SURFACE_TENSION};
pub use allocation_probe::probe_allocation;
pub use boundary::{Boundary, UnknownBoundary};
pub use buffer::{AlignedBuffer, BUFFER_ALIGN};
pub use cell_rect::CellRect;
pub use classic_grid::{ClassicGrid, DEFAULT_CLASSIC_SHIFT, MAX_CLASSIC_SHIFT};
pub use clock::{FixedStepClock, FrameSteps, DEFAULT_MAX_STEPS_PER_FRAME};
pub use contact_masks::{
    apply_displacement, apply_signed_events, displacement_at, first_bad_mask_value, ContactMasks,
    ContactSource, MAX_CONTACT_AMPLITUDE, MAX_MASK_VALUE,
};
pub use depth::{
    check_depth, check_gravity, Depth, GRAVITY_RANGE, MAX_DEPTH, MIN_DEPTH, STANDARD_GRAVITY,
};
pub use dispersive_grid::{
    check_dispersive_dt, sponge_factors, sponge_width, DispersiveGrid, SPONGE_CELLS,
};
pub use error::{Result, WaterError};
pub use f32_normal::below_f32_normal;
pub use field::WaveField;
pub use foam::{FoamField, SURF_BREAKING_RATIO};
pub use following_window::{FollowingWindow, MAX_WINDOW_ORIGIN_CELLS};
pub use grid_spec::GridSpec;
pub use grid_water::{GridMode, GridWater};
pub use height_patches::HeightPatches;
pub use height_source::{FlatWater, HeightSource, SurfaceLevel, SurfaceSample};
pub use impulse::{
    check_impulse_amplitude, Impulse, ImpulseShape, UnknownShape, MAX_IMPULSE_AMPLITUDE,
    MAX_IMPULSE_RADIUS,
};
pub use kernels::temporal_blocking::TemporalBlocking;
pub use kernels::Parallelism;
pub use land::LandMask;
pub use mask_pair::MaskPair;
pub use params::{
    courant, max_stable_dt, Damping, StencilCoefficients, WaveParams, CELL_SIZE_RANGE, DT_RANGE,
    GRID_COURANT_LIMIT, WAVE_SPEED_RANGE,
};
pub use placed_water::PlacedWater;
pub use readable::{
    readable, readable_apart, readable_at_most, readable_exact, readable_exact_f32,
    readable_exact_list,
};
pub use sample::HeightView;
pub use signed_grid::SignedGrid;
pub use size::{GridSize, MAX_GRID_CELLS, MAX_GRID_DIM, MIN_GRID_DIM};
pub use split_grid::SplitGrid;
pub use stability::{substeps_for, StabilityReport};
pub use window::{clear_rim_moved_inside, rim_moved_inside, shift_cells};
