//! Host mirrors of the WGSL uniform structs. Their sizes and field offsets are checked against
//! naga's layout of the WGSL source in `uniforms/layout_tests.rs`.
//! WGSL twins: `shaders/shared/grid_uniforms.wgsl` (`GridUniforms`), bound as
//! `shaders/shared/grid_step_bindings.wgsl` lays out.

use bytemuck::{Pod, Zeroable};
use water_core::kernels::absorbing_edges::mur_coefficient;
use water_core::{Boundary, GridMode, StencilCoefficients};

/// `GridUniforms` of `shaders/grid_step.wgsl` and `shaders/classic_step.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct GridUniforms {
    /// Cells along x.
    pub width: u32,
    /// Cells along y.
    pub height: u32,
    /// 0 fixed, 1 reflective, 2 periodic, 3 absorbing.
    pub boundary: u32,
    /// 0 signed, 1 split, 2 classic.
    pub mode: u32,
    /// Courant number `a`.
    pub a: f32,
    /// Centre weight `2 - 4a`.
    pub b: f32,
    /// Per-step damping factor `d`.
    pub d: f32,
    /// Mur's coefficient for the absorbing boundary.
    pub mur_k: f32,
    /// Contact wave amplitude `A`, metres per unit of speed factor.
    pub contact_amplitude: f32,
    /// 1 when this step applies contact events.
    pub has_contacts: u32,
    /// Classic damping shift `k` (0: undamped).
    pub classic_shift: u32,
    /// Padding to a multiple of 16 bytes.
    pub _pad: u32,
}

/// Index of a boundary in the shaders.
#[must_use]
pub fn boundary_code(boundary: Boundary) -> u32 {
    match boundary {
        Boundary::Fixed => 0,
        Boundary::Reflective => 1,
        Boundary::Periodic => 2,
        Boundary::Absorbing => 3,
    }
}

/// Index of a mode in the shaders.
#[must_use]
pub fn mode_code(mode: GridMode) -> u32 {
    match mode {
        GridMode::Signed => 0,
        GridMode::Split => 1,
        GridMode::Classic => 2,
    }
}

impl GridUniforms {
    /// Uniforms for a grid; `contact_amplitude` and `has_contacts` start at zero.
    #[must_use]
    pub fn new(
        width: u32,
        height: u32,
        boundary: Boundary,
        mode: GridMode,
        k: StencilCoefficients,
        classic_shift: Option<u32>,
    ) -> Self {
        Self {
            width,
            height,
            boundary: boundary_code(boundary),
            mode: mode_code(mode),
            a: k.a,
            b: k.b,
            d: k.d,
            mur_k: mur_coefficient(k.a),
            contact_amplitude: 0.0,
            has_contacts: 0,
            classic_shift: classic_shift.unwrap_or(0),
            _pad: 0,
        }
    }
}

/// `ShiftUniforms` of `shaders/shift_window.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ShiftUniforms {
    /// Cells per row.
    pub width: u32,
    /// Rows per channel.
    pub height: u32,
    /// Stored words per row: `width`, or `ceil(width / 2)` with f16 cells.
    pub row_words: u32,
    /// 1: two binary16 cells a word.
    pub f16_cells: u32,
    /// New cell `(x, y)` takes old cell `(x + dx, y + dy)`.
    pub dx: i32,
    /// See `dx`.
    pub dy: i32,
    /// What happens to the rim: [`crate::window_shift::RimRule`] as a number.
    pub rim: u32,
    /// Planes of `height` rows: 2 in split mode, else 1.
    pub channels: u32,
}

/// `RelaxUniforms` of `shaders/relax_toward.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct RelaxUniforms {
    /// The coarse grid's cells across and down.
    pub outer_size: [u32; 2],
    /// The finer grid's.
    pub inner_size: [u32; 2],
    /// The finer cell under the coarse cell `(0, 0)`'s lower corner.
    pub base: [i32; 2],
    /// The finer grid's absorbing band, cells.
    pub edge: f32,
    /// Finer cells over which the weight rises from 0 to 1.
    pub blend_cells: f32,
}

/// `ImpulseUniforms` of `shaders/add_impulse.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ImpulseUniforms {
    /// Cells per channel.
    pub cells: u32,
    /// 0 signed, 1 split, 2 classic.
    pub mode: u32,
    /// Entries in the amounts buffer.
    pub count: u32,
    /// Padding to 16 bytes.
    pub _pad: u32,
}

/// `ImpulseCell` of `shaders/add_impulse.wgsl`: one covered cell and its amount.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ImpulseCell {
    /// Row-major cell index.
    pub index: u32,
    /// Amount to add, metres (classic: an integer, already rounded and saturated to i16).
    pub amount: f32,
}

/// `ImpulseWord` of `shaders/add_impulse_f16.wgsl`: the amounts for the two cells of one f16
/// storage word.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ImpulseWord {
    /// Index of the word in the level, channel plane included.
    pub word: u32,
    /// Amount for the low half (the even cell), metres.
    pub low: f32,
    /// Amount for the high half (the odd cell; 0 for the padding half of an odd row), metres.
    pub high: f32,
    /// Padding to 16 bytes.
    pub _pad: u32,
}

/// `SurfaceUniforms` of `shaders/surface_normals.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SurfaceUniforms {
    /// Cells along x.
    pub width: u32,
    /// Cells along y.
    pub height: u32,
    /// 0 signed, 1 split, 2 classic.
    pub mode: u32,
    /// Cell size `h`, metres.
    pub cell_size: f32,
    /// 1 where the compute backend's fields are f16, two to a word (else 0).
    pub f16_words: u32,
    /// Padding to 32 bytes.
    pub _pad0: u32,
    /// Padding.
    pub _pad1: u32,
    /// Padding.
    pub _pad2: u32,
}

/// `SphereUniforms` of `shaders/sphere_step.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SphereUniforms {
    /// Vertices.
    pub vertices: u32,
    /// Step coefficient `k`: `a`, or `(c dt)^2`.
    pub k: f32,
    /// Per-step damping factor `d`.
    pub d: f32,
    /// Padding to 16 bytes.
    pub _pad: u32,
}

/// `SphereFragmentUniforms` of `shaders/sphere_step_fragment.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SphereFragmentUniforms {
    /// Vertices.
    pub vertices: u32,
    /// Texels per row of the height textures: vertex `i` is at `(i % width, i / width)`.
    pub width: u32,
    /// Step coefficient `k`: `a`, or `(c dt)^2`.
    pub k: f32,
    /// Per-step damping factor `d`.
    pub d: f32,
}

/// `ContactMaskUniforms` of `shaders/rasterise_grid_mask.wgsl`: the orthographic projection
/// from the grid's world plane onto the mask texture.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ContactMaskUniforms {
    /// NDC per world metre along x and y: `(2 / (W h), -2 / (H h))` (y flips so that world
    /// `y = 0` lands on the texture's first row, as cell row 0 is).
    pub ndc_scale: [f32; 2],
    /// NDC of the world origin: `(-1, 1)`.
    pub ndc_offset: [f32; 2],
}

#[cfg(test)]
mod layout_tests;
