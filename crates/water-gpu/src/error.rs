//! Typed errors of the GPU backends.

use thiserror::Error;
use water_core::{GridMode, GridSize};

use crate::storage_format::StorageFormat;

use crate::gpu_backend::GpuBackend;

/// Everything that can go wrong on the GPU side.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuError {
    /// No adapter matched the request (no GPU and no software Vulkan/GL driver such as Mesa's
    /// lavapipe or llvmpipe).
    #[error("no GPU adapter found ({0}); on Debian install mesa-vulkan-drivers for lavapipe")]
    NoAdapter(String),
    /// The adapter refused the device request.
    #[error("the GPU adapter refused to create a device: {0}")]
    RequestDevice(String),
    /// The grid needs more than the device allows.
    #[error("the grid needs {what} = {needed}, but this device allows at most {limit}")]
    TooLarge {
        /// Which limit (e.g. `"storage buffer binding size (bytes)"`).
        what: &'static str,
        /// What the grid needs.
        needed: u64,
        /// The device's limit.
        limit: u64,
    },
    /// The simulation parameters are invalid (the CPU reference's own check).
    #[error(transparent)]
    Invalid(#[from] water_core::WaterError),
    /// An ambient sea whose tiles the GPU cannot transform.
    #[error(
        "the sea's tiles must share one power-of-two sample count from 16 to {max}, got {counts:?}"
    )]
    OceanTiles {
        /// Each tile's samples along a side.
        counts: Vec<usize>,
        /// The longest line a workgroup transforms.
        max: usize,
    },
    /// An operation for another grid mode, e.g. i16 heights of a signed grid.
    #[error("{mode} grids do not offer {operation}: use {instead}")]
    WrongMode {
        /// The operation asked for (a method name).
        operation: &'static str,
        /// The grid's mode.
        mode: GridMode,
        /// What to call instead.
        instead: &'static str,
    },
    /// A storage format the grid's backend or mode does not offer.
    #[error("{storage} storage is not offered {reason}")]
    StorageNotOffered {
        /// The format asked for.
        storage: StorageFormat,
        /// Where it is not offered and why, e.g. `"for classic grids, which store i16 cells"`.
        reason: &'static str,
    },
    /// A value that f16 storage cannot hold.
    #[error(
        "f16 storage holds finite values up to +-65504, but the {what} has {value} at index \
         {index}"
    )]
    OutsideF16 {
        /// Which data (e.g. `"current level"`).
        what: String,
        /// Position of the first such value.
        index: usize,
        /// The value.
        value: f32,
    },
    /// An operation that needs water on a GPU backend, asked of water on the CPU.
    #[error("{operation} needs water on a GPU backend, but this water is on the CPU")]
    NotOnGpu {
        /// The operation asked for.
        operation: &'static str,
    },
    /// A hull mesh uploaded to another device than the contact masks'.
    #[error("hull {hull}'s mesh was uploaded to another device than the contact masks'")]
    HullOnOtherDevice {
        /// Position of the hull in the frame's list.
        hull: usize,
    },
    /// Contact masks used with a grid of another size.
    #[error(
        "contact masks of {} x {} cells cannot drive a grid of {} x {} cells",
        masks.width(), masks.height(), grid.width(), grid.height()
    )]
    MaskSizeMismatch {
        /// The masks' size.
        masks: GridSize,
        /// The grid's size.
        grid: GridSize,
    },
    /// Contact masks made for one GPU backend used with a grid on the other.
    #[error("contact masks made for the {} backend have no buffers for a {} grid", masks.name(), grid.name())]
    MaskBackendMismatch {
        /// The backend the masks were made for.
        masks: GpuBackend,
        /// The grid's backend.
        grid: GpuBackend,
    },
    /// Per-vertex heights of another length than the water's vertex count.
    #[error("{actual} heights given for sphere water of {expected} vertices")]
    HeightsLengthMismatch {
        /// The water's vertex count.
        expected: usize,
        /// How many were given.
        actual: usize,
    },
    /// A height to add that is NaN or infinite.
    #[error("height {value} to add at vertex {vertex} is not finite")]
    NotFiniteHeight {
        /// The vertex.
        vertex: usize,
        /// Its value.
        value: f32,
    },
    /// wgpu reported a validation error (a bug in this crate, or a device without a feature).
    #[error("GPU validation error: {0}")]
    Validation(String),
    /// The device could not allocate what was asked (on a software adapter the device's memory
    /// is the process's: an address-space limit such as `ulimit -v` bounds it too).
    #[error("the GPU device ran out of memory: {0}")]
    OutOfMemory(String),
    /// The device was lost (driver reset, device removed, or destroyed).
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
    /// A hull mesh for contact masks with nothing to draw.
    #[error(
        "a hull mesh needs at least 3 vertices and 1 triangle, got {vertices} vertices and \
         {triangles} triangles"
    )]
    EmptyHullMesh {
        /// Vertices given.
        vertices: usize,
        /// Triangles given.
        triangles: usize,
    },
    /// A hull mesh vertex with a NaN or infinite coordinate.
    #[error("vertex {vertex} of the hull mesh is {value:?}, but coordinates must be finite")]
    HullMeshVertex {
        /// Index of the vertex.
        vertex: usize,
        /// Its coordinates, local metres.
        value: [f32; 3],
    },
    /// A hull mesh triangle naming a vertex the mesh does not have.
    #[error(
        "triangle {triangle} of the hull mesh uses vertex {index}, but the mesh has {vertices} \
         vertices (indices 0..{vertices})"
    )]
    HullMeshIndex {
        /// Index of the triangle.
        triangle: usize,
        /// The index it holds.
        index: u32,
        /// Vertices in the mesh.
        vertices: usize,
    },
    /// A hull drawn into contact masks with a value it may not have.
    #[error("hull {hull} of the frame has {what} = {value}, but it must be {requirement}")]
    BadContactHull {
        /// Position of the hull in the frame's list.
        hull: usize,
        /// Which value (`"speed"`, `"transform"`).
        what: &'static str,
        /// The value given (for a transform, its first non-finite element).
        value: f32,
        /// What it must be, e.g. `"finite and >= 0"`.
        requirement: &'static str,
    },

    /// A dispersive grid whose side the GPU's transforms cannot take.
    #[error(
        "the dispersive model on the GPU needs power-of-two sides (4, 8, ... {max} cells: its \
         transforms are radix-2 in workgroup memory), but the {axis} is {cells} cells; the CPU \
         backend takes any size"
    )]
    SpectralSide {
        /// `"width"` or `"height"`.
        axis: &'static str,
        /// The side asked for, cells.
        cells: usize,
        /// The longest side offered ([`crate::SPECTRAL_MAX_SIDE`]).
        max: usize,
    },
    /// The dispersive model asked of a GPU path that does not run it.
    #[error("the dispersive model is not offered with {with}: {reason}")]
    DispersiveNotOffered {
        /// What was asked for, e.g. `"the fragment backend"`.
        with: &'static str,
        /// Why not, and what to use.
        reason: &'static str,
    },

    /// A renderer setting out of its range.
    #[error("render setting {what} = {value}, but it must be {requirement}")]
    BadRenderSetting {
        /// The setting.
        what: &'static str,
        /// Its value.
        value: String,
        /// What it must be.
        requirement: &'static str,
    },
}
