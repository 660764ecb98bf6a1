//! Comparing a backend's heights with the CPU reference.

use std::path::PathBuf;

pub use water_gpu::{Comparison, F32_TOLERANCE, LOOSEST_TOLERANCE};

/// Where failing comparisons write both fields.
fn dump_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join("water-mismatch")
}

fn dump(name: &str, reference: &[u8], candidate: &[u8]) -> String {
    let dir = dump_dir();
    let written = std::fs::create_dir_all(&dir).and_then(|()| {
        std::fs::write(dir.join(format!("{name}.reference.bin")), reference)?;
        std::fs::write(dir.join(format!("{name}.candidate.bin")), candidate)
    });
    match written {
        Ok(()) => format!("both fields written to {}/{name}.*.bin", dir.display()),
        Err(e) => format!("could not write the fields: {e}"),
    }
}

/// Compares f32 heights within `tolerance` (relative to the reference's largest |height|).
///
/// # Errors
/// A message with the differences when they exceed the tolerance; both fields are then written
/// to disk as little-endian f32 for inspection.
///
/// # Panics
/// If `tolerance` is looser than [`LOOSEST_TOLERANCE`], or the lengths differ.
pub fn compare_f32(
    name: &str,
    width: usize,
    reference: &[f32],
    candidate: &[f32],
    tolerance: f32,
) -> Result<Comparison, String> {
    assert!(
        tolerance <= LOOSEST_TOLERANCE,
        "tolerance {tolerance} is looser than {LOOSEST_TOLERANCE}: it would hide real errors"
    );
    let c = Comparison::measure(reference, candidate);
    if c.within(tolerance) {
        return Ok(c);
    }
    let (x, y) = (c.worst_cell % width, c.worst_cell / width);
    Err(format!(
        "{name}: max |diff| {:.3e} at cell ({x}, {y}) (reference {}, candidate {}), rms {:.3e}, \
         allowed {:.3e}; {}",
        c.max_abs,
        reference[c.worst_cell],
        candidate[c.worst_cell],
        c.rms,
        tolerance * c.scale,
        dump(
            name,
            bytemuck::cast_slice(reference),
            bytemuck::cast_slice(candidate)
        )
    ))
}

/// [`compare_f32`] for a test that stops at the first mismatch: the comparison when it is within
/// `tolerance`.
///
/// # Panics
/// With [`compare_f32`]'s message (both fields written to disk) when it is not.
#[track_caller]
pub fn assert_f32_within(
    name: &str,
    width: usize,
    reference: &[f32],
    candidate: &[f32],
    tolerance: f32,
) -> Comparison {
    compare_f32(name, width, reference, candidate, tolerance).unwrap_or_else(|e| panic!("{e}"))
}

/// Compares classic i16 heights bit for bit.
///
/// # Errors
/// A message naming the first differing cell; both fields are written to disk.
pub fn compare_exact_i16(
    name: &str,
    width: usize,
    reference: &[i16],
    candidate: &[i16],
) -> Result<(), String> {
    assert_eq!(reference.len(), candidate.len(), "field sizes");
    let Some(i) = reference.iter().zip(candidate).position(|(a, b)| a != b) else {
        return Ok(());
    };
    let differing = reference
        .iter()
        .zip(candidate)
        .filter(|(a, b)| a != b)
        .count();
    let bytes = |v: &[i16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    Err(format!(
        "{name}: {differing} cells differ, first at ({}, {}): reference {}, candidate {}; {}",
        i % width,
        i / width,
        reference[i],
        candidate[i],
        dump(name, &bytes(reference), &bytes(candidate))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_the_worst_cell_and_rejects_nan() {
        let c = Comparison::measure(&[1.0, -2.0, 0.5], &[1.0, -2.1, 0.5]);
        assert_eq!(c.worst_cell, 1);
        assert!((c.max_abs - 0.1).abs() < 1e-6);
        assert_eq!(c.scale, 2.0);
        assert!(!c.within(1e-3));
        assert!(!Comparison::measure(&[1.0], &[f32::NAN]).within(LOOSEST_TOLERANCE));
        assert!(compare_f32("ok", 3, &[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0], F32_TOLERANCE).is_ok());
    }

    #[test]
    #[should_panic(expected = "looser")]
    fn refuses_loose_tolerances() {
        let _ = compare_f32("loose", 1, &[1.0], &[1.0], 0.01);
    }

    #[test]
    fn exact_comparison_names_the_first_difference() {
        let err =
            compare_exact_i16("classic", 2, &[1, 2, 3, 4], &[1, 2, 3, 5]).expect_err("differs");
        assert!(err.contains("(1, 1)"), "{err}");
    }
}
