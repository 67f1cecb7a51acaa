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
use crate::agents::terminal::{judge_in, Terminal};
use crate::hot::{with_fixed_rules, HotRules};
use crate::{
    Action, ActionList, Bitboard, Cell, Formation, Game, LegalActions, Phase, Position,
    QueenRelocatedBy, Side,
};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub(crate) const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses.
pub(crate) const WIN_BOUND: i32 = WIN - 1000;
const INFINITY: i32 = WIN + 1;
/// Deepest ply the search reaches (iterative depth plus quiescence).
pub(crate) const MAX_PLY: usize = 160;
/// Entries of the evaluation cache (a power of two; two per bucket). Two-way buckets of the
/// same memory found more evaluations again than one-way slots (894 -> 884 instructions a
/// node, start depth 8); larger caches did too but ran slower (their misses leave the
/// processor's caches).
const EVAL_CACHE: usize = 1 << 16;
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
    /// How many of the best actions get exact scores and lines (multi-PV; 1 is the plain
    /// search, and 0 counts as 1).
    pub lines: usize,
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
    /// The best actions of the deepest completed iteration, best first, each with its exact
    /// score and line: as many as the search was asked for (`multipv=`) and the position
    /// has. The first is always [`SearchReport::action`] with [`SearchReport::score`] and
    /// [`SearchReport::pv`].
    pub lines: Vec<ScoredLine>,
}

/// One of the best actions of a search (multi-PV) with its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredLine {
    /// The score of the line's first action, from the decider's point of view (the units
    /// of [`SearchReport::score`]).
    pub score: i32,
    /// The line: its first action, then the best replies the search found.
    pub pv: Vec<Action>,
}

impl ScoredLine {
    /// When the score is a forced result, the plies to the end of the game (see
    /// [`SearchReport::forced_end`]).
    pub fn forced_end(&self) -> Option<i32> {
        forced_end(self.score)
    }
}

impl SearchReport {
    /// When the score is a forced result, the plies to the end of the game: positive when
    /// the decider wins, negative when it loses.
    pub fn forced_end(&self) -> Option<i32> {
        forced_end(self.score)
    }
}

/// The plies to a forced end that a score means, if it means one.
fn forced_end(score: i32) -> Option<i32> {
    if score >= WIN_BOUND {
        Some(WIN - score)
    } else if score <= -WIN_BOUND {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// The state of the search, kept between moves (the table and the history scores).
pub(crate) struct Searcher {
    eval: Evaluator,
    tt: Table,
    ordering: Ordering,
    history: History,
    lists: Vec<ActionList>,
    /// Scratch list: the captures of a node (only their number is read).
    captures: ActionList,
    scored: Vec<[(i32, Action); ActionList::CAPACITY]>,
    quiescence: bool,
    /// What a draw costs the side the search is for (evaluation units).
    contempt: i32,
    /// The deciding side at the root.
    root_side: Side,
    /// Evaluations by position hash, in buckets of two `hash ^ eval_salt, score as u32`
    /// pairs (`i32::MIN`: no legal action), the newer first: a new evaluation moves the
    /// bucket's newer one to the second place, so a position evaluated again soon after
    /// another of its bucket is still found. Zeroed memory, so a new cache costs nothing
    /// until it is used, and a new salt empties it (as the table's salt does, see
    /// [`Table`]).
    eval_cache: Box<[[u64; 4]; EVAL_CACHE / 2]>,
    eval_salt: u64,
    /// The hash of a relocation's child and its pieces-only terms
    /// ([`Evaluator::relocated_pieces_white`]), which its evaluation then need not
    /// compute: most evaluations of a midgame search follow a relocation.
    pieces_hint: (u64, i32),
    /// The hash of the last parent of such a child and its pieces-only terms, if it has
    /// them ([`Evaluator::pieces_white`]): one computation for all its children.
    parent_pieces: (u64, Option<i32>),
    /// The table size asked for, in MB (searchers are reused only for the same size).
    hash_mb: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// Set from outside to end the search (polled with the clock).
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
}

impl Searcher {
    pub(crate) fn new(
        eval: Evaluator,
        hash_mb: usize,
        quiescence: bool,
        contempt: i32,
    ) -> Searcher {
        Searcher {
            eval,
            tt: Table::new(hash_mb),
            ordering: Ordering::new(MAX_PLY + 1),
            history: History::new(),
            lists: vec![ActionList::new(); MAX_PLY + 1],
            captures: ActionList::new(),
            scored: vec![[(0, Action::Pass); ActionList::CAPACITY]; MAX_PLY + 1],
            quiescence,
            contempt,
            root_side: Side::White,
            // Zeroed by the allocator, and a fixed size, so that lookups need no bounds
            // check.
            eval_cache: vec![[0; 4]; EVAL_CACHE / 2]
                .into_boxed_slice()
                .try_into()
                .expect("the cache's size"),
            eval_salt: 0,
            pieces_hint: (0, 0),
            parent_pieces: (0, None),
            hash_mb,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            stopped: false,
        }
    }

    /// Forgets the previous game: afterwards the searcher searches exactly as a new one.
    pub(crate) fn clear(&mut self) {
        self.tt.clear();
        self.eval_salt = tt::next_salt(self.eval_salt);
        // The hints are worth the weights of the evaluation, which `reuse` may change.
        self.pieces_hint = (0, 0);
        self.parent_pieces = (0, None);
        self.ordering.clear();
    }

    /// This searcher's memory, cleared, with another evaluation and settings: the same
    /// searches as [`Searcher::new`] with these arguments would give, without allocating
    /// (and having the system zero) a new table. `None` when the table size differs.
    pub(crate) fn reuse(
        mut self,
        eval: Evaluator,
        hash_mb: usize,
        quiescence: bool,
        contempt: i32,
    ) -> Option<Searcher> {
        if hash_mb != self.hash_mb {
            return None;
        }
        self.clear();
        self.eval = eval;
        self.quiescence = quiescence;
        self.contempt = contempt;
        Some(self)
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
        self.root_side = root.decider();
        let mut list = ActionList::new();
        root.legal().generate(&mut list);
        let mut moves: Vec<(Action, i32)> = list.iter().map(|&a| (a, -INFINITY)).collect();
        let mut report = SearchReport {
            action: moves[0].0,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        let lines = limits.lines.clamp(1, moves.len());
        if moves.len() > 1 {
            self.order_root(&root, &mut moves);
            report.action = moves[0].0;
            for depth in 1..=limits.depth.max(1) {
                // The search runs with the rule set's hot switches fixed at compile time.
                let (best, score, complete) = with_fixed_rules!(root.rules(), |hot| self
                    .root_iteration(hot, &root, &mut moves, depth as i32, lines));
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
                if lines > 1 {
                    // The best `lines` actions have exact scores: put them in order (a
                    // stable sort keeps the best first among equal scores).
                    moves[1..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
                }
                report.depth = depth;
                report.nodes = self.nodes;
                report.elapsed = start.elapsed();
                report.pv = self.principal_variation(&root, report.action, depth);
                report.lines = moves[..lines]
                    .iter()
                    .enumerate()
                    .map(|(k, &(action, score))| ScoredLine {
                        score,
                        pv: if k == 0 {
                            report.pv.clone()
                        } else {
                            self.principal_variation(&root, action, depth)
                        },
                    })
                    .collect();
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
        if report.lines.first().map(|l| l.pv.first()) != Some(report.pv.first()) {
            // No iteration completed, or an unfinished one found a better action: that
            // action leads, the other lines of the last completed iteration follow.
            let first = ScoredLine {
                score: report.score,
                pv: report.pv.clone(),
            };
            report
                .lines
                .retain(|l| l.pv.first() != Some(&report.action));
            report.lines.insert(0, first);
            report.lines.truncate(lines);
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
            if pos.formation(mover) != Formation::None || seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            match self.tt.probe(Table::key(&pos)).and_then(|hit| hit.action) {
                Some(next) if pv.len() < depth as usize && pos.legal().contains(next) => {
                    pv.push(next);
                    action = next;
                }
                _ => break,
            }
        }
        pv
    }

    fn order_root(&mut self, root: &Position, moves: &mut [(Action, i32)]) {
        let tt_action = self.tt.probe(Table::key(root)).and_then(|h| h.action);
        let mover = root.to_move();
        let cells = self.capture_cells(root.rules(), root);
        for m in moves.iter_mut() {
            m.1 = self.ordering.key(mover, m.0, 0, tt_action, cells);
        }
        moves.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    /// One iteration at the root. Returns the index of the best action found (if any
    /// action was searched completely), its score, and whether the iteration completed.
    ///
    /// The best `lines` actions get exact scores (multi-PV): each action is searched with
    /// a null window at the score of the `lines`-th best so far, and again with a full
    /// window above it when it beats that score; the others keep upper bounds. With one
    /// line this is the plain principal-variation search at the root.
    fn root_iteration(
        &mut self,
        hot: impl HotRules,
        root: &Position,
        moves: &mut [(Action, i32)],
        depth: i32,
        lines: usize,
    ) -> (Option<usize>, i32, bool) {
        let me = root.decider();
        let mover = root.to_move();
        // Below `alpha` an action is not among the best `lines`.
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        let mut best_score = -INFINITY;
        // The scores of the best `lines` actions so far.
        let mut top: Vec<i32> = Vec::with_capacity(lines);
        for (i, entry) in moves.iter_mut().enumerate() {
            let action = entry.0;
            let mut child = *root;
            child.play_in(hot, action);
            let score = match judge_in(hot, &child, mover, action, &self.history) {
                Some(t) => self.terminal_score(t, me, 1),
                None => {
                    let same = features::decider(&child) == me;
                    let next = depth - 1;
                    if top.len() < lines {
                        self.child(hot, &child, next, alpha, beta, 1, same)
                    } else {
                        let s = self.child(hot, &child, next, alpha, alpha + 1, 1, same);
                        if s > alpha && !self.stopped {
                            self.child(hot, &child, next, alpha, beta, 1, same)
                        } else {
                            s
                        }
                    }
                }
            };
            if self.stopped {
                return (best, best_score, false);
            }
            entry.1 = score;
            if score > best_score || best.is_none() {
                best_score = score;
                best = Some(i);
            }
            if top.len() < lines {
                top.push(score);
            } else if score > alpha {
                let worst = top
                    .iter()
                    .position(|&s| s == alpha)
                    .expect("alpha is in top");
                top[worst] = score;
            }
            if top.len() == lines {
                alpha = top.iter().copied().min().expect("lines >= 1");
            }
        }
        if let Some(b) = best {
            self.tt.store(
                Table::key(root),
                depth as u8,
                Bound::Exact,
                best_score,
                Some(moves[b].0),
            );
        }
        (best, best_score, true)
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        hot: impl HotRules,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        same: bool,
    ) -> i32 {
        if same {
            self.node(hot, child, depth, alpha, beta, ply)
        } else {
            -self.node(hot, child, depth, -beta, -alpha, ply)
        }
    }

    /// [`Searcher::search`] of a node at depth 1 whose side to move has a relocation due
    /// and relocates its own pieces (`queen-relocated-by=owner`):
    /// a copy that searches quiet relocations without playing them where it can
    /// ([`Searcher::quiet_relocation_score`]), apart so that the other nodes' copy is
    /// compiled as before.
    #[inline(never)]
    fn search_relocating(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.search::<true>(hot, pos, 1, alpha, beta, ply)
    }

    #[inline(always)]
    fn node(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            self.quiesce(hot, pos, alpha, beta, ply, 0)
        } else if depth == 1
            && (pos.side_pieces(pos.to_move()) & pos.captured()).any()
            && pos.rules().queen_relocated_by() == QueenRelocatedBy::Owner
        {
            // A relocation by its owner whose children are at the quiescence horizon.
            self.search_relocating(hot, pos, alpha, beta, ply)
        } else {
            self.search::<false>(hot, pos, depth, alpha, beta, ply)
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

    /// The cells where an arrival of the side to move of `pos` captures, under the hot
    /// switches `hot` (none in a phase whose actions cannot capture).
    fn capture_cells(&self, hot: impl HotRules, pos: &Position) -> Bitboard {
        if can_capture(pos) {
            features::capture_cells_in(hot, pos, pos.to_move())
        } else {
            Bitboard::EMPTY
        }
    }

    fn search<const QUIET_RELOCATIONS: bool>(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let me = features::decider(pos);
        let mover = pos.to_move();
        let key = Table::key(pos);
        let pv = beta - alpha > 1;
        let mut tt_action = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_action = hit.action;
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
        let legal = LegalActions::of_in(hot, pos);
        // The order: the table's action, the captures, the killers, then the quiet actions
        // sorted by history. The actions are listed in stages, so that a cut-off saves
        // generating the rest: the table's action alone (`contains` agrees with `generate`,
        // so it is legal exactly when the list would hold it); without one, the captures
        // and the legal killers; the full list only when these did not cut off, ordered
        // as it always was (its first actions are then those already searched).
        let first = tt_action.filter(|&a| legal.contains(a));
        let mut cells = None;
        // The number of captures, and which killers are legal, once the staged actions
        // have been listed.
        let mut captures = None;
        let mut n = if first.is_some() {
            1
        } else {
            if !legal.any() {
                return if me == mover {
                    -(WIN - ply as i32)
                } else {
                    WIN - ply as i32
                };
            }
            let c = self.capture_cells(hot, pos);
            cells = Some(c);
            let (staged, staged_captures, legal_killers) =
                self.captures_and_killers(&legal, ply, c);
            captures = Some((staged_captures, legal_killers));
            staged
        };
        let mut listed = false;
        let mut quiet_from = usize::MAX;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_action = None;
        // This position joins the search path (for its descendants' repetition tests) only
        // now that it has children to search: most nodes never get here.
        self.history.push(pos.hash());
        let mut i = 0;
        loop {
            if i == n {
                if listed {
                    break;
                }
                listed = true;
                n = self.generate(&legal, ply, first);
                let c = match cells {
                    Some(c) => c,
                    None => self.capture_cells(hot, pos),
                };
                cells = Some(c);
                let from = usize::from(first.is_some());
                quiet_from = self.order_captures_and_killers(&legal, ply, from, n, c, captures);
                // Without the table's action the list starts with the staged actions.
                debug_assert!(first.is_some() || quiet_from == i);
                if i == n {
                    break;
                }
            }
            if i == quiet_from {
                self.order_quiet(mover, ply, i, n);
            }
            let action = match first {
                Some(a) if i == 0 => a,
                _ if i >= quiet_from => self.scored[ply][i].1,
                _ => self.lists[ply][i],
            };
            let (score, taken) = 'child: {
                if let (true, Action::Relocate { from, to }) = (QUIET_RELOCATIONS, action) {
                    if let Some(quiet) = quiet_relocation(pos, from, to) {
                        let score =
                            self.quiet_relocation_score(hot, pos, quiet, i == 0, alpha, beta, ply);
                        break 'child (score, Bitboard::EMPTY);
                    }
                }
                let mut child = *pos;
                let played = child.play_in(hot, action);
                if let Action::Relocate { from, to } = action {
                    self.note_relocation(hot, pos, &child, from, to, played);
                }
                let score = match judge_in(hot, &child, mover, action, &self.history) {
                    Some(t) => self.terminal_score(t, me, ply + 1),
                    None => {
                        let same = features::decider(&child) == me;
                        let next = depth - 1;
                        if i == 0 {
                            self.child(hot, &child, next, alpha, beta, ply + 1, same)
                        } else {
                            let s = self.child(hot, &child, next, alpha, alpha + 1, ply + 1, same);
                            if s > alpha && s < beta && !self.stopped {
                                self.child(hot, &child, next, alpha, beta, ply + 1, same)
                            } else {
                                s
                            }
                        }
                    }
                };
                (score, played & pos.side_pieces(!mover))
            };
            if self.stopped {
                self.history.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_action = Some(action);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        // An action is a capture (an arrival on a capture cell, as the
                        // ordering has it) exactly when it took an enemy piece.
                        let capture = taken.any();
                        debug_assert_eq!(
                            capture,
                            self.capture_cells(hot, pos).contains_destination(action)
                        );
                        if !capture {
                            self.ordering.cutoff(mover, action, ply, depth);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.history.pop();
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

    /// Lists the captures (arrivals on `cells`) of ply `ply`, in the order of
    /// [`LegalActions::generate`], then its legal quiet killers, and returns their number
    /// (the actions [`Searcher::order_captures_and_killers`] would put first in the full
    /// list), the number of captures among them, and which of the ply's two killers are
    /// legal quiet actions (so listed).
    #[inline]
    fn captures_and_killers(
        &mut self,
        legal: &LegalActions,
        ply: usize,
        cells: Bitboard,
    ) -> (usize, usize, [bool; 2]) {
        let list = &mut self.lists[ply];
        if cells.any() {
            legal.generate_to(cells, list);
        } else {
            list.clear();
        }
        let captures = list.len();
        let [k0, k1] = self.ordering.killers(ply);
        let mut listed = [false; 2];
        for (j, killer) in [k0, k1.filter(|&k| Some(k) != k0)].into_iter().enumerate() {
            if let Some(killer) = killer {
                if !cells.contains_destination(killer) && legal.contains(killer) {
                    list.push(killer);
                    listed[j] = true;
                }
            }
        }
        (list.len(), captures, listed)
    }

    /// Lists the legal actions of ply `ply` and returns their number. With the table's
    /// action `first` (already searched), it is moved to the front, as the ordering has
    /// always put it: swapped with the first generated action.
    #[inline]
    fn generate(&mut self, legal: &LegalActions, ply: usize, first: Option<Action>) -> usize {
        legal.generate(&mut self.lists[ply]);
        if let Some(first) = first {
            let list = self.lists[ply].as_mut_slice();
            let k = list
                .iter()
                .position(|&a| a == first)
                .expect("a legal action is listed");
            list.swap(0, k);
        }
        self.lists[ply].len()
    }

    /// Moves the captures among the actions `from..n` of ply `ply` to the front, then the
    /// killers; returns where the remaining (quiet) actions start. `legal` are the legal
    /// actions the list holds: they say how many captures there are (unless `captures`, the
    /// number the staged actions counted, already does), so the scan stops after the last
    /// one (checking a killer's legality first costs more than the scan it saves). A
    /// killer the staged actions found illegal (or a capture) is not looked for: the scan
    /// would not find it.
    #[inline]
    fn order_captures_and_killers(
        &mut self,
        legal: &LegalActions,
        ply: usize,
        from: usize,
        n: usize,
        cells: Bitboard,
        staged: Option<(usize, [bool; 2])>,
    ) -> usize {
        let mut next = from;
        if cells.any() {
            let captures = staged.map(|(c, _)| c).unwrap_or_else(|| {
                legal.generate_to(cells, &mut self.captures);
                self.captures.len()
            });
            let list = self.lists[ply].as_mut_slice();
            // The captures in `from..n`: all of them but those before `from` (the table's
            // action, when it is one).
            let before = list[..from]
                .iter()
                .filter(|&&a| cells.contains_destination(a))
                .count();
            let end = from + captures - before;
            let mut j = from;
            while next < end {
                if cells.contains_destination(list[j]) {
                    list.swap(j, next);
                    next += 1;
                }
                j += 1;
            }
        }
        let list = self.lists[ply].as_mut_slice();
        let listed = staged.map_or([true; 2], |(_, listed)| listed);
        for (killer, listed) in self.ordering.killers(ply).into_iter().zip(listed) {
            let Some(killer) = killer.filter(|_| listed) else {
                continue;
            };
            if let Some(j) = position_of(&list[next..n], killer) {
                list.swap(next + j, next);
                next += 1;
            }
        }
        next
    }

    /// Sorts the quiet actions `from..n` of ply `ply` by their history scores into
    /// `scored[ply][from..n]`, where the search then takes them from.
    #[inline]
    fn order_quiet(&mut self, mover: Side, ply: usize, from: usize, n: usize) {
        let list = self.lists[ply].as_slice();
        let scored = &mut self.scored[ply][from..n];
        self.ordering.quiet_keys(mover, &list[from..n], scored);
        scored.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
    }

    /// The score of a finished game `ply` plies from the root, for `me`. A draw is worth
    /// `-contempt` to the side the search is for, and `contempt` to its opponent.
    #[inline]
    fn terminal_score(&self, t: Terminal, me: Side, ply: usize) -> i32 {
        match t {
            Terminal::Draw if me == self.root_side => -self.contempt,
            Terminal::Draw => self.contempt,
            Terminal::Win(side) if side == me => WIN - ply as i32,
            Terminal::Win(_) => -(WIN - ply as i32),
        }
    }

    /// Notes the pieces-only terms of `child`, made from `parent` by relocating the piece
    /// captured on `from` to `to`, which captured `captured`, for its evaluation
    /// ([`Searcher::pieces_hint`]): when it captured nothing, they are the parent's
    /// changed by the relocated guard. The lines of [`Searcher::relocated_pieces`] written
    /// out: calling it here, inlined or not, made the search's loop dearer for every node
    /// (docs/performance.md, the fourteenth round).
    #[inline(always)]
    fn note_relocation(
        &mut self,
        hot: impl HotRules,
        parent: &Position,
        child: &Position,
        from: Cell,
        to: Cell,
        captured: Bitboard,
    ) {
        if captured.any() {
            return;
        }
        let key = parent.hash();
        if self.parent_pieces.0 != key {
            self.parent_pieces = (key, self.eval.pieces_white(hot, parent));
        }
        let Some(parent_white) = self.parent_pieces.1 else {
            return;
        };
        if let Some(white) = self
            .eval
            .relocated_pieces_white(parent, parent_white, from, to)
        {
            self.pieces_hint = (child.hash(), white);
        }
    }

    /// The pieces-only terms of the child of `parent` in which the side to move relocates
    /// the piece captured on `from` to `to`, capturing nothing, if they follow from the
    /// parent's ([`Evaluator::relocated_pieces_white`]; the parent's are computed once for
    /// all its children).
    #[inline(always)]
    fn relocated_pieces(
        &mut self,
        hot: impl HotRules,
        parent: &Position,
        from: Cell,
        to: Cell,
    ) -> Option<i32> {
        let key = parent.hash();
        if self.parent_pieces.0 != key {
            self.parent_pieces = (key, self.eval.pieces_white(hot, parent));
        }
        let parent_white = self.parent_pieces.1?;
        self.eval
            .relocated_pieces_white(parent, parent_white, from, to)
    }

    /// The evaluation for `me`, through a small cache keyed by the position's hash, and,
    /// when it was computed rather than found, the capture cells of the side to move that
    /// came with it ([`Evaluator::white_and_capture_cells_in`]). Its probe and store are
    /// [`Searcher::cached_white`]'s and [`Searcher::cache_white`]'s written out on the one
    /// bucket: through them the quiescence search, which inlines this, measured 4
    /// instructions a node dearer at the start.
    #[inline(always)]
    fn evaluate(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        me: Side,
    ) -> (Verdict, Option<Bitboard>) {
        let key = pos.hash();
        let tag = key ^ self.eval_salt;
        let bucket = &mut self.eval_cache[eval_bucket(key)];
        let (white, cells) = if bucket[0] == tag {
            (bucket[1] as u32 as i32, None)
        } else if bucket[2] == tag {
            (bucket[3] as u32 as i32, None)
        } else {
            let given = (self.pieces_hint.0 == key).then_some(self.pieces_hint.1);
            let (verdict, cells) = self.eval.white_and_capture_cells_given(hot, pos, given);
            let v = cached_form(verdict);
            *bucket = [tag, v as u32 as u64, bucket[0], bucket[1]];
            (v, Some(cells))
        };
        let verdict = match white {
            i32::MIN => Verdict::NoMoves,
            s if me == Side::White => Verdict::Score(s),
            s => Verdict::Score(-s),
        };
        (verdict, cells)
    }

    /// The score at ply `ply`, within `alpha..beta`, of the quiet relocation `quiet` of
    /// the side to move of `pos` ([`quiet_relocation`]), searched as the search loop
    /// searches a child at the quiescence horizon (`first`: with the full window; else
    /// with a null window first), without playing it where it can
    /// ([`Searcher::relocated_quiesce`]). Inlined into the relocation copy of the search,
    /// its one caller.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn quiet_relocation_score(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        quiet: QuietRelocation,
        first: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.history.is_draw_of(quiet.hash, pos.rules()) {
            return self.terminal_score(Terminal::Draw, pos.to_move(), ply + 1);
        }
        let window = if first { beta } else { alpha + 1 };
        let s = -self.relocated_quiesce(hot, pos, quiet, -window, -alpha, ply + 1);
        if !first && s > alpha && s < beta && !self.stopped {
            -self.relocated_quiesce(hot, pos, quiet, -beta, -alpha, ply + 1)
        } else {
            s
        }
    }

    /// The quiescence search of the child of `parent` made by the quiet relocation `quiet`
    /// of its side to move (it captures nothing and ends beyond ring 1:
    /// [`quiet_relocation`]): the same node and result as [`Searcher::quiesce`] of the
    /// played child, which is built only if its evaluation is not cached or does not end
    /// the node. Most nodes of a midgame
    /// search are such children, and nearly all of them end on their cached evaluation.
    #[inline(always)]
    fn relocated_quiesce(
        &mut self,
        hot: impl HotRules,
        parent: &Position,
        quiet: QuietRelocation,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        let white = match self.cached_white(quiet.hash) {
            Some(white) => white,
            None => self.evaluate_relocated(hot, parent, quiet),
        };
        // The child's side to move decides (the owner relocated).
        if white == i32::MIN {
            return -(WIN - ply as i32);
        }
        let stand = match parent.to_move() {
            Side::White => -white,
            Side::Black => white,
        };
        if !self.quiescence || stand >= beta {
            return stand;
        }
        self.play_relocation_and_quiesce(hot, parent, quiet, alpha, beta, ply)
    }

    /// Evaluates the child of `parent` made by the quiet relocation of its side to move's
    /// piece captured on `from` to `to` (the child's hash is `hash`), with its pieces-only
    /// terms taken from the parent's where they can be, and caches the evaluation: White's
    /// score, `i32::MIN` without a legal action. Out of line, as every evaluation.
    #[inline(never)]
    fn evaluate_relocated(
        &mut self,
        hot: impl HotRules,
        parent: &Position,
        QuietRelocation { from, to, hash }: QuietRelocation,
    ) -> i32 {
        let mut child = *parent;
        child.relocate_quietly(from, to, hash);
        let given = self.relocated_pieces(hot, parent, from, to);
        let (verdict, _) = self.eval.white_and_capture_cells_given(hot, &child, given);
        let white = cached_form(verdict);
        self.cache_white(hash, white);
        white
    }

    /// Caches White's score `white` (`i32::MIN`: no legal action) of the position with the
    /// hash `key`, as the newer of its bucket.
    #[inline(always)]
    fn cache_white(&mut self, key: u64, white: i32) {
        let bucket = &mut self.eval_cache[eval_bucket(key)];
        *bucket = [
            key ^ self.eval_salt,
            white as u32 as u64,
            bucket[0],
            bucket[1],
        ];
    }

    /// The rest of [`Searcher::relocated_quiesce`] when the child's evaluation does not
    /// end the node (it is cached by then): the child is played and searched for
    /// captures. Out of line: few such children go on.
    #[inline(never)]
    fn play_relocation_and_quiesce(
        &mut self,
        hot: impl HotRules,
        parent: &Position,
        QuietRelocation { from, to, hash }: QuietRelocation,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut child = *parent;
        child.relocate_quietly(from, to, hash);
        self.quiesce_counted(hot, &child, alpha, beta, ply, 0)
    }

    /// The cached evaluation of the position with the hash `key`, from White's point of
    /// view (`i32::MIN`: no legal action), if the cache has it.
    #[inline(always)]
    fn cached_white(&self, key: u64) -> Option<i32> {
        let tag = key ^ self.eval_salt;
        let bucket = &self.eval_cache[eval_bucket(key)];
        if bucket[0] == tag {
            Some(bucket[1] as u32 as i32)
        } else if bucket[2] == tag {
            Some(bucket[3] as u32 as i32)
        } else {
            None
        }
    }

    fn quiesce(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        q: usize,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.quiesce_counted(hot, pos, alpha, beta, ply, q)
    }

    /// [`Searcher::quiesce`] of a node already counted.
    #[inline(always)]
    fn quiesce_counted(
        &mut self,
        hot: impl HotRules,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        q: usize,
    ) -> i32 {
        let me = features::decider(pos);
        let mover = pos.to_move();
        let (verdict, evaluated_cells) = self.evaluate(hot, pos, me);
        let stand = match verdict {
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
        let cells = match evaluated_cells {
            Some(cells) if can_capture(pos) => cells,
            Some(_) => Bitboard::EMPTY,
            None => self.capture_cells(hot, pos),
        };
        if cells.is_empty() {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        LegalActions::of_in(hot, pos).generate_to(cells, &mut self.lists[ply]);
        let n = self.lists[ply].len();
        self.history.push(pos.hash());
        for i in 0..n {
            let action = self.lists[ply][i];
            let mut child = *pos;
            child.play_in(hot, action);
            let score = match judge_in(hot, &child, mover, action, &self.history) {
                Some(t) => self.terminal_score(t, me, ply + 1),
                None => {
                    let same = features::decider(&child) == me;
                    if same {
                        self.quiesce(hot, &child, alpha, beta, ply + 1, q + 1)
                    } else {
                        -self.quiesce(hot, &child, -beta, -alpha, ply + 1, q + 1)
                    }
                }
            };
            if self.stopped {
                self.history.pop();
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
        self.history.pop();
        best
    }
}

/// Where `action` first stands in `actions`. A step (the killers of normal play) is
/// looked for by its two cells alone, without the derived comparison's dispatch on the
/// kind of each listed action.
#[inline(always)]
fn position_of(actions: &[Action], action: Action) -> Option<usize> {
    match action {
        Action::Step { from, to } => actions
            .iter()
            .position(|&a| matches!(a, Action::Step { from: f, to: t } if f == from && t == to)),
        _ => actions.iter().position(|&a| a == action),
    }
}

/// A verdict as the evaluation cache holds it: White's score, `i32::MIN` without a legal
/// action.
#[inline(always)]
fn cached_form(verdict: Verdict) -> i32 {
    match verdict {
        Verdict::NoMoves => i32::MIN,
        Verdict::Score(s) => s,
    }
}

/// The evaluation cache's bucket of a position's hash: its top bits (the table uses its
/// low bits).
#[inline(always)]
fn eval_bucket(key: u64) -> usize {
    (key >> 49) as usize & (EVAL_CACHE / 2 - 1)
}

/// A relocation whose child the search may judge and search without playing it
/// ([`Searcher::relocated_quiesce`]): the cells of the relocated piece and the child's hash.
#[derive(Clone, Copy, Debug)]
struct QuietRelocation {
    from: Cell,
    to: Cell,
    hash: u64,
}

/// The relocation `from`-`to` of the side to move of `pos` as a [`QuietRelocation`], if it
/// is one: it surely captures nothing ([`Position::quiet_relocation_hash`]) and it ends
/// beyond ring 1 (so the board cannot decide the game: only a repetition can end it). The
/// owner must relocate (so that the child's side to move decides):
/// [`Searcher::search_relocating`], the one caller, is only called then.
#[inline(always)]
fn quiet_relocation(pos: &Position, from: Cell, to: Cell) -> Option<QuietRelocation> {
    debug_assert_eq!(pos.rules().queen_relocated_by(), QueenRelocatedBy::Owner);
    if to.ring() >= 2 {
        pos.quiet_relocation_hash(from, to)
            .map(|hash| QuietRelocation { from, to, hash })
    } else {
        None
    }
}

/// Whether the side to move of `pos` may capture with its next action (its phase's actions
/// can).
#[inline]
fn can_capture(pos: &Position) -> bool {
    match pos.phase() {
        Phase::Normal => true,
        Phase::Relocation => pos.rules().relocations_interact(),
        Phase::Placement => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    /// The evaluation cache gives what the evaluator gives, from either place of a bucket:
    /// thousands of random positions of one rule set (many sharing a bucket) evaluated
    /// for each side, then again in the reverse order, then in the first order again.
    #[test]
    fn the_evaluation_cache_answers_as_the_evaluator() {
        let mut searcher = Searcher::new(Evaluator::new(0, 0), 1, true, 0);
        let mut positions = Vec::new();
        for stream in 0..60 {
            let mut game = Game::new(Rules::STANDARD);
            let mut rng = crate::Rng::for_stream(29, stream);
            while !game.is_over() && game.ply_count() < 200 {
                positions.push(*game.position());
                let action = game.legal().random(&mut rng).expect("the game goes on");
                game.play_unchecked(action);
            }
        }
        assert!(positions.len() > EVAL_CACHE / 8, "buckets are shared");
        let direct = |pos: &Position, me: Side| match searcher
            .eval
            .white_and_capture_cells_in(pos.rules(), pos)
            .0
        {
            Verdict::Score(s) if me == Side::Black => Verdict::Score(-s),
            v => v,
        };
        let expected: Vec<_> = positions
            .iter()
            .map(|p| (direct(p, Side::White), direct(p, Side::Black)))
            .collect();
        let mut found = 0;
        for round in 0..3 {
            let order: Vec<usize> = match round {
                1 => (0..positions.len()).rev().collect(),
                _ => (0..positions.len()).collect(),
            };
            for i in order {
                let pos = &positions[i];
                for (me, want) in [(Side::White, expected[i].0), (Side::Black, expected[i].1)] {
                    let (verdict, cells) = searcher.evaluate(pos.rules(), pos, me);
                    assert_eq!(verdict, want, "round {round} {me:?}\n{pos}");
                    found += usize::from(cells.is_none());
                }
            }
        }
        assert!(found > positions.len(), "the cache answered ({found})");
    }

    /// The search tells a cut-off capture (an arrival on one of [`Searcher::capture_cells`],
    /// as the ordering has it) from what playing the action took: the two agree on every
    /// legal action of random positions of every rule set.
    #[test]
    fn an_action_arrives_on_a_capture_cell_exactly_when_it_takes_an_enemy_piece() {
        let searcher = Searcher::new(Evaluator::new(0, 0), 1, true, 0);
        let mut list = ActionList::new();
        let mut captures = 0;
        for pos in crate::test_positions::random_positions(23, 6, 200) {
            let cells = searcher.capture_cells(pos.rules(), &pos);
            pos.legal().generate(&mut list);
            for &action in list.iter() {
                let mut child = pos;
                let taken = child.play_unchecked(action) & pos.side_pieces(!pos.to_move());
                assert_eq!(
                    taken.any(),
                    cells.contains_destination(action),
                    "{} {action}\n{pos}",
                    pos.rules()
                );
                captures += usize::from(taken.any());
            }
        }
        assert!(captures > 100, "the positions have captures ({captures})");
    }
}
