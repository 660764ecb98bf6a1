//! How closely a GPU backend must agree with the CPU reference, and how to measure it.

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

/// The loosest tolerance the comparison helpers accept (`water_testkit::compare_f32`):
/// anything looser would hide real errors.
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
