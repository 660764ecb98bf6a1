// shared/contact_events: bow and stern events from the contact masks, after the stencil.
// CPU twin: crates/water-core/src/contact_masks.rs (`ContactMasks::apply_signed` and `apply_split`). Imports grid_uniforms' `u` from the kernel.
//
// `v` holds the new values of the cell's channels (signed: x; split: x = p, y = n); `c_new` and
// `c_old` are the masks at the cell (the body's speed factor where it cuts the water, else 0).
fn contact_events(v: vec2<f32>, c_new: f32, c_old: f32) -> vec2<f32> {
    var out = v;
    let bow = c_new > 0.0 && c_old == 0.0;
    let stern = c_new == 0.0 && c_old > 0.0;
    if (u.mode == SPLIT) {
        if (bow) {
            out.x = u.contact_amplitude * c_new;
        } else if (stern) {
            out.y = u.contact_amplitude * c_old;
        }
    } else {
        if (bow) {
            out.x += u.contact_amplitude * c_new;
        } else if (stern) {
            out.x -= u.contact_amplitude * c_old;
        }
    }
    return out;
}
