//! `#import NAME` for WGSL: pieces several kernels share (the uniform structs, the cell
//! formulas, f16 packing, contact events, the full-screen stage) are written once in
//! `shaders/shared/NAME.wgsl` and composed into each kernel when its pipeline is made.
//!
//! An `#import` line stands alone at module scope. Each module is put in once, however many
//! times it is imported (directly or through another module), before the kernel's own text;
//! WGSL resolves names regardless of order, so a shared function may call a function the
//! kernel defines (the cell formulas read cells through the kernel's own `at` and `old_at`,
//! whatever its storage). An unknown name leaves a comment in its place, so naga (in the
//! tests) and wgpu (at pipeline creation) refuse the composed source by the missing symbols.

/// The shared modules, by name: `shaders/shared/NAME.wgsl`.
pub const SHARED: &[(&str, &str)] = &[
    (
        "grid_uniforms",
        include_str!("../../../shaders/shared/grid_uniforms.wgsl"),
    ),
    (
        "grid_step_bindings",
        include_str!("../../../shaders/shared/grid_step_bindings.wgsl"),
    ),
    (
        "fragment_step_bindings",
        include_str!("../../../shaders/shared/fragment_step_bindings.wgsl"),
    ),
    (
        "wave_cell",
        include_str!("../../../shaders/shared/wave_cell.wgsl"),
    ),
    (
        "boundary_rules",
        include_str!("../../../shaders/shared/boundary_rules.wgsl"),
    ),
    (
        "depth_cell",
        include_str!("../../../shaders/shared/depth_cell.wgsl"),
    ),
    (
        "contact_events",
        include_str!("../../../shaders/shared/contact_events.wgsl"),
    ),
    (
        "classic_cell",
        include_str!("../../../shaders/shared/classic_cell.wgsl"),
    ),
    (
        "fused_tile",
        include_str!("../../../shaders/shared/fused_tile.wgsl"),
    ),
    (
        "f16_packing",
        include_str!("../../../shaders/shared/f16_packing.wgsl"),
    ),
    (
        "fft_line",
        include_str!("../../../shaders/shared/fft_line.wgsl"),
    ),
    (
        "full_screen",
        include_str!("../../../shaders/shared/full_screen.wgsl"),
    ),
    (
        "water_light",
        include_str!("../../../shaders/shared/water_light.wgsl"),
    ),
    (
        "sea_taps",
        include_str!("../../../shaders/shared/sea_taps.wgsl"),
    ),
    (
        "hull_instance",
        include_str!("../../../shaders/shared/hull_instance.wgsl"),
    ),
];

/// The module named `name` in an `#import` line, if `line` is one.
#[must_use]
pub fn import_of(line: &str) -> Option<&str> {
    line.trim().strip_prefix("#import ").map(str::trim)
}

/// `source` with each `#import` replaced by the modules it names (each once, in the order
/// first imported, a module's own imports before it).
#[must_use]
pub fn compose(source: &str) -> String {
    let mut included: Vec<&str> = Vec::new();
    let mut modules = String::new();
    let body = expand(source, &mut included, &mut modules);
    modules + &body
}

/// `source` without its import lines, the modules it imports (not yet in `included`) appended
/// to `modules`.
fn expand(source: &str, included: &mut Vec<&'static str>, modules: &mut String) -> String {
    let mut body = String::with_capacity(source.len());
    for line in source.lines() {
        match import_of(line) {
            Some(name) => match SHARED.iter().find(|(n, _)| *n == name) {
                Some((known, text)) => {
                    if !included.contains(known) {
                        included.push(known);
                        let module = expand(text, included, modules);
                        modules.push_str(&format!("// ---- shared/{known}.wgsl\n"));
                        modules.push_str(&module);
                    }
                    body.push_str(&format!("// #import {name}: above\n"));
                }
                None => body.push_str(&format!("// #import {name}: no such shared module\n")),
            },
            None => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    body
}

/// Where a WGSL struct's fields lie, as naga lays it out for a uniform buffer: what each host
/// twin (`#[repr(C)]`, `bytemuck::Pod`) must match byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructLayout {
    /// The struct's size, bytes.
    pub size: usize,
    /// Each field's name and offset (bytes), in declaration order.
    pub fields: Vec<(String, usize)>,
}

/// The layout of the struct `name` in the WGSL `source` (its `#import`s already composed, as
/// [`compose`] gives it), or `None` where the source declares no struct of that name.
///
/// # Panics
/// Where `source` is not valid WGSL, or `name` is a type other than a struct: both are the
/// caller's shaders being broken, which this is for finding.
#[must_use]
pub fn struct_layout(source: &str, name: &str) -> Option<StructLayout> {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("invalid WGSL: {}", e.emit_to_string(source)));
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .unwrap_or_else(|e| panic!("no layout for the WGSL's types: {e}"));
    let (handle, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))?;
    let naga::TypeInner::Struct { members, .. } = &ty.inner else {
        panic!("{name} is not a struct");
    };
    Some(StructLayout {
        size: layouter[handle].size as usize,
        fields: members
            .iter()
            .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_module_goes_in_once_before_the_kernel() {
        let kernel = "#import wave_cell\n#import grid_uniforms\nfn main() {}\n";
        let composed = compose(kernel);
        assert_eq!(composed.matches("struct GridUniforms").count(), 1);
        let uniforms = composed.find("struct GridUniforms").expect("uniforms");
        let cell = composed.find("fn wave_cell(").expect("wave_cell");
        let main = composed.find("fn main()").expect("kernel");
        assert!(uniforms < main && cell < main);
        assert!(!composed.lines().any(|l| import_of(l).is_some()));
    }

    #[test]
    fn an_unknown_module_is_left_as_a_comment_naming_it() {
        let composed = compose("#import no_such_thing\nfn main() {}\n");
        assert!(composed.contains("// #import no_such_thing: no such shared module"));
    }
}
