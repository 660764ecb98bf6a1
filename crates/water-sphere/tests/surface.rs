//! Normals, picking and volume-conserving clicks on sphere water.

use glam::Vec3;
use water_core::Damping;
use water_sphere::{Icosphere, SphereImpulse, SphereStepper, SphereWater};

fn water(level: u32, radius: f32) -> SphereWater {
    let sphere = Icosphere::new(level, radius).expect("sphere");
    let probe = SphereWater::new(
        sphere.clone(),
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt: 1e-4,
        },
        Damping::NONE,
    )
    .expect("probe");
    let dt = 0.5 * probe.max_stable_coefficient().sqrt();
    SphereWater::new(
        sphere,
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt,
        },
        Damping::NONE,
    )
    .expect("water")
}

#[test]
fn still_water_normals_are_radial() {
    let mut previous_tilt = f32::INFINITY;
    for level in [2, 4, 6] {
        let w = water(level, 3.0);
        for (n, p) in w.normals().iter().zip(w.sphere().positions()) {
            assert!(
                (*n - p.normalize()).length() < 1e-5,
                "level {level}: {n} vs {p}"
            );
        }
        // The raw area-weighted normals lean off the radius by the mesh's asymmetry, which
        // shrinks as the sphere is refined.
        let tilt = water_sphere::rest_tilt(w.sphere())
            .iter()
            .fold(0.0f32, |m, t| m.max(t.length()));
        assert!(tilt < previous_tilt, "level {level}: tilt {tilt}");
        previous_tilt = tilt;
    }
    assert!(previous_tilt < 1e-2, "level 6 tilt {previous_tilt}");
}

#[test]
fn normals_tilt_towards_lower_water() {
    let mut w = water(4, 1.0);
    let click = SphereImpulse::new(Vec3::Z, 0.5, 0.05).expect("click");
    w.add_impulse(&click);
    // On the flank of the raised cap the surface leans away from the top.
    let normals = w.normals();
    let flank = w
        .sphere()
        .positions()
        .iter()
        .position(|p| {
            let angle = p.normalize().dot(Vec3::Z).acos();
            (angle - 0.12).abs() < 0.03
        })
        .expect("a vertex on the flank");
    let radial = w.sphere().positions()[flank].normalize();
    assert!(
        normals[flank].dot(Vec3::Z) < radial.dot(Vec3::Z),
        "normal leans outward"
    );
}

#[test]
fn a_ray_picks_the_vertex_under_it() {
    let w = water(4, 2.0);
    for (i, p) in w.sphere().positions().iter().enumerate().step_by(97) {
        let origin = p.normalize() * 10.0;
        assert_eq!(w.pick(origin, -origin), Some(i), "vertex {i}");
    }
    assert_eq!(
        w.pick(Vec3::new(10.0, 0.0, 0.0), Vec3::Y),
        None,
        "a ray that misses"
    );
}

#[test]
fn clicks_make_waves_but_keep_the_volume() {
    let mut w = water(4, 1.0);
    let v0 = w.volume();
    let mut click_volume: f64 = 0.0;
    for (k, dir) in [Vec3::Z, Vec3::X, Vec3::new(1.0, 1.0, -1.0)]
        .into_iter()
        .enumerate()
    {
        let before = w.heights().to_vec();
        w.add_impulse(&SphereImpulse::new(dir, 0.4, 0.02).expect("click"));
        let raised: f64 = w
            .heights()
            .iter()
            .zip(&before)
            .zip(w.vertex_areas())
            .map(|((a, b), area)| f64::from((a - b).max(0.0)) * area)
            .sum();
        click_volume = click_volume.max(raised);
        w.step_many(200 + 50 * k as u64);
    }
    assert!(click_volume > 0.0);
    let moved = w.heights().iter().any(|z| z.abs() > 1e-4);
    assert!(moved, "the clicks made waves");
    let drift = (w.volume() - v0).abs();
    assert!(
        drift < 1e-3 * click_volume,
        "volume moved by {drift:e}, click volume {click_volume:e}"
    );
}

#[test]
fn bad_clicks_are_errors() {
    assert!(SphereImpulse::new(Vec3::ZERO, 0.3, 1.0).is_err());
    assert!(SphereImpulse::new(Vec3::Z, 0.0, 1.0).is_err());
    assert!(SphereImpulse::new(Vec3::Z, 4.0, 1.0).is_err());
    assert!(SphereImpulse::new(Vec3::Z, 0.3, f32::NAN).is_err());
}

/// A click's amplitude is bounded as an impulse's is (1e6 m): a fuzzer's click of f32::MAX
/// metres was accepted and made infinite waves.
#[test]
fn click_amplitudes_beyond_the_impulse_bound_are_refused() {
    let up = Vec3::Z;
    let e = SphereImpulse::new(up, 0.3, f32::MAX).expect_err("too high");
    assert!(e.to_string().contains("click amplitude"), "{e}");
    assert!(SphereImpulse::new(up, 0.3, -2e6).is_err());
    assert!(SphereImpulse::new(up, 0.3, 1e6).is_ok());
}
