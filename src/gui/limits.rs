//! What the server spends at most, in one place (docs/gui.md, "Security"):
//! a page it did not serve cannot drive it, and its own pages cannot make it
//! start threads or processes without bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Threads that serve requests, each one request at a time.
pub const WORKERS: usize = 8;
/// Connections accepted and waiting for a worker; beyond this a connection
/// is answered `503` at once.
pub const QUEUED: usize = 64;
/// Event streams open at once (one per open page); beyond this `503`.
pub const STREAMS: usize = 64;
/// Engine processes running at once, over every game (each game uses at
/// most three: two players and the analysis).
pub const ENGINES: usize = 8;
/// Reviews searching at once, over every game (each is a search in this
/// process).
pub const REVIEWS: usize = 2;
/// Games open at once; the idlest beyond that are closed.
pub const SESSIONS: usize = 64;
/// A game that no page has listened to nor any request used for this long
/// is closed, and its engines with it.
pub const SESSION_IDLE: Duration = Duration::from_secs(30 * 60);

/// A count of things that may be in use at once: a [`Slot`] is one in use,
/// given back when it is dropped.
#[derive(Clone, Debug)]
pub struct Slots {
    used: Arc<AtomicUsize>,
    max: usize,
}

/// One of [`Slots`], held while the thing it counts exists.
#[derive(Debug)]
pub struct Slot {
    used: Arc<AtomicUsize>,
}

impl Slots {
    /// `max` slots, none in use.
    pub fn new(max: usize) -> Slots {
        Slots {
            used: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    /// A slot, if one is free.
    pub fn take(&self) -> Option<Slot> {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot {
                used: Arc::clone(&self.used),
            })
    }

    /// How many there are at most.
    pub fn max(&self) -> usize {
        self.max
    }

    /// How many are in use now.
    pub fn in_use(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.used.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The slots every game shares: engine processes and reviews.
#[derive(Clone, Debug)]
pub struct SharedSlots {
    /// Engine processes ([`ENGINES`]).
    pub engines: Slots,
    /// Reviews ([`REVIEWS`]).
    pub reviews: Slots,
}

impl Default for SharedSlots {
    fn default() -> SharedSlots {
        SharedSlots {
            engines: Slots::new(ENGINES),
            reviews: Slots::new(REVIEWS),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_given_back_when_dropped() {
        let slots = Slots::new(2);
        let a = slots.take().expect("one");
        let b = slots.take().expect("two");
        assert!(slots.take().is_none(), "a third is over the bound");
        assert_eq!(slots.in_use(), 2);
        drop(a);
        let c = slots.take().expect("one given back");
        drop((b, c));
        assert_eq!(slots.in_use(), 0);
    }
}
