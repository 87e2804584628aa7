//! The worker pool of the tools that run many independent jobs (analyse's
//! searches, self-play's games, the match runner's games): scoped threads that
//! each set up their own state once (an engine, say), take job indices in
//! turn, and hand each result back to the calling thread as soon as it is
//! ready. Not rayon: the jobs are long and each thread keeps its own state
//! across them, and the caller wants results as they finish, not at the end.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

/// The threads a tool uses when not told: one per core the process may use
/// (one if that cannot be known).
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Runs jobs `0..count` on up to `threads` threads (at least one). Each thread
/// builds its state with `init`, then runs `work(&mut state, index)` for the
/// next index not yet taken. Results reach `on_result` on the calling thread
/// in completion order, with their index. An error from `on_result` stops the
/// threads after their current job and is returned.
pub fn run_jobs<S, R, E>(
    count: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> R + Sync,
    mut on_result: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    R: Send,
{
    if count == 0 {
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count) {
            let sender = sender.clone();
            let (next, cancel, init, work) = (&next, &cancel, &init, &work);
            scope.spawn(move || {
                let mut state = init();
                while !cancel.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    if sender.send((i, work(&mut state, i))).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers hold senders now: the loop ends when they are done.
        drop(sender);
        for (i, result) in receiver {
            if let Err(e) = on_result(i, result) {
                cancel.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })
}

/// Runs `body` on the calling thread while up to `threads` workers (at least
/// one) run the jobs it sends on the channel it is given, for a caller whose
/// jobs arrive as it goes (lines read from a pipe). Each worker builds its
/// state with `init` before its first job and sends `work(&mut state, job)`
/// to `results`. Once `body` drops its sender the workers finish the jobs
/// sent and end; once `body` returns, they end after their current job.
pub fn serve_jobs<J, S, R, T>(
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, J) -> R + Sync,
    results: mpsc::Sender<R>,
    body: impl FnOnce(mpsc::Sender<J>) -> T,
) -> T
where
    J: Send,
    R: Send,
{
    let (jobs, queue) = mpsc::channel::<J>();
    let queue = Mutex::new(queue);
    let cancel = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let results = results.clone();
            let (queue, cancel, init, work) = (&queue, &cancel, &init, &work);
            scope.spawn(move || {
                let mut state = None;
                while !cancel.load(Ordering::Relaxed) {
                    // One idle worker waits on the queue, the others on its lock.
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(job) = next else { break };
                    let state = state.get_or_insert_with(init);
                    if results.send(work(state, job)).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers hold senders of `results` now.
        drop(results);
        let answer = body(jobs);
        cancel.store(true, Ordering::Relaxed);
        answer
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_whatever_the_thread_count() {
        for threads in [0, 1, 3, 50] {
            let mut seen = vec![0; 20];
            run_jobs(
                20,
                threads,
                || (),
                |_, i| i * i,
                |i, r| {
                    assert_eq!(r, i * i);
                    seen[i] += 1;
                    Ok::<(), ()>(())
                },
            )
            .unwrap();
            assert!(seen.iter().all(|&n| n == 1), "{threads} threads: {seen:?}");
        }
    }

    #[test]
    fn a_thread_keeps_its_state_across_jobs() {
        let mut counts = Vec::new();
        let count_jobs = |jobs_here: &mut usize, _| {
            *jobs_here += 1;
            *jobs_here
        };
        run_jobs(
            10,
            1,
            || 0usize,
            count_jobs,
            |_, n| {
                counts.push(n);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(counts, (1..=10).collect::<Vec<_>>());
    }

    #[test]
    fn served_jobs_are_answered_while_more_are_still_to_come() {
        let (results, answers) = mpsc::channel();
        let seen = serve_jobs(
            2,
            || (),
            |_, i: usize| i * 10,
            results,
            |jobs| {
                let mut seen = Vec::new();
                for i in 0..5 {
                    // Each answer arrives before the next job is even sent.
                    jobs.send(i).unwrap();
                    seen.push(answers.recv().unwrap());
                }
                seen
            },
        );
        assert_eq!(seen, [0, 10, 20, 30, 40]);
    }

    #[test]
    fn an_error_stops_the_run_and_is_returned() {
        let mut results = 0;
        let outcome = run_jobs(
            1000,
            1,
            || (),
            |_, i| i,
            |i, _| {
                results += 1;
                if i == 3 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!(outcome, Err(3));
        assert_eq!(results, 4);
    }
}
