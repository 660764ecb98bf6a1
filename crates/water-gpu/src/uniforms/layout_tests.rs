//! The Rust uniform structs match naga's layout of their WGSL twins: size and every field's
//! offset, for every shader that declares them.

use std::mem::{offset_of, size_of};

use super::{
    ClassicShadingUniforms, ContactMaskUniforms, GridUniforms, ImpulseCell, ImpulseUniforms,
    ImpulseWord, SphereFragmentUniforms, SphereSurfaceUniforms, SphereUniforms,
    SurfaceRenderUniforms, SurfaceUniforms,
};
use naga::proc::Layouter;

/// `(field name, offset)` of a Rust struct, in declaration order.
type Fields = &'static [(&'static str, usize)];

const GRID: Fields = &[
    ("width", offset_of!(GridUniforms, width)),
    ("height", offset_of!(GridUniforms, height)),
    ("boundary", offset_of!(GridUniforms, boundary)),
    ("mode", offset_of!(GridUniforms, mode)),
    ("a", offset_of!(GridUniforms, a)),
    ("b", offset_of!(GridUniforms, b)),
    ("d", offset_of!(GridUniforms, d)),
    ("mur_k", offset_of!(GridUniforms, mur_k)),
    (
        "contact_amplitude",
        offset_of!(GridUniforms, contact_amplitude),
    ),
    ("has_contacts", offset_of!(GridUniforms, has_contacts)),
    ("classic_shift", offset_of!(GridUniforms, classic_shift)),
    ("_pad", offset_of!(GridUniforms, _pad)),
];

const IMPULSE: Fields = &[
    ("cells", offset_of!(ImpulseUniforms, cells)),
    ("mode", offset_of!(ImpulseUniforms, mode)),
    ("count", offset_of!(ImpulseUniforms, count)),
    ("_pad", offset_of!(ImpulseUniforms, _pad)),
];

const CELL: Fields = &[
    ("index", offset_of!(ImpulseCell, index)),
    ("amount", offset_of!(ImpulseCell, amount)),
];

const WORD: Fields = &[
    ("word", offset_of!(ImpulseWord, word)),
    ("low", offset_of!(ImpulseWord, low)),
    ("high", offset_of!(ImpulseWord, high)),
    ("_pad", offset_of!(ImpulseWord, _pad)),
];

const SURFACE: Fields = &[
    ("width", offset_of!(SurfaceUniforms, width)),
    ("height", offset_of!(SurfaceUniforms, height)),
    ("mode", offset_of!(SurfaceUniforms, mode)),
    ("cell_size", offset_of!(SurfaceUniforms, cell_size)),
];

const SPHERE: Fields = &[
    ("vertices", offset_of!(SphereUniforms, vertices)),
    ("k", offset_of!(SphereUniforms, k)),
    ("d", offset_of!(SphereUniforms, d)),
    ("_pad", offset_of!(SphereUniforms, _pad)),
];

const SPHERE_FRAGMENT: Fields = &[
    ("vertices", offset_of!(SphereFragmentUniforms, vertices)),
    ("width", offset_of!(SphereFragmentUniforms, width)),
    ("k", offset_of!(SphereFragmentUniforms, k)),
    ("d", offset_of!(SphereFragmentUniforms, d)),
];

const CONTACT_MASK: Fields = &[
    ("ndc_scale", offset_of!(ContactMaskUniforms, ndc_scale)),
    ("ndc_offset", offset_of!(ContactMaskUniforms, ndc_offset)),
];

const SURFACE_RENDER: Fields = &[
    ("view_proj", offset_of!(SurfaceRenderUniforms, view_proj)),
    ("eye", offset_of!(SurfaceRenderUniforms, eye)),
    ("view_dir", offset_of!(SurfaceRenderUniforms, view_dir)),
    ("sun", offset_of!(SurfaceRenderUniforms, sun)),
    (
        "water_colour",
        offset_of!(SurfaceRenderUniforms, water_colour),
    ),
    ("sky_colour", offset_of!(SurfaceRenderUniforms, sky_colour)),
    ("grid", offset_of!(SurfaceRenderUniforms, grid)),
    ("mesh", offset_of!(SurfaceRenderUniforms, mesh)),
    ("flags", offset_of!(SurfaceRenderUniforms, flags)),
];

const CLASSIC_SHADING: Fields = &[
    ("width", offset_of!(ClassicShadingUniforms, width)),
    ("height", offset_of!(ClassicShadingUniforms, height)),
    (
        "target_width",
        offset_of!(ClassicShadingUniforms, target_width),
    ),
    (
        "target_height",
        offset_of!(ClassicShadingUniforms, target_height),
    ),
    (
        "offset_shift",
        offset_of!(ClassicShadingUniforms, offset_shift),
    ),
    (
        "shading_shift",
        offset_of!(ClassicShadingUniforms, shading_shift),
    ),
    (
        "srgb_target",
        offset_of!(ClassicShadingUniforms, srgb_target),
    ),
    ("_pad", offset_of!(ClassicShadingUniforms, _pad)),
];

const SPHERE_SURFACE: Fields = &[
    ("view_proj", offset_of!(SphereSurfaceUniforms, view_proj)),
    ("eye", offset_of!(SphereSurfaceUniforms, eye)),
    ("sun", offset_of!(SphereSurfaceUniforms, sun)),
    (
        "water_colour",
        offset_of!(SphereSurfaceUniforms, water_colour),
    ),
    ("sky_colour", offset_of!(SphereSurfaceUniforms, sky_colour)),
    ("shape", offset_of!(SphereSurfaceUniforms, shape)),
    ("flags", offset_of!(SphereSurfaceUniforms, flags)),
];

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
    let structs: [(&str, usize, Fields); 11] = [
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
