//! A hint to the processor to start loading a cache line that will be read soon.
//!
//! The search's tables (transposition table, evaluation cache) are read at random places, and the
//! load that waits for memory was the largest single cost of a node. Issuing the load when the key
//! is first known lets it overlap with the work a node does before it reads the entry.

/// Starts loading the cache line holding `address` (no effect where the target has no such hint).
#[inline(always)]
pub(crate) fn prefetch<T>(address: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no state visible to the program, whatever the
    // address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(address.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
