//! Floating bodies in grid scenarios: `[[body]]` entries, their simulation beside the water,
//! and their trajectories as CSV.
//!
//! ```toml
//! [contacts]
//! amplitude = 0.01            # m of bow/stern wave per m/s of body speed (default 0.01)
//!
//! [[body]]
//! name = "boat"               # optional; default body-1, body-2, ...
//! shape = "box"               # box | sphere | capsule
//! size = [1.2, 0.5, 0.3]      # box: side lengths, m
//! # radius = 0.2              # sphere and capsule, m
//! # length = 0.6              # capsule: length of its cylinder along its x axis, m
//! mass = 60.0                 # kg
//! position = [5.0, 12.8, 0.0] # m; the grid covers [0, W h) x [0, H h), still water at z = 0
//! rotation = [0.0, 0.0, 90.0] # degrees about x, then y, then z (default none)
//! velocity = [0.5, 0.0, 0.0]  # m/s at the start (default at rest)
//! path = [[5.0, 12.8], [20.0, 12.8]] # optional: towed along these points (m)...
//! speed = 0.8                 # ...at this speed, m/s
//! drag = [4.0, 0.5, 4.0]     # per unit mass: linear 1/s, quadratic 1/m; angular 1/s per unit
//!                             # of the smallest moment of inertia (these are the defaults)
//! ```
//!
//! Bodies float by Archimedes (fresh water, standard gravity along `-z`), sampled from the
//! water every step, and cut the water: their contact masks make bow and stern waves. A towed
//! body's `x` and `y` follow its path; its height and tilt float freely.

use std::io::Write;
use std::path::Path;

use glam::{EulerRot, Quat, Vec2, Vec3};
use serde::Deserialize;
use toml::Spanned;

use water_buoyancy::{
    Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape,
    Wrench, FRESH_WATER_DENSITY,
};
use water_core::{ContactMasks, GridSize, HeightSource};

use crate::scenario::ScenarioError;

/// Drag rates unless a body sets its own: linear 1/s, quadratic 1/m, angular 1/s.
pub const DEFAULT_DRAG_RATES: [f64; 3] = [4.0, 0.5, 4.0];

/// Bow and stern wave amplitude unless a scenario sets one, m per m/s.
pub const DEFAULT_CONTACT_AMPLITUDE: f32 = 0.01;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawContacts {
    amplitude: Spanned<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBody {
    name: Option<String>,
    shape: Spanned<String>,
    size: Option<Spanned<[f64; 3]>>,
    radius: Option<Spanned<f64>>,
    length: Option<Spanned<f64>>,
    mass: Spanned<f64>,
    position: Spanned<[f64; 3]>,
    rotation: Option<Spanned<[f64; 3]>>,
    velocity: Option<Spanned<[f64; 3]>>,
    path: Option<Spanned<Vec<[f64; 2]>>>,
    speed: Option<Spanned<f64>>,
    drag: Option<Spanned<[f64; 3]>>,
}

/// A towed body's route.
#[derive(Debug, Clone, PartialEq)]
pub struct Path2 {
    /// Waypoints, m.
    pub points: Vec<Vec2>,
    /// Speed along them, m/s.
    pub speed: f32,
}

impl Path2 {
    /// Position and velocity at time `t` seconds (parked at the last point once there).
    #[must_use]
    pub fn at(&self, t: f32) -> (Vec2, Vec2) {
        let mut travelled = self.speed * t;
        for w in self.points.windows(2) {
            let leg = w[1] - w[0];
            let length = leg.length();
            if travelled <= length && length > 0.0 {
                let along = leg / length;
                return (w[0] + along * travelled, along * self.speed);
            }
            travelled -= length;
        }
        (
            *self.points.last().expect("validated: two points or more"),
            Vec2::ZERO,
        )
    }
}

/// A validated `[[body]]`.
#[derive(Debug, Clone)]
pub struct BodySpec {
    /// Name in the CSV.
    pub name: String,
    /// The floating body at its start.
    pub body: FloatingBody,
    /// The route of a towed body.
    pub path: Option<Path2>,
}

/// Parses the `[contacts]` table and `[[body]]` entries.
pub(crate) fn parse(
    contacts: Option<&RawContacts>,
    raw: &[Spanned<RawBody>],
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(f32, Vec<BodySpec>), ScenarioError> {
    let amplitude = match contacts {
        Some(c) => {
            let a = *c.amplitude.get_ref();
            if !a.is_finite() || a < 0.0 {
                return Err(at(
                    c.amplitude.span(),
                    format!("contacts amplitude must be a finite number >= 0, got {a}"),
                ));
            }
            a as f32
        }
        None => DEFAULT_CONTACT_AMPLITUDE,
    };
    let bodies = raw
        .iter()
        .enumerate()
        .map(|(i, b)| parse_body(i, b, at))
        .collect::<Result<_, _>>()?;
    Ok((amplitude, bodies))
}

fn vec3(v: [f64; 3]) -> Vec3 {
    Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

fn parse_body(
    index: usize,
    spanned: &Spanned<RawBody>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<BodySpec, ScenarioError> {
    let b = spanned.get_ref();
    let whole = spanned.span();
    let blame = |span: Option<std::ops::Range<usize>>| {
        let span = span.unwrap_or_else(|| whole.clone());
        move |e: water_buoyancy::BuoyancyError| at(span.clone(), e.to_string())
    };
    let missing =
        |key: &str, shape: &str| at(b.shape.span(), format!("a {shape} body needs `{key}`"));
    let shape = match b.shape.get_ref().as_str() {
        "box" => {
            let size = b.size.as_ref().ok_or_else(|| missing("size", "box"))?;
            Shape::cuboid(vec3(*size.get_ref()) * 0.5).map_err(blame(Some(size.span())))?
        }
        "sphere" => {
            let r = b
                .radius
                .as_ref()
                .ok_or_else(|| missing("radius", "sphere"))?;
            Shape::sphere(*r.get_ref() as f32).map_err(blame(Some(r.span())))?
        }
        "capsule" => {
            let r = b
                .radius
                .as_ref()
                .ok_or_else(|| missing("radius", "capsule"))?;
            let l = b
                .length
                .as_ref()
                .ok_or_else(|| missing("length", "capsule"))?;
            Shape::capsule(*r.get_ref() as f32, 0.5 * *l.get_ref() as f32)
                .map_err(blame(Some(l.span())))?
        }
        other => {
            return Err(at(
                b.shape.span(),
                format!("unknown body shape {other:?}; expected box, sphere or capsule"),
            ))
        }
    };
    // Keys that belong to other shapes are mistakes, not decorations.
    let stray = match &shape {
        Shape::Cuboid { .. } => b
            .radius
            .as_ref()
            .map(|r| ("radius", r.span()))
            .or(b.length.as_ref().map(|l| ("length", l.span()))),
        Shape::Sphere { .. } => b
            .size
            .as_ref()
            .map(|s| ("size", s.span()))
            .or(b.length.as_ref().map(|l| ("length", l.span()))),
        _ => b.size.as_ref().map(|s| ("size", s.span())),
    };
    if let Some((key, span)) = stray {
        return Err(at(
            span,
            format!("`{key}` does not apply to a {} body", b.shape.get_ref()),
        ));
    }
    // The capsule's cylinder lies along its local z; the scenario's along x, as boats lie.
    let local = match &shape {
        Shape::Capsule { .. } => Pose::new(
            Vec3::ZERO,
            Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
        ),
        _ => Ok(Pose::IDENTITY),
    }
    .map_err(blame(None))?;
    let rotation = b.rotation.as_ref().map_or(Ok(Quat::IDENTITY), |r| {
        let [x, y, z] = *r.get_ref();
        if [x, y, z].iter().all(|v| v.is_finite()) {
            Ok(Quat::from_euler(
                EulerRot::XYZ,
                x.to_radians() as f32,
                y.to_radians() as f32,
                z.to_radians() as f32,
            ))
        } else {
            Err(at(
                r.span(),
                format!("rotation must be finite, got {:?}", r.get_ref()),
            ))
        }
    })?;
    let pose =
        Pose::new(vec3(*b.position.get_ref()), rotation).map_err(blame(Some(b.position.span())))?;
    let velocity = b
        .velocity
        .as_ref()
        .map_or(Vec3::ZERO, |v| vec3(*v.get_ref()));
    let state = BodyState {
        pose,
        linear_velocity: velocity,
        angular_velocity: Vec3::ZERO,
    };
    let mass = *b.mass.get_ref() as f32;
    let inertia_shape = shape.clone();
    let hull = Hull::new(shape, local).map_err(blame(None))?;
    let inertia = {
        let r = glam::Mat3::from_quat(local.orientation);
        r * inertia_shape.inertia(mass.max(f32::MIN_POSITIVE)) * r.transpose()
    };
    let rigid = RigidBody::new(mass, inertia, state).map_err(|e| {
        let span = match &e {
            water_buoyancy::BuoyancyError::NotPositive { name: "mass", .. }
            | water_buoyancy::BuoyancyError::NotFinite { name: "mass", .. } => b.mass.span(),
            _ => b.velocity.as_ref().map_or(whole.clone(), Spanned::span),
        };
        at(span, e.to_string())
    })?;
    // Drag per unit mass (and per unit of the smallest moment of inertia): the same rates damp a
    // crate and a ship alike, and explicit integration stays stable while rate * dt < 2.
    let [linear, quadratic, angular] = b.drag.as_ref().map_or(DEFAULT_DRAG_RATES, |d| *d.get_ref());
    let smallest_moment = {
        let m = rigid.inertia();
        m.x_axis.x.min(m.y_axis.y).min(m.z_axis.z)
    };
    let archimedes = Archimedes::new(FRESH_WATER_DENSITY)
        .and_then(|a| {
            a.with_drag(
                linear as f32 * mass,
                quadratic as f32 * mass,
                angular as f32 * smallest_moment,
            )
        })
        .map_err(blame(b.drag.as_ref().map(Spanned::span)))?;
    let path = match (&b.path, &b.speed) {
        (Some(p), Some(s)) => {
            let points: Vec<Vec2> = p
                .get_ref()
                .iter()
                .map(|q| Vec2::new(q[0] as f32, q[1] as f32))
                .collect();
            if points.len() < 2 || points.iter().any(|q| !q.is_finite()) {
                return Err(at(
                    p.span(),
                    format!(
                        "a path needs two or more finite points, got {}",
                        points.len()
                    ),
                ));
            }
            let speed = *s.get_ref();
            if !speed.is_finite() || speed <= 0.0 {
                return Err(at(
                    s.span(),
                    format!("speed must be greater than 0, got {speed}"),
                ));
            }
            Some(Path2 {
                points,
                speed: speed as f32,
            })
        }
        (Some(p), None) => return Err(at(p.span(), "a path needs a `speed` (m/s)".into())),
        (None, Some(s)) => return Err(at(s.span(), "`speed` applies only with a `path`".into())),
        (None, None) => None,
    };
    Ok(BodySpec {
        name: b
            .name
            .clone()
            .unwrap_or_else(|| format!("body-{}", index + 1)),
        body: FloatingBody {
            body: rigid,
            hulls: vec![hull],
            model: BuoyancyModel::Archimedes(archimedes),
        },
        path,
    })
}

/// The bodies of a run, their contact masks and their trajectory rows.
#[derive(Debug)]
pub struct Fleet {
    specs: Vec<BodySpec>,
    contacts: ContactMasks,
    mask: Vec<f32>,
    cell_size: f32,
    rows: Vec<String>,
}

/// Header of `bodies.csv`.
pub const CSV_HEADER: &str =
    "step,time_s,body,x_m,y_m,z_m,qx,qy,qz,qw,vx_m_s,vy_m_s,vz_m_s,submerged_m3";

impl Fleet {
    /// The bodies at their start, already in the masks (a body that has been floating there does
    /// not splash when the run begins).
    ///
    /// # Errors
    /// A body's mask could not be drawn (never for validated bodies).
    pub fn new(
        specs: Vec<BodySpec>,
        size: GridSize,
        cell_size: f32,
        amplitude: f32,
    ) -> Result<Self, water_buoyancy::BuoyancyError> {
        let mut fleet = Self {
            specs,
            contacts: ContactMasks::new(size, amplitude)?,
            mask: vec![0.0; size.cells()],
            cell_size,
            rows: Vec::new(),
        };
        fleet.redraw_masks(size)?;
        fleet.redraw_masks(size)?;
        for i in 0..fleet.specs.len() {
            fleet.record(0, 0.0, i, None);
        }
        Ok(fleet)
    }

    /// Whether there are no bodies.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// The bodies, in the scenario's order.
    pub fn bodies(&self) -> impl Iterator<Item = &FloatingBody> {
        self.specs.iter().map(|s| &s.body)
    }

    /// The masks for the water's next step.
    #[must_use]
    pub fn contacts(&self) -> &ContactMasks {
        &self.contacts
    }

    /// Moves every body one step of `dt` seconds on `water` (step `step` is about to run, at
    /// time `step * dt`), then redraws the masks.
    ///
    /// # Errors
    /// Non-finite forces (a body thrown out of the water by an unstable setting).
    pub fn advance(
        &mut self,
        water: &(impl HeightSource + ?Sized),
        step: u64,
        dt: f32,
    ) -> Result<(), water_buoyancy::BuoyancyError> {
        let gravity = Gravity::EARTH;
        let size = self.contacts.size();
        let time = (step + 1) as f32 * dt;
        for i in 0..self.specs.len() {
            let spec = &mut self.specs[i];
            let outcome = spec.body.step(water, &gravity, dt, Wrench::ZERO)?;
            if let Some(path) = &spec.path {
                let (xy, v) = path.at(time);
                let s = &mut spec.body.body.state;
                s.pose.position.x = xy.x;
                s.pose.position.y = xy.y;
                s.linear_velocity.x = v.x;
                s.linear_velocity.y = v.y;
            }
            self.record(step + 1, time, i, Some(outcome.submerged_volume));
        }
        self.redraw_masks(size)
    }

    fn redraw_masks(&mut self, size: GridSize) -> Result<(), water_buoyancy::BuoyancyError> {
        self.mask.fill(0.0);
        for spec in &self.specs {
            spec.body
                .rasterise_grid_mask(size, self.cell_size, &mut self.mask)?;
        }
        self.contacts.advance(&self.mask)?;
        Ok(())
    }

    /// One CSV row; the submerged volume is left empty before the first step has measured it.
    fn record(&mut self, step: u64, time: f32, i: usize, submerged: Option<f32>) {
        let spec = &self.specs[i];
        let submerged = submerged.map_or_else(String::new, |v| v.to_string());
        let s = &spec.body.body.state;
        let (p, q, v) = (s.pose.position, s.pose.orientation, s.linear_velocity);
        self.rows.push(format!(
            "{step},{time},{},{},{},{},{},{},{},{},{},{},{},{submerged}",
            spec.name, p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z
        ));
    }

    /// Final poses, by name.
    #[must_use]
    pub fn positions(&self) -> Vec<(String, Vec3)> {
        self.specs
            .iter()
            .map(|s| (s.name.clone(), s.body.body.state.pose.position))
            .collect()
    }

    /// Writes `bodies.csv`: one row per body per step, from the start.
    ///
    /// # Errors
    /// I/O errors.
    pub fn write_csv(&self, path: &Path) -> std::io::Result<()> {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
        writeln!(file, "{CSV_HEADER}")?;
        for row in &self.rows {
            writeln!(file, "{row}")?;
        }
        file.flush()
    }
}
