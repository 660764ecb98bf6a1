//! The `sailing` built-in: a 4 m boat towed at 10 m/s over a JONSWAP swell, the window and 4
//! cascades following it. Its tow holds it on its path every step while the swell lifts and
//! tilts it; it never capsizes, the window goes with it, and it leaves white water behind.

use glam::{Vec2, Vec3};
use water_scene::scenario::ScenarioFile;
use water_scene::Backend;

#[test]
fn the_sailing_boat_stays_upright_on_its_path_with_the_window_and_foam_following() {
    let ScenarioFile::Grid(scenario) = ScenarioFile::builtin("sailing").expect("built in") else {
        panic!("sailing is grid water");
    };
    assert_eq!(scenario.cascades, 4);
    let mut scene = scenario.scene(Backend::Cpu, None).expect("scene");
    let boat = scene
        .body_ids()
        .find(|&id| scene.body(id).expect("body").name == "boat")
        .expect("a boat");
    let dt = 0.05_f32;
    let mut steepest = 0.0_f32;
    for step in 1..=300 {
        scene.step().expect("step");
        let b = scene.body(boat).expect("boat");
        // On its path to f32 rounding at 20 to 170 m: 10 m/s along y = 32 m.
        let on_path = Vec2::new(20.0 + 10.0 * dt * step as f32, 32.0);
        let off = (Vec2::new(b.position.x, b.position.y) - on_path).length();
        assert!(off < 1e-3, "step {step}: {off} m off its path");
        let tilt = (b.orientation * Vec3::Z)
            .angle_between(Vec3::Z)
            .to_degrees();
        steepest = steepest.max(tilt);
        assert!(tilt < 60.0, "step {step}: tilted {tilt} degrees");
        assert!(!b.off_water, "step {step}: off the water at {}", b.position);
    }
    // It rode the swell: tilted more than a flat sea's 2 to 3 degrees of trim.
    assert!(
        steepest > 5.0,
        "the swell never tilted it: {steepest} degrees"
    );
    // The window followed it 150 m (by whole cells, the boat near its centre).
    let origin = scene.window_origin();
    let centre = origin.as_vec2() + Vec2::splat(32.0);
    assert!(
        (centre.x - 170.0).abs() <= 0.5 && (centre.y - 32.0).abs() <= 0.5,
        "window centred at {centre}, the boat at (170, 32)"
    );
    // White water in its trail: the finest cascade's foam behind the boat (cells of 0.25 m).
    let foam = scene.foam_coverage().expect("foam");
    let (w, cell) = (256_usize, 0.25_f32);
    let trail = |x: f32| {
        let col = ((x - origin.x as f32) / cell) as usize;
        let row = ((32.0 - origin.y as f32) / cell) as usize;
        (row.saturating_sub(6)..row + 6)
            .map(|r| foam[r * w + col])
            .fold(0.0_f32, f32::max)
    };
    let behind = trail(160.0);
    assert!(behind > 0.3, "coverage 10 m behind the boat: {behind}");
    assert!(foam.iter().all(|f| (0.0..=1.0).contains(f)));
}
