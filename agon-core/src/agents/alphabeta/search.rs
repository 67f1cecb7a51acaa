//! The search: iterative deepening over a principal-variation (negamax) search with a
//! transposition table and a capture quiescence search.
//!
//! Scores are always from the point of view of the side that decides at a node
//! ([`Position::decider`]). Between a node and its child the score changes sign only when
//! the deciding side changes, which is how `queen-relocated-by=opponent` (where a side
//! decides two actions in a row) fits into negamax.

use super::ordering::Ordering;
use super::tt::{self, Bound, Table};
use crate::agents::eval::{Evaluator, Verdict};
use crate::agents::features;
use crate::agents::history::History;
use crate::agents::terminal::{judge, Terminal};
use crate::{Action, ActionList, Bitboard, Game, Phase, Position, Side};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
const WIN_BOUND: i32 = WIN - 1000;
const INFINITY: i32 = WIN + 1;
/// Deepest ply the search reaches (iterative depth plus quiescence).
pub(crate) const MAX_PLY: usize = 160;
/// Deepest chain of captures the quiescence search follows.
const MAX_QUIESCENCE: usize = 12;

/// When to stop.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Limits {
    /// Deepest iteration.
    pub depth: u32,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The chosen action.
    pub action: Action,
    /// Its score from the decider's point of view (100 is about a guard's step to ring 1;
    /// beyond ±999000 a forced win or loss).
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (quiescence nodes included).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The principal variation of the deepest completed iteration: the chosen action, then
    /// the transposition table's best replies while they are legal.
    pub pv: Vec<Action>,
}

impl SearchReport {
    /// When the score is a forced result, the plies to the end of the game: positive when
    /// the decider wins, negative when it loses.
    pub fn forced_end(&self) -> Option<i32> {
        if self.score >= WIN_BOUND {
            Some(WIN - self.score)
        } else if self.score <= -WIN_BOUND {
            Some(-(WIN + self.score))
        } else {
            None
        }
    }
}

/// The state of the search, kept between moves (the table and the history scores).
pub(crate) struct Searcher {
    eval: Evaluator,
    tt: Table,
    ordering: Ordering,
    history: History,
    lists: Vec<ActionList>,
    scored: Vec<[(i32, Action); ActionList::CAPACITY]>,
    quiescence: bool,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set from outside to end the search (polled with the clock).
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
}

impl Searcher {
    pub(crate) fn new(eval: Evaluator, hash_mb: usize, quiescence: bool) -> Searcher {
        Searcher {
            eval,
            tt: Table::new(hash_mb),
            ordering: Ordering::new(MAX_PLY + 1),
            history: History::new(),
            lists: vec![ActionList::new(); MAX_PLY + 1],
            scored: vec![[(0, Action::Pass); ActionList::CAPACITY]; MAX_PLY + 1],
            quiescence,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            stopped: false,
        }
    }

    /// Forgets the previous game.
    pub(crate) fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
    }

    /// Searches the current position of `game` (which must not be over).
    /// Also ends when `stop` is set, and calls `on_iteration` after every completed
    /// iteration.
    pub(crate) fn think_with(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: Option<Arc<AtomicBool>>,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        self.stop = stop;
        let start = Instant::now();
        self.history.reset(game);
        self.ordering.new_search();
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        self.stopped = false;
        let root = *game.position();
        let mut list = ActionList::new();
        root.generate_legal(&mut list);
        let mut moves: Vec<(Action, i32)> = list.iter().map(|&a| (a, -INFINITY)).collect();
        let mut report = SearchReport {
            action: moves[0].0,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.len() > 1 {
            self.order_root(&root, &mut moves);
            report.action = moves[0].0;
            for depth in 1..=limits.depth.max(1) {
                let (best, score, complete) = self.root_iteration(&root, &mut moves, depth as i32);
                if let Some(best) = best {
                    report.action = moves[best].0;
                    report.score = score;
                    // Move the best action first, keep the others in their order.
                    let chosen = moves.remove(best);
                    moves.insert(0, chosen);
                }
                if !complete {
                    break;
                }
                report.depth = depth;
                report.nodes = self.nodes;
                report.elapsed = start.elapsed();
                report.pv = self.principal_variation(&root, report.action, depth);
                on_iteration(&report);
                if score.abs() >= WIN_BOUND {
                    break;
                }
                // Order the rest by this iteration's scores (fail-low bounds, but a guide).
                moves[1..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            }
        }
        report.nodes = self.nodes;
        report.elapsed = start.elapsed();
        if report.pv.first() != Some(&report.action) {
            report.pv = vec![report.action];
        }
        self.stop = None;
        report
    }

    /// `first`, then the table's best actions while they are legal, up to `depth` plies
    /// (ending at a formation or a repeated position).
    fn principal_variation(&self, root: &Position, first: Action, depth: u32) -> Vec<Action> {
        let mut pv = vec![first];
        let mut pos = *root;
        let mut seen = vec![pos.hash()];
        let mut action = first;
        loop {
            let mover = pos.to_move();
            pos.play_unchecked(action);
            if pos.formation(mover).is_some() || seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            match self.tt.probe(Table::key(&pos)).and_then(|hit| hit.action) {
                Some(next) if pv.len() < depth as usize && pos.is_legal(next) => {
                    pv.push(next);
                    action = next;
                }
                _ => break,
            }
        }
        pv
    }

    fn order_root(&mut self, root: &Position, moves: &mut [(Action, i32)]) {
        let tt_action = self
            .tt
            .probe(Table::key(root))
            .and_then(|h| h.action)
            .map_or(u16::MAX, tt::encode);
        let mover = root.to_move();
        let cells = self.capture_cells(root);
        for m in moves.iter_mut() {
            m.1 = self.ordering.key(mover, m.0, 0, tt_action, cells);
        }
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    /// One iteration at the root. Returns the index of the best action found (if any
    /// action was searched completely), its score, and whether the iteration completed.
    fn root_iteration(
        &mut self,
        root: &Position,
        moves: &mut [(Action, i32)],
        depth: i32,
    ) -> (Option<usize>, i32, bool) {
        let me = root.decider();
        let mover = root.to_move();
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        for (i, entry) in moves.iter_mut().enumerate() {
            let action = entry.0;
            let mut child = *root;
            child.play_unchecked(action);
            let score = match judge(&child, mover, &self.history) {
                Some(t) => terminal_score(t, me, 1),
                None => {
                    let same = child.decider() == me;
                    self.history.push(child.hash());
                    let score = if best.is_none() {
                        self.child(&child, depth - 1, alpha, beta, 1, same)
                    } else {
                        let s = self.child(&child, depth - 1, alpha, alpha + 1, 1, same);
                        if s > alpha && !self.stopped {
                            self.child(&child, depth - 1, alpha, beta, 1, same)
                        } else {
                            s
                        }
                    };
                    self.history.pop();
                    score
                }
            };
            if self.stopped {
                return (best, alpha, false);
            }
            entry.1 = score;
            if score > alpha || best.is_none() {
                alpha = score;
                best = Some(i);
            }
        }
        if let Some(b) = best {
            self.tt.store(
                Table::key(root),
                depth as u8,
                Bound::Exact,
                alpha,
                Some(moves[b].0),
            );
        }
        (best, alpha, true)
    }

    #[inline]
    fn child(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        same: bool,
    ) -> i32 {
        if same {
            self.node(child, depth, alpha, beta, ply)
        } else {
            -self.node(child, depth, -beta, -alpha, ply)
        }
    }

    #[inline]
    fn node(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            self.quiesce(pos, alpha, beta, ply, 0)
        } else {
            self.search(pos, depth, alpha, beta, ply)
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
            if let Some(stop) = &self.stop {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
    }

    fn capture_cells(&self, pos: &Position) -> Bitboard {
        let can_capture = match pos.phase() {
            Phase::Normal => true,
            Phase::Relocation => pos.rules().relocations_interact(),
            Phase::Placement => false,
        };
        if can_capture {
            features::captures(pos, pos.to_move(), Bitboard::EMPTY).cells
        } else {
            Bitboard::EMPTY
        }
    }

    fn search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let me = pos.decider();
        let mover = pos.to_move();
        let key = Table::key(pos);
        let pv = beta - alpha > 1;
        let mut tt_action = u16::MAX;
        if let Some(hit) = self.tt.probe(key) {
            if let Some(a) = hit.action {
                tt_action = tt::encode(a);
            }
            if !pv && hit.depth as i32 >= depth {
                let s = from_tt(hit.score, ply);
                match hit.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        pos.generate_legal(&mut self.lists[ply]);
        let n = self.lists[ply].len();
        if n == 0 {
            return if me == mover {
                -(WIN - ply as i32)
            } else {
                WIN - ply as i32
            };
        }
        // The table's action first, before the others are even scored: it often cuts off.
        let mut first = None;
        if tt_action != u16::MAX {
            let list = self.lists[ply].as_mut_slice();
            if let Some(k) = list.iter().position(|&a| tt::encode(a) == tt_action) {
                list.swap(0, k);
                first = Some(list[0]);
            }
        }
        let mut cells = None;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_action = None;
        for i in 0..n {
            let action = match (i, first) {
                (0, Some(a)) => a,
                _ => {
                    if cells.is_none() {
                        let c = self.capture_cells(pos);
                        cells = Some(c);
                        self.score_actions(mover, ply, i, n, tt_action, c);
                    }
                    self.pick(ply, i, n)
                }
            };
            let mut child = *pos;
            child.play_unchecked(action);
            let score = match judge(&child, mover, &self.history) {
                Some(t) => terminal_score(t, me, ply + 1),
                None => {
                    let same = child.decider() == me;
                    self.history.push(child.hash());
                    let score = if i == 0 {
                        self.child(&child, depth - 1, alpha, beta, ply + 1, same)
                    } else {
                        let s = self.child(&child, depth - 1, alpha, alpha + 1, ply + 1, same);
                        if s > alpha && s < beta && !self.stopped {
                            self.child(&child, depth - 1, alpha, beta, ply + 1, same)
                        } else {
                            s
                        }
                    };
                    self.history.pop();
                    score
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_action = Some(action);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        let capture = cells
                            .unwrap_or_else(|| self.capture_cells(pos))
                            .contains_destination(action);
                        if !capture {
                            self.ordering.cutoff(mover, action, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, depth as u8, bound, to_tt(best, ply), best_action);
        best
    }

    /// Gives the actions `from..n` of ply `ply` their ordering keys.
    #[inline]
    fn score_actions(
        &mut self,
        mover: Side,
        ply: usize,
        from: usize,
        n: usize,
        tt_action: u16,
        cells: Bitboard,
    ) {
        let list = &self.lists[ply];
        let scored = &mut self.scored[ply];
        for j in from..n {
            let a = list[j];
            scored[j] = (self.ordering.key(mover, a, ply, tt_action, cells), a);
        }
    }

    /// The action to try `i`-th at ply `ply`: the best remaining by key. The first few are
    /// picked one by one (a cut-off often comes early); then the rest is sorted once.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize, n: usize) -> Action {
        const PICKED: usize = 3;
        let scored = &mut self.scored[ply][..n];
        if i < PICKED {
            let mut best = i;
            for j in i + 1..n {
                if scored[j].0 > scored[best].0 {
                    best = j;
                }
            }
            scored.swap(i, best);
        } else if i == PICKED {
            scored[i..].sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        }
        scored[i].1
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, q: usize) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let me = pos.decider();
        let mover = pos.to_move();
        let stand = match self.eval.for_side(pos, me) {
            Verdict::NoMoves => {
                return if me == mover {
                    -(WIN - ply as i32)
                } else {
                    WIN - ply as i32
                }
            }
            Verdict::Score(s) => s,
        };
        if !self.quiescence || q >= MAX_QUIESCENCE || me != mover || stand >= beta {
            return stand;
        }
        let cells = self.capture_cells(pos);
        if cells.is_empty() {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        pos.generate_legal(&mut self.lists[ply]);
        let n = self.lists[ply].len();
        for i in 0..n {
            let action = self.lists[ply][i];
            if !cells.contains_destination(action) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(action);
            let score = match judge(&child, mover, &self.history) {
                Some(t) => terminal_score(t, me, ply + 1),
                None => {
                    let same = child.decider() == me;
                    self.history.push(child.hash());
                    let s = if same {
                        self.quiesce(&child, alpha, beta, ply + 1, q + 1)
                    } else {
                        -self.quiesce(&child, -beta, -alpha, ply + 1, q + 1)
                    };
                    self.history.pop();
                    s
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// Whether an action arrives on one of a set of cells.
trait ContainsDestination {
    fn contains_destination(self, action: Action) -> bool;
}

impl ContainsDestination for Bitboard {
    #[inline]
    fn contains_destination(self, action: Action) -> bool {
        action.destination().is_some_and(|c| self.contains(c))
    }
}

/// The score of a finished game `ply` plies from the root, for `me`.
#[inline]
fn terminal_score(t: Terminal, me: Side, ply: usize) -> i32 {
    match t {
        Terminal::Draw => 0,
        Terminal::Win(side) if side == me => WIN - ply as i32,
        Terminal::Win(_) => -(WIN - ply as i32),
    }
}

/// Win scores are stored relative to the node, not the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}
