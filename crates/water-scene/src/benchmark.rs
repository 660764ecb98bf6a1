//! Benchmark setups shared by the `water bench` command and the criterion benches, so both time
//! the same thing.
//!
//! * [`c_peer_grid`]: a grid initialised as the C peer's (`shared/peers/stencil_peer.c`):
//!   interior cell `i` holds `((i*7) % 97) * 0.001`, the previous level 0.9 times that,
//!   `a = 0.25`, `d = 0.999`.
//! * [`crate_field`]: a scene of `n x n` grid water with floating boxes spread over it, the
//!   setup of `water bench scene`.
//! * [`open_sea`]: dispersive water in cascades inside a wind sea with foam, following a point,
//!   with floating crates: the setup of `water bench ocean`.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
};
use water_core::{
    Boundary, ClassicGrid, Damping, GridMode, GridSize, GridWater, Parallelism, SignedGrid,
    SplitGrid, WaterError, WaveParams,
};
use water_gpu::{GpuContext, GridSpec};

use crate::{Backend, BodySpec, Scene, SceneError, SceneSettings, TowPath};

/// Why a benchmark could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum BenchSetupError {
    /// Bad size or parameters.
    #[error(transparent)]
    Water(#[from] WaterError),
    /// The thread pool could not start.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why.
        source: rayon::ThreadPoolBuildError,
    },
    /// The scene refused its setup.
    #[error(transparent)]
    Scene(#[from] SceneError),
}

/// A rayon pool of `threads` threads for a benchmark.
///
/// # Errors
/// [`BenchSetupError::Threads`] when the pool cannot start.
pub fn bench_pool(threads: usize) -> Result<rayon::ThreadPool, BenchSetupError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| BenchSetupError::Threads { threads, source })
}

/// How a benchmark on `threads` threads steps: on the calling thread for one (no pool
/// hand-off, as the peer's serial loop), over the pool otherwise.
#[must_use]
pub fn parallelism_for(threads: usize) -> Parallelism {
    if threads == 1 {
        Parallelism::Serial
    } else {
        Parallelism::Auto
    }
}

/// A [`c_peer_grid`] and the pool of `threads` threads it steps on, set up as
/// `water bench grid` times them.
///
/// # Errors
/// As [`c_peer_grid`] and [`bench_pool`].
pub fn c_peer_bench(
    n: usize,
    mode: GridMode,
    boundary: Boundary,
    threads: usize,
) -> Result<(rayon::ThreadPool, Box<dyn GridWater>), BenchSetupError> {
    let pool = bench_pool(threads)?;
    let mut water = c_peer_grid(n, mode, boundary)?;
    water.set_parallelism(parallelism_for(threads));
    Ok((pool, water))
}

/// The C peer's initial height of cell `i` of an `n x n` grid: `((i*7) % 97) * 0.001` inside,
/// 0 on the rim (the previous level is 0.9 times this).
#[must_use]
pub fn c_peer_height(n: usize, i: usize) -> f32 {
    let (x, y) = (i % n, i / n);
    if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
        0.0
    } else {
        ((i * 7) % 97) as f32 * 0.001
    }
}

/// An `n x n` grid of `mode` initialised like the C peer's grid (see the module docs), with
/// `boundary` (classic mode: fixed only).
///
/// # Errors
/// [`BenchSetupError::Water`] for a bad size or a classic grid with another boundary.
pub fn c_peer_grid(
    n: usize,
    mode: GridMode,
    boundary: Boundary,
) -> Result<Box<dyn GridWater>, BenchSetupError> {
    let size = GridSize::new(n, n)?;
    // h = 1, c = 1, dt = 0.5 gives a = 0.25, the peer's setting.
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::PerStep(0.999))?;
    let z = |i: usize| c_peer_height(n, i);
    let fill = |cur: &mut [f32], old: &mut [f32]| {
        for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
            *c = z(i);
            *o = z(i) * 0.9;
        }
    };
    Ok(match mode {
        GridMode::Signed => {
            let mut g = SignedGrid::new(size, params, boundary);
            let (cur, old) = g.field_mut().levels_mut();
            fill(cur, old);
            Box::new(g)
        }
        GridMode::Split => {
            // Both channels carry the field, as a run with crests and troughs would.
            let mut g = SplitGrid::new(size, params, boundary);
            let (p, n) = g.channels_mut();
            for channel in [p, n] {
                let (cur, old) = channel.levels_mut();
                fill(cur, old);
            }
            Box::new(g)
        }
        GridMode::Classic => {
            if boundary != Boundary::Fixed {
                return Err(WaterError::ClassicBoundary {
                    boundary: boundary.name(),
                }
                .into());
            }
            let mut g = ClassicGrid::new(size, 1.0, Some(5))?;
            let (cur, old) = g.levels_mut();
            for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
                *c = (z(i) * 10_000.0) as i16;
                *o = (z(i) * 9_000.0) as i16;
            }
            Box::new(g)
        }
    })
}

/// Cell size of [`crate_field`]'s water, metres: a 1 m crate spans ten cells.
pub const CRATE_FIELD_CELL_SIZE: f32 = 0.1;
/// Step of [`crate_field`]'s water, seconds (a 60 Hz game step).
pub const CRATE_FIELD_DT: f64 = 1.0 / 60.0;
/// Wave speed of [`crate_field`]'s water, m/s (`a = 0.28`).
pub const CRATE_FIELD_WAVE_SPEED: f64 = 3.2;

/// `water bench scene`'s setup: `n x n` cells of split-mode water (0.1 m cells, absorbing
/// edges) with `bodies` floating boxes of 0.8 x 0.5 x 0.4 m and 60 kg laid out on a square
/// lattice over the middle of the grid, every other one towed along +x at 0.5 m/s (they make
/// wakes) and the rest free, all at their draft so none splashes at the start. Their hulls
/// sample the water at its own resolution ([`Hull::matched_to_cells`]).
///
/// # Errors
/// A grid size the water refuses; no GPU context for a GPU backend; bodies that do not fit.
pub fn crate_field(
    n: usize,
    bodies: usize,
    backend: Backend,
    gpu: Option<&GpuContext>,
) -> Result<Scene, BenchSetupError> {
    let size = GridSize::new(n, n)?;
    let params = WaveParams::new(
        f64::from(CRATE_FIELD_CELL_SIZE),
        CRATE_FIELD_WAVE_SPEED,
        CRATE_FIELD_DT,
        Damping::PerSecond(0.9),
    )?;
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Split);
    let settings = SceneSettings {
        backend,
        ..SceneSettings::default()
    };
    let mut scene = Scene::new(spec, water_core::LandMask::empty(size), settings, gpu)?;
    let extent = n as f32 * CRATE_FIELD_CELL_SIZE;
    let per_row = (bodies as f64).sqrt().ceil().max(1.0) as usize;
    // The lattice covers the middle 80% of the water, so towed crates stay on it for a while.
    let spacing = 0.8 * extent / per_row as f32;
    let half = Vec3::new(0.4, 0.25, 0.2);
    let mass = 60.0;
    // Floating at rest: the draft is m / (rho A), the centre that far below half the height.
    let draft = mass / (FRESH_WATER_DENSITY * 4.0 * half.x * half.y);
    let mut specs = Vec::new();
    for k in 0..bodies {
        let (i, j) = (k % per_row, k / per_row);
        let at = Vec2::new(
            0.1 * extent + (i as f32 + 0.5) * spacing,
            0.1 * extent + (j as f32 + 0.5) * spacing,
        );
        let shape = Shape::cuboid(half).map_err(|source| SceneError::BodySetup {
            name: format!("crate-{k}"),
            source,
        })?;
        let setup = |source| SceneError::BodySetup {
            name: format!("crate-{k}"),
            source,
        };
        let pose = Pose::new(at.extend(half.z - draft), Quat::IDENTITY).map_err(setup)?;
        let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).map_err(setup)?;
        // Surfaces as fine as the water's cells and no finer: 368 triangles, not 3,072.
        let hulls = vec![
            Hull::matched_to_cells(shape, Pose::IDENTITY, CRATE_FIELD_CELL_SIZE).map_err(setup)?,
        ];
        let floating =
            FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
                .map_err(setup)?;
        let mut spec = BodySpec::new(format!("crate-{k}"), floating);
        if k % 2 == 0 {
            spec = spec.towed(TowPath::new(vec![at, at + Vec2::new(extent, 0.0)], 0.5)?);
        }
        specs.push(spec);
    }
    for added in scene.add_bodies(specs)? {
        added?;
    }
    Ok(scene)
}

/// Cell side of [`open_sea`]'s finest grid, m.
pub const OPEN_SEA_CELL_SIZE: f64 = 0.25;
/// Its step, s.
pub const OPEN_SEA_DT: f64 = 1.0 / 30.0;
/// The slowest [`open_sea`] focus that moves, m/s: its tow paths take no slower speed (a
/// slower `speed` other than 0 would be raised to it).
pub const OPEN_SEA_MIN_SPEED: f32 = 1e-3;

/// The open sea of `water bench ocean`: deep dispersive water of `n x n` cells of
/// [`OPEN_SEA_CELL_SIZE`] in `cascades` cascades, inside a JONSWAP wind sea (7 m/s over 15 km
/// of fetch, choppiness 0.5) with foam (half-life 4 s, breaking below a Jacobian of 0.3), the
/// grid following a point that travels along +x at `speed` m/s, and `bodies` floating crates
/// (0.8 x 0.5 x 0.4 m, 60 kg) in a row across the grid's middle, every other one towed along
/// with the focus; on `backend` (a GPU backend on `gpu`).
///
/// # Errors
/// What the scene refuses (a size past the limits, cascades past the cell-size range,
/// cascades on the fragment backend); [`SceneError::NoGpu`] for a GPU backend without `gpu`.
pub fn open_sea(
    n: usize,
    cascades: usize,
    bodies: usize,
    speed: f32,
    (backend, gpu): (Backend, Option<&GpuContext>),
) -> Result<Scene, BenchSetupError> {
    use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};
    use water_core::AiryDispersion;

    let size = GridSize::new(n, n)?;
    let params = WaveParams::new(OPEN_SEA_CELL_SIZE, 1.0, OPEN_SEA_DT, Damping::NONE)?;
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Signed)
        .with_dispersion(AiryDispersion::gravity_waves(9.81)?);
    let settings = SceneSettings {
        backend,
        ..SceneSettings::default()
    };
    let mut scene = Scene::new(spec, water_core::LandMask::empty(size), settings, gpu)?;
    let sea = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 7.0,
        fetch: 15_000.0,
        peak_enhancement: 3.3,
    })
    .with_direction(30.0)
    .with_choppiness(0.5)
    .with_seed(11);
    scene.set_ocean(Some(AmbientSea::new(&sea, OPEN_SEA_CELL_SIZE)?));
    scene.set_foam(Some(crate::FoamSettings {
        half_life: 4.0,
        wake: 0.5,
        jacobian_threshold: Some(0.3),
        shore_depth: None,
    }))?;
    scene.set_cascades(cascades)?;
    let extent = n as f32 * OPEN_SEA_CELL_SIZE as f32;
    let centre = Vec2::splat(extent / 2.0);
    let travel = |from: Vec2| -> Result<TowPath, BenchSetupError> {
        // Far enough for any run: a day of travel, or a point that stays.
        let to = from + Vec2::new((speed * 86_400.0).max(1.0), 0.0);
        Ok(TowPath::new(vec![from, to], speed.max(OPEN_SEA_MIN_SPEED))?)
    };
    if speed > 0.0 {
        scene.set_focus(Some(crate::SceneFocus::Path(travel(centre)?)))?;
    }
    let half = Vec3::new(0.4, 0.25, 0.2);
    let mass = 60.0;
    let draft = mass / (FRESH_WATER_DENSITY * 4.0 * half.x * half.y);
    let spacing = 0.6 * extent / bodies.max(1) as f32;
    let mut specs = Vec::new();
    for k in 0..bodies {
        let name = format!("crate-{k}");
        let setup = |source| SceneError::BodySetup {
            name: name.clone(),
            source,
        };
        let at = Vec2::new(centre.x, 0.2 * extent + (k as f32 + 0.5) * spacing);
        let shape = Shape::cuboid(half).map_err(setup)?;
        let pose = Pose::new(at.extend(half.z - draft), Quat::IDENTITY).map_err(setup)?;
        let body = RigidBody::from_shape(&shape, mass, BodyState::at_rest(pose)).map_err(setup)?;
        let hulls = vec![
            Hull::matched_to_cells(shape, Pose::IDENTITY, OPEN_SEA_CELL_SIZE as f32)
                .map_err(setup)?,
        ];
        let floating =
            FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
                .map_err(setup)?;
        let mut spec = BodySpec::new(name.clone(), floating);
        if k % 2 == 0 && speed > 0.0 {
            spec = spec.towed(travel(at)?);
        }
        specs.push(spec);
    }
    for added in scene.add_bodies(specs)? {
        added?;
    }
    Ok(scene)
}
