//! # water-gpu
//!
//! GPU backends for Dynamic Water's grid: the `water-core` steppers as compute shaders
//! ([`ComputeGrid`]) and as render-to-texture passes ([`FragmentGrid`]), built on the caller's
//! `wgpu::Device` and `wgpu::Queue` so the water lives inside the caller's renderer. Both agree
//! with the CPU reference: f32 modes within a stated tolerance, the classic integer ripple bit for
//! bit (`crates/water-testkit` checks every mode and boundary on every CI run).
//!
//! Sphere water (`water-sphere`) has the same two backends, [`SphereComputeWater`] and
//! [`SphereFragmentWater`], and [`GpuSphereWater`] to choose between them at run time.
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
//! measured cost in accuracy ([`storage`] and docs/math.md, section 11).
//!
//! [`render`] draws the water on the caller's device: grid water as a lit, displaced mesh with
//! floating bodies, the classic 2-D look, and sphere water.
//!
//! [`GpuContext::headless`] makes a device for programs without a renderer.

pub mod agreement;
pub mod compute_grid;
pub mod contact_mask;
pub mod context;
pub mod error;
pub mod fragment_grid;
pub mod gpu_grid;
pub mod gpu_sphere;
pub mod height_snapshot;
pub mod hull_mesh;
mod pipelines;
pub mod readback;
pub mod render;
pub mod shaders;
pub mod spec;
pub mod sphere_compute;
pub mod sphere_fragment;
pub mod storage;
pub mod surface;
pub mod uniforms;

pub use compute_grid::ComputeGrid;
pub use contact_mask::{ContactHull, ContactMaskRenderer};
pub use context::GpuContext;
pub use error::GpuError;
pub use fragment_grid::FragmentGrid;
pub use gpu_grid::{GpuBackend, GpuGrid};
pub use gpu_sphere::GpuSphereWater;
pub use height_snapshot::HeightSnapshot;
pub use hull_mesh::HullMesh;
pub use readback::PendingReadback;
pub use spec::GridSpec;
pub use sphere_compute::SphereComputeWater;
pub use sphere_fragment::SphereFragmentWater;
pub use storage::StorageFormat;
