//! Floating bodies in grid scenarios: the `[contacts]` table and `[[body]]` entries.
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
//!                             # of the smallest moment of inertia (DragRates::DEFAULT)
//! force = [0.0, 0.0, 0.0]     # N, world frame, applied every step (default none)
//! ```
//!
//! Bodies float by Archimedes (fresh water, standard gravity along `-z`), sampled from the
//! water every step, and cut the water: their contact masks make bow and stern waves. A towed
//! body's `x` and `y` follow its path; its height and tilt float freely.

use glam::{EulerRot, Quat, Vec2, Vec3};
use serde::Deserialize;
use toml::Spanned;

use water_buoyancy::{
    BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
};

use super::ScenarioError;
use crate::body::BodySpec;
use crate::scene::DEFAULT_CONTACT_AMPLITUDE;
use crate::tow_path::TowPath;

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
    force: Option<Spanned<[f64; 3]>>,
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
    // crate and a ship alike.
    let rates = b.drag.as_ref().map_or(DragRates::DEFAULT, |d| {
        let [linear, quadratic, angular] = *d.get_ref();
        DragRates {
            linear: linear as f32,
            quadratic: quadratic as f32,
            angular: angular as f32,
        }
    });
    let body = FloatingBody::archimedes(rigid, vec![hull], FRESH_WATER_DENSITY, rates)
        .map_err(blame(b.drag.as_ref().map(Spanned::span)))?;
    let force = match &b.force {
        Some(f) => {
            let v = vec3(*f.get_ref());
            if !v.is_finite() {
                return Err(at(
                    f.span(),
                    format!("force must be finite newtons, got {:?}", f.get_ref()),
                ));
            }
            v
        }
        None => Vec3::ZERO,
    };
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
            Some(TowPath::new(points, speed as f32).map_err(|e| at(s.span(), e.to_string()))?)
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
        body,
        path,
        force,
        torque: Vec3::ZERO,
    })
}
