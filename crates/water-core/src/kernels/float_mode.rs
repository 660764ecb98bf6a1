//! Flush-to-zero for the duration of a step.
//!
//! Damped waves decay toward subnormal floats, and arithmetic on subnormals costs 10-100x more
//! on x86. Each thread that runs a float kernel sets the MXCSR flush-to-zero (FTZ) and
//! denormals-are-zero (DAZ) bits while it runs and restores the caller's value afterwards, so
//! user code on the same thread is not affected. Subnormal results therefore read as zero, as
//! they do on GPUs. On other architectures the hardware default applies.

/// Restores the saved floating-point control state when dropped.
pub struct FlushDenormals {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

#[cfg(target_arch = "x86_64")]
const FTZ_DAZ: u32 = (1 << 15) | (1 << 6);

impl FlushDenormals {
    /// Turns on flush-to-zero and denormals-are-zero on this thread until the guard drops.
    #[must_use]
    #[allow(
        unsafe_code,
        reason = "reading and writing MXCSR needs inline assembly"
    )]
    pub fn new() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            let mut saved: u32 = 0;
            // SAFETY: stmxcsr/ldmxcsr only read or write the SSE control register, which every
            // x86-64 CPU has; the new value differs only in the FTZ and DAZ mode bits.
            unsafe {
                std::arch::asm!("stmxcsr [{}]", in(reg) &mut saved, options(nostack));
                let new = saved | FTZ_DAZ;
                std::arch::asm!("ldmxcsr [{}]", in(reg) &new, options(nostack, readonly));
            }
            Self { saved }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Self {}
        }
    }
}

impl Default for FlushDenormals {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FlushDenormals {
    #[allow(unsafe_code, reason = "restoring MXCSR needs inline assembly")]
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: writes back the value read in `new`.
        unsafe {
            std::arch::asm!("ldmxcsr [{}]", in(reg) &self.saved, options(nostack, readonly));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn subnormal_products_flush_to_zero_inside_the_guard_only() {
        let tiny = std::hint::black_box(f32::MIN_POSITIVE);
        let half = std::hint::black_box(0.5f32);
        assert!(tiny * half > 0.0, "subnormals exist outside the guard");
        {
            let _guard = FlushDenormals::new();
            assert_eq!(std::hint::black_box(tiny) * half, 0.0);
        }
        assert!(std::hint::black_box(tiny) * half > 0.0, "mode restored");
    }
}
