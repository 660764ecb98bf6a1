//! Files that import each other in no circle: each file's `crate::` paths (outside comments)
//! name the modules it depends on, and the graph of those edges must have no cycle, so every
//! file can be read (and changed) after the files it uses. Checked for the crates that hold to
//! it; water-core and water-bevy still have small circles (3 and 4 files) and are not.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path (`a::b` for `a/b.rs` or `a/b/mod.rs`;
/// the crate root is left out: it declares the modules and imports them all).
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read source folder") {
            let path: PathBuf = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path
                .strip_prefix(src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            let name = parts.join("::");
            if name == "lib" || name == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            let code: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            found.insert(name, code);
        }
    }
    found
}

/// The module a `crate::` path names: its longest prefix that is a module.
fn target<'a>(path: &str, names: &'a BTreeSet<String>) -> Option<&'a String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .find_map(|k| names.get(&parts[..k].join("::")))
}

/// Edges `from -> to` for every module's `crate::` paths; a module's own parent and children
/// are left out (a parent holds its children and a child may use what its parent shares).
fn import_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = modules(src);
    let names: BTreeSet<String> = files.keys().cloned().collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &files {
        let edges = graph.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let Some(to) = target(rest[..end].trim_end_matches(':'), &names) else {
                continue;
            };
            let nested =
                to.starts_with(&format!("{module}::")) || module.starts_with(&format!("{to}::"));
            if to != module && !nested {
                edges.insert(to.clone());
            }
        }
    }
    graph
}

/// A cycle in `graph` as the modules along it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|p| p == node).unwrap_or(0);
                let mut cycle = path[start..].to_vec();
                cycle.push(node.to_owned());
                return Some(cycle);
            }
            None => {}
        }
        marks.insert(node.to_owned(), Mark::Open);
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, marks, path) {
                return Some(cycle);
            }
        }
        path.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

#[test]
fn the_cycle_finder_sees_a_circle_of_three() {
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
            .into_iter()
            .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
            .collect();
    let cycle = find_cycle(&graph).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4, "{cycle:?}");
    let line: BTreeMap<String, BTreeSet<String>> = [("a", "b"), ("b", "c")]
        .into_iter()
        .map(|(from, to)| (from.to_owned(), BTreeSet::from([to.to_owned()])))
        .collect();
    assert_eq!(find_cycle(&line), None);
}

#[test]
fn no_file_circles_in_gpu_render_scene_sphere_buoyancy_and_cli() {
    for name in [
        "water-sphere",
        "water-buoyancy",
        "water-gpu",
        "water-render",
        "water-scene",
        "water-cli",
    ] {
        let graph = import_graph(&crate_src(name));
        assert!(
            graph.len() > 3,
            "{name}: only {} modules found",
            graph.len()
        );
        if let Some(cycle) = find_cycle(&graph) {
            panic!("{name} imports in a circle: {}", cycle.join(" -> "));
        }
    }
}
