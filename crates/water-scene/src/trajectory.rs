//! Trajectories on request: a scene writes its bodies' states into a sink the caller owns, only
//! when asked ([`crate::Scene::record`]), so a long run keeps nothing it was not asked to keep.

use std::io::Write;

use glam::{Quat, Vec3};

/// One body's state after a step, in the caller's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrajectoryRow<'a> {
    /// Steps taken.
    pub step: u64,
    /// Simulated time, seconds.
    pub time: f64,
    /// The body's name.
    pub body: &'a str,
    /// Centre of mass, metres.
    pub position: Vec3,
    /// Orientation (body to world).
    pub orientation: Quat,
    /// Velocity of the centre of mass, m/s.
    pub velocity: Vec3,
    /// Submerged volume at the last step, m^3 (`None` before the first step).
    pub submerged_volume: Option<f32>,
}

/// Where trajectory rows go.
pub trait TrajectorySink {
    /// Takes one row.
    ///
    /// # Errors
    /// The sink's own failure (a full disk, a closed pipe).
    fn record(&mut self, row: &TrajectoryRow<'_>) -> std::io::Result<()>;
}

/// Rows kept in memory, owned.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedRow {
    /// Steps taken.
    pub step: u64,
    /// Simulated time, seconds.
    pub time: f64,
    /// The body's name.
    pub body: String,
    /// Centre of mass, metres.
    pub position: Vec3,
    /// Orientation.
    pub orientation: Quat,
    /// Velocity, m/s.
    pub velocity: Vec3,
    /// Submerged volume, m^3.
    pub submerged_volume: Option<f32>,
}

impl TrajectorySink for Vec<OwnedRow> {
    fn record(&mut self, row: &TrajectoryRow<'_>) -> std::io::Result<()> {
        self.push(OwnedRow {
            step: row.step,
            time: row.time,
            body: row.body.to_owned(),
            position: row.position,
            orientation: row.orientation,
            velocity: row.velocity,
            submerged_volume: row.submerged_volume,
        });
        Ok(())
    }
}

/// Rows as CSV lines, written as they come (nothing is held back but the writer's buffer).
#[derive(Debug)]
pub struct CsvTrajectory<W: Write> {
    out: W,
}

/// The CSV header [`CsvTrajectory`] writes first.
pub const CSV_HEADER: &str =
    "step,time_s,body,x_m,y_m,z_m,qx,qy,qz,qw,vx_m_s,vy_m_s,vz_m_s,submerged_m3";

impl<W: Write> CsvTrajectory<W> {
    /// Writes the header to `out`.
    ///
    /// # Errors
    /// The writer's error.
    pub fn new(mut out: W) -> std::io::Result<Self> {
        writeln!(out, "{CSV_HEADER}")?;
        Ok(Self { out })
    }

    /// Flushes and returns the writer.
    ///
    /// # Errors
    /// The writer's error.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> TrajectorySink for CsvTrajectory<W> {
    fn record(&mut self, row: &TrajectoryRow<'_>) -> std::io::Result<()> {
        // -0 (a quaternion's x of a body turned about z alone, say) is written 0.
        let (p, q, v) = (
            row.position + Vec3::ZERO,
            row.orientation.to_array().map(|c| c + 0.0),
            row.velocity + Vec3::ZERO,
        );
        let q = Quat::from_array(q);
        // Each number in Rust's shortest round-trip form, with an exponent where that is
        // shorter: a volume of 8e-18 m^3 is `8.2399365e-18`, not 26 digits.
        let submerged = row
            .submerged_volume
            .map_or_else(String::new, |v| format!("{v:?}"));
        writeln!(
            self.out,
            "{},{:?},{},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{:?},{submerged}",
            row.step,
            row.time,
            csv_field(row.body),
            p.x,
            p.y,
            p.z,
            q.x,
            q.y,
            q.z,
            q.w,
            v.x,
            v.y,
            v.z
        )
    }
}

/// `text` as one CSV field (RFC 4180): quoted, its quotes doubled, where it holds a comma, a
/// quote or a line break, so a body's name never splits its row.
fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name with a comma, a quote or a line break is one quoted field (RFC 4180), so its row
    /// keeps its 14 columns; a plain name is written as it is; a tiny number is written short.
    #[test]
    fn a_name_that_would_split_its_row_is_quoted() {
        let mut csv = CsvTrajectory::new(Vec::new()).expect("header");
        for (body, submerged) in [("boat", 8.2399365e-18), ("a,b \"c\"\nd", 0.25)] {
            let row = TrajectoryRow {
                step: 1,
                time: 0.5,
                body,
                position: Vec3::ZERO,
                orientation: Quat::IDENTITY,
                velocity: Vec3::ZERO,
                submerged_volume: Some(submerged),
            };
            csv.record(&row).expect("row");
        }
        let text = String::from_utf8(csv.finish().expect("flush")).expect("utf8");
        let rows: Vec<&str> = text.splitn(3, '\n').collect();
        assert_eq!(
            rows[1],
            "1,0.5,boat,0.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,8.2399365e-18"
        );
        assert_eq!(
            rows[2],
            "1,0.5,\"a,b \"\"c\"\"\nd\",0.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.25\n"
        );
    }

    /// A negative zero (a quaternion's x of a body turned about z alone) is written 0.
    #[test]
    fn negative_zeros_are_written_zero() {
        let mut csv = CsvTrajectory::new(Vec::new()).expect("header");
        let row = TrajectoryRow {
            step: 0,
            time: 0.0,
            body: "b",
            position: Vec3::new(-0.0, 1.0, -0.0),
            orientation: Quat::from_xyzw(-0.0, 0.0, -0.0, 1.0),
            velocity: Vec3::splat(-0.0),
            submerged_volume: None,
        };
        csv.record(&row).expect("row");
        let text = String::from_utf8(csv.finish().expect("flush")).expect("utf8");
        assert_eq!(
            text.lines().nth(1),
            Some("0,0.0,b,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,")
        );
    }
}
