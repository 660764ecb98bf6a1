//! Displaced volume by column integration against exact geometry.

mod common;

use std::f32::consts::PI;

use common::box_corners_and_triangles;
use glam::{Quat, Vec3};
use water_buoyancy::{spherical_cap_volume, Hull, Pose, Shape};
use water_core::FlatWater;

fn submerged(shape: Shape, pose: Pose) -> water_buoyancy::Submersion {
    Hull::new(shape, Pose::IDENTITY)
        .unwrap()
        .submerged(&pose, Vec3::Z, &FlatWater::default())
}

#[test]
fn ball_displaces_the_spherical_cap() {
    let r = 0.5;
    for fraction in [0.1, 0.25, 0.5, 0.75, 0.9] {
        let depth = 2.0 * r * fraction;
        for orientation in [
            Quat::IDENTITY,
            Quat::from_euler(glam::EulerRot::XYZ, 0.3, 1.1, -0.4),
        ] {
            let pose = Pose::new(Vec3::new(3.0, -2.0, r - depth), orientation).unwrap();
            let s = submerged(Shape::sphere(r).unwrap(), pose);
            let exact = spherical_cap_volume(r, depth);
            assert!(
                (s.volume - exact).abs() < 0.01 * exact,
                "depth {depth}: {} m^3, cap {exact} m^3",
                s.volume
            );
            // The cap's centroid lies 3 (2r - d)^2 / (4 (3r - d)) below the ball's centre.
            let below = 3.0 * (2.0 * r - depth).powi(2) / (4.0 * (3.0 * r - depth));
            let centre = pose.position - Vec3::Z * below;
            assert!(
                s.centre.distance(centre) < 0.01 * r,
                "depth {depth}: centre {} expected {centre}",
                s.centre
            );
        }
    }
}

#[test]
fn upright_box_is_exact_and_mesh_box_agrees() {
    let half = Vec3::new(0.6, 0.3, 0.2);
    let mesh = box_mesh(half);
    for depth in [0.05, 0.2, 0.35] {
        let pose = Pose::from_position(Vec3::new(0.0, 0.0, half.z - depth)).unwrap();
        let exact = 4.0 * half.x * half.y * depth;
        for shape in [Shape::cuboid(half).unwrap(), mesh.clone()] {
            let s = submerged(shape, pose);
            assert!(
                (s.volume - exact).abs() < 1e-4 * exact,
                "{} vs {exact}",
                s.volume
            );
            assert!((s.centre.z - (-depth / 2.0)).abs() < 1e-5, "{}", s.centre);
        }
    }
}

#[test]
fn fully_submerged_shapes_displace_their_volume() {
    let tilt = Quat::from_euler(glam::EulerRot::XYZ, 0.7, -0.2, 0.4);
    let shapes = [
        Shape::cuboid(Vec3::new(0.4, 0.3, 0.2)).unwrap(),
        Shape::sphere(0.3).unwrap(),
        Shape::capsule(0.2, 0.5).unwrap(),
        Shape::convex_mesh(octahedron(0.5), octahedron_triangles()).unwrap(),
    ];
    for shape in shapes {
        let whole = shape.volume();
        let s = submerged(
            shape.clone(),
            Pose::new(Vec3::new(0.0, 0.0, -5.0), tilt).unwrap(),
        );
        assert!(
            (s.volume - whole).abs() < 0.01 * whole,
            "{shape:?}: {} vs {whole}",
            s.volume
        );
        assert!((s.fraction() - 1.0).abs() < 0.01);
        // Out of the water: nothing.
        let dry = submerged(shape, Pose::new(Vec3::new(0.0, 0.0, 5.0), tilt).unwrap());
        assert_eq!(dry.volume, 0.0);
    }
    // The octahedron's volume is 4/3 a^3.
    assert!(
        (Shape::convex_mesh(octahedron(0.5), octahedron_triangles())
            .unwrap()
            .volume()
            - 4.0 / 3.0 * 0.125)
            .abs()
            < 1e-6
    );
    // Capsule: cylinder plus ball.
    let capsule = Shape::capsule(0.2, 0.5).unwrap().volume();
    assert!((capsule - (PI * 0.04 * 1.0 + 4.0 / 3.0 * PI * 0.008)).abs() < 1e-6);
}

#[test]
fn mesh_inertia_matches_the_box_formula() {
    let half = Vec3::new(0.6, 0.3, 0.2);
    let mesh = box_mesh(half).inertia(12.0);
    let cuboid = Shape::cuboid(half).unwrap().inertia(12.0);
    assert!(mesh.abs_diff_eq(cuboid, 1e-5), "{mesh} vs {cuboid}");
}

/// The box of half extents `half` as a convex mesh of its eight corners.
fn box_mesh(half: Vec3) -> Shape {
    let (corners, triangles) = box_corners_and_triangles(half);
    Shape::convex_mesh(corners, triangles).unwrap()
}

fn octahedron(a: f32) -> Vec<Vec3> {
    vec![
        Vec3::X * a,
        -Vec3::X * a,
        Vec3::Y * a,
        -Vec3::Y * a,
        Vec3::Z * a,
        -Vec3::Z * a,
    ]
}

fn octahedron_triangles() -> Vec<[u32; 3]> {
    vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ]
}
