//! [`BodySet`]: a scene's bodies in the order they were added, found by generational
//! [`BodyId`]s, so removing one never renumbers the others and an id of a removed body is
//! refused instead of finding whichever body took its place.

use crate::body::{BodyId, SceneBody};
use crate::error::SceneError;

/// One id slot: the generation it hands out now and where its body is, if it has one.
#[derive(Debug, Clone)]
struct Slot {
    generation: u32,
    /// The body's index in [`BodySet::bodies`]; `None` once removed (the slot is then free).
    index: Option<usize>,
    /// The name of the body the slot last held, for the error a stale id gets.
    name: String,
}

/// The bodies and their ids.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodySet {
    /// In the order they were added (the order of trajectories and body loops).
    bodies: Vec<SceneBody>,
    slots: Vec<Slot>,
    /// Free slots, reused last-freed first with the next generation.
    free: Vec<u32>,
}

impl BodySet {
    /// Adds a body at the end of the order and hands out its id (a free slot's next generation,
    /// or a new slot).
    ///
    /// # Errors
    /// [`SceneError::TooManyBodies`] when every slot has run through all its generations and
    /// no new slot can be numbered in a `u32`.
    pub(crate) fn insert(
        &mut self,
        make: impl FnOnce(BodyId) -> SceneBody,
    ) -> Result<BodyId, SceneError> {
        let index = self.bodies.len();
        let id = match self.reusable_slot() {
            Some(slot) => {
                let s = &mut self.slots[slot as usize];
                s.generation += 1;
                s.index = Some(index);
                BodyId {
                    slot,
                    generation: s.generation,
                }
            }
            None => {
                let slot =
                    u32::try_from(self.slots.len()).map_err(|_| SceneError::TooManyBodies {
                        bodies: self.bodies.len(),
                    })?;
                self.slots.push(Slot {
                    generation: 0,
                    index: Some(index),
                    name: String::new(),
                });
                BodyId {
                    slot,
                    generation: 0,
                }
            }
        };
        let body = make(id);
        self.slots[id.slot as usize].name.clone_from(&body.name);
        self.bodies.push(body);
        Ok(id)
    }

    /// A free slot whose generation can still go up by one (a slot at `u32::MAX` retires).
    fn reusable_slot(&mut self) -> Option<u32> {
        while let Some(slot) = self.free.pop() {
            if self.slots[slot as usize].generation < u32::MAX {
                return Some(slot);
            }
        }
        None
    }

    /// Where `id`'s body is in [`BodySet::bodies`].
    ///
    /// # Errors
    /// [`SceneError::RemovedBody`] for the id of a body taken out (its slot free or reused);
    /// [`SceneError::UnknownBody`] for an id this set never handed out.
    pub(crate) fn index_of(&self, id: BodyId) -> Result<usize, SceneError> {
        let slot = self
            .slots
            .get(id.slot as usize)
            .filter(|s| id.generation <= s.generation)
            .ok_or(SceneError::UnknownBody {
                id,
                bodies: self.bodies.len(),
            })?;
        match slot.index {
            Some(index) if slot.generation == id.generation => Ok(index),
            _ => Err(SceneError::RemovedBody {
                id,
                // The slot's name is its last body's: the id's own when not yet reused, which is
                // the common case of a stale handle.
                name: if slot.index.is_none() && slot.generation == id.generation {
                    slot.name.clone()
                } else {
                    String::new()
                },
            }),
        }
    }

    pub(crate) fn get(&self, id: BodyId) -> Result<&SceneBody, SceneError> {
        let index = self.index_of(id)?;
        Ok(&self.bodies[index])
    }

    pub(crate) fn get_mut(&mut self, id: BodyId) -> Result<&mut SceneBody, SceneError> {
        let index = self.index_of(id)?;
        Ok(&mut self.bodies[index])
    }

    /// Takes `id`'s body out and gives back where it was in the order with it; the bodies after
    /// it move up one place in the order, their ids unchanged.
    ///
    /// # Errors
    /// As [`BodySet::index_of`].
    pub(crate) fn remove(&mut self, id: BodyId) -> Result<(usize, SceneBody), SceneError> {
        let index = self.index_of(id)?;
        let body = self.bodies.remove(index);
        for later in &self.bodies[index..] {
            let slot = &mut self.slots[later.id.slot as usize];
            slot.index = slot.index.map(|i| i - 1);
        }
        self.slots[id.slot as usize].index = None;
        self.free.push(id.slot);
        Ok((index, body))
    }

    /// Every id, in the order the bodies were added: a copy, so the set can change while going
    /// through them.
    pub(crate) fn ids(&self) -> impl Iterator<Item = BodyId> + use<> {
        let ids: Vec<BodyId> = self.bodies.iter().map(|b| b.id).collect();
        ids.into_iter()
    }

    /// The bodies, in the order they were added.
    pub(crate) fn as_slice(&self) -> &[SceneBody] {
        &self.bodies
    }

    /// The same, mutable.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [SceneBody] {
        &mut self.bodies
    }

    pub(crate) fn len(&self) -> usize {
        self.bodies.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use water_buoyancy::{
        BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
    };

    fn body(id: BodyId, name: &str) -> SceneBody {
        let shape = Shape::cuboid(Vec3::splat(0.2)).expect("shape");
        let state = BodyState::at_rest(Pose::IDENTITY);
        let rigid = RigidBody::from_shape(&shape, 5.0, state).expect("body");
        let hulls = vec![Hull::new(shape, Pose::IDENTITY).expect("hull")];
        SceneBody {
            id,
            name: name.to_owned(),
            body: FloatingBody::archimedes(rigid, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)
                .expect("floating"),
            path: None,
            heading_offset: 0.0,
            force: Vec3::ZERO,
            torque: Vec3::ZERO,
            last: None,
            water_step: None,
            kinematic: false,
        }
    }

    fn add(set: &mut BodySet, name: &str) -> BodyId {
        set.insert(|id| body(id, name)).expect("insert")
    }

    #[test]
    fn removing_one_keeps_every_other_id_and_a_stale_id_is_refused_by_name() {
        let mut set = BodySet::default();
        let ids: Vec<BodyId> = ["a", "b", "c", "d"]
            .iter()
            .map(|n| add(&mut set, n))
            .collect();
        let (index, removed) = set.remove(ids[1]).expect("remove b");
        assert_eq!((index, removed.name.as_str()), (1, "b"));
        for (id, name) in [(ids[0], "a"), (ids[2], "c"), (ids[3], "d")] {
            assert_eq!(set.get(id).expect("kept").name, name);
            assert_eq!(set.get(id).expect("kept").id, id);
        }
        match set.get(ids[1]) {
            Err(SceneError::RemovedBody { id, name }) => {
                assert_eq!((id, name.as_str()), (ids[1], "b"))
            }
            other => panic!("stale id gave {other:?}"),
        }
        // The freed slot is reused with a new generation: the stale id still finds nothing.
        let e = add(&mut set, "e");
        assert_eq!(e.slot(), ids[1].slot());
        assert_ne!(e, ids[1]);
        let stale = set.get(ids[1]).expect_err("stale");
        assert!(matches!(stale, SceneError::RemovedBody { .. }));
        // Its name is not known once the slot holds another: the message leaves it out.
        assert_eq!(
            stale.to_string(),
            format!("body {} was removed from this scene", ids[1])
        );
        let order: Vec<&str> = set.as_slice().iter().map(|b| b.name.as_str()).collect();
        assert_eq!(order, ["a", "c", "d", "e"], "the order added, e last");
        for (id, name) in [(ids[0], "a"), (ids[2], "c"), (ids[3], "d"), (e, "e")] {
            assert_eq!(set.get(id).expect("found").name, name);
        }
    }

    #[test]
    fn an_id_never_handed_out_is_unknown() {
        let mut set = BodySet::default();
        let a = add(&mut set, "a");
        let beyond = BodyId {
            slot: 5,
            generation: 0,
        };
        assert!(matches!(
            set.get(beyond),
            Err(SceneError::UnknownBody { bodies: 1, .. })
        ));
        let future = BodyId {
            slot: a.slot,
            generation: 3,
        };
        assert!(matches!(
            set.get(future),
            Err(SceneError::UnknownBody { .. })
        ));
    }

    #[test]
    fn a_slot_at_its_last_generation_retires_instead_of_wrapping() {
        let mut set = BodySet::default();
        let a = add(&mut set, "a");
        set.slots[a.slot as usize].generation = u32::MAX;
        let last = BodyId {
            slot: a.slot,
            generation: u32::MAX,
        };
        set.bodies[0].id = last;
        set.remove(last).expect("remove");
        let b = add(&mut set, "b");
        assert_ne!(b.slot, a.slot, "a new slot, not generation 0 again");
        assert!(matches!(set.get(last), Err(SceneError::RemovedBody { .. })));
    }
}
