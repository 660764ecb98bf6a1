//! A pond with a floating crate, as a Bevy game writes it with the plugin: the water, a look, a
//! body, a camera and a light; a left click drops a wave at the pond's centre.

use bevy::prelude::*;
use water_bevy::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((DefaultPlugins, WaterPlugin::default()))
        .add_systems(Startup, setup)
        .add_systems(Update, drop_wave_on_click)
        .run()
}

fn setup(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(0.0, 9.0, 12.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    commands.spawn((
        DirectionalLight::default(),
        Transform::from_xyz(-3.0, 6.0, -8.0).looking_at(Vec3::ZERO, Vec3::Y),
    ));
    // 16 m x 16 m of water in 0.125 m cells.
    commands.spawn((
        Water::new(128, 128).with_cell_size(0.125),
        WaterLook::default(),
    ));
    commands.spawn((
        Floating::cuboid(Vec3::splat(0.3), 40.0),
        Transform::from_xyz(1.0, 0.5, 0.0),
    ));
}

/// A left click drops a wave at the pond's centre.
fn drop_wave_on_click(
    buttons: Res<ButtonInput<MouseButton>>,
    mut impulses: MessageWriter<WaterImpulse>,
) {
    if buttons.just_pressed(MouseButton::Left) {
        impulses.write(WaterImpulse::new(Vec3::ZERO, 0.5, 0.2));
    }
}
