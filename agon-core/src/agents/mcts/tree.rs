//! The search tree of the MCTS agent: an arena of nodes, UCT selection, expansion of all
//! children at once (ordered by the playout policy), backpropagation, and re-rooting for
//! reuse between moves.

use super::playout::{self, Reward};
use crate::agents::eval::Evaluator;
use crate::agents::history::History;
use crate::agents::terminal::{judge, Terminal};
use crate::{Action, ActionList, Position, Rng, Side};

/// Index of a node in the arena.
type NodeId = u32;

/// Virtual visits a new child gets, at the value of its static evaluation.
const PRIOR_VISITS: u32 = 2;

/// One node: the action that leads to it from its parent, and statistics from the point
/// of view of the side that chose that action (the parent's decider).
#[derive(Clone, Debug)]
struct Node {
    action: Action,
    first_child: NodeId,
    child_count: u16,
    expanded: bool,
    /// White's score if the game is over here.
    terminal: Option<Reward>,
    /// White's expected score by the static evaluation, from when the node was created.
    prior: f32,
    visits: u32,
    /// Sum of the rewards for the parent's decider.
    total: f64,
}

impl Node {
    fn new(action: Action) -> Node {
        Node {
            action,
            first_child: 0,
            child_count: 0,
            expanded: false,
            terminal: None,
            prior: 0.5,
            visits: 0,
            total: 0.0,
        }
    }
}

/// A search tree rooted at one position.
pub(crate) struct Tree {
    nodes: Vec<Node>,
    root: Position,
    /// The number of plies of the game at the root (for reuse).
    root_ply: usize,
}

/// What the search needs besides the tree.
pub(crate) struct Context<'a> {
    pub eval: &'a Evaluator,
    pub history: &'a mut History,
    pub rng: &'a mut Rng,
    pub exploration: f64,
    pub cutoff: u32,
    pub eval_weight: f64,
    pub max_nodes: usize,
}

impl Tree {
    /// A tree with only the root.
    pub(crate) fn new(root: Position, root_ply: usize) -> Tree {
        Tree {
            nodes: vec![Node::new(Action::Pass)],
            root,
            root_ply,
        }
    }

    /// The root position.
    pub(crate) fn root(&self) -> &Position {
        &self.root
    }

    /// The ply count of the game at the root.
    pub(crate) fn root_ply(&self) -> usize {
        self.root_ply
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root.
    pub(crate) fn root_visits(&self) -> u32 {
        self.nodes[0].visits
    }

    /// One iteration: select a leaf, expand it, play out, back up.
    pub(crate) fn iterate(&mut self, cx: &mut Context, list: &mut ActionList) {
        let mut path: Vec<(NodeId, Side)> = Vec::with_capacity(32);
        let mut pos = self.root;
        let mut id: NodeId = 0;
        let mut pushed = 0;
        let reward = loop {
            let node = &self.nodes[id as usize];
            if let Some(r) = node.terminal {
                break r;
            }
            if !node.expanded {
                if node.visits > PRIOR_VISITS || id == 0 {
                    self.expand(id, &pos, cx, list);
                    if let Some(r) = self.nodes[id as usize].terminal {
                        break r;
                    }
                } else {
                    break self.leaf_reward(id, &pos, cx, list);
                }
                if !self.nodes[id as usize].expanded {
                    // The arena is full: play out from here.
                    break self.leaf_reward(id, &pos, cx, list);
                }
            }
            let decider = pos.decider();
            let child = self.select(id, cx.exploration);
            let action = self.nodes[child as usize].action;
            pos.play_unchecked(action);
            path.push((child, decider));
            id = child;
            if let Some(r) = self.nodes[id as usize].terminal {
                break r;
            }
            cx.history.push(pos.hash());
            pushed += 1;
        };
        for _ in 0..pushed {
            cx.history.pop();
        }
        self.nodes[0].visits += 1;
        for &(node, decider) in &path {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.total += match decider {
                Side::White => reward,
                Side::Black => 1.0 - reward,
            };
        }
    }

    /// The reward of a leaf: its playout, mixed with its static evaluation.
    fn leaf_reward(
        &self,
        id: NodeId,
        pos: &Position,
        cx: &mut Context,
        list: &mut ActionList,
    ) -> Reward {
        let played = playout::playout(cx.eval, pos, cx.cutoff, cx.rng, list);
        let prior = self.nodes[id as usize].prior as f64;
        (1.0 - cx.eval_weight) * played + cx.eval_weight * prior
    }

    /// Creates the children of a node, most promising first (by the playout policy).
    fn expand(&mut self, id: NodeId, pos: &Position, cx: &mut Context, list: &mut ActionList) {
        pos.legal().generate(list);
        if list.is_empty() {
            self.nodes[id as usize].terminal = Some(playout::win_for(!pos.to_move()));
            return;
        }
        if self.nodes.len() + list.len() > cx.max_nodes {
            return;
        }
        // Every child starts with a few virtual visits worth its static evaluation (or its
        // result, if the game ends there), so that a small budget is spent where it matters.
        let decider = pos.decider();
        let mover = pos.to_move();
        let mut children: Vec<Node> = Vec::with_capacity(list.len());
        for &action in list.iter() {
            let mut child = *pos;
            child.play_unchecked(action);
            let mut node = Node::new(action);
            let white = match judge(&child, mover, action, cx.history) {
                Some(t) => {
                    let r = match t {
                        Terminal::Win(side) => playout::win_for(side),
                        Terminal::Draw => 0.5,
                    };
                    node.terminal = Some(r);
                    r
                }
                None => playout::evaluate(cx.eval, &child),
            };
            let value = match decider {
                Side::White => white,
                Side::Black => 1.0 - white,
            };
            node.prior = white as f32;
            node.visits = PRIOR_VISITS;
            node.total = value * PRIOR_VISITS as f64;
            children.push(node);
        }
        // Random order among equals, so that ties do not always go to the same action.
        for i in (1..children.len()).rev() {
            children.swap(i, cx.rng.below(i + 1));
        }
        let first = self.nodes.len() as NodeId;
        self.nodes.extend(children);
        let node = &mut self.nodes[id as usize];
        node.first_child = first;
        node.child_count = list.len() as u16;
        node.expanded = true;
    }

    /// The child with the best UCT value.
    fn select(&self, id: NodeId, exploration: f64) -> NodeId {
        let node = &self.nodes[id as usize];
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + node.child_count as usize];
        let log_n = (node.visits.max(1) as f64).ln();
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, c) in children.iter().enumerate() {
            let n = c.visits as f64;
            let value = c.total / n + exploration * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        (first + best) as NodeId
    }

    /// The root's children as (action, visits, mean reward for the root's decider).
    pub(crate) fn root_children(&self) -> Vec<(Action, u32, f64)> {
        let node = &self.nodes[0];
        let first = node.first_child as usize;
        self.nodes[first..first + node.child_count as usize]
            .iter()
            .map(|c| (c.action, c.visits, c.total / c.visits.max(1) as f64))
            .collect()
    }

    /// The subtree reached from the root by `actions`, as a new tree rooted at `position`
    /// (`None` if the tree does not hold it).
    pub(crate) fn descend(
        mut self,
        actions: &[Action],
        position: Position,
        ply: usize,
    ) -> Option<Tree> {
        let mut id: NodeId = 0;
        for &a in actions {
            let node = &self.nodes[id as usize];
            if !node.expanded {
                return None;
            }
            let first = node.first_child as usize;
            let found = self.nodes[first..first + node.child_count as usize]
                .iter()
                .position(|c| c.action == a)?;
            id = (first + found) as NodeId;
        }
        if self.nodes[id as usize].terminal.is_some() {
            return None;
        }
        // Copy the subtree into a fresh arena, breadth first.
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut root = std::mem::replace(&mut self.nodes[id as usize], Node::new(Action::Pass));
        root.action = Action::Pass;
        nodes.push(root);
        let mut next = 0;
        while next < nodes.len() {
            if nodes[next].expanded {
                let first = nodes[next].first_child as usize;
                let count = nodes[next].child_count as usize;
                nodes[next].first_child = nodes.len() as NodeId;
                for i in first..first + count {
                    let child = std::mem::replace(&mut self.nodes[i], Node::new(Action::Pass));
                    nodes.push(child);
                }
            }
            next += 1;
        }
        Some(Tree {
            nodes,
            root: position,
            root_ply: ply,
        })
    }
}
