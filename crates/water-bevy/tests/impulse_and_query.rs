//! A click raises the water where it lands, in Bevy's y-up world: the plugin's axes agree with
//! the world's, and `WaterQuery` reads the surface there.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use water_bevy::prelude::*;

mod support;

fn app_with_water(centre: Vec3) -> App {
    let mut app = support::headless_app(1.0 / 60.0);
    app.world_mut()
        .spawn((Water::new(80, 60), Transform::from_translation(centre)));
    app.update();
    app
}

fn surface(app: &mut App, at: Vec3) -> Option<water_bevy::WaterSample> {
    app.world_mut()
        .run_system_once(move |water: WaterQuery| water.surface_at(at))
        .expect("query")
}

#[test]
fn a_click_raises_the_water_under_it_and_nowhere_mirrored() {
    let centre = Vec3::new(10.0, 2.0, -5.0);
    let mut app = app_with_water(centre);
    let click = centre + Vec3::new(1.5, 0.0, -2.0);
    app.world_mut()
        .write_message(WaterImpulse::new(click, 0.4, 0.05))
        .expect("message");
    // Long enough for one water step (about 38 ms), short enough that the bump has not spread.
    for _ in 0..4 {
        app.update();
    }
    let under = surface(&mut app, click).expect("on the water");
    assert!(
        under.point.y - centre.y > 0.02,
        "the bump under the click is {} m high",
        under.point.y - centre.y
    );
    for mirrored in [
        centre + Vec3::new(-1.5, 0.0, -2.0),
        centre + Vec3::new(1.5, 0.0, 2.0),
        centre + Vec3::new(-2.0, 0.0, 1.5),
    ] {
        let there = surface(&mut app, mirrored).expect("on the water");
        assert!(
            (there.point.y - centre.y).abs() < 1e-3,
            "water rose at {mirrored} too: {}",
            there.point.y - centre.y
        );
    }
    // On the bump's flank the normal leans away from its top.
    let flank = surface(&mut app, click + Vec3::new(0.2, 0.0, 0.0)).expect("flank");
    assert!(flank.normal.x > 0.01, "normal {}", flank.normal);
}

#[test]
fn off_the_water_there_is_no_surface() {
    let mut app = app_with_water(Vec3::ZERO);
    // 8 m x 6 m: x in [-4, 4), z in (-3, 3].
    assert!(surface(&mut app, Vec3::new(3.9, 0.0, 2.9)).is_some());
    assert!(surface(&mut app, Vec3::new(4.1, 0.0, 0.0)).is_none());
    assert!(surface(&mut app, Vec3::new(0.0, 0.0, -3.1)).is_none());
    let still = app
        .world_mut()
        .run_system_once(|water: WaterQuery| water.still_level())
        .expect("query");
    assert_eq!(still, Some(0.0));
}

#[test]
fn bad_water_settings_are_refused_not_panicked_on() {
    // A negative wave speed, and the GPU backend in an app without Bevy's renderer: each
    // refused, with the reason named, and no simulation made.
    let bad_waters = [
        (Water::new(64, 64).with_wave_speed(-1.0), "wave_speed"),
        (
            Water::new(64, 64).with_backend(water_bevy::Backend::Gpu),
            "backend gpu needs Bevy's render device",
        ),
    ];
    for (water, reason) in bad_waters {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, WaterPlugin::headless()));
        let bad = app.world_mut().spawn(water.clone()).id();
        app.update();
        app.update();
        assert!(app.world().get::<water_bevy::WaterRefused>(bad).is_some());
        assert!(app
            .world()
            .get::<water_bevy::WaterSimulation>(bad)
            .is_none());
        let err = water_bevy::WaterSimulation::new(bad, &water, Vec3::ZERO, None).unwrap_err();
        assert!(err.to_string().contains(reason), "{err}");
    }
}
