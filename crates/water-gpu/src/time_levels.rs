//! The time levels of GPU water and how they rotate: the one ring the four GPU water types
//! ([`crate::ComputeGrid`], [`crate::FragmentGrid`], [`crate::SphereComputeWater`],
//! [`crate::SphereFragmentWater`]) keep their buffers or textures in.
//!
//! A step reads the previous and current levels and writes the next one into a spare slot;
//! the slots then change roles instead of copying: the current level becomes the previous, the
//! written one the current. The CPU grids do the same with `std::mem::swap` on two levels
//! (`water_core::SignedGrid`); the GPU needs a third slot because a pass cannot write a
//! texture or buffer it also reads.

/// Which of a ring's slots (three or four) holds which time level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TimeLevels {
    /// Slot indices, oldest first: previous, current, then the spares in the order steps fill
    /// them; only the first `slots` are the ring's.
    order: [usize; MAX_SLOTS],
    /// How many slots the ring has: three (a step needs two levels and a spare), or four (a
    /// fused pass writes two levels).
    slots: usize,
}

/// The most slots a ring has.
const MAX_SLOTS: usize = 4;

impl TimeLevels {
    /// Slot 0 previous, slot 1 current, the rest of `slots` spare.
    ///
    /// # Panics
    /// When `slots` is not 3 or 4: every ring is made with a constant count.
    pub fn new(slots: usize) -> Self {
        assert!(
            (3..=MAX_SLOTS).contains(&slots),
            "a ring has 3 or 4 slots, not {slots}"
        );
        Self {
            order: std::array::from_fn(|i| i),
            slots,
        }
    }

    /// The slot of the previous level.
    pub fn previous(&self) -> usize {
        self.order[0]
    }

    /// The slot of the current level.
    pub fn current(&self) -> usize {
        self.order[1]
    }

    /// The slot the next step writes.
    pub fn next(&self) -> usize {
        self.order[2]
    }

    /// The slot the step after the next writes (a fused pass writing two levels; a ring of
    /// four).
    pub fn after_next(&self) -> usize {
        debug_assert!(
            self.slots == 4,
            "a ring of {} slots has one spare",
            self.slots
        );
        self.order[3]
    }

    /// After `steps` steps that wrote [`TimeLevels::next`] onward (at most the spares): the
    /// last two written are now previous and current.
    pub fn advance(&mut self, steps: usize) {
        debug_assert!(
            steps <= self.slots - 2,
            "only {} spare slots",
            self.slots - 2
        );
        self.order[..self.slots].rotate_left(steps);
    }

    /// After a window shift that wrote the moved previous level into [`TimeLevels::next`] and
    /// then the moved current level over the old previous slot (read by then): those two are
    /// previous and current, the old current slot a spare. Needs one spare only, so every
    /// ring shifts alike (`crate::window_shift`).
    pub fn after_shift(&mut self) {
        let (previous, current, next) = (self.order[0], self.order[1], self.order[2]);
        self.order[0] = next;
        self.order[1] = previous;
        self.order[2] = current;
    }

    /// After a pass that wrote a changed copy of the current level into
    /// [`TimeLevels::next`]: the copy is current, the previous level stays.
    pub fn replace_current(&mut self) {
        self.order.swap(1, 2);
    }
}

#[cfg(test)]
mod tests {
    use super::TimeLevels;

    #[test]
    fn a_step_makes_the_written_slot_current_and_the_current_previous() {
        let mut levels = TimeLevels::new(3);
        let (previous, current, next) = (levels.previous(), levels.current(), levels.next());
        levels.advance(1);
        assert_eq!((levels.previous(), levels.current()), (current, next));
        assert_eq!(
            levels.next(),
            previous,
            "the oldest level is overwritten next"
        );
    }

    #[test]
    fn a_two_level_pass_makes_both_written_slots_the_newest() {
        let mut levels = TimeLevels::new(4);
        let (next, after_next) = (levels.next(), levels.after_next());
        levels.advance(2);
        assert_eq!((levels.previous(), levels.current()), (next, after_next));
    }

    #[test]
    fn a_shift_makes_its_two_written_slots_the_levels_and_frees_the_current() {
        let mut three = TimeLevels::new(3);
        let (p, c, n) = (three.previous(), three.current(), three.next());
        three.after_shift();
        assert_eq!((three.previous(), three.current(), three.next()), (n, p, c));
        let mut four = TimeLevels::new(4);
        let (p, c, n, a) = (
            four.previous(),
            four.current(),
            four.next(),
            four.after_next(),
        );
        four.after_shift();
        assert_eq!(
            (
                four.previous(),
                four.current(),
                four.next(),
                four.after_next()
            ),
            (n, p, c, a)
        );
    }

    #[test]
    fn a_ring_of_three_cycles_through_its_own_slots_only() {
        let mut levels = TimeLevels::new(3);
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push(levels.next());
            levels.advance(1);
        }
        assert_eq!(seen, [2, 0, 1, 2, 0, 1]);
    }

    #[test]
    fn replacing_the_current_level_keeps_the_previous() {
        let mut levels = TimeLevels::new(3);
        let (previous, current, next) = (levels.previous(), levels.current(), levels.next());
        levels.replace_current();
        assert_eq!(
            (levels.previous(), levels.current(), levels.next()),
            (previous, next, current)
        );
    }
}
