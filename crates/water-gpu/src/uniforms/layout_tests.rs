//! The Rust uniform structs match naga's layout of their WGSL twins: size and every field's
//! offset, for every shader that declares them.

use std::mem::{offset_of, size_of};

use super::{
    ContactMaskUniforms, GridUniforms, ImpulseCell, ImpulseUniforms, ImpulseWord, ShiftUniforms,
    SphereFragmentUniforms, SphereUniforms, SurfaceUniforms,
};
use crate::wgsl_import::struct_layout;

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

/// Whether `source` declares the struct `name`; where it does, asserts that its size and
/// fields' offsets are the Rust twin's.
fn check(shader: &str, source: &str, name: &str, size: usize, fields: Fields) -> bool {
    let Some(wgsl) = struct_layout(source, name) else {
        return false;
    };
    assert_eq!(wgsl.size, size, "{shader}: size of {name}");
    let rust: Vec<(String, usize)> = fields.iter().map(|(n, o)| ((*n).to_owned(), *o)).collect();
    assert_eq!(wgsl.fields, rust, "{shader}: fields of {name}");
    true
}

#[test]
fn rust_uniform_structs_match_the_wgsl_layout() {
    let structs: [(&str, usize, Fields); 9] = [
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
