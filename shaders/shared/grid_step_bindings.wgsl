// shared/grid_step_bindings: the bind group of the single-step compute kernels (grid_step.wgsl,
// grid_step_f16.wgsl, classic_step.wgsl). Host twin: crates/water-gpu/src/uniforms.rs (the
// uniforms; `ComputeGrid` in crates/water-gpu/src/compute_grid.rs binds the group). The kernel says what a storage word holds:
// `alias Word = f32;` (f32 cells), `u32` (two f16 cells) or `i32` (a classic i16 cell).

@group(0) @binding(0) var<uniform> u: GridUniforms;
// The current and previous levels (channels back to back), read; the new level, written.
@group(0) @binding(1) var<storage, read> cur: array<Word>;
@group(0) @binding(2) var<storage, read> old: array<Word>;
@group(0) @binding(3) var<storage, read_write> out: array<Word>;
// One flag per cell (1: land), and the contact masks C_new and C_old, one value per cell.
@group(0) @binding(4) var<storage, read> land: array<u32>;
@group(0) @binding(5) var<storage, read> contact_new: array<f32>;
@group(0) @binding(6) var<storage, read> contact_old: array<f32>;
