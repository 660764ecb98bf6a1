//! Numbers from fuzz bytes: any bit pattern some of the time, a value inside the range a
//! caller would use most of the time, and the edges (0, -0, subnormals, f32 and f64 limits,
//! infinities, NaN) on purpose. Raw bit patterns alone are almost never accepted, which would
//! leave the stepping code unfuzzed.

use arbitrary::Arbitrary;

/// One number of an input.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Num {
    /// Any f64 bit pattern.
    Raw(f64),
    /// `lo + (hi - lo) * n / 65535` for the caller's range `[lo, hi]`.
    In(u16),
    /// One of [`EDGES`], by index.
    Edge(u8),
}

/// Values that break careless checks.
pub const EDGES: [f64; 16] = [
    0.0,
    -0.0,
    -1.0,
    1.0,
    0.5,
    f64::MIN_POSITIVE,
    5e-324,
    1e-30,
    1e30,
    f32::MAX as f64,
    f32::MAX as f64 * 2.0,
    f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    -1e-300,
];

impl Num {
    /// The number, with [`Num::In`] mapped onto `[lo, hi]`.
    #[must_use]
    pub fn get(self, lo: f64, hi: f64) -> f64 {
        match self {
            Self::Raw(v) => v,
            Self::In(n) => lo + (hi - lo) * f64::from(n) / f64::from(u16::MAX),
            Self::Edge(i) => EDGES[usize::from(i) % EDGES.len()],
        }
    }

    /// As [`Num::get`], rounded to f32 (`as`: out of range gives an infinity).
    #[must_use]
    pub fn get32(self, lo: f64, hi: f64) -> f32 {
        self.get(lo, hi) as f32
    }

    /// Three of them as a vector.
    #[must_use]
    pub fn vec3(v: [Self; 3], lo: f64, hi: f64) -> glam::Vec3 {
        glam::Vec3::new(v[0].get32(lo, hi), v[1].get32(lo, hi), v[2].get32(lo, hi))
    }
}
