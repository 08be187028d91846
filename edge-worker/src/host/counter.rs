//! A count only the test hooks read (`v1/__test/counters`, for benchmarks):
//! with the `test-hooks` feature a number, without it nothing at all (no
//! state, no work), so a release build carries no test-only state.

/// A count of something the object did, kept only for the test hooks.
#[derive(Default)]
pub(crate) struct Counter {
    #[cfg(feature = "test-hooks")]
    count: std::cell::Cell<u64>,
}

impl Counter {
    /// Adds `n` (nothing without the `test-hooks` feature).
    pub(crate) fn add(&self, n: u64) {
        #[cfg(feature = "test-hooks")]
        self.count.set(self.count.get() + n);
        #[cfg(not(feature = "test-hooks"))]
        let _ = n;
    }

    /// The count so far.
    #[cfg(feature = "test-hooks")]
    pub(crate) fn get(&self) -> u64 {
        self.count.get()
    }
}
