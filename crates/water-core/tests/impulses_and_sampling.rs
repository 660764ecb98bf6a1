//! Impulse shapes, volume-conserving drops, and sampling heights, gradients and normals.

mod support;

use approx::assert_relative_eq;
use glam::{Vec2, Vec3};
use water_core::{
    Boundary, Damping, GridSize, GridWater, HeightView, Impulse, ImpulseShape, SignedGrid,
};

fn added(shape: ImpulseShape, centre: Vec2, radius: f32) -> Vec<f32> {
    let mut grid = support::signed(32, 32, 0.25, Boundary::Reflective);
    grid.add_impulse(&Impulse::new(centre, radius, 2.0, shape).expect("impulse"));
    grid.current().to_vec()
}

#[test]
fn shapes_follow_their_profiles() {
    let c = Vec2::new(16.0, 16.0);
    let at = |z: &[f32], x: usize, y: usize| z[y * 32 + x];
    let point = added(ImpulseShape::Point, Vec2::new(15.6, 16.4), 5.0);
    assert_eq!(at(&point, 16, 16), 2.0);
    assert_eq!(point.iter().filter(|&&v| v != 0.0).count(), 1);

    let linear = added(ImpulseShape::Linear, c, 4.0);
    assert_relative_eq!(at(&linear, 16, 16), 2.0);
    assert_relative_eq!(at(&linear, 18, 16), 1.0); // 1 - 2/4
    assert_eq!(at(&linear, 20, 16), 0.0); // r = R
    assert_eq!(at(&linear, 21, 16), 0.0);

    let cosine = added(ImpulseShape::Cosine, c, 4.0);
    assert_relative_eq!(at(&cosine, 16, 16), 2.0);
    assert_relative_eq!(at(&cosine, 18, 16), 1.0, epsilon = 1e-6); // 0.5 + 0.5 cos(pi/2)
    assert_relative_eq!(
        at(&cosine, 16, 17),
        2.0 * (0.5 + 0.5 * (std::f32::consts::PI / 4.0).cos())
    );
}

#[test]
fn a_drop_adds_zero_volume_even_when_clipped() {
    for centre in [
        Vec2::new(16.0, 16.0),
        Vec2::new(1.0, 3.0),
        Vec2::new(31.5, 16.0),
    ] {
        let z = added(ImpulseShape::Drop, centre, 8.0);
        let sum: f64 = z.iter().map(|&v| f64::from(v)).sum();
        let pos: f64 = z.iter().filter(|&&v| v > 0.0).map(|&v| f64::from(v)).sum();
        assert!(pos > 1.0, "the drop has a crest");
        assert!(sum.abs() < 1e-5 * pos, "sum {sum} at {centre}");
    }
}

#[test]
fn repeated_drops_do_not_raise_the_mean_level_but_bumps_do() {
    let mean_after_clicks = |shape: ImpulseShape| {
        let mut grid = support::signed(48, 48, 0.25, Boundary::Reflective);
        for k in 0..20 {
            let c = Vec2::new(10.0 + (k * 7 % 29) as f32, 12.0 + (k * 11 % 23) as f32);
            grid.add_impulse(&Impulse::new(c, 6.0, 0.5, shape).expect("impulse"));
            for _ in 0..50 {
                grid.step();
            }
        }
        grid.volume() / 48.0 / 48.0
    };
    let drop = mean_after_clicks(ImpulseShape::Drop);
    let bump = mean_after_clicks(ImpulseShape::Cosine);
    assert!(drop.abs() < 1e-5, "drops moved the mean level by {drop}");
    assert!(bump > 0.05, "plain bumps raise the level (mean {bump})");
}

#[test]
fn sampling_reproduces_a_tilted_plane() {
    // z = 0.2 x - 0.1 y in world metres, h = 0.5: gradients and normals are exact.
    let size = GridSize::new(10, 8).expect("size");
    let h = 0.5f32;
    let heights: Vec<f32> = (0..size.cells())
        .map(|i| {
            let (x, y) = ((i % 10) as f32 + 0.5, (i / 10) as f32 + 0.5);
            0.2 * x * h - 0.1 * y * h
        })
        .collect();
    let view = HeightView::new(size, h, &heights).expect("view");
    let p = Vec2::new(2.3, 1.7);
    assert_relative_eq!(
        view.bilinear(p).expect("inside"),
        0.2 * 2.3 - 0.1 * 1.7,
        epsilon = 1e-6
    );
    let g = view.gradient(p).expect("inside");
    assert_relative_eq!(g.x, 0.2, epsilon = 1e-5);
    assert_relative_eq!(g.y, -0.1, epsilon = 1e-5);
    let n = view.normal(p).expect("inside");
    let expect = Vec3::new(-0.2, 0.1, 1.0).normalize();
    assert!((n - expect).length() < 1e-5, "{n} vs {expect}");
    // Nearest: the cell containing the point.
    assert_eq!(view.nearest(Vec2::new(0.1, 0.1)), Some(heights[0]));
    assert_eq!(view.nearest(Vec2::new(4.99, 3.99)), Some(heights[79]));
}

#[test]
fn still_water_is_flat_with_upward_normals() {
    let grid = SignedGrid::new(
        GridSize::new(12, 12).expect("size"),
        support::params_for(0.25, Damping::NONE),
        Boundary::Periodic,
    );
    let view = grid.view();
    assert_eq!(view.bilinear(Vec2::new(3.0, 4.0)), Some(0.0));
    assert_eq!(view.normal(Vec2::new(3.0, 4.0)), Some(Vec3::Z));
}
