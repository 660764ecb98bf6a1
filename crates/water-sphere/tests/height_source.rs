//! Sphere water as a height source: still water is the sphere of radius R with radial normals;
//! a degree-1 bulge is read back where it was put, with the normal it implies.

use glam::Vec3;
use water_core::{Damping, HeightSource};
use water_sphere::{Icosphere, SphereStepper, SphereWater};

fn directions() -> Vec<Vec3> {
    let mut seed = 11_u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1 << 24) as f32 * 2.0 - 1.0
    };
    (0..300)
        .map(|_| Vec3::new(next(), next(), next()))
        .filter(|v| v.length() > 0.1)
        .collect()
}

fn water(radius: f32) -> SphereWater {
    SphereWater::new(
        Icosphere::new(5, radius).unwrap(),
        SphereStepper::Mean { a: 0.5 },
        Damping::PerStep(1.0),
    )
    .unwrap()
}

#[test]
fn still_water_is_the_sphere_with_radial_normals() {
    let water = water(3.0);
    for d in directions() {
        // Asked from anywhere along the radius, inside or outside.
        let s = water
            .surface_at(d * 7.0)
            .expect("sphere water is everywhere");
        let up = d.normalize();
        assert!(
            (s.point.length() - 3.0).abs() < 1e-5 * 3.0,
            "{}",
            s.point.length()
        );
        assert!(s.point.normalize().dot(up) > 1.0 - 1e-6);
        assert!(s.normal.distance(up) < 1e-5, "{} vs {up}", s.normal);
        assert!(s.up.distance(up) < 1e-6);
        assert!((s.depth_of(up * 2.5) - 0.5).abs() < 1e-5);
    }
    assert_eq!(water.surface_at(Vec3::ZERO), None, "the centre has no up");
}

#[test]
fn bulge_is_read_back_with_its_slope() {
    let (radius, amplitude) = (2.0_f32, 0.05_f32);
    let mut water = water(radius);
    // h = A z / R: a degree-1 harmonic.
    let heights: Vec<f32> = water
        .sphere()
        .positions()
        .iter()
        .map(|p| amplitude * p.z / radius)
        .collect();
    water.set_at_rest(&heights).unwrap();
    for d in directions() {
        let up = d.normalize();
        let s = water.surface_at(up).unwrap();
        let expected = amplitude * up.z;
        assert!(
            (s.point.length() - radius - expected).abs() < 2e-4,
            "height {} vs {expected}",
            s.point.length() - radius
        );
        // Surface r = R + A cos(theta): its normal leans from the radial by the tangential
        // gradient A/R (z - (z.up) up), scaled to the radius R + h.
        let gradient = (Vec3::Z - up * up.z) * (amplitude / radius);
        let normal = (up - gradient * (radius / (radius + expected))).normalize();
        assert!(s.normal.distance(normal) < 1e-3, "{} vs {normal}", s.normal);
        let level = water.level_at(up * 5.0).unwrap();
        assert!(level.point.distance(s.point) < 1e-6);
    }
}
