//! [`DeviceTraffic`]: the bytes this crate reads back from a device and the times it blocks on
//! one, counted per thread, so a frame loop (or a test) can see what its GPU work costs the
//! host: a game's step should read back little and wait never.

use std::cell::Cell;

/// Totals of device-to-host traffic made by this crate's calls on one thread since it started.
/// Take one before and one after a stretch of work and subtract ([`DeviceTraffic::since`]).
///
/// Counted where they happen on the calling thread: every readback this crate completes (the
/// staging buffer's bytes, row padding included, when [`crate::PendingReadback::try_take`]
/// takes them, whether after a wait or a poll) and every blocking wait for the device
/// ([`crate::PendingReadback::wait`], timed steps). Readbacks the caller records with wgpu
/// directly are not this crate's and are not counted.
///
/// ```
/// use water_gpu::DeviceTraffic;
/// let before = DeviceTraffic::on_this_thread();
/// // ... steps, queries ...
/// let used = DeviceTraffic::on_this_thread().since(before);
/// assert_eq!(used, DeviceTraffic::default(), "nothing read back, nothing waited for");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceTraffic {
    /// Bytes copied from a device to the host.
    pub bytes_read_back: u64,
    /// Blocking waits for a device to finish its work.
    pub blocking_waits: u64,
}

thread_local! {
    static TRAFFIC: Cell<DeviceTraffic> = const {
        Cell::new(DeviceTraffic {
            bytes_read_back: 0,
            blocking_waits: 0,
        })
    };
}

impl DeviceTraffic {
    /// The totals on the calling thread so far.
    #[must_use]
    pub fn on_this_thread() -> Self {
        TRAFFIC.with(Cell::get)
    }

    /// What happened between `earlier` (taken on the same thread) and `self`.
    #[must_use]
    pub fn since(self, earlier: Self) -> Self {
        Self {
            bytes_read_back: self.bytes_read_back.saturating_sub(earlier.bytes_read_back),
            blocking_waits: self.blocking_waits.saturating_sub(earlier.blocking_waits),
        }
    }
}

/// Counts `bytes` read back on this thread.
pub(crate) fn count_read_back(bytes: u64) {
    TRAFFIC.with(|t| {
        let mut now = t.get();
        now.bytes_read_back = now.bytes_read_back.saturating_add(bytes);
        t.set(now);
    });
}

/// Counts one blocking wait on this thread.
pub(crate) fn count_wait() {
    TRAFFIC.with(|t| {
        let mut now = t.get();
        now.blocking_waits = now.blocking_waits.saturating_add(1);
        t.set(now);
    });
}
