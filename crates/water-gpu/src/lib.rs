//! # water-gpu
//!
//! GPU backends for Dynamic Water's grid: the `water-core` steppers as compute shaders
//! ([`ComputeGrid`]) and as render-to-texture passes ([`FragmentGrid`]), built on the caller's
//! `wgpu::Device` and `wgpu::Queue` so the water lives inside the caller's renderer. Both agree
//! with the CPU reference: f32 modes within a stated tolerance, the classic integer ripple bit for
//! bit (`crates/water-testkit` checks every mode and boundary on every CI run).
//!
//! Sphere water (`water-sphere`) has the same two backends, [`SphereComputeWater`] and
//! [`SphereFragmentWater`], and [`GpuSphere`] to choose between them at run time.
//!
//! The WGSL sources live in the workspace's `shaders/` folder, one kernel per file, named like
//! the CPU function each mirrors; [`shaders::ALL`] lists them.
//!
//! [`GpuGrid::height_snapshot`] reads the heights back as a [`HeightSnapshot`], which floating
//! bodies sample like the CPU grid.
//!
//! [`ContactMaskRenderer`] draws the contact masks of floating bodies from their hull meshes
//! ([`HullMesh`]) and steps a grid with them, so a wake never leaves the GPU.
//!
//! [`ComputeGrid`] can store its cells as f16 instead of f32 ([`StorageFormat::F16`], two per
//! `u32` word, arithmetic in f32, no device feature needed), halving the bytes a step moves at a
//! measured cost in accuracy ([`round_to_f16`] and docs/math.md, section 11).
//!
//! The renderers that draw all this on the caller's device (grid water as a lit, displaced mesh
//! with floating bodies, the sea to the horizon, the classic 2-D look, sphere water) are the
//! `water-render` crate's; this one keeps the sea's level-of-detail mesh ([`RingMesh`]), which
//! engines drawing the sea themselves share.
//!
//! [`GpuContext::headless`] makes a device for programs without a renderer.
//!
//! ## Recording a frame into your encoder
//!
//! What grid water does on either backend is the trait [`GpuGridWater`] (bring it into scope).
//! Every operation a frame needs has an `encode_` twin that records into the caller's
//! `wgpu::CommandEncoder` and submits nothing; the plain methods are those twins wrapped in an
//! encoder of their own and one submission. Each method's doc says whether it **submits**,
//! **records only**, **queues a write** or **waits** (reads back). Record a frame in this order:
//!
//! 1. impulses ([`GpuGridWater::encode_add_impulse`]),
//! 2. contact masks: uploaded by [`GpuGridWater::encode_step_with_contacts`], or drawn on the
//!    GPU by [`ContactMaskRenderer::encode`],
//! 3. the steps: [`GpuGridWater::encode_step_with_contacts`] or
//!    [`ContactMaskRenderer::encode_step`] for the step with contact events, then
//!    [`GpuGridWater::encode_step_many`],
//! 4. the normal-and-height texture ([`GpuGridWater::encode_update_normal_height`], or
//!    [`GpuGridWater::encode_update_filterable_normal_height`] for a texture a linear sampler
//!    may filter: [`NORMAL_HEIGHT_FORMAT`] and [`FILTERABLE_NORMAL_HEIGHT_FORMAT`]),
//!
//! then submit once, with your own passes that read the texture. A grid's bookkeeping (which
//! buffer or texture holds which time level, the steps taken) advances as operations are
//! recorded, and per-operation data reaches the GPU through copies recorded in the encoder, not
//! through `queue.write_buffer`, so a frame recorded into one encoder does exactly what the same
//! calls submitting one by one do. Submit the encoder before calling a method that submits or
//! reads back the same grid.
//!
//! ```no_run
//! # // no_run: doc tests do not assume a GPU; water-testkit's tests run this for real.
//! use glam::Vec2;
//! use water_core::{Boundary, ContactMasks, Damping, GridMode, GridSize, Impulse, ImpulseShape, WaveParams};
//! use water_gpu::{GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec};
//! let gpu = GpuContext::headless()?;
//! let size = GridSize::new(128, 128)?;
//! let params = WaveParams::new(0.1, 2.0, 0.02, Damping::PerStep(0.999))?;
//! let spec = GridSpec::new(size, params, Boundary::Reflective, GridMode::Signed);
//! let mut water = GpuGrid::new(GpuBackend::Compute, &gpu.device, &gpu.queue, spec)?;
//! let mut contacts = ContactMasks::new(size, 0.05)?;
//! let mut hull = vec![0.0; size.cells()];
//! hull[64 * 128 + 40] = 1.0; // a body's speed factor in one cell
//! contacts.advance(&hull)?;
//!
//! let mut encoder = gpu.device.create_command_encoder(&Default::default());
//! let drop = Impulse::new(Vec2::new(64.0, 64.0), 6.0, 0.2, ImpulseShape::Cosine)?;
//! water.encode_add_impulse(&mut encoder, &drop)?;
//! water.encode_step_with_contacts(&mut encoder, &contacts)?;
//! water.encode_step_many(&mut encoder, 3);
//! let surface = water.encode_update_filterable_normal_height(&mut encoder)?.clone();
//! // ... record your render passes sampling `surface` with a linear sampler ...
//! gpu.queue.submit([encoder.finish()]);
//! # let _ = surface;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The wgpu this crate's API speaks (the version Bevy 0.19 uses), so callers never match
/// versions by hand.
pub use wgpu;

mod agreement;
mod compute_grid;
mod contact_mask_renderer;
mod context;
mod depth_faces;
pub mod device_calls;
mod device_traffic;
mod error;
mod fft_twiddles;
mod fragment_grid;
mod gpu_backend;
mod gpu_grid;
mod gpu_grid_water;
mod gpu_sphere;
mod gpu_sphere_water;
mod grid_core;
mod height_snapshot;
mod hull_mesh;
mod keeper;
mod normal_height;
mod ocean_synthesis;
mod patch_reader;
pub mod pipelines;
mod readback;
mod recording;
mod ring_mesh;
pub mod shaders;
mod spec;
mod sphere_compute;
mod sphere_core;
mod sphere_fragment;
mod storage;
mod storage_format;
mod time_levels;
mod uniforms;
pub mod wgsl_import;
mod window_shift;

pub use agreement::{Comparison, F32_TOLERANCE, LOOSEST_TOLERANCE};
pub use compute_grid::{CascadeOverlap, ComputeGrid, FUSED_STEPS, SPECTRAL_MAX_SIDE};
pub use contact_mask_renderer::{ContactHull, ContactMaskRenderer, MASK_FORMAT, MAX_CONTACT_HULLS};
pub use context::{DeviceErrors, GpuContext};
pub use device_traffic::DeviceTraffic;
pub use error::GpuError;
pub use fragment_grid::FragmentGrid;
pub use gpu_backend::GpuBackend;
pub use gpu_grid::GpuGrid;
pub use gpu_grid_water::GpuGridWater;
pub use gpu_sphere::GpuSphere;
pub use gpu_sphere_water::GpuSphereWater;
pub use height_snapshot::HeightSnapshot;
pub use hull_mesh::{box_meshes, HullMesh};
pub use normal_height::{FILTERABLE_NORMAL_HEIGHT_FORMAT, NORMAL_HEIGHT_FORMAT};
pub use ocean_synthesis::{OceanSynthesis, OCEAN_TEXTURE_FORMAT};
pub use patch_reader::{PatchReader, PendingPatches};
pub use readback::{read_texture, PendingReadback};
pub use ring_mesh::{
    level_centres, RingLayout, RingMesh, RingVertex, MAX_CAMERA_UNITS, MAX_HALF_QUADS, MAX_RINGS,
};
pub use spec::GridSpec;
pub use sphere_compute::SphereComputeWater;
pub use sphere_fragment::SphereFragmentWater;
pub use storage::{
    f16_to_f32, f32_to_f16, round_to_f16, StorageFormat, F16_MAX, F16_MIN_NORMAL,
    F16_SUBNORMAL_SPACING, UNIT_ROUNDOFF,
};
