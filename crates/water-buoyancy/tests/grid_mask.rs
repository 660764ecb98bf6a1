//! The grid contact mask tests only the cells within a hull's extent along the grid's axes:
//! for every shape, turned and tilted every way, it marks exactly the cells whose centres a
//! test of every cell of the grid finds inside.

use glam::{Quat, Vec3};
use water_buoyancy::{rasterise_grid_mask, Hull, Pose, Shape};
use water_core::GridSize;

const CELL: f32 = 0.1;

fn shapes() -> Vec<Shape> {
    // A wedge: a triangular prism, not symmetric about its origin.
    let wedge = Shape::convex_mesh(
        vec![
            Vec3::new(-0.3, -0.2, -0.1),
            Vec3::new(0.5, -0.2, -0.1),
            Vec3::new(-0.3, 0.4, -0.1),
            Vec3::new(-0.3, -0.2, 0.3),
            Vec3::new(0.5, -0.2, 0.3),
            Vec3::new(-0.3, 0.4, 0.3),
        ],
        vec![
            [0, 2, 1],
            [3, 4, 5],
            [0, 1, 4],
            [0, 4, 3],
            [1, 2, 5],
            [1, 5, 4],
            [2, 0, 3],
            [2, 3, 5],
        ],
    )
    .unwrap();
    vec![
        Shape::cuboid(Vec3::new(0.4, 0.25, 0.2)).unwrap(),
        Shape::sphere(0.33).unwrap(),
        Shape::capsule(0.15, 0.4).unwrap(),
        wedge,
    ]
}

#[test]
fn the_mask_marks_every_cell_inside_and_no_other() {
    let size = GridSize::new(40, 30).unwrap();
    for shape in shapes() {
        let hull = Hull::new(
            shape,
            Pose::new(Vec3::new(0.05, -0.1, 0.02), Quat::from_rotation_z(0.4)).unwrap(),
        )
        .unwrap();
        let mut cutting = 0;
        for k in 0..60 {
            let t = k as f32;
            let body = Pose::new(
                // Some poses hang over the grid's edges.
                Vec3::new(-0.2 + 0.075 * t, 3.2 - 0.06 * t, 0.3 * (0.7 * t).sin()),
                Quat::from_rotation_z(0.37 * t)
                    * Quat::from_rotation_x(0.21 * t)
                    * Quat::from_rotation_y(0.13 * t),
            )
            .unwrap();
            let mut mask = vec![0.0; size.cells()];
            rasterise_grid_mask(
                std::slice::from_ref(&hull),
                &body,
                size,
                CELL,
                2.0,
                &mut mask,
            )
            .unwrap();
            let mut inside = 0;
            for y in 0..size.height() {
                for x in 0..size.width() {
                    let centre = Vec3::new((x as f32 + 0.5) * CELL, (y as f32 + 0.5) * CELL, 0.0);
                    let expected = if hull.contains(&body, centre) {
                        2.0
                    } else {
                        0.0
                    };
                    inside += usize::from(expected > 0.0);
                    assert_eq!(
                        mask[size.index(x, y)],
                        expected,
                        "{:?}, pose {k}, cell ({x}, {y})",
                        hull.shape()
                    );
                }
            }
            cutting += usize::from(inside > 0);
        }
        // Most poses cut the still-water plane, so the comparison is not of empty masks.
        assert!(
            cutting >= 30,
            "{:?}: {cutting} of 60 poses cut the water",
            hull.shape()
        );
    }
}
