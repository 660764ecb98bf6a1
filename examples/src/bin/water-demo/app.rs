//! The window: winit's event loop, input turned into the demo's actions, and each frame drawn
//! offscreen, copied to the window and timed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::Vec2;
use water_render::PictureBlit;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, KeyEvent, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

use crate::check_run::{finish, run_headless, still_picture, CHECK_FRAME_SECONDS};
use crate::demo::Demo;
use crate::error::DemoError;
use crate::gpu::{connect, Gpu, WindowSurface};
use crate::options::{Options, SceneKind, HELP};
use crate::quality::Quality;
use crate::script::Script;
use crate::timing::{StepReport, TimingWindow};

/// Longest stretch of simulated time one frame may owe, seconds: after a stall (the window
/// dragged, a debugger) the water picks up where it was instead of racing to catch up.
const MAX_FRAME_SECONDS: f64 = 0.1;

/// A drag makes this share of a click's wave, once a frame, so a stroke draws a wake rather
/// than a wall of water.
const DRAG_STRENGTH: f32 = 0.3;

/// How often the title's times change.
const TITLE_EVERY: Duration = Duration::from_millis(250);

/// How often the times go to stdout.
const PRINT_EVERY: Duration = Duration::from_secs(1);

/// Zoom per wheel notch (or arrow-style key press).
const ZOOM_PER_NOTCH: f32 = 0.9;

/// Pixels of a touchpad's scroll that count as one wheel notch.
const PIXELS_PER_NOTCH: f64 = 50.0;

/// Runs the demo until its window closes (or a check run ends).
///
/// # Errors
/// [`DemoError`] saying why it stopped early, or why a check failed.
pub fn run(options: &Options) -> Result<(), DemoError> {
    if let Some(check) = options.check.as_ref().filter(|c| c.headless) {
        return run_headless(options, check);
    }
    let event_loop = EventLoop::new().map_err(|e| DemoError::Window(e.to_string()))?;
    // Draw continuously: the water moves whether or not anything happens.
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        options: options.clone(),
        running: None,
        outcome: Ok(()),
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| DemoError::Window(e.to_string()))?;
    app.outcome
}

/// What the event loop holds.
struct App {
    options: Options,
    /// The window and everything drawn in it, from the first `resumed`.
    running: Option<Running>,
    /// Why the loop was left, if for a failure.
    outcome: Result<(), DemoError>,
}

/// Whether to go on after an event.
enum After {
    Continue,
    Quit,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        match Running::start(event_loop, &self.options) {
            Ok(running) => {
                println!(
                    "water-demo: {} on {}; H prints the controls",
                    running.demo.describe(),
                    running.gpu.describe()
                );
                self.running = Some(running);
            }
            Err(e) => {
                self.outcome = Err(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(running) = &mut self.running else {
            return;
        };
        match running.handle(event) {
            Ok(After::Continue) => {}
            Ok(After::Quit) => event_loop.exit(),
            Err(e) => {
                self.outcome = Err(e);
                event_loop.exit();
            }
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(running) = &self.running {
            running.window.request_redraw();
        }
    }
}

/// The mouse, as far as the demo cares.
#[derive(Debug, Default)]
struct Pointer {
    /// Where the cursor is, window pixels; `None` outside the window.
    at: Option<Vec2>,
    left_down: bool,
    /// Where a drag has got to since the last frame.
    drag: Option<Vec2>,
}

/// The window, its device and the demo drawn in it.
struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    surface: WindowSurface,
    blit: PictureBlit,
    demo: Demo,
    pointer: Pointer,
    /// The check run's script and its frame count, if this is one.
    script: Option<Script>,
    /// A check run's picture of the still scene, before any input.
    still: Option<water_render::RgbaImage>,
    options: Options,
    frames: u32,
    presented: u32,
    last_frame: Option<Instant>,
    title_times: TimingWindow,
    printed_times: TimingWindow,
    whole_run: TimingWindow,
}

impl Running {
    fn start(event_loop: &ActiveEventLoop, options: &Options) -> Result<Self, DemoError> {
        let attributes = Window::default_attributes()
            .with_title("Dynamic Water")
            .with_inner_size(PhysicalSize::new(options.width, options.height));
        let window = Arc::new(
            event_loop
                .create_window(attributes)
                .map_err(|e| DemoError::Window(e.to_string()))?,
        );
        let (gpu, surface) = connect(&window, &event_loop.owned_display_handle())?;
        let blit = PictureBlit::new(&gpu.device, surface.format())?;
        let (width, height) = surface.size();
        let mut demo = Demo::new(gpu.context(), options.scene, options.quality, width, height)?;
        let still = match &options.check {
            Some(_) => Some(still_picture(&mut demo, &gpu)?),
            None => None,
        };
        Ok(Self {
            still,
            window,
            gpu,
            surface,
            blit,
            demo,
            pointer: Pointer::default(),
            script: options.check.as_ref().map(|c| Script::for_frames(c.frames)),
            options: options.clone(),
            frames: 0,
            presented: 0,
            last_frame: None,
            title_times: TimingWindow::default(),
            printed_times: TimingWindow::default(),
            whole_run: TimingWindow::default(),
        })
    }

    fn handle(&mut self, event: WindowEvent) -> Result<After, DemoError> {
        match event {
            WindowEvent::CloseRequested => return Ok(After::Quit),
            WindowEvent::Resized(size) => {
                self.surface
                    .resize(&self.gpu.device, size.width, size.height);
            }
            WindowEvent::RedrawRequested => return self.frame(),
            WindowEvent::KeyboardInput { event, .. } => return self.key(&event),
            WindowEvent::CursorMoved { position, .. } => {
                let at = Vec2::new(position.x as f32, position.y as f32);
                self.pointer.at = Some(at);
                if self.pointer.left_down {
                    self.pointer.drag = Some(at);
                }
            }
            WindowEvent::CursorLeft { .. } => {
                self.pointer.at = None;
                self.pointer.left_down = false;
            }
            WindowEvent::MouseInput { state, button, .. } => self.mouse(state, button)?,
            WindowEvent::MouseWheel { delta, .. } => {
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => f64::from(y),
                    MouseScrollDelta::PixelDelta(p) => p.y / PIXELS_PER_NOTCH,
                };
                // Wheel forward (positive) moves in.
                self.demo.zoom(ZOOM_PER_NOTCH.powf(notches as f32));
            }
            _ => {}
        }
        Ok(After::Continue)
    }

    fn mouse(&mut self, state: ElementState, button: MouseButton) -> Result<(), DemoError> {
        let pressed = state == ElementState::Pressed;
        match button {
            MouseButton::Left => {
                self.pointer.left_down = pressed;
                if let (true, Some(at)) = (pressed, self.pointer.at) {
                    self.demo.click(at, 1.0)?;
                }
            }
            MouseButton::Right if pressed => self.throw_crate()?,
            _ => {}
        }
        Ok(())
    }

    /// Throws a crate where the cursor is (the middle of the window if it is outside).
    fn throw_crate(&mut self) -> Result<(), DemoError> {
        let (w, h) = self.surface.size();
        let at = self
            .pointer
            .at
            .unwrap_or(Vec2::new(w as f32, h as f32) * 0.5);
        if !self.demo.throw_crate(at)? && self.demo.active() != SceneKind::Grid {
            println!("water-demo: crates float in the grid scene (Tab switches to it)");
        }
        Ok(())
    }

    fn key(&mut self, event: &KeyEvent) -> Result<After, DemoError> {
        if event.state != ElementState::Pressed {
            return Ok(After::Continue);
        }
        let PhysicalKey::Code(code) = event.physical_key else {
            return Ok(After::Continue);
        };
        // Held arrows and zoom keys repeat; the rest act once per press.
        match code {
            KeyCode::ArrowLeft => self.demo.turn(-1.0, 0.0),
            KeyCode::ArrowRight => self.demo.turn(1.0, 0.0),
            KeyCode::ArrowUp => self.demo.turn(0.0, 1.0),
            KeyCode::ArrowDown => self.demo.turn(0.0, -1.0),
            KeyCode::Equal | KeyCode::NumpadAdd => self.demo.zoom(ZOOM_PER_NOTCH),
            KeyCode::Minus | KeyCode::NumpadSubtract => self.demo.zoom(1.0 / ZOOM_PER_NOTCH),
            _ if event.repeat => {}
            KeyCode::Escape | KeyCode::KeyQ => return Ok(After::Quit),
            KeyCode::KeyR => {
                self.demo.reset()?;
                println!("water-demo: reset: {}", self.demo.describe());
            }
            KeyCode::Tab | KeyCode::KeyS => {
                self.demo.switch_scene()?;
                println!("water-demo: {}", self.demo.describe());
            }
            KeyCode::KeyC => self.throw_crate()?,
            KeyCode::KeyH => print!("{HELP}"),
            _ => {
                if let Some(quality) = digit(code).and_then(Quality::from_digit) {
                    self.demo.set_quality(quality)?;
                    println!("water-demo: {}", self.demo.describe());
                }
            }
        }
        Ok(After::Continue)
    }

    /// One frame: scripted or dragged input, the water's steps, the picture offscreen, its copy
    /// in the window, the times.
    fn frame(&mut self) -> Result<After, DemoError> {
        let now = Instant::now();
        let since_last = self.last_frame.map(|t| now - t);
        self.last_frame = Some(now);
        let seconds = if self.script.is_some() {
            CHECK_FRAME_SECONDS
        } else {
            since_last.map_or(0.0, |d| d.as_secs_f64().min(MAX_FRAME_SECONDS))
        };
        if let Some(script) = &self.script {
            script.play(self.frames, &mut self.demo)?;
        }
        if let Some(at) = self.pointer.drag.take() {
            self.demo.click(at, DRAG_STRENGTH)?;
        }
        let steps = self.demo.advance(seconds)?;
        let (width, height) = self.surface.size();
        self.demo.resize(width, height)?;
        let device = &self.gpu.device;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("water-demo frame"),
        });
        self.demo.render(&mut encoder)?;
        let texture = self.surface.acquire(device)?;
        if let Some(texture) = &texture {
            let view = texture.texture.create_view(&Default::default());
            self.blit
                .encode(&mut encoder, self.demo.target().colour_view(), &view)?;
        }
        self.gpu.queue.submit([encoder.finish()]);
        if let Some(texture) = texture {
            self.window.pre_present_notify();
            texture.present();
            self.presented += 1;
        }
        self.frames += 1;
        // The first frame has no frame before it to be timed from.
        if let Some(frame_time) = since_last {
            self.record_times(frame_time, &steps);
        }
        match &self.options.check {
            Some(check) if self.frames >= check.frames => {
                let still = self
                    .still
                    .as_ref()
                    .expect("a check run draws its still picture first");
                finish(
                    &self.demo,
                    &self.gpu,
                    check,
                    still,
                    self.whole_run.take(),
                    Some(self.presented),
                )?;
                Ok(After::Quit)
            }
            _ => Ok(After::Continue),
        }
    }

    fn record_times(&mut self, frame_time: Duration, steps: &StepReport) {
        for window in [
            &mut self.title_times,
            &mut self.printed_times,
            &mut self.whole_run,
        ] {
            window.record(frame_time, steps);
        }
        if self.title_times.covers(TITLE_EVERY) {
            if let Some(t) = self.title_times.take() {
                self.window.set_title(&format!(
                    "Dynamic Water: {} | {} | {}",
                    self.demo.describe(),
                    t.describe(),
                    self.gpu.describe()
                ));
            }
        }
        if self.printed_times.covers(PRINT_EVERY) {
            if let Some(t) = self.printed_times.take() {
                let software = if self.gpu.is_software() {
                    " [software rendering]"
                } else {
                    ""
                };
                println!(
                    "water-demo: {}: {}{software}",
                    self.demo.describe(),
                    t.describe()
                );
            }
        }
    }
}

/// The number of a digit key, top row or keypad.
fn digit(code: KeyCode) -> Option<u32> {
    Some(match code {
        KeyCode::Digit1 | KeyCode::Numpad1 => 1,
        KeyCode::Digit2 | KeyCode::Numpad2 => 2,
        KeyCode::Digit3 | KeyCode::Numpad3 => 3,
        KeyCode::Digit4 | KeyCode::Numpad4 => 4,
        _ => return None,
    })
}
