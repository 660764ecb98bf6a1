//! Topology and geometry of the icosphere and its ordered adjacency.

use std::collections::HashSet;

use water_sphere::vertex_count;
use water_sphere::{Adjacency, Icosphere, SphereError};
use water_sphere::{NO_NEIGHBOUR, SLOTS};

fn edges(sphere: &Icosphere) -> HashSet<(u32, u32)> {
    sphere
        .faces()
        .iter()
        .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect()
}

#[test]
fn vertex_counts_are_ten_times_four_to_the_level_plus_two_and_euler_holds() {
    for level in 0..=9 {
        let sphere = Icosphere::new(level, 2.0).expect("sphere");
        let v = sphere.positions().len();
        assert_eq!(v as u64, vertex_count(level), "level {level}");
        let f = sphere.faces().len();
        let e = edges(&sphere).len();
        assert_eq!(
            v as i64 - e as i64 + f as i64,
            2,
            "V - E + F at level {level}"
        );
        assert!(sphere
            .positions()
            .iter()
            .all(|p| (p.length() - 2.0).abs() < 1e-5));
    }
    assert_eq!(vertex_count(3), 642);
}

#[test]
fn twelve_pentagons_and_ordered_counter_clockwise_rings() {
    for level in [0, 1, 3, 5] {
        let sphere = Icosphere::new(level, 1.0).expect("sphere");
        let adj = Adjacency::new(&sphere);
        let p = sphere.positions();
        let edges = edges(&sphere);
        let mut pentagons = 0;
        for v in 0..adj.len() {
            let ring = adj.neighbours(v);
            match ring.len() {
                5 => pentagons += 1,
                6 => {}
                other => panic!("vertex {v} has {other} neighbours"),
            }
            for k in 0..ring.len() {
                let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
                assert!(
                    edges.contains(&(a.min(b), a.max(b))),
                    "consecutive neighbours share an edge"
                );
                let (va, vb, centre) = (p[a as usize], p[b as usize], p[v]);
                let turn = (va - centre).cross(vb - centre).dot(centre);
                assert!(
                    turn > 0.0,
                    "counter-clockwise seen from outside at vertex {v}"
                );
            }
        }
        assert_eq!(pentagons, 12, "level {level}");
        for &[a, b, c] in sphere.faces() {
            let (a, b, c) = (p[a as usize], p[b as usize], p[c as usize]);
            assert!(
                (b - a).cross(c - a).dot(a + b + c) > 0.0,
                "faces wind counter-clockwise"
            );
        }
    }
}

#[test]
fn table_and_csr_agree_with_a_sentinel_for_pentagons() {
    let sphere = Icosphere::new(2, 1.0).expect("sphere");
    let adj = Adjacency::new(&sphere);
    let table = adj.table();
    assert_eq!(adj.offsets().len(), adj.len() + 1);
    for (v, row) in table.iter().enumerate() {
        let ring = adj.neighbours(v);
        assert_eq!(&row[..ring.len()], ring);
        assert!(row[ring.len()..].iter().all(|&s| s == NO_NEIGHBOUR));
        assert_eq!(row.len(), SLOTS);
    }
    assert_eq!(table.iter().filter(|r| r[5] == NO_NEIGHBOUR).count(), 12);
}

#[test]
fn area_tends_to_four_pi_r_squared() {
    let r = 3.0f64;
    let exact = 4.0 * std::f64::consts::PI * r * r;
    let mut previous_error = f64::INFINITY;
    for level in 0..=6 {
        let area = Icosphere::new(level, r as f32).expect("sphere").area();
        let error = (exact - area) / exact;
        assert!(error > 0.0, "flat triangles lie inside the sphere");
        assert!(error < previous_error, "level {level} is closer");
        previous_error = error;
    }
    assert!(
        previous_error < 1e-3,
        "level 6 is within 0.1%: {previous_error}"
    );
}

#[test]
fn too_many_levels_and_bad_radii_are_errors() {
    let err = Icosphere::new(13, 1.0).expect_err("too large");
    assert!(matches!(
        err,
        SphereError::TooManyVertices {
            subdivisions: 13,
            ..
        }
    ));
    assert!(err.to_string().contains("671088642"), "{err}");
    // Past u64 the count is written short, not as u64's saturated maximum.
    let err = Icosphere::new(64, 1.0)
        .expect_err("far too large")
        .to_string();
    assert!(err.contains("(3.403e39)"), "{err}");
    assert!(!err.contains("18446744073709551615"), "{err}");
    // Past f64 too the level is refused by the finest one, with no "inf" vertices.
    let err = Icosphere::new(16_080_000, 1.0)
        .expect_err("past f64")
        .to_string();
    assert!(
        err.starts_with("icosphere level 16080000 is past the finest, 12:"),
        "{err}"
    );
    assert!(!err.contains("inf"), "{err}");
    assert!(Icosphere::new(2, 0.0).is_err());
    assert!(Icosphere::new(2, f32::NAN).is_err());
}
