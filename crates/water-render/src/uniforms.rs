//! Host mirrors of the renderers' WGSL uniform structs; their sizes and field offsets are
//! checked against naga's layout of the shaders that declare them (below).

use bytemuck::{Pod, Zeroable};

/// A uniform buffer with room for one `T`, which its renderer writes before each draw (wgpu
/// zeroes it until then): the 3-D renderers' per-frame camera and style values.
pub(crate) fn uniform_buffer_of<T: Pod>(device: &wgpu::Device, label: &str) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size_of::<T>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// `ViewUniforms` of `shaders/render_bodies.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ViewUniforms {
    /// World to clip space.
    pub view_proj: [[f32; 4]; 4],
    /// xyz: camera position (m); w: 1 perspective, 0 orthographic.
    pub eye: [f32; 4],
    /// xyz: view direction of an orthographic camera.
    pub view_dir: [f32; 4],
    /// xyz: unit direction toward the sun.
    pub sun: [f32; 4],
}

/// `OceanRenderUniforms` of `shaders/render_ocean_surface.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct OceanRenderUniforms {
    /// World to clip space.
    pub view_proj: [[f32; 4]; 4],
    /// Clip to world space.
    pub inverse_view_proj: [[f32; 4]; 4],
    /// xyz: camera position (m); w: radians one pixel spans.
    pub eye: [f32; 4],
    /// xyz: unit direction toward the sun; w: specular exponent.
    pub sun: [f32; 4],
    /// rgb: deep water (linear); w: haze distance (m).
    pub water_colour: [f32; 4],
    /// rgb: sky at the horizon (linear); w: the heights view's range (m).
    pub sky_colour: [f32; 4],
    /// xy: target size (pixels); zw: the camera's x and y (m), where the mesh is finest.
    pub viewport: [f32; 4],
    /// Finest spacing (m), quads from centre to rim, grid height scale, rim fade (m).
    pub lod: [f32; 4],
    /// Each tile's side (m), up to 8.
    pub tile_lengths: [[f32; 4]; 2],
    /// Cells along x and y, cell size (m), unused.
    pub grid: [f32; 4],
    /// xy: the grid's corner in the world (m).
    pub grid_origin: [f32; 4],
    /// x: view (0 lit, 1 normals, 2 heights); y: 1 with a grid; z: tiles; w: samples a side.
    pub flags: [u32; 4],
    /// x: the sea's Jacobian below which it is drawn white; y: 1 to draw the sea's breaking
    /// foam; z: 1 to draw the grid's foam texture; w: unused.
    pub foam: [f32; 4],
    /// The water around the grid (a scene's coarser cascades): cells along x and y, cell size
    /// (m), 1 where there is some (else 0).
    pub surrounding: [f32; 4],
    /// xy: its corner in the world (m).
    pub surrounding_origin: [f32; 4],
}

/// `SurfaceRenderUniforms` of `shaders/render_grid_surface.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SurfaceRenderUniforms {
    /// World to clip space.
    pub view_proj: [[f32; 4]; 4],
    /// xyz: camera position (m); w: 1 perspective, 0 orthographic.
    pub eye: [f32; 4],
    /// xyz: view direction of an orthographic camera.
    pub view_dir: [f32; 4],
    /// xyz: unit direction toward the sun; w: specular exponent.
    pub sun: [f32; 4],
    /// rgb: deep water (linear); w: absorption per metre.
    pub water_colour: [f32; 4],
    /// rgb: sky at the horizon (linear); w: floor texture tile (m).
    pub sky_colour: [f32; 4],
    /// Cells along x and y, cell size (m), height scale.
    pub grid: [f32; 4],
    /// Quads along x and y, rim fade (m), floor depth (m).
    pub mesh: [f32; 4],
    /// x: view (0 lit, 1 normals, 2 heights); y: 1 with a hull mask.
    pub flags: [u32; 4],
}

/// `ClassicShadingUniforms` of `shaders/shade_classic.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct ClassicShadingUniforms {
    /// Cells along x.
    pub width: u32,
    /// Cells along y.
    pub height: u32,
    /// Output pixels along x.
    pub target_width: u32,
    /// Output pixels along y.
    pub target_height: u32,
    /// Right shift from height difference to background offset (texels).
    pub offset_shift: u32,
    /// Right shift from height difference to brightness.
    pub shading_shift: u32,
    /// 1 when the output format is sRGB.
    pub srgb_target: u32,
    /// Padding to a multiple of 16 bytes.
    pub _pad: u32,
}

/// `SphereSurfaceUniforms` of `shaders/render_sphere_surface.wgsl`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct SphereSurfaceUniforms {
    /// World to clip space.
    pub view_proj: [[f32; 4]; 4],
    /// xyz: camera position (m).
    pub eye: [f32; 4],
    /// xyz: unit direction toward the sun; w: specular exponent.
    pub sun: [f32; 4],
    /// rgb: deep water (linear).
    pub water_colour: [f32; 4],
    /// rgb: sky (linear).
    pub sky_colour: [f32; 4],
    /// Radius (m), height scale, vertices, height texture width.
    pub shape: [f32; 4],
    /// x: view (0 lit, 1 normals, 2 heights).
    pub flags: [u32; 4],
}

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};

    use water_gpu::wgsl_import::struct_layout;

    use super::{
        ClassicShadingUniforms, OceanRenderUniforms, SphereSurfaceUniforms, SurfaceRenderUniforms,
        ViewUniforms,
    };

    /// `(field name, offset)` of each field of `$ty`, in declaration order.
    macro_rules! fields {
        ($ty:ident: $($field:ident),+ $(,)?) => {
            vec![$((stringify!($field).to_owned(), offset_of!($ty, $field))),+]
        };
    }

    #[test]
    fn the_renderers_uniform_structs_match_the_wgsl_layout() {
        let structs = [
            (
                "ViewUniforms",
                size_of::<ViewUniforms>(),
                fields!(ViewUniforms: view_proj, eye, view_dir, sun),
            ),
            (
                "OceanRenderUniforms",
                size_of::<OceanRenderUniforms>(),
                fields!(OceanRenderUniforms: view_proj, inverse_view_proj, eye, sun, water_colour, sky_colour, viewport, lod, tile_lengths, grid, grid_origin, flags, foam, surrounding, surrounding_origin),
            ),
            (
                "SurfaceRenderUniforms",
                size_of::<SurfaceRenderUniforms>(),
                fields!(SurfaceRenderUniforms: view_proj, eye, view_dir, sun, water_colour, sky_colour, grid, mesh, flags),
            ),
            (
                "ClassicShadingUniforms",
                size_of::<ClassicShadingUniforms>(),
                fields!(ClassicShadingUniforms: width, height, target_width, target_height, offset_shift, shading_shift, srgb_target, _pad),
            ),
            (
                "SphereSurfaceUniforms",
                size_of::<SphereSurfaceUniforms>(),
                fields!(SphereSurfaceUniforms: view_proj, eye, sun, water_colour, sky_colour, shape, flags),
            ),
        ];
        for (name, size, fields) in structs {
            let mut declared = 0;
            for (shader, source) in water_gpu::shaders::ALL {
                let composed = water_gpu::shaders::composed(source);
                if let Some(wgsl) = struct_layout(&composed, name) {
                    assert_eq!(wgsl.size, size, "{shader}: size of {name}");
                    assert_eq!(wgsl.fields, fields, "{shader}: fields of {name}");
                    declared += 1;
                }
            }
            assert!(declared > 0, "no shader declares {name}");
        }
    }
}
