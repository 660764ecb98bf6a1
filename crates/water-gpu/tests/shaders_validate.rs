//! Every WGSL file in `shaders/`, its `#import`s of `shaders/shared/` composed in, parses and
//! validates with naga, with the capabilities the backends request (none beyond core WGSL);
//! every file is one the crate embeds, and every shared module is used and written once.

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
        let source =
            water_gpu::shaders::composed(&std::fs::read_to_string(path).expect("readable shader"));
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

/// Every module in `shaders/shared/` is embedded, imported by some kernel, and holds what it
/// alone defines: no kernel defines a function or struct of a shared module again (naga would
/// refuse the duplicate, but only where the module is imported).
#[test]
fn shared_modules_are_written_once_and_used() {
    let shared_dir = shader_dir().join("shared");
    let mut on_disk: Vec<String> = std::fs::read_dir(&shared_dir)
        .expect("the shared folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .map(|p| {
            p.file_stem()
                .and_then(|n| n.to_str())
                .expect("utf-8")
                .to_owned()
        })
        .collect();
    on_disk.sort();
    assert!(
        !on_disk.is_empty(),
        "no shared module in {}",
        shared_dir.display()
    );
    let mut embedded: Vec<String> = water_gpu::wgsl_import::SHARED
        .iter()
        .map(|(n, _)| (*n).to_owned())
        .collect();
    embedded.sort();
    assert_eq!(on_disk, embedded, "shared/ and wgsl_import::SHARED differ");
    for (name, text) in water_gpu::wgsl_import::SHARED {
        assert_eq!(
            std::fs::read_to_string(shared_dir.join(format!("{name}.wgsl"))).expect("file"),
            *text,
            "{name}: embedded text differs from the file"
        );
        let used = water_gpu::shaders::ALL
            .iter()
            .any(|(_, source)| imports(source).contains(name));
        assert!(used, "shared/{name}.wgsl is imported by no kernel");
        // Entry points (after an @vertex, @fragment or @compute line) are named by convention
        // and may be a kernel's own; helper functions and structs may not.
        let lines: Vec<&str> = text.lines().collect();
        let defined: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i == 0 || !lines[i - 1].starts_with('@'))
            .filter_map(|(_, l)| {
                l.strip_prefix("fn ")
                    .or_else(|| l.strip_prefix("struct "))
                    .and_then(|rest| rest.split(['(', ' ']).next())
            })
            .collect();
        for (kernel, source) in water_gpu::shaders::ALL {
            for item in &defined {
                assert!(
                    !source.contains(&format!("fn {item}("))
                        && !source.contains(&format!("struct {item} ")),
                    "{kernel} defines {item} again; import shared/{name}.wgsl instead"
                );
            }
        }
    }
}

#[test]
fn every_f16_kernel_rounds_with_the_shared_conversions() {
    // One copy of the f16 conversions: the kernels that read or write f16 storage import it, so
    // they round alike and as the host does (crates/water-gpu/src/storage.rs).
    for expected in [
        "grid_step_f16.wgsl",
        "grid_step_fused_f16.wgsl",
        "add_impulse_f16.wgsl",
        "surface_normals.wgsl",
    ] {
        let (_, source) = water_gpu::shaders::ALL
            .iter()
            .find(|(name, _)| *name == expected)
            .expect("embedded");
        assert!(
            source
                .lines()
                .any(|l| water_gpu::wgsl_import::import_of(l) == Some("f16_packing")),
            "{expected} does not import f16_packing"
        );
        assert!(water_gpu::shaders::composed(source).contains("fn f32_to_f16("));
    }
}

/// The shared modules `source` imports, directly or through the modules it imports.
fn imports(source: &str) -> Vec<&'static str> {
    let mut found: Vec<&'static str> = Vec::new();
    let mut pending = vec![source];
    while let Some(text) = pending.pop() {
        for line in text.lines() {
            let Some(name) = water_gpu::wgsl_import::import_of(line) else {
                continue;
            };
            if let Some((module, body)) = water_gpu::wgsl_import::SHARED
                .iter()
                .find(|(m, _)| *m == name)
            {
                if !found.contains(module) {
                    found.push(module);
                    pending.push(body);
                }
            }
        }
    }
    found
}
