//! The search thread and what the user says to its task: one thread runs
//! searches (and perft, bench) one after another, and each task has a
//! [`SearchControl`] for `stop` and `ponderhit` and for waiting on its end.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// What the user says to one task on the search thread (`stop`, `ponderhit`)
/// and whether the task is over. Each task gets its own, so a `stop` sent right
/// after `go` can never be undone by a reset.
///
/// "The user said stop" is kept apart from "the search is done thinking" (a
/// limit reached, which is the search's own business): only the first, or a
/// `ponderhit`, lets the answer of `go infinite` or `go ponder` out.
#[derive(Default)]
pub struct SearchControl {
    /// Set by `stop`.
    pub(super) stop: AtomicBool,
    /// Set while pondering; `ponderhit` clears it (the clock reads it).
    pub(super) pondering: Arc<AtomicBool>,
    /// Whether the task has ended; guards the waits on `changed`.
    finished: Mutex<bool>,
    changed: Condvar,
}

impl SearchControl {
    /// A control for a task that begins pondering (`go ponder`) or not.
    pub fn new(pondering: bool) -> SearchControl {
        SearchControl {
            pondering: Arc::new(AtomicBool::new(pondering)),
            ..SearchControl::default()
        }
    }

    /// The user said stop: thinking ends and the answer goes out.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.notify();
    }

    /// The expected move was played: the clock starts; the answer may go out.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::Relaxed);
        self.notify();
    }

    /// Whether the user said stop.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The flag `stop` sets, for code that only polls (perft).
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, bool> {
        self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes the waits. The lock is taken after the flag is set, so a waiter
    /// that read the old value is already waiting and hears this.
    fn notify(&self) {
        let _guard = self.lock();
        self.changed.notify_all();
    }

    /// Waits until the answer may go out: at once, except under `infinite`
    /// (until `stop`) and while pondering (until `stop` or `ponderhit`).
    pub(super) fn wait_for_release(&self, infinite: bool) {
        let mut guard = self.lock();
        while !self.stop_requested() && (infinite || self.pondering.load(Ordering::Relaxed)) {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Whether the task has ended.
    pub(super) fn is_finished(&self) -> bool {
        *self.lock()
    }

    /// Waits until the task has ended.
    pub(super) fn wait_finished(&self) {
        let mut guard = self.lock();
        while !*guard {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Marks its task finished when dropped, also when the task panicked: nothing
/// waits forever for a task that died.
pub(super) struct FinishOnDrop(pub(super) Arc<SearchControl>);

impl Drop for FinishOnDrop {
    fn drop(&mut self) {
        *self.0.lock() = true;
        self.0.changed.notify_all();
    }
}

/// A task for the search thread.
pub(super) type ThreadJob = Box<dyn FnOnce() + Send>;

/// The thread that runs searches (and perft, bench) one after another, kept
/// between them: starting a thread per `go` costs time under load.
pub(super) struct SearchThread {
    tasks: Option<Sender<ThreadJob>>,
    handle: Option<JoinHandle<()>>,
}

impl SearchThread {
    /// Starts the thread, waiting for tasks.
    pub(super) fn start() -> SearchThread {
        let (tasks, queue) = mpsc::channel::<ThreadJob>();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                for task in queue {
                    // A panic is a bug, already reported on stderr; the thread
                    // lives on for the next task.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
                }
            })
            .expect("the search thread starts");
        SearchThread {
            tasks: Some(tasks),
            handle: Some(handle),
        }
    }

    /// Queues `task` behind the ones before it.
    pub(super) fn run(&self, task: ThreadJob) {
        if let Some(tasks) = &self.tasks {
            // The thread outlives the sender: sending cannot fail.
            let _ = tasks.send(task);
        }
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        // Closing the channel ends the thread's loop.
        self.tasks = None;
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}
