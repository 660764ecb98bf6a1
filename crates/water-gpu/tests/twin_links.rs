//! Shaders and their CPU twins point at each other, and every shader the project names exists:
//! each kernel in `shaders/` (and each shared module in `shaders/shared/`) names its twin in its
//! header (`CPU twin:` for a formula's CPU function, `Host twin:` for the Rust code that binds
//! or feeds it), that file exists and names the shader back; and every `NAME.wgsl` named in the
//! Rust sources, the WGSL headers or `docs/` is a file in `shaders/` (or, for the demo's own,
//! beside it in `examples/`, and for a crate's own, in that crate).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file below `dir` whose name ends with one of `extensions`, sorted.
fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if name != "target" && !name.starts_with('.') {
                    stack.push(path);
                }
            } else if extensions.iter().any(|x| name.ends_with(x)) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The shaders: `(path relative to the root, file text)`, kernels and shared modules.
fn shaders() -> Vec<(String, String)> {
    let found: Vec<(String, String)> = files(&root().join("shaders"), &[".wgsl"])
        .into_iter()
        .map(|p| {
            let relative = p
                .strip_prefix(root())
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&p).expect("readable");
            (relative, text)
        })
        .collect();
    assert!(found.len() > 10, "the walker found the shaders: {found:?}");
    found
}

/// The leading comment block of a WGSL file.
fn header(text: &str) -> String {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Repository paths (`crates/...rs`) named in `text`, in order.
fn rust_paths(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || "(),;`".contains(c))
        .filter(|w| w.starts_with("crates/") && w.ends_with(".rs"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_shader_names_a_twin_that_names_it_back() {
    let mut problems = Vec::new();
    for (path, text) in shaders() {
        let head = header(&text);
        let Some(at) = head.find("CPU twin").or_else(|| head.find("Host twin")) else {
            problems.push(format!(
                "{path}: its header names no `CPU twin:` or `Host twin:`"
            ));
            continue;
        };
        let named = rust_paths(&head[at..]);
        let Some(twin) = named.first() else {
            problems.push(format!("{path}: the twin line names no crates/... file"));
            continue;
        };
        for file in rust_paths(&head) {
            if !root().join(&file).is_file() {
                problems.push(format!("{path}: names {file}, which does not exist"));
            }
        }
        if let Ok(twin_text) = std::fs::read_to_string(root().join(twin)) {
            if !twin_text.contains(&path) {
                problems.push(format!("{path}: its twin {twin} does not name {path}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_shader_named_anywhere_exists() {
    let mut known: Vec<String> = shaders().into_iter().map(|(p, _)| p).collect();
    // The demo's own shaders live beside it, and a crate's own (the Bevy material's) in it.
    for dir in ["examples", "crates"] {
        known.extend(
            files(&root().join(dir), &[".wgsl"])
                .iter()
                .map(|p| p.to_string_lossy().replace('\\', "/")),
        );
    }
    let mut sources = files(&root().join("crates"), &[".rs"]);
    sources.extend(files(&root().join("examples"), &[".rs"]));
    sources.extend(files(&root().join("benches"), &[".rs"]));
    sources.extend(files(&root().join("docs"), &[".md"]));
    sources.extend(files(&root().join("shaders"), &[".wgsl"]));
    assert!(sources.len() > 50, "the walker found the sources");
    let mut problems = Vec::new();
    for file in &sources {
        let text = std::fs::read_to_string(file).expect("readable");
        let words = text.split(|c: char| !(c.is_alphanumeric() || "_/.-".contains(c)));
        for word in words.filter(|w| w.ends_with(".wgsl") && w.len() > ".wgsl".len()) {
            let word = word.trim_start_matches("../").trim_start_matches("./");
            // A placeholder (`NAME.wgsl`) names no file.
            let stem = word
                .rsplit('/')
                .next()
                .unwrap_or(word)
                .trim_end_matches(".wgsl");
            if stem.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                continue;
            }
            // An asset path (`CRATE/FILE.wgsl`, as a Bevy plugin embeds its shader) names
            // the file by its name; a repository path must match whole.
            let file_name = word.rsplit('/').next().unwrap_or(word);
            let repository_path = word.starts_with("shaders/") || word.starts_with("crates/");
            let exists = known.iter().any(|k| {
                k == word
                    || k.ends_with(&format!("/{word}"))
                    || word.ends_with(k.as_str())
                    || (!repository_path && k.ends_with(&format!("/{file_name}")))
            });
            if !exists {
                problems.push(format!(
                    "{}: names {word}, which is not in shaders/",
                    file.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
