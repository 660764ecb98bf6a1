//! The `core` target: grid sizes, wave parameters, impulses, land and contact masks from fuzz
//! bytes, then grids of every mode stepped a few steps.

use arbitrary::Arbitrary;
use glam::Vec2;
use water_core::{
    Boundary, ClassicGrid, ContactMasks, Damping, GridSize, GridWater, Impulse, ImpulseShape,
    LandMask, SignedGrid, SplitGrid, WaterError, WaveParams,
};
use water_core::{MAX_CONTACT_AMPLITUDE, MAX_MASK_VALUE};

use crate::num::Num;
use crate::{all_finite, names_value};

/// Largest grid edge stepped, cells: a step stays in microseconds.
const MAX_EDGE: u8 = 40;
/// Most steps taken.
const MAX_STEPS: u8 = 48;

/// One fuzz input.
#[derive(Arbitrary, Debug)]
pub struct Input {
    /// Any dimensions, only checked (never allocated).
    probe_size: (u32, u32),
    width: u8,
    height: u8,
    cell_size: Num,
    wave_speed: Num,
    /// [`Num::In`] is a fraction of 1.25 times the largest stable step.
    dt: Num,
    damping_per_second: bool,
    damping: Num,
    boundary: u8,
    mode: u8,
    classic_shift: Option<u8>,
    impulses: Vec<ImpulseInput>,
    land: Vec<(u8, u8, u8, u8)>,
    contact_amplitude: Num,
    /// Cells and speed factors of one contact mask, switched on and off every four steps.
    contacts: Vec<(u16, Num)>,
    steps: u8,
}

/// An impulse and the step it lands before.
#[derive(Arbitrary, Debug)]
pub struct ImpulseInput {
    x: Num,
    y: Num,
    radius: Num,
    amplitude: Num,
    shape: u8,
    displacement: bool,
    step: u8,
}

/// Checks one input.
///
/// # Panics
/// When a promise breaks (see the crate's documentation).
pub fn run(input: &Input) {
    let (pw, ph) = (input.probe_size.0 as usize, input.probe_size.1 as usize);
    match GridSize::new(pw, ph) {
        Ok(size) => assert_eq!((size.width(), size.height()), (pw, ph)),
        Err(e @ WaterError::GridDimension { axis, value, .. }) => {
            assert!(e.to_string().contains(&value.to_string()) && e.to_string().contains(axis));
        }
        Err(e @ WaterError::TooManyCells { .. }) => {
            let m = e.to_string();
            assert!(
                m.contains(&pw.to_string()) && m.contains(&ph.to_string()),
                "{m}"
            );
        }
        Err(e) => panic!("unexpected refusal of a {pw} x {ph} grid: {e}"),
    }

    let (w, h) = (input.width % (MAX_EDGE + 1), input.height % (MAX_EDGE + 1));
    let size = match GridSize::new(w.into(), h.into()) {
        Ok(size) => size,
        Err(e) => {
            assert!(w < 3 || h < 3, "{w} x {h} refused: {e}");
            return;
        }
    };
    let Some(params) = params(input) else { return };
    let boundary = Boundary::ALL[usize::from(input.boundary) % Boundary::ALL.len()];
    let mut land = LandMask::empty(size);
    for &(x0, y0, x1, y1) in &input.land {
        let (x0, y0, x1, y1) = (x0.into(), y0.into(), x1.into(), y1.into());
        match land.add_rect(x0, y0, x1, y1) {
            Ok(()) => {}
            Err(e) => {
                assert!(
                    x0 >= x1 || y0 >= y1,
                    "[{x0}, {x1}) x [{y0}, {y1}) refused: {e}"
                );
                let m = e.to_string();
                assert!(m.contains(&format!("[{x0}, {x1})")), "{m}");
            }
        }
    }
    let impulses = impulses(input, size);
    let steps = input.steps % (MAX_STEPS + 1);
    let mut water: Box<dyn GridWater> = match input.mode % 3 {
        0 => Box::new(SignedGrid::new(size, params, boundary)),
        1 => Box::new(SplitGrid::new(size, params, boundary)),
        _ => {
            let shift = input.classic_shift.map(u32::from);
            match ClassicGrid::new(size, params.cell_size(), shift) {
                Ok(grid) => Box::new(grid),
                Err(e) => {
                    let k = shift.expect("no shift is always accepted");
                    assert!(!(1..=15).contains(&k), "shift {k} refused: {e}");
                    names_value(&e, "classic_shift", f64::from(k));
                    return;
                }
            }
        }
    };
    water.set_land(land).expect("a mask of the grid's own size");
    let contacts = contacts(input, size);
    let classic = water.mode() == water_core::GridMode::Classic;
    for step in 0..steps {
        for (_, impulse) in impulses.iter().filter(|(at, _)| *at == step) {
            water.add_impulse(impulse);
        }
        match &contacts {
            Some((masks, on)) if !classic => {
                let mut masks = masks.clone();
                let mask = if (step / 4) % 2 == 0 {
                    on.clone()
                } else {
                    vec![0.0; size.cells()]
                };
                masks.advance(&mask).expect("checked mask");
                water
                    .step_with_contacts(&masks)
                    .expect("masks of the grid's own size");
            }
            _ => water.step(),
        }
        if !classic {
            all_finite(
                &format!("heights after step {step} of {input:?}"),
                &water.heights(),
            );
        }
    }
    assert!(water.volume().is_finite() || classic);
}

/// The wave parameters, or `None` after checking their refusal.
fn params(input: &Input) -> Option<WaveParams> {
    let h = input.cell_size.get(1e-3, 10.0);
    let c = input.wave_speed.get(1e-3, 100.0);
    let dt = match input.dt {
        Num::In(_) if h > 0.0 && c > 0.0 => input.dt.get(0.0, 1.25) * h / (c * 2f64.sqrt()),
        other => other.get(0.0, 1.0),
    };
    let d = input.damping.get(0.9, 1.0);
    let damping = if input.damping_per_second {
        Damping::PerSecond(d)
    } else {
        Damping::PerStep(d)
    };
    match WaveParams::new(h, c, dt, damping) {
        Ok(p) => {
            assert!(
                p.courant() <= 0.5 * (1.0 + 1e-9),
                "accepted a = {}",
                p.courant()
            );
            let k = p.coefficients();
            assert!(
                k.a.is_finite() && k.b.is_finite() && k.d.is_finite(),
                "{k:?}"
            );
            Some(p)
        }
        Err(e) => {
            match &e {
                WaterError::NotFinite { name, value }
                | WaterError::NotPositive { name, value }
                | WaterError::OutOfRange { name, value, .. } => {
                    let given = match *name {
                        "cell_size" => h,
                        "wave_speed" => c,
                        "dt" => dt,
                        "damping" | "damping_per_second" => d,
                        other => panic!("refusal names {other}: {e}"),
                    };
                    assert!(
                        given.to_bits() == value.to_bits() || (given.is_nan() && value.is_nan()),
                        "{e} for {h}, {c}, {dt}, {d}"
                    );
                    names_value(&e, name, given);
                }
                WaterError::Unstable { courant, .. } => {
                    assert!(!(*courant <= 0.5), "refused a stable a = {courant}: {e}");
                    assert!(e.to_string().contains("largest stable dt"), "{e}");
                }
                other => panic!("unexpected refusal of h {h}, c {c}, dt {dt}: {other}"),
            }
            None
        }
    }
}

/// The impulses the input gives, each refused one checked.
fn impulses(input: &Input, size: GridSize) -> Vec<(u8, Impulse)> {
    let mut out = Vec::new();
    for i in &input.impulses {
        let x = i.x.get32(-5.0, size.width() as f64 + 5.0);
        let y = i.y.get32(-5.0, size.height() as f64 + 5.0);
        let radius = i.radius.get32(0.0, 20.0);
        let amplitude = i.amplitude.get32(-10.0, 10.0);
        let shape = ImpulseShape::ALL[usize::from(i.shape) % ImpulseShape::ALL.len()];
        match Impulse::new(Vec2::new(x, y), radius, amplitude, shape) {
            Ok(impulse) => out.push((
                i.step % (MAX_STEPS + 1),
                impulse.with_displacement(i.displacement),
            )),
            Err(e) => {
                let (name, value) = match &e {
                    WaterError::NotFinite { name, value }
                    | WaterError::NotPositive { name, value }
                    | WaterError::OutOfRange { name, value, .. } => (*name, *value),
                    other => panic!("unexpected refusal of an impulse: {other}"),
                };
                let given = match name {
                    "impulse x" => x,
                    "impulse y" => y,
                    "impulse radius" => radius,
                    "impulse amplitude" => amplitude,
                    other => panic!("refusal names {other}: {e}"),
                };
                assert!(
                    f64::from(given).to_bits() == value.to_bits() || given.is_nan(),
                    "{e}"
                );
                names_value(&e, name, value);
            }
        }
    }
    out
}

/// The contact masks and the mask that switches on, or `None` after checking a refusal.
fn contacts(input: &Input, size: GridSize) -> Option<(ContactMasks, Vec<f32>)> {
    if input.contacts.is_empty() {
        return None;
    }
    // ContactMasks bounds the amplitude (MAX_CONTACT_AMPLITUDE) and the mask values
    // (MAX_MASK_VALUE) so their product stays finite (docs/reliability.md, "Findings"): any
    // value is fuzzed, those beyond the bounds must be refused naming the value.
    let amplitude = input.contact_amplitude.get32(0.0, 0.1);
    let masks = match ContactMasks::new(size, amplitude) {
        Ok(m) => {
            assert!(
                amplitude.abs() <= MAX_CONTACT_AMPLITUDE,
                "{amplitude} accepted"
            );
            m
        }
        Err(e) => {
            assert!(
                !amplitude.is_finite() || amplitude.abs() > MAX_CONTACT_AMPLITUDE,
                "{amplitude} refused: {e}"
            );
            names_value(&e, "contact amplitude", f64::from(amplitude));
            return None;
        }
    };
    let mut mask = vec![0.0; size.cells()];
    for &(cell, value) in &input.contacts {
        let v = value.get32(0.0, 3.0);
        mask[usize::from(cell) % size.cells()] = v;
    }
    let mut probe = masks.clone();
    match probe.advance(&mask) {
        Ok(()) => Some((masks, mask)),
        Err(e) => {
            let bad = mask
                .iter()
                .find(|v| !(v.is_finite() && **v >= 0.0 && **v <= MAX_MASK_VALUE));
            let v = bad.expect("a mask of good values refused");
            assert!(e.to_string().contains(&v.to_string()), "{e}");
            None
        }
    }
}
