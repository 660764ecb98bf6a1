//! The Rust uniform structs match naga's layout of their WGSL twins: size and every field's
//! offset, for every shader that declares them.

use std::mem::{offset_of, size_of};

use super::{
    ClassicShadingUniforms, ContactMaskUniforms, GridUniforms, ImpulseCell, ImpulseUniforms,
    ImpulseWord, OceanRenderUniforms, ShiftUniforms, SphereFragmentUniforms, SphereSurfaceUniforms,
    SphereUniforms, SurfaceRenderUniforms, SurfaceUniforms, ViewUniforms,
};
use naga::proc::Layouter;

/// `(field name, offset)` of a Rust struct, in declaration order.
type Fields = &'static [(&'static str, usize)];

/// The [`Fields`] of `$ty`: each named field with its offset.
macro_rules! fields {
    ($ty:ident: $($field:ident),+ $(,)?) => {
        &[$((stringify!($field), offset_of!($ty, $field))),+]
    };
}

const GRID: Fields = fields!(GridUniforms: width, height, boundary, mode, a, b, d, mur_k, contact_amplitude, has_contacts, classic_shift, _pad);

const IMPULSE: Fields = fields!(ImpulseUniforms: cells, mode, count, _pad);

const SHIFT: Fields =
    fields!(ShiftUniforms: width, height, row_words, f16_cells, dx, dy, rim, channels);

const CELL: Fields = fields!(ImpulseCell: index, amount);

const WORD: Fields = fields!(ImpulseWord: word, low, high, _pad);

const SURFACE: Fields =
    fields!(SurfaceUniforms: width, height, mode, cell_size, f16_words, _pad0, _pad1, _pad2);

const SPHERE: Fields = fields!(SphereUniforms: vertices, k, d, _pad);

const SPHERE_FRAGMENT: Fields = fields!(SphereFragmentUniforms: vertices, width, k, d);

const CONTACT_MASK: Fields = fields!(ContactMaskUniforms: ndc_scale, ndc_offset);

const SURFACE_RENDER: Fields = fields!(SurfaceRenderUniforms: view_proj, eye, view_dir, sun, water_colour, sky_colour, grid, mesh, flags);

const VIEW: Fields = fields!(ViewUniforms: view_proj, eye, view_dir, sun);

const OCEAN_RENDER: Fields = fields!(OceanRenderUniforms: view_proj, inverse_view_proj, eye, sun, water_colour, sky_colour, viewport, lod, tile_lengths, grid, grid_origin, flags, foam, surrounding, surrounding_origin);

const CLASSIC_SHADING: Fields = fields!(ClassicShadingUniforms: width, height, target_width, target_height, offset_shift, shading_shift, srgb_target, _pad);

const SPHERE_SURFACE: Fields =
    fields!(SphereSurfaceUniforms: view_proj, eye, sun, water_colour, sky_colour, shape, flags);

fn check(shader: &str, source: &str, name: &str, size: usize, fields: Fields) -> bool {
    let module = naga::front::wgsl::parse_str(source).expect("valid WGSL");
    let mut layouter = Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let Some((handle, ty)) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
    else {
        return false;
    };
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        panic!("{shader}: {name} is not a struct");
    };
    assert_eq!(
        layouter[handle].size as usize, size,
        "{shader}: size of {name}"
    );
    let wgsl: Vec<(String, usize)> = members
        .iter()
        .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
        .collect();
    let rust: Vec<(String, usize)> = fields.iter().map(|(n, o)| ((*n).to_owned(), *o)).collect();
    assert_eq!(wgsl, rust, "{shader}: fields of {name}");
    true
}

#[test]
fn rust_uniform_structs_match_the_wgsl_layout() {
    let structs: [(&str, usize, Fields); 14] = [
        ("ViewUniforms", size_of::<ViewUniforms>(), VIEW),
        (
            "OceanRenderUniforms",
            size_of::<OceanRenderUniforms>(),
            OCEAN_RENDER,
        ),
        (
            "SurfaceRenderUniforms",
            size_of::<SurfaceRenderUniforms>(),
            SURFACE_RENDER,
        ),
        (
            "ClassicShadingUniforms",
            size_of::<ClassicShadingUniforms>(),
            CLASSIC_SHADING,
        ),
        (
            "SphereSurfaceUniforms",
            size_of::<SphereSurfaceUniforms>(),
            SPHERE_SURFACE,
        ),
        ("SphereUniforms", size_of::<SphereUniforms>(), SPHERE),
        (
            "SphereFragmentUniforms",
            size_of::<SphereFragmentUniforms>(),
            SPHERE_FRAGMENT,
        ),
        ("SurfaceUniforms", size_of::<SurfaceUniforms>(), SURFACE),
        ("GridUniforms", size_of::<GridUniforms>(), GRID),
        ("ImpulseUniforms", size_of::<ImpulseUniforms>(), IMPULSE),
        ("ShiftUniforms", size_of::<ShiftUniforms>(), SHIFT),
        ("ImpulseCell", size_of::<ImpulseCell>(), CELL),
        ("ImpulseWord", size_of::<ImpulseWord>(), WORD),
        (
            "ContactMaskUniforms",
            size_of::<ContactMaskUniforms>(),
            CONTACT_MASK,
        ),
    ];
    for (name, size, fields) in structs {
        let checked = crate::shaders::ALL
            .iter()
            .filter(|(shader, source)| {
                check(
                    shader,
                    &crate::shaders::composed(source),
                    name,
                    size,
                    fields,
                )
            })
            .count();
        assert!(checked > 0, "no shader declares {name}");
    }
}
