//! Waves made back: a floating boat pushed across grid water cuts the surface, and its contact
//! masks raise a positive (bow) wave ahead of it and leave a negative (stern) wave behind; on
//! sphere water the same events make the same signs.

use glam::{Vec2, Vec3};
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape,
    SphereContacts, Wrench,
};
use water_core::{
    Boundary, ContactMasks, ContactSource, Damping, GridSize, GridWater, SignedGrid, WaveParams,
};
use water_sphere::{Icosphere, SphereStepper, SphereWater};

const CELL: f32 = 0.05;

fn boat(at: Vec3, half: Vec3) -> FloatingBody {
    let shape = Shape::cuboid(half).unwrap();
    let mass = 0.5 * 1000.0 * shape.volume();
    FloatingBody {
        body: RigidBody::from_shape(
            &shape,
            mass,
            BodyState::at_rest(Pose::from_position(at).unwrap()),
        )
        .unwrap(),
        hulls: vec![Hull::new(shape, Pose::IDENTITY).unwrap()],
        model: BuoyancyModel::Archimedes(
            Archimedes::new(1000.0)
                .unwrap()
                .with_drag(200.0, 100.0, 20.0)
                .unwrap(),
        ),
    }
}

/// Mean height over the cells whose centres lie in `[x0, x1) x [y0, y1)` (metres).
fn mean_over(grid: &SignedGrid, x: (f32, f32), y: (f32, f32)) -> f32 {
    let size = grid.size();
    let heights = grid.heights();
    let mut sum = 0.0;
    let mut count = 0;
    for j in 0..size.height() {
        for i in 0..size.width() {
            let c = Vec2::new((i as f32 + 0.5) * CELL, (j as f32 + 0.5) * CELL);
            if c.x >= x.0 && c.x < x.1 && c.y >= y.0 && c.y < y.1 {
                sum += heights[size.index(i, j)];
                count += 1;
            }
        }
    }
    sum / count as f32
}

#[test]
fn pushed_boat_makes_a_bow_wave_ahead_and_a_stern_wave_behind() {
    let size = GridSize::new(200, 80).unwrap();
    let params = WaveParams::new(f64::from(CELL), 1.0, 0.02, Damping::PerStep(1.0)).unwrap();
    let mut water = SignedGrid::new(size, params, Boundary::Absorbing);
    let half = Vec3::new(0.4, 0.15, 0.1);
    let mut boat = boat(Vec3::new(1.5, 2.0, 0.0), half);
    let mut contacts = ContactMasks::new(size, 0.02).unwrap();
    let mut mask = vec![0.0; size.cells()];
    // The boat has been floating there: its footprint is in both masks before the first step.
    boat.rasterise_grid_mask(size, CELL, ContactSource::Events, &mut mask)
        .unwrap();
    contacts.advance(&mask).unwrap();
    let push = Wrench {
        force: Vec3::new(30.0, 0.0, 0.0),
        torque: Vec3::ZERO,
    };
    let gravity = Gravity::EARTH;
    for _ in 0..250 {
        boat.step(&water.view(), &gravity, 0.02, push).unwrap();
        mask.fill(0.0);
        boat.rasterise_grid_mask(size, CELL, ContactSource::Events, &mut mask)
            .unwrap();
        contacts.advance(&mask).unwrap();
        water.step_with_contacts(&contacts).unwrap();
    }
    let p = boat.body.state.pose.position;
    assert!(p.x > 2.5, "the push moved the boat only to x = {}", p.x);
    let beam = (p.y - half.y, p.y + half.y);
    let (bow, stern) = (p.x + half.x, p.x - half.x);
    let ahead = mean_over(&water, (bow, bow + 0.3), beam);
    let behind = mean_over(&water, (stern - 0.3, stern), beam);
    assert!(ahead > 0.0, "ahead of the bow: mean height {ahead} m");
    assert!(behind < 0.0, "behind the stern: mean height {behind} m");
}

#[test]
fn sphere_contacts_make_the_same_signs() {
    let radius = 5.0;
    let mut water = SphereWater::new(
        Icosphere::new(6, radius).unwrap(),
        SphereStepper::Mean { a: 0.5 },
        Damping::PerStep(1.0),
    )
    .unwrap();
    let vertices = water.heights().len();
    let mut contacts = SphereContacts::new(vertices, 0.02).unwrap();
    let half = Vec3::new(0.4, 0.2, 0.2);
    let mut boat = boat(Vec3::new(0.0, 0.0, radius), half);
    boat.body.state.linear_velocity = Vec3::new(0.3, 0.0, 0.0);
    let mut mask = vec![0.0; vertices];
    boat.rasterise_sphere_mask(water.sphere(), &mut mask)
        .unwrap();
    contacts.advance(&mask).unwrap();
    assert!(
        mask.iter().filter(|&&m| m > 0.0).count() > 10,
        "the hull cuts the surface"
    );
    // Sail it along +x over the north pole, kinematically, for a few steps.
    for _ in 0..20 {
        boat.body.state.pose.position += Vec3::new(0.3 * 0.05, 0.0, 0.0);
        mask.fill(0.0);
        boat.rasterise_sphere_mask(water.sphere(), &mut mask)
            .unwrap();
        contacts.advance(&mask).unwrap();
        contacts.step(&mut water).unwrap();
    }
    let p = boat.body.state.pose.position;
    let mean = |from: f32, to: f32| {
        let (mut sum, mut n) = (0.0, 0);
        for (v, &h) in water.sphere().positions().iter().zip(water.heights()) {
            if v.z > 0.0 && v.x >= from && v.x < to && (v.y - p.y).abs() < half.y {
                sum += h;
                n += 1;
            }
        }
        sum / n as f32
    };
    let ahead = mean(p.x + half.x, p.x + half.x + 0.3);
    let behind = mean(p.x - half.x - 0.3, p.x - half.x);
    assert!(ahead > 0.0, "ahead: {ahead}");
    assert!(behind < 0.0, "behind: {behind}");
    assert!(contacts.advance(&[0.0; 3]).is_err());
}

#[test]
fn sphere_contacts_refuse_what_grid_contacts_refuse() {
    // One check for both layouts (`water_core::MaskPair`): an amplitude whose events would
    // overflow f32 heights, and a mask value that is no speed, are refused on a sphere too.
    for amplitude in [2e5, -2e5, f32::NAN] {
        assert!(ContactMasks::new(GridSize::new(4, 4).unwrap(), amplitude).is_err());
        let e = SphereContacts::new(16, amplitude).unwrap_err();
        assert!(e.to_string().contains("contact amplitude"), "{e}");
    }
    let mut contacts = SphereContacts::new(4, 0.1).unwrap();
    contacts.advance(&[0.0, 1.0, 0.0, 0.0]).unwrap();
    let e = contacts.advance(&[0.0, 0.0, -1.0, 0.0]).unwrap_err();
    assert!(e.to_string().contains("sphere contact mask"), "{e}");
    assert_eq!(
        contacts.new_mask(),
        [0.0, 1.0, 0.0, 0.0],
        "the masks were kept"
    );
}
