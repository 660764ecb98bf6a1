//! Typed errors of the GPU backends.

use thiserror::Error;

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
    /// A combination the backend does not offer.
    #[error("{0}")]
    Unsupported(String),
    /// wgpu reported a validation error (a bug in this crate, or a device without a feature).
    #[error("GPU validation error: {0}")]
    Validation(String),
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
