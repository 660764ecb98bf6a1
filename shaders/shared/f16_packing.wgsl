// shared/f16_packing: f16 conversions, bit for bit. CPU twin: crates/water-gpu/src/storage.rs
// (`f32_to_f16` and `f16_to_f32`), and the packing of two cells into a storage
// word. Integer arithmetic only, so core WGSL with no shader capability: `pack2x16float` needs
// one that wgpu withholds from some adapters (llvmpipe without SHADER_F16), and leaves its
// rounding to the device; this rounds to nearest, ties to even, on every device.

// The binary16 bits of v (in the low 16 bits), rounded to nearest with ties to even.
fn f32_to_f16(v: f32) -> u32 {
    let bits = bitcast<u32>(v);
    let sign = (bits >> 16u) & 0x8000u;
    let exponent = i32((bits >> 23u) & 0xffu);
    let mantissa = bits & 0x7fffffu;
    if (exponent == 255) {
        return sign | 0x7c00u | select(0u, 0x200u, mantissa != 0u);
    }
    let e = exponent - 112; // the f16 exponent field of a normal result
    if (e >= 31) {
        return sign | 0x7c00u;
    }
    if (e <= 0) {
        // Subnormal result: the 24-bit significand shifted right by 14 - e bits, rounded.
        let shift = u32(14 - e);
        if (shift > 24u) {
            return sign;
        }
        let significand = mantissa | 0x800000u;
        let kept = significand >> shift;
        let rest = significand & ((1u << shift) - 1u);
        let half = 1u << (shift - 1u);
        let up = rest > half || (rest == half && (kept & 1u) == 1u);
        return sign | (kept + select(0u, 1u, up));
    }
    let kept = (u32(e) << 10u) | (mantissa >> 13u);
    let rest = mantissa & 0x1fffu;
    let up = rest > 0x1000u || (rest == 0x1000u && (kept & 1u) == 1u);
    // A carry into the exponent (or to infinity) is the correctly rounded result.
    return sign | (kept + select(0u, 1u, up));
}

// The value of binary16 bits h (low 16 bits), exactly.
fn f16_to_f32(h: u32) -> f32 {
    let sign = (h & 0x8000u) << 16u;
    let exponent = (h >> 10u) & 0x1fu;
    let mantissa = h & 0x3ffu;
    if (exponent == 0u) {
        let magnitude = ldexp(f32(mantissa), -24);
        return select(magnitude, -magnitude, sign != 0u);
    }
    if (exponent == 31u) {
        return bitcast<f32>(sign | 0x7f800000u | (mantissa << 13u));
    }
    return bitcast<f32>(sign | ((exponent + 112u) << 23u) | (mantissa << 13u));
}

// Cell x's half of a storage word: even cells in the low half.
fn half_of(word: u32, x: u32) -> f32 {
    return f16_to_f32(select(word & 0xffffu, word >> 16u, (x & 1u) == 1u));
}

// A storage word of two cells: the even one (low) and the odd one (high).
fn pack_f16(low: f32, high: f32) -> u32 {
    return f32_to_f16(low) | (f32_to_f16(high) << 16u);
}
