//! Every WGSL file in `shaders/` parses and validates with naga, with the capabilities the
//! backends request (none beyond core WGSL), and every file is one the crate embeds.

use std::path::PathBuf;

use naga::valid::{Capabilities, ValidationFlags, Validator};

fn shader_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shaders")
}

#[test]
fn every_shader_in_the_folder_validates() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(shader_dir())
        .expect("the shaders folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .wgsl file found in {}",
        shader_dir().display()
    );
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable shader");
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.emit_to_string(&source)));
        // The devices are requested with no shader capabilities beyond core WGSL.
        Validator::new(ValidationFlags::all(), Capabilities::empty())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.emit_to_string(&source)));
    }
    let embedded: Vec<&str> = water_gpu::shaders::ALL
        .iter()
        .map(|(name, _)| *name)
        .collect();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 name");
        assert!(
            embedded.contains(&name),
            "{name} is in shaders/ but not embedded"
        );
    }
    for (name, source) in water_gpu::shaders::ALL {
        let on_disk =
            std::fs::read_to_string(shader_dir().join(name)).expect("embedded file exists");
        assert_eq!(
            &on_disk, source,
            "{name}: embedded text differs from the file"
        );
    }
}

#[test]
fn a_broken_shader_is_caught() {
    // The validator must reject what wgpu would reject: a type error in a kernel.
    let broken = "@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }";
    let parsed = naga::front::wgsl::parse_str(broken);
    let rejected = match parsed {
        Err(_) => true,
        Ok(module) => Validator::new(ValidationFlags::all(), Capabilities::empty())
            .validate(&module)
            .is_err(),
    };
    assert!(rejected);
}

/// The block of f16 conversion functions in `source`: from its heading comment to the end of
/// `pack_f16`, the last function of the block.
fn f16_block(source: &str) -> Option<&str> {
    let start = source.find("// f16 conversions:")?;
    let last = start + source[start..].find("fn pack_f16(")?;
    let end = last + source[last..].find("\n}\n")? + 3;
    Some(&source[start..end])
}

#[test]
fn every_f16_shader_carries_the_same_conversions() {
    // WGSL has no includes, so each shader that reads or writes f16 storage carries its own copy
    // of the conversions; a fix made to one copy and not the others would make the kernels round
    // differently from each other and from the host.
    let copies: Vec<(&str, &str)> = water_gpu::shaders::ALL
        .iter()
        .filter(|(_, source)| source.contains("fn f32_to_f16("))
        .map(|(name, source)| {
            let block = f16_block(source)
                .unwrap_or_else(|| panic!("{name}: f16 conversions without the usual block"));
            (*name, block)
        })
        .collect();
    let names: Vec<&str> = copies.iter().map(|(n, _)| *n).collect();
    for expected in [
        "grid_step_f16.wgsl",
        "grid_step_fused_f16.wgsl",
        "add_impulse_f16.wgsl",
        "surface_normals.wgsl",
    ] {
        assert!(names.contains(&expected), "{expected} has no f16 block");
    }
    let (first, reference) = copies[0];
    for (name, block) in &copies[1..] {
        assert_eq!(
            block, &reference,
            "{name}: f16 conversions differ from {first}'s"
        );
    }
}
