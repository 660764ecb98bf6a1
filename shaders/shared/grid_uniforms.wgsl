// shared/grid_uniforms: the uniforms every grid kernel reads, and the codes they compare with.
// Host twin: crates/water-gpu/src/uniforms.rs (`GridUniforms`; (layout checked against naga
// in crates/water-gpu/src/uniforms/layout_tests.rs); the values come from water_core's
// `StencilCoefficients` (crates/water-core/src/params.rs).

struct GridUniforms {
    width: u32,
    height: u32,
    boundary: u32,          // 0 fixed, 1 reflective, 2 periodic, 3 absorbing
    mode: u32,              // 0 signed, 1 split (classic kernels have their own pipelines)
    a: f32,                 // Courant number (c dt / h)^2
    b: f32,                 // 2 - 4a
    d: f32,                 // damping per step
    mur_k: f32,             // Mur's (s - 1)/(s + 1), s = sqrt(a)
    contact_amplitude: f32, // A of the bow and stern events
    has_contacts: u32,
    classic_shift: u32,     // classic mode's damping shift k (0: none)
    _pad: u32,
}

// `Boundary` codes (crates/water-gpu/src/uniforms.rs, `boundary_code`).
const FIXED: u32 = 0u;
const REFLECTIVE: u32 = 1u;
const PERIODIC: u32 = 2u;
const ABSORBING: u32 = 3u;
// `GridMode` code of split mode (`mode_code`).
const SPLIT: u32 = 1u;
