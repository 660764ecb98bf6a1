//! The README's Bevy example is the one `src/lib.rs` compiles as a doc test: the README cannot
//! compile it itself (its code blocks are doc tests of `water-scene`, which has no Bevy).

/// The lines of the first code block that opens with `opening` after `heading`, the `//! `
/// prefix of crate docs stripped.
fn block_after(text: &str, heading: &str, opening: &str) -> Vec<String> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let lines: Vec<String> = text[start..]
        .lines()
        .map(|l| match l.strip_prefix("//!") {
            Some(doc) => doc.strip_prefix(' ').unwrap_or(doc).to_owned(),
            None => l.to_owned(),
        })
        .collect();
    let open = lines
        .iter()
        .position(|l| l == opening)
        .unwrap_or_else(|| panic!("no {opening:?} block after {heading:?}"));
    lines[open + 1..]
        .iter()
        .take_while(|l| l.as_str() != "```")
        .cloned()
        .collect()
}

#[test]
fn the_readme_example_is_the_compiled_one() {
    let readme = include_str!("../../../README.md");
    let lib = include_str!("../src/lib.rs");
    let in_readme = block_after(readme, "\n## Bevy\n", "```rust,ignore");
    let compiled = block_after(lib, "A game (the README's example", "```no_run");
    assert!(in_readme.len() > 10, "README block: {in_readme:?}");
    assert_eq!(in_readme, compiled);
}
