//! A body pushed off the edge of a grid floats on still water at rest level, and the step
//! says it is off the water, instead of losing its buoyancy and falling into the void.

use glam::Vec3;
use water_buoyancy::{
    box_draft, BodyState, DragRates, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Wrench,
};
use water_core::{Boundary, Damping, GridSize, SignedGrid, WaveParams};

const CELL: f32 = 0.25;

#[test]
fn a_box_pushed_off_the_grid_floats_at_its_draft_and_is_reported() {
    // A 4 m x 4 m pond at rest; a 0.5 m x 0.5 m x 0.3 m box of 30 kg floats 0.12 m deep.
    let size = GridSize::new(16, 16).unwrap();
    let params = WaveParams::new(f64::from(CELL), 1.0, 0.02, Damping::PerStep(1.0)).unwrap();
    let water = SignedGrid::new(size, params, Boundary::Absorbing);
    let half = Vec3::new(0.25, 0.25, 0.15);
    let (mass, rho) = (30.0, 1000.0);
    let draft = box_draft(mass, rho, 4.0 * half.x * half.y);
    let rest = half.z - draft;
    let shape = Shape::cuboid(half).unwrap();
    let start = BodyState::at_rest(Pose::from_position(Vec3::new(3.0, 2.0, rest)).unwrap());
    let body = RigidBody::from_shape(&shape, mass, start).unwrap();
    let hulls = vec![Hull::new(shape, Pose::IDENTITY).unwrap()];
    let mut boat = FloatingBody::archimedes(body, hulls, rho, DragRates::DEFAULT).unwrap();
    let push = Wrench {
        force: Vec3::new(20.0, 0.0, 0.0),
        torque: Vec3::ZERO,
    };
    let dt = 1.0 / 60.0;
    let mut lowest = rest;
    for k in 0..1800 {
        // Pushed for 10 s (about 4 m at its drag's terminal speed), then left to settle.
        let extra = if k < 600 { push } else { Wrench::ZERO };
        let step = boat
            .step(&water.view(), &Gravity::EARTH, dt, extra)
            .unwrap();
        let x = boat.body.state.pose.position.x;
        // Off-water is reported while the hull reaches past the grid's edge at x = 4 m (and
        // not before; the band of one step's travel around the edge is left out).
        let far_side = x + half.x;
        if far_side < 3.99 {
            assert!(!step.off_water, "step {k}: off the water at x = {x} m");
        } else if far_side > 4.01 {
            assert!(step.off_water, "step {k}: on the water at x = {x} m");
        }
        lowest = lowest.min(boat.body.state.pose.position.z);
    }
    let pose = boat.body.state.pose;
    assert!(
        pose.position.x - half.x > 4.0,
        "only reached x = {} m",
        pose.position.x
    );
    // Still water outside is the grid's own rest level: crossing the edge disturbs nothing.
    assert!(
        rest - lowest < 0.01 * draft,
        "sank to {lowest} m, floating rests at {rest} m"
    );
    assert!(
        (pose.position.z - rest).abs() < 0.01 * draft,
        "floats at {} m off the grid, expected {rest} m",
        pose.position.z
    );
}
