//! Comparing a backend's heights with the CPU reference.

use std::path::PathBuf;

/// Largest difference allowed between f32 heights of the CPU reference and a GPU backend,
/// relative to the largest |height| of the reference.
///
/// Why this size: every step rounds about six f32 operations per cell; a GPU may fuse a multiply
/// and an add or evaluate a sum in another order, so each step can differ by a few ulp
/// (2^-24 ≈ 6e-8 relative) per cell. The wave equation neither damps nor amplifies such
/// differences, so they add up at most linearly with the steps: about 300 steps x 6 operations x
/// 6e-8 ≈ 1e-4. A wrong boundary, a missed event or an off-by-one neighbour gives differences of
/// order 1 instead.
pub const F32_TOLERANCE: f32 = 2e-4;

/// The loosest tolerance [`compare_f32`] accepts: anything looser would hide real errors.
pub const LOOSEST_TOLERANCE: f32 = 1e-3;

/// Differences between two height fields.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparison {
    /// Largest absolute difference.
    pub max_abs: f32,
    /// Root-mean-square difference.
    pub rms: f32,
    /// Largest |height| of the reference.
    pub scale: f32,
    /// Cell index of the largest difference.
    pub worst_cell: usize,
}

impl Comparison {
    /// Measures `candidate` against `reference`.
    ///
    /// # Panics
    /// If the lengths differ.
    #[must_use]
    pub fn measure(reference: &[f32], candidate: &[f32]) -> Self {
        assert_eq!(reference.len(), candidate.len(), "field sizes");
        let (mut max_abs, mut sum_sq, mut worst_cell) = (0.0f32, 0.0f64, 0);
        for (i, (a, b)) in reference.iter().zip(candidate).enumerate() {
            let d = (a - b).abs();
            if d > max_abs || d.is_nan() {
                max_abs = if d.is_nan() { f32::INFINITY } else { d };
                worst_cell = i;
            }
            sum_sq += f64::from(d) * f64::from(d);
        }
        let scale = reference.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        Self {
            max_abs,
            rms: (sum_sq / reference.len().max(1) as f64).sqrt() as f32,
            scale,
            worst_cell,
        }
    }

    /// True when the largest difference is within `tolerance` relative to the reference.
    #[must_use]
    pub fn within(&self, tolerance: f32) -> bool {
        self.max_abs <= tolerance * self.scale.max(f32::MIN_POSITIVE)
    }
}

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
