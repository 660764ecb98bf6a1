//! `WaterFocus`: the grid follows an entity through the Bevy world by whole cells. The water's
//! transform moves with the grid, clicks land where the grid is now, and `WaterQuery` answers
//! where the grid is now (the place it left is off the water).

use std::time::Duration;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::prelude::*;
use water_bevy::WaterSimulation;

fn surface(app: &mut App, at: Vec3) -> Option<water_bevy::WaterSample> {
    app.world_mut()
        .run_system_once(move |water: WaterQuery| water.surface_at(at))
        .expect("query")
}

fn water_centre(app: &mut App) -> Vec3 {
    let mut q = app.world_mut().query_filtered::<&Transform, With<Water>>();
    q.single(app.world()).expect("one water").translation
}

#[test]
fn the_grid_follows_its_focus_and_the_waves_stay_in_the_world() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TransformPlugin, WaterPlugin::headless()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            1.0 / 60.0,
        )));
    // A 6.4 m square of 0.1 m cells, following a camera.
    let camera = app
        .world_mut()
        .spawn(Transform::from_xyz(0.0, 5.0, 0.0))
        .id();
    app.world_mut()
        .spawn((Water::new(64, 64), WaterFocus(camera)));
    app.update();
    app.update();
    assert!(
        surface(&mut app, Vec3::new(3.1, 0.0, 0.0)).is_some(),
        "the grid at home"
    );
    // A bump beside home, and the camera 20 m along +x: the grid goes with it.
    let home_bump = Vec3::new(1.0, 0.0, -1.0);
    app.world_mut()
        .write_message(WaterImpulse::new(home_bump, 0.4, 0.05))
        .expect("message");
    app.update();
    app.world_mut()
        .entity_mut(camera)
        .insert(Transform::from_xyz(20.0, 5.0, -3.0));
    for _ in 0..4 {
        app.update();
    }
    let centre = water_centre(&mut app);
    assert!(
        (centre.x - 20.0).abs() <= 0.1 && (centre.z + 3.0).abs() <= 0.1 && centre.y == 0.0,
        "the water's transform is at the grid's centre, under the camera: {centre}"
    );
    let (origin, placement) = {
        let mut q = app.world_mut().query::<&WaterSimulation>();
        let s = q.single(app.world()).expect("simulation");
        (s.scene().window_origin(), s.placement())
    };
    assert!(
        origin.x > 19.0 && origin.y > 2.0,
        "the grid moved: {origin}"
    );
    assert_eq!(
        placement.corner,
        Vec3::new(-3.2, 0.0, 3.2),
        "the frame it was made in"
    );
    assert!(
        surface(&mut app, home_bump).is_none(),
        "home is off the grid now"
    );
    // A click by the camera lands on the moved grid, where it was made.
    let click = Vec3::new(21.0, 0.0, -2.0);
    app.world_mut()
        .write_message(WaterImpulse::new(click, 0.4, 0.05))
        .expect("message");
    for _ in 0..4 {
        app.update();
    }
    let under = surface(&mut app, click).expect("on the moved grid");
    assert!(
        under.point.y > 0.02,
        "the bump under the click: {} m",
        under.point.y
    );
    assert_eq!(under.point.x, click.x, "answered at the world point");
    let beside = surface(&mut app, click + Vec3::new(-2.0, 0.0, 0.0)).expect("on the grid");
    assert!(
        beside.point.y.abs() < 1e-3,
        "nowhere else yet: {}",
        beside.point.y
    );
}
