//! Board geometry (docs/rules.md section 1) and the standard start (section 2): cells, names,
//! cube coordinates, rings, neighbours, strict parsing, and the half-turn symmetry.

mod common;

use agon_core::{Bitboard, Cell, Direction, PieceKind, Position, Rules, Side};
use common::cell;
use std::collections::{BTreeMap, BTreeSet};

/// The board picture of docs/rules.md section 1, copied verbatim: every cell at its place, with
/// the standard start (upper case White, lower case Black, Q queen, G guard).
const PICTURE: &str = r"
                    qf11
                 e10     g10
             Gd9     f10     Gh9
          c8      e9      g9      i8
     gb7      d8      f9      h8     gk7
  a6      c7      e8      g8      i7      l6
      b6      d7      f8      h7      k6
 Ga5      c6      e7      g7      i6     Gl5
      b5      d6      f7      h6      k5
  a4      c5      e6      g6      i5      l4
      b4      d5      f6      h5      k4
  a3      c4      e5      g5      i4      l3
      b3      d4      f5      h4      k3
 ga2      c3      e4      g4      i3     gl2
      b2      d3      f4      h3      k2
  a1      c2      e3      g3      i2      l1
     Gb1      d2      f3      h2     Gk1
          c1      e2      g2      i1
             gd1      f2     gh1
                  e1      g1
                     Qf1
";

/// Each cell of the picture: its (column, line) with columns counted in files (the picture
/// puts files 4 characters apart, give or take one where a piece letter is drawn), and the
/// piece drawn on it (`None`, or the prefix letter).
fn picture() -> BTreeMap<Cell, ((i32, i32), Option<char>)> {
    let mut cells = BTreeMap::new();
    for (line, text) in PICTURE.lines().enumerate() {
        let mut column = 0;
        for token in text.split(' ') {
            if !token.is_empty() {
                let (piece, name, offset) = match Cell::parse(token) {
                    Ok(_) => (None, token, 0),
                    Err(_) => (token.chars().next(), &token[1..], 1),
                };
                let c = cell(name);
                let at = ((column + offset) as i32 / 4, line as i32);
                assert!(cells.insert(c, (at, piece)).is_none(), "{c} drawn twice");
            }
            column += token.len() + 1;
        }
    }
    cells
}

#[test]
fn the_board_has_91_cells_in_11_files() {
    assert_eq!(Cell::all().count(), 91);
    assert_eq!(Bitboard::ALL.count(), 91);
    let mut per_file = BTreeMap::new();
    for c in Cell::all() {
        *per_file.entry(c.file_letter()).or_insert(0) += 1;
    }
    let expected: BTreeMap<char, i32> = "abcdefghikl"
        .chars()
        .zip([6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6])
        .collect();
    assert_eq!(per_file, expected);
    // Ranks run 1..=n in each file.
    for c in Cell::all() {
        assert!(c.rank() >= 1 && c.rank() as i32 <= expected[&c.file_letter()]);
    }
}

#[test]
fn ring_sizes_are_1_6_12_18_24_30() {
    let mut sizes = [0; 6];
    for c in Cell::all() {
        sizes[c.ring() as usize] += 1;
    }
    assert_eq!(sizes, [1, 6, 12, 18, 24, 30]);
    for (k, &size) in sizes.iter().enumerate() {
        assert_eq!(Bitboard::ring(k).count(), size);
        assert!(Bitboard::ring(k).all(|c| c.ring() as usize == k));
    }
    assert_eq!(Bitboard::THRONE, Bitboard::ring(0));
    assert_eq!(Bitboard::RING1, Bitboard::ring(1));
    assert_eq!(Bitboard::OUTER, Bitboard::ring(5));
    assert_eq!(Cell::THRONE, cell("f6"));
    assert_eq!(Cell::THRONE.ring(), 0);
    assert_eq!(
        common::names(Bitboard::RING1),
        common::sorted("e5 e6 f5 f7 g5 g6")
    );
    assert_eq!(
        common::names(Bitboard::OUTER),
        common::sorted(common::OUTER_RING)
    );
}

#[test]
fn neighbour_counts_6_corners_with_3_24_edge_cells_with_4_61_inner_cells_with_6() {
    let mut by_count: BTreeMap<usize, Vec<Cell>> = BTreeMap::new();
    for c in Cell::all() {
        by_count.entry(c.neighbors().count()).or_default().push(c);
    }
    let counts: Vec<(usize, usize)> = by_count.iter().map(|(k, v)| (*k, v.len())).collect();
    assert_eq!(counts, [(3, 6), (4, 24), (6, 61)]);
    assert_eq!(
        common::names(by_count[&3].iter().copied()),
        common::sorted("a1 a6 f1 f11 l1 l6")
    );
    assert!(by_count[&4].iter().all(|c| c.ring() == 5));
    assert!(by_count[&6].iter().all(|c| c.ring() < 5));
}

#[test]
fn names_round_trip_for_every_cell() {
    let mut seen = BTreeSet::new();
    for c in Cell::all() {
        let name = c.to_string();
        assert_eq!(Cell::parse(&name), Ok(c), "{name}");
        assert_eq!(name.parse::<Cell>(), Ok(c));
        assert_eq!(name, format!("{}{}", c.file_letter(), c.rank()));
        assert!(seen.insert(name));
        assert_eq!(Cell::from_index(c.index() as u8), Some(c));
    }
    assert_eq!(seen.len(), 91);
}

#[test]
fn parsing_is_strict() {
    for (text, message) in [
        (
            "j1",
            "`j1` is not a cell: files are a b c d e f g h i k l (there is no j)",
        ),
        ("f12", "`f12` is not a cell: file f has ranks 1-11"),
        ("a7", "`a7` is not a cell: files a and l have ranks 1-6"),
        ("l7", "`l7` is not a cell: files a and l have ranks 1-6"),
        ("k8", "`k8` is not a cell: files b and k have ranks 1-7"),
        ("F6", "`F6` is not a cell: files are lower-case letters a-l"),
        (
            "f06",
            "`f06` is not a cell: ranks start at 1 and have no leading zero",
        ),
        (
            "f0",
            "`f0` is not a cell: ranks start at 1 and have no leading zero",
        ),
        ("", "`` is not a cell: empty cell name"),
        ("f", "`f` is not a cell: a rank is a number from 1 to 11"),
        (
            "f6 ",
            "`f6 ` is not a cell: a rank is a number from 1 to 11",
        ),
        (
            " f6",
            "` f6` is not a cell: files are a b c d e f g h i k l (there is no j)",
        ),
        (
            "f+6",
            "`f+6` is not a cell: a rank is a number from 1 to 11",
        ),
        (
            "f100",
            "`f100` is not a cell: a rank is a number from 1 to 11",
        ),
        (
            "é6",
            "`é6` is not a cell: files are a b c d e f g h i k l (there is no j)",
        ),
    ] {
        match Cell::parse(text) {
            Ok(c) => panic!("`{text}` parsed as {c}"),
            Err(e) => assert_eq!(e.to_string(), message),
        }
    }
}

#[test]
fn cube_coordinates_follow_rules_section_1() {
    for c in Cell::all() {
        let (q, r, s) = c.cube();
        assert_eq!(q + r + s, 0);
        assert_eq!(c.ring() as i32, q.abs().max(r.abs()).max(s.abs()));
        assert_eq!(
            c.file_letter(),
            "abcdefghikl".as_bytes()[(q + 5) as usize] as char
        );
        assert_eq!(c.rank() as i32, 5.min(5 - q) - r + 1, "{c}");
        assert_eq!(Cell::from_axial(q, r), Some(c));
        assert_eq!(c.opposite().cube(), (-q, -r, -s));
    }
    let mut on_board = 0;
    for q in -7..=7 {
        for r in -7..=7 {
            let inside = q.max(r).max(-q - r) <= 5 && q.min(r).min(-q - r) >= -5;
            assert_eq!(Cell::from_axial(q, r).is_some(), inside, "({q}, {r})");
            on_board += inside as usize;
        }
    }
    assert_eq!(on_board, 91);
    assert_eq!(cell("f6").cube(), (0, 0, 0));
    assert_eq!(cell("a1").cube(), (-5, 5, 0));
    assert_eq!(cell("a6").cube(), (-5, 0, 5));
    assert_eq!(cell("f1").cube(), (0, 5, -5));
    assert_eq!(cell("f11").cube(), (0, -5, 5));
    assert_eq!(cell("l1").cube(), (5, 0, -5));
    assert_eq!(cell("l6").cube(), (5, -5, 0));
}

#[test]
fn the_six_directions_are_in_the_rules_order() {
    let cubes: Vec<(i32, i32, i32)> = Direction::ALL.iter().map(|d| d.cube()).collect();
    assert_eq!(
        cubes,
        [
            (1, -1, 0),
            (1, 0, -1),
            (0, 1, -1),
            (-1, 1, 0),
            (-1, 0, 1),
            (0, -1, 1)
        ]
    );
    for d in Direction::ALL {
        assert_eq!(d.opposite().opposite(), d);
        let (a, b, c) = d.cube();
        assert_eq!(d.opposite().cube(), (-a, -b, -c));
        for c0 in Cell::all() {
            let (q, r, _) = c0.cube();
            let (dq, dr, _) = d.cube();
            assert_eq!(c0.neighbor(d), Cell::from_axial(q + dq, r + dr));
        }
    }
    // f6's neighbours, as the picture shows them.
    let around: Vec<String> = Direction::ALL
        .iter()
        .map(|&d| Cell::THRONE.neighbor(d).expect("ring 1").to_string())
        .collect();
    assert_eq!(around, ["g6", "g5", "f5", "e5", "e6", "f7"]);
}

/// The picture's layout is an independent statement of the naming: each name stands in the
/// column of its file, and neighbours are the cells one line up or down and one column
/// aside, or two lines up or down in the same column.
#[test]
fn the_rules_picture_matches_names_and_neighbours() {
    let picture = picture();
    assert_eq!(picture.len(), 91);
    for (&a, &((xa, ya), _)) in &picture {
        assert_eq!(xa, a.q() + 5, "{a} is drawn in another column");
        let drawn: BTreeSet<Cell> = picture
            .iter()
            .filter(|(_, &((xb, yb), _))| {
                let (dx, dy) = ((xb - xa).abs(), (yb - ya).abs());
                (dx == 1 && dy == 1) || (dx == 0 && dy == 2)
            })
            .map(|(&b, _)| b)
            .collect();
        let engine: BTreeSet<Cell> = a.neighbors().collect();
        assert_eq!(engine, drawn, "neighbours of {a}");
        assert_eq!(a.distance(a), 0);
        assert!(engine.iter().all(|&b| a.distance(b) == 1));
    }
}

#[test]
fn ring_neighbours_walk_each_ring() {
    assert_eq!(Cell::THRONE.ring_neighbors(), None);
    for c in Cell::all().filter(|c| c.ring() > 0) {
        let [a, b] = c.ring_neighbors().expect("ring >= 1");
        assert_ne!(a, b);
        for n in [a, b] {
            assert_eq!(n.ring(), c.ring());
            assert_eq!(c.distance(n), 1);
            assert!(n.ring_neighbors().expect("same ring").contains(&c));
        }
        // Exactly two neighbours share the ring.
        assert_eq!(c.neighbors().filter(|n| n.ring() == c.ring()).count(), 2);
    }
    let corner = cell("a1").ring_neighbors().expect("outer ring");
    assert_eq!(common::names(corner), ["a2", "b1"]);
}

#[test]
fn the_standard_start_is_rules_section_2() {
    let start = Position::start(Rules::STANDARD);
    assert!(common::survives_from_setup(&start));
    assert_eq!(start.to_move(), Side::White);
    let expect = |side, kind, list: &str| {
        assert_eq!(
            common::names(start.pieces(side, kind)),
            common::sorted(list)
        );
    };
    expect(Side::White, PieceKind::Queen, "f1");
    expect(Side::White, PieceKind::Guard, "b1 k1 a5 l5 d9 h9");
    expect(Side::Black, PieceKind::Queen, "f11");
    expect(Side::Black, PieceKind::Guard, "d1 h1 a2 l2 b7 k7");
    assert!(start.captured().is_empty());
    assert!((start.occupied() & !Bitboard::OUTER).is_empty());
    for side in Side::BOTH {
        for kind in [PieceKind::Queen, PieceKind::Guard] {
            assert_eq!(start.in_hand(side, kind), 0);
        }
    }
    // The picture draws the same start.
    for (c, (_, piece)) in picture() {
        let drawn = piece.map(|p| match p {
            'Q' => (Side::White, PieceKind::Queen),
            'G' => (Side::White, PieceKind::Guard),
            'q' => (Side::Black, PieceKind::Queen),
            'g' => (Side::Black, PieceKind::Guard),
            _ => panic!("unknown piece letter {p}"),
        });
        let placed = start.piece_at(c).map(|p| (p.side, p.kind));
        assert_eq!(placed, drawn, "{c}");
    }
}

/// "Walking the outer ring from a queen: an enemy guard two cells away on each side, an
/// own guard four away, an enemy guard six away."
#[test]
fn the_start_seen_from_each_queen() {
    let start = Position::start(Rules::STANDARD);
    for side in Side::BOTH {
        let queen = start.queen(side).expect("on the board");
        for first in queen.ring_neighbors().expect("outer ring") {
            let mut walk = vec![queen, first];
            while walk.len() <= 6 {
                let [a, b] = walk.last().unwrap().ring_neighbors().unwrap();
                let previous = walk[walk.len() - 2];
                walk.push(if a == previous { b } else { a });
            }
            let seen: Vec<Option<(Side, PieceKind)>> = walk[1..]
                .iter()
                .map(|&c| start.piece_at(c).map(|p| (p.side, p.kind)))
                .collect();
            let guard = |s| Some((s, PieceKind::Guard));
            assert_eq!(
                seen,
                [None, guard(!side), None, guard(side), None, guard(!side)],
                "from {queen} towards {first}"
            );
        }
    }
}

#[test]
fn the_start_is_symmetric_under_a_half_turn() {
    let start = Position::start(Rules::STANDARD);
    for c in Cell::all() {
        let here = start.piece_at(c);
        let there = start.piece_at(c.opposite());
        assert_eq!(
            here.map(|p| (!p.side, p.kind, p.captured)),
            there.map(|p| (p.side, p.kind, p.captured)),
            "{c} and {}",
            c.opposite()
        );
        assert_eq!(c.opposite().opposite(), c);
        assert_eq!(c.opposite().ring(), c.ring());
    }
    let mirror = start.mirrored();
    assert_eq!(mirror.to_move(), Side::Black);
    let same_but_black_to_move = common::edited(&start, |s| s.with_to_move(Side::Black));
    assert_eq!(mirror, same_but_black_to_move);
    assert_eq!(mirror.hash(), same_but_black_to_move.hash());
}
