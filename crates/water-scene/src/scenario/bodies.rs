//! Floating bodies in grid scenarios: the `[contacts]` table and `[[body]]` entries.
//!
//! ```toml
//! [contacts]
//! source = "events"           # events (bow and stern waves, the default) | displacement
//! amplitude = 0.01            # events: m of bow/stern wave per m/s of body speed (default 0.01);
//!                             # displacement: scale of the body's weight head (default 1)
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
//! velocity = [0.8, 0.0, 0.0]  # m/s at the start (default at rest)
//! path = [[5.0, 12.8], [20.0, 12.8]] # optional: towed along these points (m)...
//! speed = 0.8                 # ...at this speed, m/s
//! drag = [4.0, 0.5, 4.0]     # per unit mass: linear 1/s, quadratic 1/m; angular 1/s per unit
//!                             # of the smallest moment of inertia (DragRates::DEFAULT)
//! force = [0.0, 0.0, 0.0]     # N, world frame, applied every step (default none)
//! ```
//!
//! Bodies float by Archimedes (fresh water, standard gravity along `-z`), sampled from the
//! water every step, and cut the water: their contact masks make bow and stern waves (or, with
//! `source = "displacement"`, press the water with their weight: a wake that does not grow as
//! `dt` shrinks; signed mode). A towed body's `x` and `y` follow its path and its heading turns
//! with the path (keeping the angle it was placed at against it; at most 90 degrees a second at
//! a corner); its height, pitch and roll float freely. Its `position`'s x and y are the path's
//! first point.

use glam::{EulerRot, Quat, Vec2, Vec3};
use serde::Deserialize;
use toml::Spanned;

use water_buoyancy::{
    BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
};

use water_core::{
    readable, readable_apart, readable_at_most, readable_exact, readable_exact_list, ContactSource,
};

use super::{Numbers, ScenarioError};
use crate::body::BodySpec;
use crate::scene::DEFAULT_CONTACT_AMPLITUDE;
use crate::tow_path::TowPath;

/// A route's points as written: `[[x, y], ...]`, metres.
pub(super) type RawPath = Spanned<Vec<Numbers<2>>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawContacts {
    source: Option<Spanned<String>>,
    amplitude: Option<Spanned<f64>>,
}

/// The contacts of a scenario: `[contacts]`'s source and amplitude, and where the source was
/// written (to blame it when the grid's mode cannot take it).
pub(crate) struct Contacts {
    pub source: ContactSource,
    pub amplitude: f32,
    pub source_span: Option<std::ops::Range<usize>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBody {
    name: Option<Spanned<String>>,
    shape: Spanned<String>,
    size: Option<Spanned<Numbers<3>>>,
    radius: Option<Spanned<f64>>,
    length: Option<Spanned<f64>>,
    mass: Spanned<f64>,
    position: Spanned<Numbers<3>>,
    rotation: Option<Spanned<Numbers<3>>>,
    velocity: Option<Spanned<Numbers<3>>>,
    path: Option<RawPath>,
    speed: Option<Spanned<f64>>,
    drag: Option<Spanned<Numbers<3>>>,
    force: Option<Spanned<Numbers<3>>>,
}

/// Parses the `[contacts]` table and `[[body]]` entries, on a grid of `cell_size` m cells.
pub(crate) fn parse(
    contacts: Option<&RawContacts>,
    raw: &[Spanned<RawBody>],
    cell_size: f64,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(Contacts, Vec<BodySpec>), ScenarioError> {
    let source_written = contacts.and_then(|c| c.source.as_ref());
    let source = match source_written.map(|s| s.get_ref().as_str()) {
        None | Some("events") => ContactSource::Events,
        Some("displacement") => ContactSource::Displacement,
        Some(other) => {
            return Err(at(
                source_written.expect("written").span(),
                format!("contacts source must be \"events\" or \"displacement\", got {other:?}"),
            ))
        }
    };
    let (default, unit) = match source {
        ContactSource::Events => (DEFAULT_CONTACT_AMPLITUDE, "m per m/s of body speed"),
        ContactSource::Displacement => (1.0, "(a scale of the body's weight)"),
    };
    let amplitude = match contacts.and_then(|c| c.amplitude.as_ref()) {
        Some(written) => {
            // Checked in f64 against the scene's own limit, so the error names the number
            // written (not the `inf` it becomes in f32) and the scene never refuses what the
            // parser accepted.
            // A size below f32's least normal number would be 0 (or flushed to it): no waves.
            let a = *written.get_ref();
            let max = f64::from(water_core::MAX_CONTACT_AMPLITUDE);
            if !(0.0..=max).contains(&a) || water_core::below_f32_normal(a) {
                return Err(at(
                    written.span(),
                    format!(
                        "contacts amplitude must be 0 or in [1.17549435e-38, {max:e}] {unit}, \
                         got {}",
                        readable_exact(a)
                    ),
                ));
            }
            // -0 is 0, written so.
            (a + 0.0) as f32
        }
        None => default,
    };
    // The contacts are the bodies' waves: written without a body they would change nothing.
    let written = contacts.and_then(|c| {
        (c.source.as_ref().map(Spanned::span)).or(c.amplitude.as_ref().map(Spanned::span))
    });
    if let (Some(span), true) = (written, raw.is_empty()) {
        return Err(at(
            span,
            "[contacts] shapes the waves floating bodies make, and this scenario has no \
             [[body]]: add one, or leave out [contacts]"
                .into(),
        ));
    }
    let bodies = raw
        .iter()
        .enumerate()
        .map(|(i, b)| parse_body(i, b, coordinate_limit(cell_size), at))
        .collect::<Result<Vec<BodySpec>, _>>()?;
    // A `[focus]` follows a body by its name and `bodies.csv` names each row: two bodies of one
    // name would make both ambiguous.
    for (i, body) in bodies.iter().enumerate() {
        if let Some(first) = bodies[..i].iter().position(|b| b.name == body.name) {
            // Where one of the two has its default name, say so: it was not written.
            let named = |k: usize| {
                if raw[k].get_ref().name.is_some() {
                    "is named"
                } else {
                    "takes the default name"
                }
            };
            return Err(at(
                raw[i].span(),
                format!(
                    "body {} {} {:?}, as body {} {}: bodies need names of their own",
                    i + 1,
                    named(i),
                    body.name,
                    first + 1,
                    if raw[first].get_ref().name.is_some() {
                        "is"
                    } else {
                        "takes by default"
                    },
                ),
            ));
        }
    }
    let contacts = Contacts {
        source,
        amplitude,
        source_span: source_written.map(Spanned::span),
    };
    Ok((contacts, bodies))
}

/// Refuses, at its `mass`, a body the water's step `dt` (s) is too long for under the gravity
/// of the scene a scenario builds ([`crate::scene::SceneSettings::default`]'s): one so light
/// for its size that its bob would need more than [`water_buoyancy::MAX_SUBSTEPS`] substeps a
/// step. Said here, at its line, not at its first step. A spin gained while running can still
/// need more; the scene says so then. And, at its `force`, a force that alone would push the
/// body past [`MAX_BODY_SPEED`] within one step (the spin it then gained stopped the run at
/// step 0 blaming `dt`, and a shorter `dt` did not help).
pub(crate) fn check_step_fits(
    bodies: &[BodySpec],
    raw: &[Spanned<RawBody>],
    dt: f64,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(), ScenarioError> {
    let gravity = crate::scene::SceneSettings::default().gravity;
    for (body, written) in bodies.iter().zip(raw) {
        let mass = f64::from(body.body.body.mass());
        if let Some(force) = &written.get_ref().force {
            // The limit holds each velocity component (a towed body's force is along z).
            let push = force
                .get_ref()
                .0
                .iter()
                .fold(0.0_f64, |m, f| m.max(f.abs()));
            if push / mass * dt > MAX_BODY_SPEED {
                let most = MAX_BODY_SPEED * mass / dt;
                let dt_text = readable_exact(dt);
                return Err(at(
                    force.span(),
                    format!(
                        "body {:?}: a force of {} N on {} kg passes the body speed limit, \
                         {MAX_BODY_SPEED:e} m/s, within one step of {dt_text} s: past {} N no \
                         step of {dt_text} s holds it",
                        body.name,
                        readable_apart(push, most),
                        readable(mass),
                        readable_at_most(most)
                    ),
                ));
            }
        }
        if let Err(e) = body.body.substeps(dt as f32, &gravity) {
            return Err(at(
                written.get_ref().mass.span(),
                format!("body {:?}: {e}, or make it heavier", body.name),
            ));
        }
    }
    Ok(())
}

fn vec3(v: Numbers<3>) -> Vec3 {
    let v = v.0;
    Vec3::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

/// Largest side, radius or length of a body, m: ten kilometres, far beyond any floating thing,
/// and small enough that volumes and moments of inertia (size^5 times the mass) stay finite in
/// f32.
pub const MAX_BODY_SIZE: f64 = 1e4;
/// Smallest side, radius or length of a body, m: a millimetre. Smaller hulls leave f32's range
/// in their sections, volumes and moments (a sphere of 1e-7 m had a bob period of "0 s" and
/// "inf substeps"; one of 1e-30 m was refused as 0 by an internal name).
pub const MIN_BODY_SIZE: f64 = 1e-3;
/// Largest body mass, kg (a supertanker is about 5e8).
pub const MAX_BODY_MASS: f64 = 1e12;
/// Smallest body mass, kg: a gram. Lighter bodies of any size are pushed by the water's weight
/// at accelerations past any step (1e-30 kg half under water: 1e30 m/s^2), and their moments of
/// inertia leave f32.
pub const MIN_BODY_MASS: f64 = 1e-3;
/// Largest |coordinate| of a position or path point (a body's, a tow's or a focus's), m, on
/// cells of 1 m or less: ten kilometres. Positions are f32 in the water's frame; out there
/// neighbouring f32 values lie 1 mm apart (at 1e6 m, 6 cm: a slow body's step rounded away to
/// nothing, and the sea read at points that far apart came out in blocks).
pub const MAX_COORDINATE: f64 = 1e4;
/// On larger cells the limit is this many cells ([`coordinate_limit`]): f32 positions there lie
/// at most 1/1000 of a cell apart, as 1 mm is of a metre.
pub const MAX_COORDINATE_CELLS: f64 = 1e4;

/// The largest |coordinate| of a position or path point on cells of `cell_size` m:
/// [`MAX_COORDINATE`], or [`MAX_COORDINATE_CELLS`] cells where that is farther.
#[must_use]
pub fn coordinate_limit(cell_size: f64) -> f64 {
    MAX_COORDINATE.max(MAX_COORDINATE_CELLS * cell_size)
}
/// Largest |velocity component| and tow speed, m/s: what `RigidBody::new` takes.
pub const MAX_BODY_SPEED: f64 = water_buoyancy::MAX_BODY_SPEED as f64;
/// Largest |force component|, N.
pub const MAX_FORCE: f64 = 1e15;
/// Largest drag rate (1/s, 1/m), a body stopped within a microsecond: what `DragRates::new`
/// takes.
pub const MAX_DRAG_RATE: f64 = water_buoyancy::MAX_DRAG_RATE as f64;

/// Checks every value against `[lo, hi]` in f64, before narrowing to f32, so an error names the
/// number the user wrote (not the `inf` it becomes) and the limit.
fn within(
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
    span: std::ops::Range<usize>,
    name: &str,
    values: &[f64],
    (lo, hi): (f64, f64),
    unit: &str,
) -> Result<(), ScenarioError> {
    match values.iter().find(|v| !(lo..=hi).contains(*v)) {
        Some(v) => Err(at(
            span,
            format!(
                "{name} must be within [{}, {}] {unit}, got {v}",
                short(lo),
                short(hi),
                v = readable_exact(*v)
            ),
        )),
        None => Ok(()),
    }
}

/// A limit as the library's ranges write it (`[-1e4, 1e4] m/s`): 0, not `0e0`; `1e-3` and `1e6`,
/// not `0.001` and `1000000`. Values are written as read, so one past a limit stays apart from it.
fn short(x: f64) -> String {
    if x == 0.0 {
        "0".to_owned()
    } else {
        format!("{x:e}")
    }
}

/// Checks an optional triple with [`within`] when the file gives it.
fn given_within(
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
    given: Option<&Spanned<Numbers<3>>>,
    name: &str,
    range: (f64, f64),
    unit: &str,
) -> Result<(), ScenarioError> {
    match given {
        Some(v) => within(at, v.span(), name, &v.get_ref().0, range, unit),
        None => Ok(()),
    }
}

/// Checks that every value is in `(0, hi]`.
fn size_within(
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
    span: std::ops::Range<usize>,
    name: &str,
    values: &[f64],
) -> Result<(), ScenarioError> {
    match values
        .iter()
        .find(|v| !(MIN_BODY_SIZE..=MAX_BODY_SIZE).contains(*v))
    {
        Some(v) => Err(at(
            span,
            format!(
                "{name} must be from {MIN_BODY_SIZE:e} to {MAX_BODY_SIZE:e} m, got {}",
                readable_exact(*v)
            ),
        )),
        None => Ok(()),
    }
}

fn parse_body(
    index: usize,
    spanned: &Spanned<RawBody>,
    reach: f64,
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
            size_within(at, size.span(), "box size", &size.get_ref().0)?;
            Shape::cuboid(vec3(*size.get_ref()) * 0.5).map_err(blame(Some(size.span())))?
        }
        "sphere" => {
            let r = b
                .radius
                .as_ref()
                .ok_or_else(|| missing("radius", "sphere"))?;
            size_within(at, r.span(), "sphere radius", &[*r.get_ref()])?;
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
            size_within(at, r.span(), "capsule radius", &[*r.get_ref()])?;
            size_within(at, l.span(), "capsule length", &[*l.get_ref()])?;
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
        let [x, y, z] = r.get_ref().0;
        if [x, y, z].iter().all(|v| v.is_finite()) {
            // Whole turns taken off in f64: 1e30 degrees is an angle like any other, but its
            // radians in f32 lose every digit.
            let radians = |v: f64| v.rem_euclid(360.0).to_radians() as f32;
            Ok(Quat::from_euler(
                EulerRot::XYZ,
                radians(x),
                radians(y),
                radians(z),
            ))
        } else {
            Err(at(
                r.span(),
                format!(
                    "rotation must be finite degrees, got {}",
                    readable_exact_list(&r.get_ref().0)
                ),
            ))
        }
    })?;
    within(
        at,
        b.position.span(),
        "position",
        &b.position.get_ref().0,
        (-reach, reach),
        "m",
    )?;
    let pose = Pose::new(vec3(*b.position.get_ref()), rotation).map_err(blame(Some(
        b.rotation
            .as_ref()
            .map_or_else(|| b.position.span(), Spanned::span),
    )))?;
    let speeds = (-MAX_BODY_SPEED, MAX_BODY_SPEED);
    given_within(at, b.velocity.as_ref(), "velocity", speeds, "m/s")?;
    let velocity = b
        .velocity
        .as_ref()
        .map_or(Vec3::ZERO, |v| vec3(*v.get_ref()));
    let state = BodyState {
        pose,
        linear_velocity: velocity,
        angular_velocity: Vec3::ZERO,
    };
    let mass = *b.mass.get_ref();
    if !(MIN_BODY_MASS..=MAX_BODY_MASS).contains(&mass) {
        return Err(at(
            b.mass.span(),
            format!(
                "mass must be within [{MIN_BODY_MASS:e}, {MAX_BODY_MASS:e}] kg (greater than 0), \
                 got {}",
                readable_exact(mass)
            ),
        ));
    }
    let mass = mass as f32;
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
    let drag_unit = "(linear 1/s, quadratic 1/m, angular 1/s)";
    given_within(at, b.drag.as_ref(), "drag", (0.0, MAX_DRAG_RATE), drag_unit)?;
    let rates = b.drag.as_ref().map_or(DragRates::DEFAULT, |d| {
        let [linear, quadratic, angular] = d.get_ref().0;
        DragRates {
            linear: linear as f32,
            quadratic: quadratic as f32,
            angular: angular as f32,
        }
    });
    let body = FloatingBody::archimedes(rigid, vec![hull], FRESH_WATER_DENSITY, rates)
        .map_err(blame(b.drag.as_ref().map(Spanned::span)))?;
    given_within(at, b.force.as_ref(), "force", (-MAX_FORCE, MAX_FORCE), "N")?;
    let force = b.force.as_ref().map_or(Vec3::ZERO, |f| vec3(*f.get_ref()));
    let path = match (&b.path, &b.speed) {
        (Some(p), Some(s)) => Some(tow_path(
            p,
            s,
            reach,
            (
                "a body's",
                "leave out `path` and `speed` for a body that floats free",
            ),
            at,
        )?),
        (Some(p), None) => {
            check_path_points(p, at)?;
            return Err(at(p.span(), "a path needs a `speed` (m/s)".into()));
        }
        (None, Some(s)) => return Err(at(s.span(), "`speed` applies only with a `path`".into())),
        (None, None) => None,
    };
    // The path holds a towed body's x and y: a horizontal force would be taken and lost.
    if let (Some(_), Some(f)) = (&path, &b.force) {
        let [x, y, _] = f.get_ref().0;
        if x != 0.0 || y != 0.0 {
            return Err(at(
                f.span(),
                format!(
                    "a towed body's x and y follow its path, so its force acts only along z; \
                     got [{}, {}, ..] N (give [0, 0, z], or leave out the path)",
                    readable_exact(x),
                    readable_exact(y)
                ),
            ));
        }
    }
    // Its velocity too: the tow holds x and y from the first step, so a horizontal start
    // other than the tow's own (or rest) was taken and dropped after step 0.
    if let (Some(path), Some(v)) = (&path, &b.velocity) {
        let [x, y, _] = v.get_ref().0;
        let tow = path.at(0.0).1;
        let written = Vec2::new(x as f32, y as f32);
        let off = (written - tow).length() > 1e-4 * tow.length();
        if (x != 0.0 || y != 0.0) && off {
            return Err(at(
                v.span(),
                format!(
                    "a towed body's x and y follow its path at its speed from the first step: \
                     its velocity's x and y are the tow's, [{}, {}] m/s, or 0; got [{}, {}, ..] \
                     m/s",
                    tow.x,
                    tow.y,
                    readable_exact(x),
                    readable_exact(y)
                ),
            ));
        }
    }
    // And its place: the tow sets x and y to the path's first point at the first step, so a
    // body placed elsewhere would be taken there (a jump nothing in the file asked for).
    if let Some(path) = &path {
        let start = path.points()[0];
        let [x, y, _] = b.position.get_ref().0;
        if Vec2::new(x as f32, y as f32) != start {
            return Err(at(
                b.position.span(),
                format!(
                    "a towed body starts where its path starts: its position's x and y are the \
                     path's first point, [{}, {}] m; got [{}, {}, ..] m",
                    start.x,
                    start.y,
                    readable_exact(x),
                    readable_exact(y)
                ),
            ));
        }
    }
    // A name is one line of text: it heads the body's rows in `bodies.csv` and its line in
    // the run's report.
    if let Some(name) = &b.name {
        let text = name.get_ref();
        let breaks = |c: char| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}');
        if text.trim().is_empty() || text.contains(breaks) {
            return Err(at(
                name.span(),
                format!(
                    "a body's name needs a character other than white space, and no control \
                     characters or line breaks (a tab, U+2028), got {text:?}"
                ),
            ));
        }
    }
    Ok(BodySpec {
        name: body_name(b, index),
        body,
        path,
        force,
        torque: Vec3::ZERO,
    })
}

/// The names of the bodies of `raw` towed along a `path` (`body-N` for one without a name, as
/// [`parse`] names it).
pub(super) fn towed_names(raw: &[Spanned<RawBody>]) -> Vec<String> {
    raw.iter()
        .enumerate()
        .filter(|(_, b)| b.get_ref().path.is_some())
        .map(|(i, b)| body_name(b.get_ref(), i))
        .collect()
}

/// The name of the `index`-th (from 0) body of a file: its `name`, or `body-N` counting from 1.
fn body_name(b: &RawBody, index: usize) -> String {
    b.name
        .as_ref()
        .map_or_else(|| format!("body-{}", index + 1), |n| n.get_ref().clone())
}

/// Refuses a path of fewer than two points: said first, before what else it lacks.
fn check_path_points(
    p: &RawPath,
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<(), ScenarioError> {
    let count = p.get_ref().len();
    if count < 2 {
        return Err(at(
            p.span(),
            format!("a path needs two or more finite points, got {count}"),
        ));
    }
    Ok(())
}

/// A route (`path`, at least two points, metres, each within `reach` of the origin: a
/// [`coordinate_limit`]) travelled at `speed` (m/s): a towed body's, or a `[focus]`'s. A path
/// whose points all lie at one place goes nowhere, its `speed` unused: refused, naming `whose`
/// path it is and what to write instead (`instead`).
pub(super) fn tow_path(
    p: &RawPath,
    s: &Spanned<f64>,
    reach: f64,
    (whose, instead): (&str, &str),
    at: &dyn Fn(std::ops::Range<usize>, String) -> ScenarioError,
) -> Result<TowPath, ScenarioError> {
    for q in p.get_ref() {
        within(at, p.span(), "path point", &q.0, (-reach, reach), "m")?;
    }
    let points: Vec<Vec2> = p
        .get_ref()
        .iter()
        .map(|q| Vec2::new(q.0[0] as f32, q.0[1] as f32))
        .collect();
    check_path_points(p, at)?;

    let speed = *s.get_ref();
    // Less than f32's least normal number is 0 (or flushed to it) as the f32 the tow holds.
    if !(speed > 0.0 && speed <= MAX_BODY_SPEED) || water_core::below_f32_normal(speed) {
        return Err(at(
            s.span(),
            format!(
                "speed must be greater than 0 (at least 1.17549435e-38, as f32 holds it) and \
                 at most {MAX_BODY_SPEED:e} m/s, got {}",
                readable_exact(speed)
            ),
        ));
    }
    if points.iter().all(|q| *q == points[0]) {
        return Err(at(
            p.span(),
            format!(
                "{whose} path goes nowhere: all its {} points lie at [{}, {}] ({instead})",
                points.len(),
                points[0].x,
                points[0].y
            ),
        ));
    }
    TowPath::new(points, speed as f32).map_err(|e| at(s.span(), e.to_string()))
}
