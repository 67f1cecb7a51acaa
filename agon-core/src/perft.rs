//! Perft: counting the leaves of the game tree to a fixed depth, as chess engines do.
//! A finished game has no legal actions, so it contributes nothing below it.
//!
//! The walk copies positions (copy-make: a [`Position`] is a small `Copy` value) instead of
//! playing and undoing on the [`Game`]: no record, no undo. Only the repetition rule
//! needs the history: the game's own (its table of occurrences) and the path from the
//! game's position down to the node.

use crate::hot::{with_fixed_rules, HotRules};
use crate::movegen::StepWeights;
use crate::position::Phase;
use crate::rules::{CaptureMode, Intervention, Relocation, TouchMove};
use crate::zobrist::{piece_key, side_key};
use crate::{Action, Bitboard, Cell, Direction, Game, LegalActions, PieceKind, Position};

/// Leaves at `depth` plies from the game's current state, with bulk counting at the last
/// ply (the legal actions of a depth-1 node are counted, not played).
pub fn perft(game: &mut Game, depth: u32) -> u64 {
    walk::<true>(game, depth)
}

/// Like [`perft`], but every leaf action is played and adjudicated (slower; measures the
/// cost of playing actions, and cross-checks bulk counting).
pub fn perft_full(game: &mut Game, depth: u32) -> u64 {
    walk::<false>(game, depth)
}

/// Perft from the game's state, counting the last ply in bulk when `BULK`.
fn walk<const BULK: bool>(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let history = History::of(game);
    let root = Node {
        position: *game.position(),
        parent: None,
        path: 0,
    };
    with_fixed_rules!(game.rules(), |hot| count::<BULK>(
        hot,
        &history,
        &root,
        game.legal(),
        depth
    ))
}

/// A position of the walk and the one it was reached from (`None` for the game's own).
struct Node<'a> {
    position: Position,
    parent: Option<&'a Node<'a>>,
    /// A Bloom filter of the hashes of the positions between the game's and this one (both
    /// excluded; [`path_bit`]): a position whose bit is not set is not among them.
    path: u64,
}

impl Node<'_> {
    /// The [`Node::path`] of this node's children.
    #[inline]
    fn path_below(&self) -> u64 {
        if self.parent.is_some() {
            self.path | path_bit(self.position.hash())
        } else {
            0
        }
    }
}

/// The bit of a hash in [`Node::path`].
#[inline]
fn path_bit(hash: u64) -> u64 {
    1 << (hash >> 58)
}

/// What the repetition rule needs of the game: its positions, the rules' limit, and a Bloom
/// filter of the game's hashes, so that a position that occurred neither in the game nor on
/// the path (nearly every one) is told apart in a few instructions.
struct History<'g> {
    game: &'g Game,
    /// The rules' repetition limit (`None`: no repetition draw).
    limit: Option<usize>,
    /// Bit `hash >> 52` is set for the hash of every position of the game.
    seen: [u64; 64],
}

impl History<'_> {
    fn of(game: &Game) -> History<'_> {
        let mut seen = [0; 64];
        for position in (0..=game.ply_count()).filter_map(|i| game.position_before(i)) {
            let bit = position.hash() >> 52;
            seen[bit as usize / 64] |= 1 << (bit % 64);
        }
        History {
            game,
            limit: game.rules().repetition().limit().map(usize::from),
            seen,
        }
    }

    /// Whether `node`'s position has now occurred as often as the repetition rule allows,
    /// in the game and on the path to it: ruled out by the Bloom filters when it occurred in
    /// neither (then it has occurred once, and every limit is at least 2), otherwise counted
    /// by hash (never below the true count) and confirmed by comparing positions only when
    /// that count reaches the limit.
    #[inline]
    fn repeated(&self, node: &Node<'_>) -> bool {
        let Some(limit) = self.limit else {
            return false;
        };
        if !self.may_repeat(node.path, node.position.hash()) {
            return false;
        }
        self.counted(node, limit)
    }

    /// Whether a position of hash `hash` at the end of a path whose filter is `path` may
    /// have occurred before (in the game or on the path); `false` proves it has not, and
    /// then it is no repetition.
    #[inline(always)]
    fn may_repeat(&self, path: u64, hash: u64) -> bool {
        let bit = hash >> 52;
        path & path_bit(hash) != 0 || self.seen[bit as usize / 64] >> (bit % 64) & 1 != 0
    }

    /// [`History::repeated`] past the filters (out of line: rarely reached).
    #[inline(never)]
    fn counted(&self, node: &Node<'_>, limit: usize) -> bool {
        let on_path = |same: &dyn Fn(&Position) -> bool| {
            std::iter::successors(node.parent, |n| n.parent)
                .filter(|n| n.parent.is_some())
                .filter(|n| same(&n.position))
                .count()
        };
        let hash = node.position.hash();
        let by_hash = 1 + self.game.occurrences_by_hash(hash) + on_path(&|p| p.hash() == hash);
        by_hash >= limit
            && 1 + self.game.occurrences_of(&node.position) + on_path(&|p| *p == node.position)
                >= limit
    }
}

/// The leaves `depth >= 1` plies below `node`, a position whose game goes on and whose
/// legal actions are `legal`.
fn count<const BULK: bool>(
    hot: impl HotRules,
    history: &History<'_>,
    node: &Node<'_>,
    legal: &LegalActions,
    depth: u32,
) -> u64 {
    if BULK && depth == 1 {
        return legal.count() as u64;
    }
    if BULK && depth == 2 {
        if let Some(steps) = QuietSteps::new(&node.position) {
            return steps.leaves(history, node);
        }
    }
    let mover = node.position.to_move();
    let path = node.path_below();
    let replies = if !BULK && depth == 1 {
        SureReplies::of(&node.position)
    } else {
        None
    };
    let mut total = 0;
    legal.for_each(|action| {
        let mut child = Node {
            position: node.position,
            parent: Some(node),
            path,
        };
        let captures = child.position.play_in(hot, action);
        let arrived_on = action.arrival();
        let ended = child
            .position
            .outcome_after_arrival_in(hot, mover, arrived_on, || history.repeated(&child));
        if !BULK && depth == 1 {
            // A leaf: adjudicated as a game would (the no-move rule included), counted.
            let no_moves = ended.is_none()
                && !replies.is_some_and(|r| r.prove_a_step(&child.position, action, captures))
                && !LegalActions::any_of_in(hot, &child.position);
            std::hint::black_box((ended, no_moves));
            total += 1;
            return;
        }
        if ended.is_some() {
            return;
        }
        if BULK && depth == 2 {
            // The child's actions are the leaves: counted from its sets (0 if it has none).
            total += LegalActions::count_of_in(hot, &child.position) as u64;
            return;
        }
        let child_legal = LegalActions::of_in(hot, &child.position);
        if child_legal.any() {
            total += count::<BULK>(hot, history, &child, &child_legal, depth - 1);
        }
    });
    total
}

/// A quick proof, for the leaves of a full perft, that the other side still has a step after
/// an action of the side to move: the other side's guards stay put, so the cells they may
/// step to (empty or not, the throne aside) are known once per node; a step onto one of them
/// that is empty after the action and next to none of the mover's pieces is legal, since
/// the intervention rule only closes cells between two of the mover's pieces. The proof
/// needs the other side in normal play and an action that captured nothing; when it fails
/// the no-move rule is decided by the legal actions, as always.
#[derive(Clone, Copy)]
struct SureReplies {
    /// Where the other side's active guards may step, the throne aside.
    targets: Bitboard,
    /// Every piece of the side to move and the cells next to one (a piece that steps
    /// arrives next to where it stood).
    near_mover: Bitboard,
}

impl SureReplies {
    /// The proof's sets at `position`, if the other side is in normal play there.
    fn of(position: &Position) -> Option<SureReplies> {
        let me = position.to_move();
        let other = !me;
        let in_hand =
            position.in_hand(other, PieceKind::Queen) + position.in_hand(other, PieceKind::Guard);
        if in_hand > 0 || (position.side_pieces(other) & position.captured()).any() {
            return None;
        }
        let guards = position.pieces(other, PieceKind::Guard);
        let mover = position.side_pieces(me);
        let mut targets = Bitboard::EMPTY;
        let mut near_mover = mover;
        for d in Direction::ALL {
            targets |= guards.step_targets(d);
            near_mover |= mover.translate(d);
        }
        Some(SureReplies {
            targets: targets.and_not(Bitboard::THRONE),
            near_mover,
        })
    }

    /// Whether the other side surely has a step after `action` made `child` capturing
    /// `captures` (`false` proves nothing).
    #[inline(always)]
    fn prove_a_step(&self, child: &Position, action: Action, captures: Bitboard) -> bool {
        let Action::Step { to, .. } = action else {
            return false;
        };
        let near = self.near_mover | to.neighbor_set();
        captures.is_empty() && (self.targets & child.empty_cells()).and_not(near).any()
    }
}

/// The leaves one ply below the child of `node` reached by `action` (the general path of
/// the last two plies: the action played on a copy, the game's end adjudicated, the
/// child's actions counted).
#[inline(never)]
fn leaves_after(history: &History<'_>, node: &Node<'_>, action: Action) -> u64 {
    let mut child = Node {
        position: node.position,
        parent: Some(node),
        path: node.path_below(),
    };
    let mover = node.position.to_move();
    child.position.play_unchecked(action);
    let ended = child
        .position
        .outcome_after_action(mover, || history.repeated(&child));
    match ended {
        Some(_) => 0,
        None => LegalActions::count_of(&child.position) as u64,
    }
}

/// The last two plies of a bulk perft when both sides are in normal play (no piece in hand
/// or captured) under rules whose quiet steps end nothing but by formation and
/// repetition (not `intervention=suicide`, not `relocation=removed`): the steps of the side
/// to move are walked piece by piece, and a step that captures nothing, makes no
/// formation and cannot repeat a position is settled from sets alone. The other side's
/// pieces do not move, so its steps are counted against the weights of its cells
/// ([`StepWeights`]) in the cells the step leaves open. Every other action (a capture, a
/// formation, a possible repetition, a pass) takes the general path, [`leaves_after`].
struct QuietSteps<'p> {
    parent: &'p Position,
    /// The cells of the side to move's pieces (all active: it is in normal play).
    mine: Bitboard,
    /// The other side's pieces (all active).
    theirs: Bitboard,
    /// The other side's steps by arrival cell.
    weights: StepWeights,
    /// Whether the intervention rule closes the cells between two of the mover's pieces.
    intervention: bool,
    /// The far ends and links of the capture triples ([`CaptureMode`]).
    capture: CaptureMode,
    /// Actions the other side has besides its steps (a pass under `touch-move=on`).
    passes: usize,
    /// Whether the other side passes when it has no step (`ludii`).
    forced_pass: bool,
}

impl<'p> QuietSteps<'p> {
    /// The fast path for the last two plies below `parent`, if its rules and phases allow.
    fn new(parent: &'p Position) -> Option<QuietSteps<'p>> {
        let rules = parent.rules();
        let me = parent.to_move();
        let normal = |side| {
            parent.in_hand(side, PieceKind::Queen) + parent.in_hand(side, PieceKind::Guard) == 0
                && (parent.side_pieces(side) & parent.captured()).is_empty()
        };
        if rules.intervention() == Intervention::Suicide
            || rules.relocation() == Relocation::Removed
            || !normal(me)
            || !normal(!me)
        {
            return None;
        }
        debug_assert_eq!(parent.phase(), Phase::Normal);
        Some(QuietSteps {
            parent,
            mine: parent.side_pieces(me),
            theirs: parent.side_pieces(!me),
            weights: StepWeights::of(parent, !me),
            intervention: rules.intervention() == Intervention::Forbidden,
            capture: rules.capture(),
            passes: (rules.touch_move() == TouchMove::On) as usize,
            forced_pass: rules.forced_pass(),
        })
    }

    /// The leaves two plies below `node` (whose position is `self.parent`).
    fn leaves(&self, history: &History<'_>, node: &Node<'_>) -> u64 {
        let parent = self.parent;
        let me = parent.to_move();
        let path = node.path_below();
        let open = parent.empty_cells() & !parent.intervention_cells(me);
        let queens = parent.pieces(me, PieceKind::Queen);
        let mut total = 0;
        let mut steps = 0;
        for from in self.mine {
            let kind = if queens.contains(from) {
                PieceKind::Queen
            } else {
                PieceKind::Guard
            };
            let mut targets = from.step_set() & open;
            if kind == PieceKind::Guard {
                targets &= !Bitboard::THRONE;
            }
            steps += targets.count();
            let mine = self.mine & !from.bit();
            let guards = mine & !queens;
            let hash = parent.hash() ^ side_key() ^ piece_key(me, kind, false, from);
            for to in targets {
                let quiet = self.quiet_step(history, path, mine, guards, kind, to, hash);
                total +=
                    quiet.unwrap_or_else(|| leaves_after(history, node, Action::Step { from, to }));
            }
        }
        if self.passes > 0 || (steps == 0 && parent.rules().forced_pass()) {
            total += leaves_after(history, node, Action::Pass);
        }
        total
    }

    /// The leaves below the step of a `kind` piece to `to`, when it settles nothing: `mine`
    /// are the mover's other pieces, `guards` its guards among them, `hash` the parent's
    /// hash with the moving piece lifted and the side to move changed. `None` when the
    /// step may capture, make a formation or repeat a position.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn quiet_step(
        &self,
        history: &History<'_>,
        path: u64,
        mine: Bitboard,
        guards: Bitboard,
        kind: PieceKind,
        to: Cell,
        hash: u64,
    ) -> Option<u64> {
        let me = self.parent.to_move();
        let mine = mine | to.bit();
        let (reach, link) = match self.capture {
            CaptureMode::Line => (to.line_reach(), to.neighbor_set()),
            CaptureMode::Ring => (to.ring_reach(), to.ring_link()),
        };
        if (mine & reach).any() && (link & self.theirs).any() {
            return None;
        }
        let guards = if kind == PieceKind::Guard {
            guards | to.bit()
        } else {
            guards
        };
        if guards & Bitboard::RING1 == Bitboard::RING1 {
            return None;
        }
        let hash = hash ^ piece_key(me, kind, false, to);
        if history.limit.is_some() && history.may_repeat(path, hash) {
            return None;
        }
        let mut open = !(mine | self.theirs);
        if self.intervention {
            open &= !self.parent.between(mine);
        }
        let n = self.weights.count(open) + self.passes;
        Some(if n == 0 && self.forced_pass { 1 } else { n } as u64)
    }
}

/// Perft split by first action, in (kind, cells) order.
pub fn divide(game: &mut Game, depth: u32) -> Vec<(Action, u64)> {
    if depth == 0 || game.is_over() {
        return Vec::new();
    }
    let actions = game.legal().to_vec();
    actions
        .into_iter()
        .map(|action| {
            game.play_unchecked(action);
            let n = perft(game, depth - 1);
            game.undo();
            (action, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Repetition, Rng, Rules};

    /// The leaves' quick proof that the other side has a step ([`SureReplies`]) never
    /// claims one where the legal actions have none, in random games of every
    /// single-switch variant and `ludii`, and proves most leaves.
    #[test]
    fn sure_replies_only_prove_real_steps() {
        let (mut proved, mut leaves, mut without) = (0, 0, 0);
        for position in crate::test_positions::random_positions(91, 3, 400) {
            let Some(replies) = SureReplies::of(&position) else {
                continue;
            };
            position.legal().for_each(|action| {
                let mut child = position;
                let captures = child.play_unchecked(action);
                let has = child.legal().any();
                if replies.prove_a_step(&child, action, captures) {
                    assert!(has, "{action} in {position}");
                    proved += 1;
                }
                without += !has as u32;
                leaves += 1;
            });
        }
        assert!(
            proved * 10 > leaves * 8,
            "{proved} of {leaves} leaves proved"
        );
        assert!(without > 0, "no leaf without an action among {leaves}");
    }

    /// Perft by playing and undoing on the game itself: slow, but the game's own
    /// adjudication (its history and exact repetition check) decides every node.
    fn perft_on_game(game: &mut Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if game.is_over() {
            return 0;
        }
        let mut total = 0;
        for action in game.legal().to_vec() {
            game.play_unchecked(action);
            total += perft_on_game(game, depth - 1);
            game.undo();
        }
        total
    }

    /// Copy-make perft, bulk (with its fast last two plies) and full, against
    /// play-and-undo on the game, from positions deep in random games of every
    /// single-switch variant and `ludii`, and under twofold repetition, where the path and
    /// the game's history together repeat positions within the tree.
    #[test]
    fn copy_make_counts_equal_the_games_own() {
        let twofold = Rules::STANDARD
            .with_repetition(Repetition::times(2).expect("a limit"))
            .expect("a rule set");
        let mut pruned = 0;
        let variants = Rules::single_switch_variants()
            .into_iter()
            .map(|rules| (rules, 3));
        for (rules, seeds) in [(twofold, 16), (Rules::LUDII, 4)]
            .into_iter()
            .chain(variants)
        {
            for seed in 0..seeds {
                let mut game = Game::new(rules);
                let mut rng = Rng::new(seed);
                for _ in 0..30 + seed {
                    match game.legal().random(&mut rng) {
                        Some(action) => game.play_unchecked(action),
                        None => break,
                    };
                }
                if game.is_over() {
                    continue;
                }
                let depth = 3;
                let expected = perft_on_game(&mut game, depth);
                assert_eq!(perft(&mut game, depth), expected, "{rules} seed {seed}");
                assert_eq!(
                    perft_full(&mut game, depth),
                    expected,
                    "{rules} seed {seed}"
                );
                let mut unpruned = 0;
                for action in game.legal().to_vec() {
                    let mut position = *game.position();
                    position.play_unchecked(action);
                    unpruned += perft(&mut Game::from_position(position), depth - 1);
                }
                pruned += unpruned - expected;
            }
        }
        // Without the history some of these trees would be larger: repetition was tested.
        assert!(pruned > 0);
    }

    /// Hand-built positions where steps of the last two plies end the game (a formation,
    /// six guards on ring 1) or capture, with either side to move at the root: the fast
    /// last two plies of bulk perft must leave them to the general path.
    #[test]
    fn formations_and_captures_in_the_last_two_plies() {
        use crate::{Setup, Side};
        let boards = [
            // White closes the formation with d6-e6, or steps another guard off ring 1.
            (
                "Qf6 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6",
                "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
            ),
            // Six guards on ring 1 with the queen off the throne: a loss for the mover.
            (
                "Qf4 Gf7 Gg6 Gg5 Gf5 Ge5 Gd6",
                "Qf11 Ga1 Ga2 Ga3 Gb1 Gc1 Gd1",
            ),
            // Pieces in contact: steps that capture, and cells between two enemies.
            (
                "Qf1 Gd4 Gf4 Gh4 Ge6 Gg6 Gb1",
                "Qf11 Ge4 Gg4 Gf5 Gd5 Gh5 Gl2",
            ),
        ];
        let mut ended = 0;
        for (white, black) in boards {
            for to_move in Side::BOTH {
                for rules in [Rules::STANDARD, Rules::LUDII]
                    .into_iter()
                    .chain(Rules::single_switch_variants())
                {
                    let setup = Setup::empty()
                        .with_pieces(Side::White, white)
                        .and_then(|s| s.with_pieces(Side::Black, black))
                        .expect("pieces")
                        .with_to_move(to_move);
                    let Ok(position) = Position::from_setup(setup, rules) else {
                        continue;
                    };
                    let mut game = Game::from_position(position);
                    for depth in 1..=3 {
                        let expected = perft_on_game(&mut game, depth);
                        assert_eq!(perft(&mut game, depth), expected, "{rules} {to_move}");
                        assert_eq!(perft_full(&mut game, depth), expected, "{rules}");
                    }
                    // Leaves whose game ended below the root were not expanded.
                    let unended: u64 = game
                        .legal()
                        .to_vec()
                        .into_iter()
                        .map(|action| {
                            let mut child = *game.position();
                            child.play_unchecked(action);
                            child.legal().count() as u64
                        })
                        .sum();
                    ended += (unended != perft(&mut game, 2)) as u32;
                }
            }
        }
        assert!(ended > 0);
    }
}
