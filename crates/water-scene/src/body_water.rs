//! [`BodyWater`]: which step's water a scene's bodies float on, the trade between matching the
//! CPU reference step for step and never waiting for a GPU.

/// Which step's water the bodies read at each step (`docs/architecture.md`, "Bodies on GPU
/// water").
///
/// On a GPU backend the bodies read patches of the water around them
/// ([`water_core::HeightPatches`], 4 bytes a cell), gathered on the device after each step and
/// read back without blocking ([`water_gpu::PatchReader`]); never the whole field. On the CPU
/// [`BodyWater::Current`] reads the grid itself and [`BodyWater::OneStepLate`] keeps the same
/// patches the GPU would, so both backends run the same rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BodyWater {
    /// The water the step starts from (impulses queued for it included): the CPU reference's
    /// order. On a GPU backend the patches of a step are read back while the caller's frame
    /// goes on, so a scene stepped once a frame waits for nothing; a step that follows another
    /// at once (several steps in one frame), or one after an impulse landed or a body jumped
    /// out of its patch, waits for the device.
    #[default]
    Current,
    /// The water one step older: the step that starts from the water after `n` steps has its
    /// bodies read the water after `n - 1` steps, as that step left it (impulses that landed
    /// since are not in it). The device may then run one step behind the host, so a frame of
    /// two steps waits for nothing either. The first step after the scene is made, after a
    /// body is added or removed or jumps out of its patch, or after
    /// [`crate::Scene::water_mut`], reads the water it starts from.
    OneStepLate,
}

impl BodyWater {
    /// Both settings, the default first.
    pub const ALL: [Self; 2] = [Self::Current, Self::OneStepLate];

    /// The name: `current` or `one-step-late`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Current => "current",
            Self::OneStepLate => "one-step-late",
        }
    }

    /// Steps between the water the bodies read and the water the step starts from.
    #[must_use]
    pub fn lag(self) -> usize {
        match self {
            Self::Current => 0,
            Self::OneStepLate => 1,
        }
    }
}

impl std::fmt::Display for BodyWater {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is neither `current` nor `one-step-late`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown body water {0:?}; expected current or one-step-late")]
pub struct UnknownBodyWater(pub String);

impl std::str::FromStr for BodyWater {
    type Err = UnknownBodyWater;

    /// ```
    /// use water_scene::BodyWater;
    /// assert_eq!("one-step-late".parse::<BodyWater>()?, BodyWater::OneStepLate);
    /// assert_eq!(BodyWater::Current.to_string(), "current");
    /// assert!("late".parse::<BodyWater>().is_err());
    /// # Ok::<(), water_scene::UnknownBodyWater>(())
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| UnknownBodyWater(name.to_owned()))
    }
}
