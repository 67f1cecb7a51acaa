//! End-to-end tests of `agon render`: real PNG and SVG files of the expected size, with
//! the board's content.

use agon_tests::cli::{agon, scratch};

/// Width and height from a PNG's signature and IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.len() > 33, "too short for a PNG");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR", "first chunk is IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

/// Width and height attributes of the SVG root element.
fn svg_size(text: &str) -> (u32, u32) {
    let start = text.find("<svg").expect("an <svg> root element");
    let tag = &text[start..start + text[start..].find('>').unwrap()];
    let attribute = |name: &str| -> u32 {
        let key = format!(" {name}=\"");
        let at = tag
            .find(&key)
            .unwrap_or_else(|| panic!("no {name} in {tag}"))
            + key.len();
        tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap()
    };
    assert!(text.trim_end().ends_with("</svg>"));
    (attribute("width"), attribute("height"))
}

const CAPTURE_LINE: &str =
    "k1-k2 d1-e2 a5-a4 f11-g10 a4-b5 h1-i1 f1-f2 b7-b6 b5-b4 g10-g9 b1-c1 i1-k1 b4-b5 a2-a1 c1-d2";

#[test]
fn png_has_the_requested_size() {
    let dir = scratch("render-png");
    let path = dir.join("board.png");
    agon(&[
        "render",
        "--moves",
        CAPTURE_LINE,
        "-o",
        path.to_str().unwrap(),
    ])
    .ok();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(png_size(&bytes), (800, 920));
    let small = dir.join("small.png");
    agon(&["render", "--size", "300", "-o", small.to_str().unwrap()]).ok();
    assert_eq!(png_size(&std::fs::read(&small).unwrap()), (300, 345));
}

#[test]
fn svg_has_the_size_cells_pieces_and_caption() {
    let dir = scratch("render-svg");
    let path = dir.join("board.svg");
    agon(&[
        "render",
        "--moves",
        CAPTURE_LINE,
        "-o",
        path.to_str().unwrap(),
    ])
    .ok();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(svg_size(&text), (800, 920));
    // 91 hexagons, the gold throne, every cell name, and the caption with the capture.
    assert_eq!(
        text.matches("<polygon").count(),
        91 + 1,
        "91 cells and one arrowhead"
    );
    assert!(text.contains("fill=\"#D9A41E\""), "the throne colour");
    for name in ["a1", "f6", "f11", "l6", "e10"] {
        assert!(
            text.contains(&format!(">\n{name}\n</text>")),
            "cell name {name}"
        );
    }
    assert!(text.contains("Ply 15: White c1-d2xe2"), "caption");
    assert!(
        text.contains("font-family=\"DejaVu Sans"),
        "the embedded font's family"
    );
}

#[test]
fn options_change_the_drawing() {
    let plain = agon(&[
        "render",
        "--no-arrow",
        "--no-coordinates",
        "--no-caption",
        "--moves",
        "h9-g9",
        "-o",
        "-",
    ])
    .ok();
    assert_eq!(svg_size(&plain.stdout), (800, 920));
    assert_eq!(plain.stdout.matches("<polygon").count(), 91, "no arrowhead");
    assert!(!plain.stdout.contains(">\nf6\n</text>"), "no cell names");
    let with_arrow = agon(&["render", "--moves", "h9-g9", "-o", "-"]).ok();
    assert_eq!(with_arrow.stdout.matches("<polygon").count(), 92);
}

#[test]
fn bad_outputs_are_usage_errors() {
    let dir = scratch("render-bad");
    let run = agon(&["render", "-o", dir.join("board.gif").to_str().unwrap()]).code(2);
    assert!(run.stderr.contains("--format"), "{}", run.stderr);
    let run = agon(&["render", "--format", "png", "-o", "-"]).code(2);
    assert!(run.stderr.contains("stdout"), "{}", run.stderr);
    let run = agon(&[
        "render",
        "-o",
        dir.join("no/such/dir/b.png").to_str().unwrap(),
    ])
    .code(2);
    assert!(run.stderr.contains("does not exist"), "{}", run.stderr);
    let run = agon(&["render", "--size", "10", "-o", "x.png"]).code(2);
    assert!(run.stderr.contains("200"), "{}", run.stderr);
}

/// Under `relocation=removed` a captured piece leaves the board: the capture of
/// `CAPTURE_LINE` draws the captured guard (faded, two circles) under the standard rules and
/// nothing in its place under `removed`, whose caption names the rule set.
#[test]
fn a_piece_removed_from_play_is_not_drawn() {
    let dir = scratch("render-removed");
    let draw = |variant: &str| {
        let path = dir.join(format!("{variant}.svg"));
        agon(&[
            "render",
            "--variant",
            variant,
            "--moves",
            CAPTURE_LINE,
            "-o",
            path.to_str().unwrap(),
        ])
        .ok();
        std::fs::read_to_string(&path).unwrap()
    };
    let faded = |svg: &str| {
        svg.split("<circle")
            .skip(1)
            .filter(|rest| rest[..rest.find('>').unwrap()].contains("opacity=\"0.7\""))
            .count()
    };
    let standard = draw("standard");
    let removed = draw("relocation=removed");
    assert_eq!(faded(&standard), 2, "the captured guard, faded");
    assert_eq!(faded(&removed), 0, "no captured piece on the board");
    assert_eq!(
        standard.matches("<circle").count(),
        removed.matches("<circle").count() + 2
    );
    assert!(removed.contains("Ply 15: White c1-d2xe2 · Black to move · relocation=removed"));
}
