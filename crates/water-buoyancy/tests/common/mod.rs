//! Helpers shared by the integration tests: a box's surface, a floating box against the
//! textbook.
#![allow(
    dead_code,
    reason = "each test file is a crate of its own and uses only some of the helpers"
)]

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, box_heave_period, FloatingBody, Gravity, Pose, Shape, SurfaceMesh, Wrench,
    STANDARD_GRAVITY,
};
use water_core::FlatWater;

/// The box of half extents `half` as its 8 corners, indexed by bits (x: 1, y: 2, z: 4), and its
/// 12 triangles, counter-clockwise from outside: its surface with no edge short enough to split.
pub fn box_corners_and_triangles(half: Vec3) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let longer_than_any_edge = 2.0 * half.length();
    let shape = Shape::cuboid(half).unwrap();
    let mesh = SurfaceMesh::of(&shape, longer_than_any_edge).unwrap();
    assert_eq!((mesh.vertices.len(), mesh.triangles.len()), (8, 12));
    (mesh.vertices, mesh.triangles)
}

/// Steps `body` on still water under Earth's gravity: `steps` steps of `dt` seconds.
pub fn float_on_still_water(body: &mut FloatingBody, dt: f32, steps: usize) {
    for _ in 0..steps {
        body.step(&FlatWater::default(), &Gravity::EARTH, dt, Wrench::ZERO)
            .unwrap();
    }
}

/// The footprint `A` of a box of half extents `half` floating upright.
pub fn box_footprint(half: Vec3) -> f32 {
    4.0 * half.x * half.y
}

/// A box's start `height` above still water, tilted 0.2 rad about x and 0.1 about y.
pub fn tilted_drop(height: f32) -> Pose {
    let tilt = Quat::from_rotation_x(0.2) * Quat::from_rotation_y(0.1);
    Pose::new(Vec3::new(0.0, 0.0, height), tilt).unwrap()
}

/// Lets `body`, a box of half extents `half` and mass `mass`, settle for 10 s and checks that it
/// ends upright with its bottom at the draft `m / (rho A)`, within 1%.
pub fn assert_box_settles_upright_at_its_draft(
    mut body: FloatingBody,
    half: Vec3,
    mass: f32,
    rho: f32,
) {
    float_on_still_water(&mut body, 1e-3, 10_000);
    let pose = body.body.state.pose;
    let draft = half.z - pose.position.z; // the bottom's depth, upright
    let expected = box_draft(mass, rho, box_footprint(half));
    assert!(
        (draft - expected).abs() < 0.01 * expected,
        "draft {draft} m, expected {expected} m"
    );
    let up = pose.orientation * Vec3::Z;
    assert!(up.dot(Vec3::Z) > 0.9999, "still tilted: body z axis {up}");
}

/// Lifts a box of half extents `half` and mass `mass` 3 cm above where it floats, made by
/// `box_at`, and checks that it heaves with the period `2 pi sqrt(m / (rho g A))`, within 3%.
pub fn assert_box_heaves_at_the_spring_period(
    box_at: impl FnOnce(Pose) -> FloatingBody,
    half: Vec3,
    mass: f32,
    rho: f32,
) {
    let expected = box_heave_period(mass, rho, STANDARD_GRAVITY, box_footprint(half));
    let rest = half.z - box_draft(mass, rho, box_footprint(half));
    let start = Pose::from_position(Vec3::new(0.0, 0.0, rest + 0.03)).unwrap();
    let mut body = box_at(start);
    let dt = 2e-4;
    let mut crossings = Vec::new();
    let mut last = body.body.state.pose.position.z - rest;
    for i in 1..=40_000 {
        float_on_still_water(&mut body, dt, 1);
        let z = body.body.state.pose.position.z - rest;
        if last < 0.0 && z >= 0.0 {
            // Linear interpolation of the upward crossing time.
            crossings.push((i as f32 - 1.0 + last / (last - z)) * dt);
        }
        last = z;
    }
    assert!(
        crossings.len() >= 5,
        "only {} oscillations",
        crossings.len()
    );
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    assert!(
        (measured - expected).abs() < 0.03 * expected,
        "heave period {measured} s, expected {expected} s"
    );
}
