//! Pictures of a height field: a diverging colour map (troughs blue, crests white-cyan, still
//! water mid-blue) with land drawn as sand.

/// RGB8 pixels of a `width x height` field, one pixel per cell, scaled so that `scale` metres
/// maps to the ends of the colour map. Land cells (if given) are sand-coloured.
#[must_use]
pub fn colour_map(heights: &[f32], land: Option<&[bool]>, scale: f32) -> Vec<u8> {
    let scale = if scale > 0.0 && scale.is_finite() {
        scale
    } else {
        1.0
    };
    let mut rgb = Vec::with_capacity(heights.len() * 3);
    for (i, &z) in heights.iter().enumerate() {
        if land.is_some_and(|l| l[i]) {
            rgb.extend_from_slice(&[194, 178, 128]);
            continue;
        }
        let t = (z / scale).clamp(-1.0, 1.0);
        let still = [24.0, 92.0, 160.0];
        let end = if t >= 0.0 {
            [235.0, 250.0, 255.0]
        } else {
            [4.0, 16.0, 60.0]
        };
        let t = t.abs().sqrt(); // small ripples stay visible next to a big crest
        for c in 0..3 {
            rgb.push((still[c] + (end[c] - still[c]) * t).round() as u8);
        }
    }
    rgb
}

/// A scale that shows the field well: the 99th percentile of |z|, so one spike does not wash
/// the picture out.
#[must_use]
pub fn robust_scale(heights: &[f32]) -> f32 {
    let mut mags: Vec<f32> = heights
        .iter()
        .map(|z| z.abs())
        .filter(|z| z.is_finite())
        .collect();
    if mags.is_empty() {
        return 1.0;
    }
    let k = (mags.len() - 1) * 99 / 100;
    let (_, v, _) = mags.select_nth_unstable_by(k, f32::total_cmp);
    if *v > 0.0 {
        *v
    } else {
        1.0
    }
}
