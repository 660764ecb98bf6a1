//! `AlignedBuffer`: a heap slice of f32 heights that starts on a 64-byte boundary.
//!
//! Rows of a grid whose width is a multiple of 16 then start on cache-line boundaries too, so the
//! vector kernels' loads and stores never straddle two cache lines (a split load costs twice).
//! A `Vec<f32>` only promises 4-byte alignment, and large allocations usually sit 16 bytes past a
//! page boundary.

use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Alignment of every buffer, bytes: one cache line, one AVX-512 vector.
pub const BUFFER_ALIGN: usize = 64;

/// A fixed-length, zero-initialised, 64-byte-aligned `[f32]`.
pub struct AlignedBuffer {
    ptr: NonNull<f32>,
    len: usize,
}

// SAFETY: the buffer owns its allocation exclusively, like a `Box<[f32]>`.
#[allow(
    unsafe_code,
    reason = "an owning pointer is Send and Sync like Box<[f32]>"
)]
unsafe impl Send for AlignedBuffer {}
// SAFETY: shared access only hands out `&[f32]`.
#[allow(
    unsafe_code,
    reason = "an owning pointer is Send and Sync like Box<[f32]>"
)]
unsafe impl Sync for AlignedBuffer {}

impl AlignedBuffer {
    fn layout(len: usize) -> Layout {
        // A zero-sized allocation is not allowed; one float keeps the layout valid.
        Layout::from_size_align(len.max(1) * size_of::<f32>(), BUFFER_ALIGN)
            .unwrap_or_else(|e| panic!("buffer of {len} floats: {e}"))
    }

    /// `len` zeros; the process aborts if the allocator refuses (as `vec![0.0; len]` does).
    ///
    /// # Panics
    /// If `len * 4` bytes overflow `isize` (grid sizes are capped far below that).
    #[must_use]
    pub fn zeroed(len: usize) -> Self {
        Self::try_zeroed(len).unwrap_or_else(|| handle_alloc_error(Self::layout(len)))
    }

    /// `len` zeros, or `None` when the allocator refuses them (out of memory, or an
    /// address-space limit such as `ulimit -v`): the fallible twin of [`AlignedBuffer::zeroed`].
    ///
    /// # Panics
    /// If `len * 4` bytes overflow `isize` (grid sizes are capped far below that).
    #[must_use]
    #[allow(unsafe_code, reason = "aligned allocation")]
    pub fn try_zeroed(len: usize) -> Option<Self> {
        let layout = Self::layout(len);
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc_zeroed(layout) };
        NonNull::new(raw.cast::<f32>()).map(|ptr| Self { ptr, len })
    }

    /// A copy of `values`.
    #[must_use]
    pub fn from_slice(values: &[f32]) -> Self {
        let mut buffer = Self::zeroed(values.len());
        buffer.copy_from_slice(values);
        buffer
    }
}

impl Drop for AlignedBuffer {
    #[allow(unsafe_code, reason = "aligned allocation")]
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { dealloc(self.ptr.as_ptr().cast(), Self::layout(self.len)) }
    }
}

impl Deref for AlignedBuffer {
    type Target = [f32];

    #[allow(unsafe_code, reason = "aligned allocation")]
    fn deref(&self) -> &[f32] {
        // SAFETY: `len` initialised floats live at `ptr` for as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for AlignedBuffer {
    #[allow(unsafe_code, reason = "aligned allocation")]
    fn deref_mut(&mut self) -> &mut [f32] {
        // SAFETY: as for `deref`, and `&mut self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Clone for AlignedBuffer {
    fn clone(&self) -> Self {
        Self::from_slice(self)
    }
}

impl PartialEq for AlignedBuffer {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for AlignedBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlignedBuffer")
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_zeroed_aligned_and_independent_copies() {
        for len in [1, 15, 16, 1000, 1 << 20] {
            let mut a = AlignedBuffer::zeroed(len);
            assert_eq!(a.as_ptr() as usize % BUFFER_ALIGN, 0);
            assert!(a.iter().all(|&v| v == 0.0));
            a[len - 1] = 2.5;
            let b = a.clone();
            a[len - 1] = 1.0;
            assert_eq!(b[len - 1], 2.5);
            assert_eq!(b.as_ptr() as usize % BUFFER_ALIGN, 0);
        }
    }
}
