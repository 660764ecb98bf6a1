//! How much memory this process can have, and a check of an estimate against it.
//!
//! Buffers that do not fit must be refused with the figure, not abort half-way (the allocator's
//! abort prints no cause and leaves partial files). [`check_memory`] compares an estimate with
//! the memory the process can have: `MemAvailable` of `/proc/meminfo` and the room left under an
//! address-space limit (`ulimit -v`, from `/proc/self/limits` and `/proc/self/status`), or
//! [`FALLBACK_MEMORY_CAP`] where neither can be read. It then reserves the estimate once with
//! `Vec::try_reserve_exact` and frees it: an allocator that would refuse the real buffers
//! refuses the probe, and the user gets a one-line error instead of an abort.

/// Memory assumed available where the system does not say (no `/proc/meminfo`), bytes: 8 GiB,
/// a common laptop's RAM.
pub const FALLBACK_MEMORY_CAP: u64 = 8 << 30;

/// Bytes of a GiB, for messages.
const GIB: f64 = (1u64 << 30) as f64;

/// Bytes building and running an icosphere water of `vertices` vertices holds at its peak,
/// estimated generously: positions, faces and the subdivision's edge map; neighbour lists,
/// cotangent weights and areas; heights at two levels with the rhombus layout's halos; and the
/// scenario's own edge set for the mean edge length.
#[must_use]
pub fn sphere_bytes(vertices: u64) -> u64 {
    vertices.saturating_mul(SPHERE_BYTES_PER_VERTEX)
}

/// See [`sphere_bytes`].
const SPHERE_BYTES_PER_VERTEX: u64 = 400;

/// A run that would not fit in memory.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MemoryError {
    /// The estimate exceeds what the system says the process can have.
    #[error(
        "{what} needs about {needed_gib:.2} GiB, but only {available_gib:.2} GiB is available \
         ({source_of_limit})"
    )]
    TooLarge {
        /// What needs the memory, e.g. `grid of 30000 x 30000 cells`.
        what: String,
        /// The estimate, GiB.
        needed_gib: f64,
        /// The memory the process can have, GiB.
        available_gib: f64,
        /// Where that figure came from.
        source_of_limit: &'static str,
    },
    /// The allocator refused the estimate.
    #[error("{what} needs about {needed_gib:.2} GiB, which could not be allocated: {cause}")]
    Refused {
        /// What needs the memory.
        what: String,
        /// The estimate, GiB.
        needed_gib: f64,
        /// The allocator's refusal.
        cause: String,
    },
}

/// The memory this process can have, bytes, and where the figure comes from.
#[must_use]
pub fn available_memory() -> (u64, &'static str) {
    let meminfo = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| kib_field(&text, "MemAvailable:"));
    let address_space = address_space_left();
    match (meminfo, address_space) {
        (Some(m), Some(a)) if a < m => (a, "room left under the address-space limit, ulimit -v"),
        (Some(m), _) => (m, "MemAvailable in /proc/meminfo"),
        (None, Some(a)) => (a, "room left under the address-space limit, ulimit -v"),
        (None, None) => (
            FALLBACK_MEMORY_CAP,
            "fixed cap where the system does not say",
        ),
    }
}

/// A `NAME:   1234 kB` line of a `/proc` file, in bytes.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Address space left under `RLIMIT_AS` (the soft limit of `/proc/self/limits`, minus the
/// process's `VmSize`), or `None` when unlimited or unknown.
fn address_space_left() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    let limit: u64 = soft.parse().ok()?; // "unlimited" does not parse: no limit
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let used = kib_field(&status, "VmSize:").unwrap_or(0);
    Some(limit.saturating_sub(used))
}

/// Refuses `needed` bytes for `what` when they exceed [`available_memory`], or when the
/// allocator will not reserve them.
///
/// # Errors
/// [`MemoryError`] with the estimate and the memory available.
pub fn check_memory(what: &str, needed: u64) -> Result<(), MemoryError> {
    let (available, source_of_limit) = available_memory();
    check_memory_within(what, needed, available, source_of_limit)
}

/// [`check_memory`] against a given budget: `available` bytes, which `source_of_limit` names
/// in the error (a caller's own cap, or a test's).
///
/// # Errors
/// [`MemoryError`] with the estimate and the budget, or the allocator's refusal.
pub fn check_memory_within(
    what: &str,
    needed: u64,
    available: u64,
    source_of_limit: &'static str,
) -> Result<(), MemoryError> {
    if needed > available {
        return Err(MemoryError::TooLarge {
            what: what.to_owned(),
            needed_gib: needed as f64 / GIB,
            available_gib: available as f64 / GIB,
            source_of_limit,
        });
    }
    // The allocator's own answer to the same question: untouched reserved pages cost
    // nothing, but an address-space limit or a refusing allocator answers here, not later.
    water_core::probe_allocation("the build's estimate", needed).map_err(|_| MemoryError::Refused {
        what: what.to_owned(),
        needed_gib: needed as f64 / GIB,
        cause: "the allocator refused to reserve it".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_than_the_memory_available_is_refused_with_both_figures() {
        let (available, _) = available_memory();
        let e = check_memory("a test buffer", available.saturating_add(1 << 30))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("a test buffer needs about") && e.contains("GiB is available"),
            "{e}"
        );
        check_memory("a small buffer", 1 << 20).expect("1 MiB fits");
    }

    #[test]
    fn proc_fields_are_read_in_bytes() {
        let text = "MemTotal:       16 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(kib_field(text, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(kib_field(text, "Missing:"), None);
    }
}
