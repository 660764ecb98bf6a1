//! Helpers shared by the integration tests.
#![allow(
    dead_code,
    reason = "each test file is a crate of its own and uses only some of the helpers"
)]

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::prelude::{Floating, Water};
use water_bevy::{DragRates, WaterPlugin};

/// A headless app with the water plugin (no renderer) whose clock advances `frame_seconds` each
/// update, whatever the machine runs at, so every run sees the same water.
pub fn headless_app(frame_seconds: f64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, WaterPlugin::headless()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
            frame_seconds,
        )));
    app
}

/// A headless app at 60 frames a second over `width` x `height` cells of still water, and the
/// crate the tests float on it: 0.6 x 0.3 x 0.6 m (y up), 40 kg, with its Archimedes draft,
/// 40 / (1000 * 0.36) = 0.111 m.
pub fn crate_on_water(width: usize, height: usize) -> (App, Floating, f32) {
    let mut app = headless_app(1.0 / 60.0);
    app.world_mut().spawn(Water::new(width, height));
    let crate_ = Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), 40.0);
    let draft = crate_.archimedes_draft().expect("a box");
    (app, crate_, draft)
}

/// The speed, m/s, at which a push of `push` N balances the default drag of a body of `mass` kg
/// with the fraction `wet` of its hull under water: the root of `push = wet m (k1 v + k2 v^2)`
/// with `DragRates::DEFAULT`'s `k1` (linear) and `k2` (quadratic).
pub fn drag_limited_speed(mass: f32, wet: f32, push: f32) -> f32 {
    let (k1, k2) = (
        DragRates::DEFAULT.linear * mass * wet,
        DragRates::DEFAULT.quadratic * mass * wet,
    );
    (-k1 + (k1 * k1 + 4.0 * k2 * push).sqrt()) / (2.0 * k2)
}
