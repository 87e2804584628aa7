//! What a search is given and gives back, and what its threads share: the
//! features and limits it runs under, the lines it reports while it runs,
//! its result, and the table and counters every thread reads and writes.

use crate::engine::eval::Weights;
use crate::engine::nnue::Network;
use crate::engine::params::{LmrTable, SearchParams};
use crate::engine::tt::TranspositionTable;
use crate::rules::Move;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The deepest the search goes, quiescence included.
pub const MAX_PLY: usize = 128;

/// Which search features are on. A default build plays with
/// [`Features::default`]; the switches are hidden options (`Search_*`,
/// listed by `uci` only in a build with the `tune` feature) so that a
/// match can measure each feature by turning it off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Transposition-table cutoffs and move (the table is still written).
    pub tt_cutoffs: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility pruning near the leaves.
    pub futility: bool,
    /// Late-move pruning: near the leaves, quiet moves after the first few
    /// are not tried.
    pub late_move_pruning: bool,
    /// Internal iterative reduction: a ply less where the table has no move.
    pub iir: bool,
    /// Late-move reductions shrink for quiet moves with a good history.
    pub history_lmr: bool,
    /// With several threads, a node near the root that another thread is
    /// searching reduces its late moves one ply more ([`Breadcrumbs`]).
    pub breadcrumbs: bool,
}

impl Default for Features {
    /// Every feature on.
    fn default() -> Features {
        Features {
            tt_cutoffs: true,
            lmr: true,
            futility: true,
            late_move_pruning: true,
            iir: true,
            history_lmr: true,
            breadcrumbs: true,
        }
    }
}

impl Features {
    /// Everything off: plain alpha-beta with quiescence, the baseline for matches.
    pub const PLAIN: Features = Features {
        tt_cutoffs: false,
        lmr: false,
        futility: false,
        late_move_pruning: false,
        iir: false,
        history_lmr: false,
        breadcrumbs: false,
    };
}

/// One line of search progress, as `info` prints it.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Iteration depth, in plies.
    pub depth: i32,
    /// Deepest ply reached, quiescence search included.
    pub seldepth: i32,
    /// Which line of MultiPV (1-based).
    pub multipv: usize,
    /// The line's score, internal units (see [`super::score::Score::from_internal`]).
    pub score: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds since `go`, wall time.
    pub time_ms: u64,
    /// Per mille of the table in use.
    pub hashfull: u32,
    /// The principal variation, from the root; first its move.
    pub pv: Vec<Move>,
    /// Positions the endgame tables answered so far.
    pub tbhits: u64,
}

/// Receives what a search has to say. The protocol prints it; bench and the
/// tools collect it.
pub trait Listener: Send + Sync {
    /// Progress of the main thread.
    fn info(&self, info: &SearchInfo);
    /// Free text for the user (`info string`).
    fn message(&self, text: &str);
}

/// A listener that drops everything.
pub struct Silent;

impl Listener for Silent {
    fn info(&self, _: &SearchInfo) {}
    fn message(&self, _: &str) {}
}

/// What a finished search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; null only where there is no legal move.
    pub best_move: Move,
    /// The expected reply, if the PV has one.
    pub ponder_move: Option<Move>,
    /// Score of the best move (internal units).
    pub score: i32,
    /// Last completed depth (an unfinished iteration does not count).
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// The principal variation of the best line, from the root.
    pub pv: Vec<Move>,
    /// Every MultiPV line of the last iteration: (score, pv).
    pub lines: Vec<(i32, Vec<Move>)>,
    /// Deepest ply reached in the last iteration.
    pub seldepth: i32,
    /// Milliseconds spent, wall time.
    pub time_ms: u64,
    /// Per mille of the table in use at the end.
    pub hashfull: u32,
    /// Set when the game was already over: then there is no move.
    pub outcome: Option<crate::rules::Outcome>,
    /// Positions the endgame tables answered.
    pub tbhits: u64,
}

/// What all threads of one search share.
pub struct Shared<'a> {
    /// The transposition table all threads read and write.
    pub tt: &'a TranspositionTable,
    /// Set when the search is done thinking: a limit was reached or the main
    /// thread finished. Whether the answer may go out is not its business.
    pub stop: &'a AtomicBool,
    /// Set by the user (`stop`, `quit`, a command that ends the search).
    pub user_stop: &'a AtomicBool,
    /// Nodes of each thread, summed for reports.
    pub nodes: Vec<PaddedCounter>,
    /// The linear evaluation's weights (used when `net` is `None`).
    pub weights: &'a Weights,
    /// The network, when the search evaluates with it instead of `weights`.
    pub net: Option<&'a Network>,
    /// Which search features are on (the hidden `Search_*` options).
    pub features: Features,
    /// The tunable numbers of the search (`params.rs`).
    pub params: &'a SearchParams,
    /// The late-move reductions of `params`.
    pub lmr: &'a LmrTable,
    /// How much the root side dislikes a draw, centipawns: a draw scores
    /// `-contempt` for the root side (and `+contempt` for its opponent).
    pub contempt: i32,
    /// The endgame tables, when they answer under the search's rules.
    pub tb: Option<&'a crate::tb::TableSet>,
    /// Positions with more pieces are not looked up in `tb`.
    pub tb_max_pieces: u32,
    /// Positions `tb` answered, all threads.
    pub tbhits: AtomicU64,
    /// Each depth's first completed iteration, by any thread (one line
    /// searched), at index depth - 1: the search answers with the deepest,
    /// the main thread reports every depth from them, and a thread that falls
    /// behind skips to the depth after the deepest.
    pub iterations: Mutex<Vec<Option<SearchResult>>>,
    /// Which thread is searching which node near the root (see [`Breadcrumbs`]).
    pub breadcrumbs: Breadcrumbs,
}

/// Marks of the nodes near the root that some thread is searching: a second
/// thread that arrives at a marked node reduces its late moves one ply more,
/// so the threads spread over the tree instead of searching the same lines
/// (Stockfish's "breadcrumbs", 2018). A slot per key hash; a slot taken by
/// another node is simply not used.
pub struct Breadcrumbs {
    slots: Box<[Breadcrumb]>,
}

/// One slot: the key of the node and the thread (id + 1, 0 when free).
#[derive(Default)]
struct Breadcrumb {
    key: AtomicU64,
    owner: std::sync::atomic::AtomicUsize,
}

/// Slots of [`Breadcrumbs`].
const BREADCRUMB_SLOTS: usize = 1024;

/// The plies from the root at which nodes are marked. `bench --depth 14
/// --threads 2`, six runs each, time to depth: 8 plies 2.30 s, 12 plies
/// 2.03-2.11 s, 16 plies 1.98 s, 64 plies 2.11 s; none 2.65 s; one thread
/// 3.45 s.
pub const BREADCRUMB_PLIES: usize = 16;

impl Default for Breadcrumbs {
    fn default() -> Breadcrumbs {
        Breadcrumbs {
            slots: (0..BREADCRUMB_SLOTS)
                .map(|_| Breadcrumb::default())
                .collect(),
        }
    }
}

impl Breadcrumbs {
    /// Thread `id` enters the node `key`: whether another thread is in it,
    /// and whether `id` took the slot (and must leave it, which
    /// [`BreadcrumbGuard`] does).
    #[inline]
    pub fn enter(&self, id: usize, key: u64) -> Visit {
        let slot = &self.slots[key as usize & (BREADCRUMB_SLOTS - 1)];
        let owner = slot.owner.load(Ordering::Relaxed);
        if owner == 0 {
            slot.key.store(key, Ordering::Relaxed);
            slot.owner.store(id + 1, Ordering::Relaxed);
            Visit {
                another_thread_here: false,
                took_slot: true,
            }
        } else {
            Visit {
                another_thread_here: owner != id + 1 && slot.key.load(Ordering::Relaxed) == key,
                took_slot: false,
            }
        }
    }

    /// The thread that took the slot of node `key` leaves the node.
    #[inline]
    fn leave(&self, key: u64) {
        let slot = &self.slots[key as usize & (BREADCRUMB_SLOTS - 1)];
        slot.owner.store(0, Ordering::Relaxed);
    }
}

/// What a thread learns on entering a node ([`Breadcrumbs::enter`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Visit {
    /// Another thread is searching the node.
    pub another_thread_here: bool,
    /// This thread took the node's slot and leaves it when done.
    pub took_slot: bool,
}

/// Leaves a node's breadcrumb, if the visit took its slot, however the
/// node returns.
pub struct BreadcrumbGuard<'s> {
    taken: Option<(&'s Breadcrumbs, u64)>,
}

impl<'s> BreadcrumbGuard<'s> {
    /// The guard of a visit to node `key`.
    #[inline]
    pub fn new(crumbs: &'s Breadcrumbs, key: u64, visit: Visit) -> BreadcrumbGuard<'s> {
        BreadcrumbGuard {
            taken: visit.took_slot.then_some((crumbs, key)),
        }
    }
}

impl Drop for BreadcrumbGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some((crumbs, key)) = self.taken {
            crumbs.leave(key);
        }
    }
}

/// A node counter alone on its cache line, so threads do not slow each other.
#[repr(align(64))]
#[derive(Default)]
pub struct PaddedCounter(pub AtomicU64);

impl Shared<'_> {
    /// Nodes of all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// Keeps `result` as its depth's iteration unless another thread
    /// completed that depth first.
    pub fn offer(&self, result: &SearchResult) {
        let mut iterations = self.iterations.lock().unwrap_or_else(|e| e.into_inner());
        let index = (result.depth.max(1) - 1) as usize;
        if iterations.len() <= index {
            iterations.resize(index + 1, None);
        }
        if iterations[index].is_none() {
            iterations[index] = Some(result.clone());
        }
    }

    /// The depth of the deepest completed iteration, 0 before any.
    pub fn deepest_depth(&self) -> i32 {
        let iterations = self.iterations.lock().unwrap_or_else(|e| e.into_inner());
        iterations.len() as i32
    }

    /// The iteration of `depth` that was completed first, if one was.
    pub fn iteration(&self, depth: i32) -> Option<SearchResult> {
        let iterations = self.iterations.lock().unwrap_or_else(|e| e.into_inner());
        iterations.get((depth - 1) as usize)?.clone()
    }

    /// Whether the threads must stop thinking, for whatever reason.
    pub fn must_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.user_stop.load(Ordering::Relaxed)
    }
}

/// What the main thread is limited by: the user's limits as the search
/// applies them (see [`crate::engine::GoLimits`] for what `go` asked).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration, in plies.
    pub depth: Option<i32>,
    /// Most nodes (all threads).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<i32>,
    /// Root moves to consider (empty: all).
    pub searchmoves: Vec<Move>,
    /// Lines to report, best first (MultiPV, at least 1).
    pub multipv: usize,
    /// Root moves whose score is capped, with the cap: a score above it is
    /// the cap (a capture into a table draw the game's history is proven
    /// to lose, [`crate::engine`]'s tablebases module).
    pub root_caps: Vec<(Move, i32)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_thread_at_a_marked_node_sees_the_mark_until_the_first_leaves() {
        let crumbs = Breadcrumbs::default();
        let key = 0x1234_5678_9abc_def0;
        let visit = |another_thread_here, took_slot| Visit {
            another_thread_here,
            took_slot,
        };
        let first = crumbs.enter(0, key);
        assert_eq!(first, visit(false, true), "a free slot is taken");
        {
            let _guard = BreadcrumbGuard::new(&crumbs, key, first);
            assert_eq!(
                crumbs.enter(1, key),
                visit(true, false),
                "another thread is in"
            );
            assert_eq!(crumbs.enter(0, key), visit(false, false), "its own mark");
            // Another node on the same slot is not marked.
            let other = key + BREADCRUMB_SLOTS as u64;
            assert_eq!(crumbs.enter(1, other), visit(false, false));
        }
        assert_eq!(crumbs.enter(1, key), visit(false, true), "free again");
    }

    #[test]
    fn each_depth_keeps_its_first_iteration_whatever_the_order_of_offers() {
        let tt = TranspositionTable::new(1).unwrap();
        let (stop, user_stop) = (AtomicBool::default(), AtomicBool::default());
        let params = SearchParams::default();
        let lmr = params.lmr_table();
        let shared = Shared {
            tt: &tt,
            stop: &stop,
            user_stop: &user_stop,
            nodes: Vec::new(),
            weights: &crate::engine::eval::WEIGHTS,
            net: None,
            features: Features::default(),
            params: &params,
            lmr: &lmr,
            contempt: 0,
            tb: None,
            tb_max_pieces: 0,
            tbhits: AtomicU64::default(),
            iterations: Mutex::default(),
            breadcrumbs: Breadcrumbs::default(),
        };
        assert_eq!(shared.deepest_depth(), 0);
        let at = |depth, score| SearchResult {
            depth,
            score,
            ..SearchResult::default()
        };
        shared.offer(&at(5, 10));
        shared.offer(&at(4, 20));
        shared.offer(&at(5, 30));
        assert_eq!(shared.deepest_depth(), 5);
        assert_eq!(
            shared.iteration(5).unwrap().score,
            10,
            "the first of a depth"
        );
        assert_eq!(shared.iteration(4).unwrap().score, 20);
        assert!(shared.iteration(3).is_none() && shared.iteration(7).is_none());
        shared.offer(&at(6, 40));
        assert_eq!(shared.deepest_depth(), 6);
    }
}
