//! The check mode's scripted input: clicks and crates at set frames and places, given to the
//! demo through the same calls the mouse makes.

use glam::Vec2;

use crate::demo::Demo;
use crate::error::DemoError;

/// One scripted action, at a place given as a fraction of the picture's width and height from
/// its top-left corner (so it lands on the same water at any window size).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScriptedInput {
    /// A left click.
    Click(Vec2),
    /// A right click: a crate thrown there.
    Crate(Vec2),
}

/// When each action comes, as a fraction of the run, and what it is. Early enough that the
/// waves have spread (and the crates landed) by the last frame; places near the middle of the
/// picture, where the default cameras see the pool and the sphere.
const ACTIONS: [(f32, ScriptedInput); 7] = [
    (0.0, ScriptedInput::Click(Vec2::new(0.50, 0.55))),
    (0.05, ScriptedInput::Crate(Vec2::new(0.40, 0.50))),
    (0.15, ScriptedInput::Click(Vec2::new(0.33, 0.62))),
    (0.25, ScriptedInput::Crate(Vec2::new(0.62, 0.62))),
    (0.35, ScriptedInput::Click(Vec2::new(0.62, 0.40))),
    (0.5, ScriptedInput::Click(Vec2::new(0.45, 0.75))),
    (0.6, ScriptedInput::Click(Vec2::new(0.55, 0.30))),
];

/// The actions of a run of `frames` frames, by frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    actions: Vec<(u32, ScriptedInput)>,
}

impl Script {
    /// The script for a run of `frames` frames: every action falls on a frame of the run.
    #[must_use]
    pub fn for_frames(frames: u32) -> Self {
        let last = frames.saturating_sub(1);
        let actions = ACTIONS
            .iter()
            .map(|&(share, input)| (((share * frames as f32) as u32).min(last), input))
            .collect();
        Self { actions }
    }

    /// The actions of frame `frame`.
    pub fn due(&self, frame: u32) -> impl Iterator<Item = ScriptedInput> + '_ {
        self.actions
            .iter()
            .filter(move |(at, _)| *at == frame)
            .map(|(_, input)| *input)
    }

    /// Plays frame `frame`'s actions on `demo`, as the mouse would at those pixels.
    ///
    /// # Errors
    /// As [`Demo::click`] and [`Demo::throw_crate`].
    pub fn play(&self, frame: u32, demo: &mut Demo) -> Result<(), DemoError> {
        let size = Vec2::new(demo.target().width() as f32, demo.target().height() as f32);
        for input in self.due(frame) {
            match input {
                ScriptedInput::Click(at) => demo.click(at * size, 1.0)?,
                ScriptedInput::Crate(at) => demo.throw_crate(at * size)?,
            };
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_falls_on_a_frame_of_the_run() {
        for frames in [1, 2, 7, 40, 1000] {
            let script = Script::for_frames(frames);
            let played: usize = (0..frames).map(|f| script.due(f).count()).sum();
            assert_eq!(played, ACTIONS.len(), "{frames} frames");
        }
        let script = Script::for_frames(40);
        assert_eq!(script.due(0).count(), 1);
        assert!(script
            .due(2)
            .any(|input| matches!(input, ScriptedInput::Crate(_))));
    }
}
