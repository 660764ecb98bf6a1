//! Archimedes at a tilt and drag against numbers: the wet part of a box tilted about its long
//! axis and cut by still water is a prism whose cross-section is a clipped rectangle, so its
//! volume and centroid are known exactly; the drag force and torque of a hull are the
//! documented `-(k1 + k2 |v|) f v` at the centre of buoyancy and `-k_a f omega`.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{
    Archimedes, BodyState, Gravity, Hull, Pose, Shape, FRESH_WATER_DENSITY, STANDARD_GRAVITY,
};
use water_core::FlatWater;

/// Area and centroid of the part of the convex polygon `poly` (counter-clockwise) with
/// `y <= 0`: Sutherland-Hodgman against one line, then the shoelace formula.
fn clipped_below(poly: &[Vec2]) -> (f64, Vec2) {
    let mut out: Vec<Vec2> = Vec::new();
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if a.y <= 0.0 {
            out.push(a);
        }
        if (a.y <= 0.0) != (b.y <= 0.0) {
            let t = a.y / (a.y - b.y);
            out.push(a + (b - a) * t);
        }
    }
    let (mut area, mut cx, mut cy) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..out.len() {
        let (a, b) = (out[i].as_dvec2(), out[(i + 1) % out.len()].as_dvec2());
        let cross = a.x * b.y - b.x * a.y;
        area += cross;
        cx += (a.x + b.x) * cross;
        cy += (a.y + b.y) * cross;
    }
    area *= 0.5;
    (
        area,
        Vec2::new((cx / (6.0 * area)) as f32, (cy / (6.0 * area)) as f32),
    )
}

/// A 2 m x 0.6 m x 0.4 m box rolled by 0.1 to 1.2 rad about its long (x) axis, its centre at
/// several heights across the waterline: the submerged volume is the length times the clipped
/// cross-section within 1e-4 relative, and the centre of buoyancy is its centroid within 1 mm.
#[test]
fn a_partly_submerged_tilted_box_displaces_its_exact_prism() {
    let (length, width, height) = (2.0f32, 0.6f32, 0.4f32);
    let hull = Hull::new(
        Shape::cuboid(Vec3::new(length, width, height) * 0.5).expect("shape"),
        Pose::IDENTITY,
    )
    .expect("hull");
    let mut checked = 0;
    for roll in [0.1f32, 0.35, 0.7, 1.2] {
        for centre_z in [-0.15f32, -0.05, 0.0, 0.08, 0.17] {
            let pose = Pose::new(Vec3::new(1.0, -2.0, centre_z), Quat::from_rotation_x(roll))
                .expect("pose");
            // The cross-section in the (y, z) plane: the rolled rectangle, moved to its height.
            let (s, c) = roll.sin_cos();
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(u, v)| {
                let (y, z) = (u * width * 0.5, v * height * 0.5);
                Vec2::new(y * c - z * s, y * s + z * c + centre_z)
            });
            let (area, centroid) = clipped_below(&corners);
            if area <= 1e-6 || area >= f64::from(width * height) - 1e-6 {
                continue; // wholly dry or wholly wet: not the case under test
            }
            let exact = area * f64::from(length);
            let wet = hull.submerged(&pose, Vec3::Z, &FlatWater::default());
            let error = (f64::from(wet.volume) - exact).abs() / exact;
            assert!(
                error < 1e-4,
                "roll {roll}, centre z {centre_z}: volume {} m^3, exact {exact} m^3",
                wet.volume
            );
            let expected = Vec3::new(1.0, -2.0 + centroid.x, centroid.y);
            assert!(
                wet.centre.distance(expected) < 1e-3,
                "roll {roll}, centre z {centre_z}: centre of buoyancy {} m, exact {expected} m",
                wet.centre
            );
            checked += 1;
        }
    }
    assert!(checked >= 15, "the cases cut the waterline: {checked}");
}

/// The drag of a half-submerged hull in still water: moving at `v` and turning at `omega` it
/// feels `-(k1 + k2 |v_c|) f v_c` at its centre of buoyancy (`v_c` that point's velocity, `f`
/// the submerged share) and the torque `-k_a f omega`, on top of buoyancy.
#[test]
fn quadratic_and_angular_drag_match_their_formulas() {
    let (k1, k2, ka) = (30.0f32, 12.0f32, 5.0f32);
    let model = Archimedes::new(FRESH_WATER_DENSITY)
        .expect("density")
        .with_drag(k1, k2, ka)
        .expect("drag");
    let half = Vec3::new(0.5, 0.5, 0.5);
    let hull = Hull::new(Shape::cuboid(half).expect("shape"), Pose::IDENTITY).expect("hull");
    // Centre at the waterline: half of it wet, centre of buoyancy 0.25 m below the centre.
    let pose = Pose::from_position(Vec3::ZERO).expect("pose");
    let still = BodyState::at_rest(pose);
    let gravity = Gravity::EARTH;
    let at_rest = model.hull_force(&hull, &still, &FlatWater::default(), &gravity);
    let f = at_rest.submersion.fraction();
    assert!((f - 0.5).abs() < 1e-4, "half submerged: {f}");
    let lift = FRESH_WATER_DENSITY * STANDARD_GRAVITY * 0.5;
    assert!((at_rest.wrench.force.z - lift).abs() < 1e-3 * lift);

    let moving = BodyState {
        pose,
        linear_velocity: Vec3::new(1.5, -0.5, 0.0),
        angular_velocity: Vec3::new(0.0, 0.0, 0.8),
    };
    let force = model.hull_force(&hull, &moving, &FlatWater::default(), &gravity);
    let lever = force.submersion.centre - pose.position;
    let v_c = moving.linear_velocity + moving.angular_velocity.cross(lever);
    let drag = -(k1 + k2 * v_c.length()) * f * v_c;
    let expected_force = at_rest.wrench.force + drag;
    assert!(
        force.wrench.force.distance(expected_force) < 1e-3 * drag.length(),
        "force {} N, expected {expected_force} N",
        force.wrench.force
    );
    let expected_torque =
        lever.cross(drag) - ka * f * moving.angular_velocity + at_rest.wrench.torque;
    assert!(
        force.wrench.torque.distance(expected_torque) < 1e-3 * expected_torque.length().max(1.0),
        "torque {} N m, expected {expected_torque} N m",
        force.wrench.torque
    );
    // The quadratic term is not negligible here: without it the force would be off by half.
    assert!(k2 * v_c.length() > 0.5 * k1);
}
