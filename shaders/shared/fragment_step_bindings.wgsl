// shared/fragment_step_bindings: the bind group of the fragment backend's step passes
// (grid_step_fragment.wgsl, classic_step_fragment.wgsl). Host twin:
// crates/water-gpu/src/fragment_grid.rs (`FragmentGrid` binds it). The kernel says what a height texel holds:
// `alias Texel = f32;` (signed and split channels) or `i32` (classic i16 cells).

@group(0) @binding(0) var<uniform> u: GridUniforms;
// The current and previous levels; the pass renders the new one.
@group(0) @binding(1) var cur_tex: texture_2d<Texel>;
@group(0) @binding(2) var old_tex: texture_2d<Texel>;
// One flag per cell (1: land), and the contact masks C_new and C_old.
@group(0) @binding(3) var land_tex: texture_2d<u32>;
@group(0) @binding(4) var contact_new_tex: texture_2d<f32>;
@group(0) @binding(5) var contact_old_tex: texture_2d<f32>;
