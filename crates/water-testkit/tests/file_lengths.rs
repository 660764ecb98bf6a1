//! No source file of the project's crates, examples, benches or fuzz targets is over 800 lines:
//! a file that long holds more than one concept and is split by what it does (STYLE: one file
//! per concept). Tests and WGSL are not counted here.

use std::path::{Path, PathBuf};

/// The most lines a source file may have.
const MAX_LINES: usize = 800;

/// Every `.rs` file below `dir` (skipping `target` folders), sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "target") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The source folders: each crate's `src`, the examples', the benches' and the fuzz targets'.
fn source_folders(root: &Path) -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("the crates folder")
        .flatten()
        .map(|e| e.path().join("src"))
        .collect();
    for other in [
        "examples/src",
        "benches/benches",
        "fuzz/src",
        "fuzz/fuzz_targets",
    ] {
        folders.push(root.join(other));
    }
    folders.retain(|f| f.is_dir());
    folders.sort();
    folders
}

/// Files over `limit` lines, with their lengths.
fn too_long(files: &[PathBuf], limit: usize) -> Vec<(PathBuf, usize)> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).expect("readable source");
            (f.clone(), text.lines().count())
        })
        .filter(|&(_, lines)| lines > limit)
        .collect()
}

#[test]
fn no_source_file_is_over_800_lines() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let folders = source_folders(&root);
    assert!(
        folders.len() >= 10,
        "the crates' sources found: {folders:?}"
    );
    let files: Vec<PathBuf> = folders.iter().flat_map(|f| rust_files(f)).collect();
    assert!(
        files.len() > 200,
        "the walker found the sources ({})",
        files.len()
    );
    let long = too_long(&files, MAX_LINES);
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

#[test]
fn the_check_sees_a_long_file() {
    // The longest source file is over a limit just under its length.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let files: Vec<PathBuf> = source_folders(&root)
        .iter()
        .flat_map(|f| rust_files(f))
        .collect();
    let longest = files
        .iter()
        .map(|f| {
            std::fs::read_to_string(f)
                .expect("readable")
                .lines()
                .count()
        })
        .max()
        .expect("some file");
    assert!(!too_long(&files, longest - 1).is_empty());
    assert!(too_long(&files, longest).is_empty());
}
