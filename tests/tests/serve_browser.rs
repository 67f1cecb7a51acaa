//! `agon serve`'s page in a real browser: headless Chromium driven through chromedriver
//! (WebDriver, with the fantoccini client). The test starts `agon serve` on a free port,
//! loads records, steps through a game with the buttons, the arrow keys and the movetext,
//! checks the board against the library at every ply, opens an invalid record at its
//! failing ply, opens pasted text and shows its comments, plays a legal and an illegal action against `random` (by clicks and by
//! typing), saves the game, uses the editor and the analysis, and looks at a phone-sized
//! window. Screenshots are saved as artifacts (the folder is printed).
//!
//! Needs Debian's `chromium` and `chromium-driver`; without them the test says so and
//! passes, unless `AGON_REQUIRE_BROWSER` is set (`.ci/run` sets it and installs them).
//! `AGON_SCREENSHOTS=DIR` saves the screenshots there instead (docs/img, through
//! `scripts/serve-screenshots.sh`).

use agon_core::agents::evaluate;
use agon_core::{Game, Position, Rules};
use agon_notation::{parse_action, PositionJson, Records, START_POSITION};
use agon_tests::browser::{on_path, skip, CHROMIUM};
use agon_tests::cli::agon_path;
use agon_tests::serve::{data, Server};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Chromium and chromedriver, if installed.
fn browser() -> Option<(PathBuf, PathBuf)> {
    Some((on_path(CHROMIUM)?, on_path(&["chromedriver"])?))
}

#[test]
fn the_page_replays_plays_and_refuses_in_a_real_browser() {
    let Some((chromium, driver)) = browser() else {
        skip(
            "agon serve's page test",
            "chromium and chromedriver are not installed \
             (Debian: apt-get install -y chromium chromium-driver)",
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run(&chromium, &driver));
}

/// A running chromedriver, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(path: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .unwrap()
            .port();
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where screenshots go.
fn artifacts() -> PathBuf {
    let dir = match std::env::var_os("AGON_SCREENSHOTS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-browser"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Page {
    client: Client,
    shots: PathBuf,
}

impl Page {
    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until a script returns true (a minute at most: CI machines are shared).
    async fn wait(&self, condition: &str, what: &str) {
        self.wait_for(condition, what, Duration::from_secs(60))
            .await;
    }

    /// Waits until a script returns true, at most `limit`.
    async fn wait_for(&self, condition: &str, what: &str, limit: Duration) {
        let start = Instant::now();
        loop {
            if self.js(&format!("return !!({condition});")).await == json!(true) {
                return;
            }
            if start.elapsed() > limit {
                self.shot_here("failure").await;
                let message = self.text("message").await;
                panic!("timed out waiting for {what}; the page says: {message}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Clicks an element (found again if the page redrew it between finding and clicking:
    /// the board is redrawn whenever the game changes).
    async fn click(&self, css: &str) {
        for _ in 0..50 {
            let element = self
                .client
                .find(Locator::Css(css))
                .await
                .unwrap_or_else(|e| panic!("no {css}: {e}"));
            // Centred, so that sticky headers do not cover it.
            let _ = self
                .client
                .execute(
                    "arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
                    vec![serde_json::to_value(&element).unwrap()],
                )
                .await;
            match element.click().await {
                Ok(()) => return,
                Err(e) if e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
        panic!("{css} keeps being redrawn");
    }

    /// Waits until the ply counter starts with `text` (`ply 14 ` or `ply 0 / 51`).
    async fn wait_ply(&self, text: &str) {
        let condition = format!(
            "document.getElementById('ply-counter').textContent.startsWith({})",
            json!(text)
        );
        self.wait(&condition, text).await;
    }

    async fn click_cell(&self, cell: &str) {
        self.click(&format!("#board polygon.cell[data-cell='{cell}']"))
            .await;
    }

    async fn text(&self, id: &str) -> String {
        self.js(&format!(
            "return document.getElementById('{id}').textContent;"
        ))
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    async fn fill(&self, id: &str, value: &str) {
        let input = self.client.find(Locator::Id(id)).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(value).await.unwrap();
    }

    async fn key(&self, key: &str) {
        self.client
            .find(Locator::Css("body"))
            .await
            .unwrap()
            .send_keys(key)
            .await
            .unwrap();
    }

    /// The pieces drawn on the board, as `cell:side-kind[-captured]`, sorted.
    async fn board(&self) -> Vec<String> {
        let value = self
            .js("return [...document.querySelectorAll('#board [data-piece]')]\
                 .map(g => g.getAttribute('data-cell') + ':' + g.getAttribute('data-piece')).sort();")
            .await;
        serde_json::from_value(value).unwrap()
    }

    /// Saves a screenshot of the window scrolled to the top (the header and the board).
    async fn shot(&self, name: &str) {
        self.js("window.scrollTo(0, 0); return true;").await;
        self.shot_here(name).await;
    }

    /// Saves a screenshot of the window as it is scrolled.
    async fn shot_here(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        std::fs::write(self.shots.join(format!("serve-{name}.png")), png).unwrap();
    }
}

/// A position's pieces as the page's board lists them.
fn pieces(position: &Position) -> Vec<String> {
    let mut list: Vec<String> = PositionJson::from_position(position)
        .pieces
        .iter()
        .map(|p| {
            format!(
                "{}:{}-{}{}",
                p.cell,
                p.side,
                p.kind,
                if p.captured { "-captured" } else { "" }
            )
        })
        .collect();
    list.sort();
    list
}

async fn run(chromium: &Path, driver: &Path) {
    // Relative to tests/, where the server runs: the verdicts on the screenshots name
    // the files as a user would.
    let standard = PathBuf::from("data/records/valid/standard.agn");
    let illegal = PathBuf::from("data/records/invalid/illegal.agn");
    let save_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-browser-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&save_dir);
    std::fs::create_dir_all(&save_dir).unwrap();
    let server = Server::start(&[
        standard.to_str().unwrap(),
        illegal.to_str().unwrap(),
        "--save-dir",
        save_dir.to_str().unwrap(),
    ]);
    let driver = Driver::start(driver);
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-browser-profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1280,900",
            ],
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&driver.url)
        .await
        .expect("a WebDriver session");
    let page = Page {
        client,
        shots: artifacts(),
    };
    let result = steps(&page, &server, &illegal, &save_dir).await;
    let _ = page.client.clone().close().await;
    let _ = std::fs::remove_dir_all(&profile);
    eprintln!("screenshots of agon serve: {}", page.shots.display());
    result
}

async fn steps(page: &Page, server: &Server, illegal: &Path, save_dir: &Path) {
    page.client.goto(&server.url).await.unwrap();
    page.wait("document.body.dataset.ready === 'true'", "the page to load")
        .await;

    // Replay: the first game of standard.agn is open at its start.
    let bytes = std::fs::read(data("records/valid/standard.agn")).unwrap();
    let game: Game = Records::new(&bytes[..]).next().unwrap().unwrap().game;
    let plies = game.ply_count();
    assert_eq!(page.text("ply-counter").await, format!("ply 0 / {plies}"));
    let games_in = |path: &str| Records::new(&std::fs::read(data(path)).unwrap()[..]).count();
    let listed = games_in("records/valid/standard.agn") + games_in("records/invalid/illegal.agn");
    assert_eq!(
        page.js("return document.querySelectorAll('#game-list tbody tr').length;")
            .await,
        json!(listed),
        "the games of standard.agn and illegal.agn in the list"
    );
    let expect_ply = |k: usize| pieces(game.position_before(k).unwrap());
    assert_eq!(page.board().await, expect_ply(0));
    // Forward with the button, then with the arrow key; the board matches at every ply.
    for k in 1..=plies {
        if k <= 5 {
            page.click("#next").await;
        } else {
            page.key("\u{E014}").await; // ArrowRight
        }
        page.wait_ply(&format!("ply {k} / {plies}")).await;
        assert_eq!(page.board().await, expect_ply(k), "ply {k}");
        let current = page
            .js("return document.querySelector('#movetext .ply.current').dataset.ply;")
            .await;
        assert_eq!(current, json!(k.to_string()));
    }
    page.key("\u{E011}").await; // Home
    page.wait_ply("ply 0 ").await;
    assert_eq!(page.board().await, expect_ply(0));
    // A capture (ply 14, d1-c1xb1) and the relocation that follows (ply 15, b1@g1),
    // reached by clicking the movetext.
    page.click("#movetext .ply[data-ply='14']").await;
    page.wait_ply("ply 14 ").await;
    assert_eq!(page.board().await, expect_ply(14));
    assert_eq!(
        page.js("return document.querySelector('#board [data-last]').dataset.last;")
            .await,
        json!("step")
    );
    assert_eq!(
        page.js("return document.querySelectorAll('#board .captured-mark').length;")
            .await,
        json!(1)
    );
    assert!(
        page.text("caption").await.contains("captures b1"),
        "{}",
        page.text("caption").await
    );
    page.shot("replay").await;
    page.key("\u{E014}").await;
    page.wait_ply("ply 15 ").await;
    assert_eq!(
        page.js("return document.querySelector('#board [data-last]').dataset.last;")
            .await,
        json!("relocation")
    );
    assert!(page.text("caption").await.contains("relocation"));

    // An invalid record opens at its failing ply, with `agon validate`'s verdict.
    let validate = Command::new(agon_path())
        .arg("validate")
        .arg(illegal)
        .output()
        .unwrap();
    let verdict = String::from_utf8(validate.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    page.click("#game-list tbody tr[data-id='11']").await;
    page.wait_ply("ply 17 / 17").await;
    assert_eq!(page.text("verdict").await, verdict);
    assert!(page.text("message").await.contains(&verdict));
    assert_eq!(
        page.js("return document.querySelector('#movetext .ply.bad').textContent;")
            .await,
        json!("f10-e9")
    );
    let show = Command::new(agon_path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["show", "--json", "--record"])
        .arg(illegal)
        .args(["--game", "1", "--ply", "17"])
        .output()
        .unwrap();
    let show: Value = serde_json::from_slice(&show.stdout).unwrap();
    let shown =
        agon_notation::parse_position(show["notation"].as_str().unwrap(), Rules::STANDARD).unwrap();
    assert_eq!(page.board().await, pieces(&shown));
    page.shot("invalid").await;

    // Pasted text opens as a new game, its comments after the plies they follow.
    page.click("#open-box summary").await;
    page.js("document.getElementById('paste').value = \
         '[Event \"notes\"]\\n\\n1. h9-g9 {a good start} b7-c7 {and a reply} *\\n'; return true;")
        .await;
    page.click("#open-text").await;
    page.wait_ply("ply 0 / 2").await;
    assert_eq!(
        page.js(
            "return [...document.querySelectorAll('#movetext .comment')].map(c => c.textContent);"
        )
        .await,
        json!(["{a good start}", "{and a reply}"])
    );
    assert_eq!(
        page.js("return document.querySelectorAll('#game-list tbody tr').length;")
            .await,
        json!(listed + 1),
        "the pasted game joins the list"
    );
    page.click("#open-box summary").await;

    // Play White against `random`: select a piece, see its destinations, click one.
    page.click("#tab-play").await;
    page.fill("white", "human").await;
    page.fill("black", "random").await;
    page.click("#new-game").await;
    page.wait(
        "document.getElementById('status').textContent.startsWith('White to move')",
        "a new game",
    )
    .await;
    let start = Position::start(Rules::STANDARD);
    page.click_cell("h9").await;
    let destinations = start
        .legal()
        .to_vec()
        .into_iter()
        .filter(|a| a.origin().is_some_and(|c| c.to_string() == "h9"))
        .count();
    assert!(destinations > 0);
    assert_eq!(
        page.js("return document.querySelectorAll('#board .mark circle').length;")
            .await,
        json!(destinations),
        "the legal destinations of h9 are marked"
    );
    page.click_cell("g9").await;
    page.wait(
        "document.querySelectorAll('#play-moves .ply:not(.start)').length === 2",
        "random's reply",
    )
    .await;
    let played = |value: Value| -> Vec<String> { serde_json::from_value(value).unwrap() };
    let moves_js = "return [...document.querySelectorAll('#play-moves .ply:not(.start)')].map(b => b.textContent);";
    let moves = played(page.js(moves_js).await);
    assert_eq!(moves[0], "h9-g9");
    let mut game = Game::new(Rules::STANDARD);
    for m in &moves {
        game.play(parse_action(m, game.position()).unwrap().0)
            .unwrap();
    }
    assert_eq!(page.board().await, pieces(game.position()));
    // An illegal action by clicks: a movable piece, then a cell it cannot reach.
    let position = *game.position();
    let (from, to) = position
        .legal()
        .to_vec()
        .iter()
        .filter_map(|a| a.origin())
        .find_map(|from| {
            agon_core::Cell::all()
                .filter(|c| position.piece_at(*c).is_none() && c.distance(from) == 2)
                .find(|c| {
                    !position
                        .legal()
                        .to_vec()
                        .iter()
                        .any(|a| a.destination() == Some(*c))
                })
                .map(|to| (from, to))
        })
        .expect("a piece and a cell out of its reach");
    let token = format!("{from}-{to}");
    let refusal = parse_action(&token, &position).unwrap_err().to_string();
    page.click_cell(&from.to_string()).await;
    page.click_cell(&to.to_string()).await;
    page.wait("!document.getElementById('message').hidden", "the refusal")
        .await;
    assert_eq!(page.text("message").await, refusal);
    assert!(
        page.js("return document.getElementById('message').classList.contains('error');")
            .await
            == json!(true)
    );
    assert_eq!(page.board().await, pieces(&position), "nothing moved");
    page.shot("refusal").await;
    // Typed: an illegal action is refused in the engine's words, a legal one is played.
    page.fill("action-input", "f1-f3\n").await;
    let refusal = parse_action("f1-f3", &position).unwrap_err().to_string();
    page.wait(
        &format!(
            "document.getElementById('message').textContent === {}",
            json!(refusal)
        ),
        "the typed refusal",
    )
    .await;
    let legal = position.legal().to_vec()[0].to_string();
    page.fill("action-input", &format!("{legal}\n")).await;
    page.wait(
        "document.querySelectorAll('#play-moves .ply:not(.start)').length === 4",
        "the typed action and the reply",
    )
    .await;
    let moves = played(page.js(moves_js).await);
    assert_eq!(moves[2].split('x').next().unwrap(), legal);
    let mut game = Game::new(Rules::STANDARD);
    for m in &moves {
        game.play(parse_action(m, game.position()).unwrap().0)
            .unwrap();
    }
    assert_eq!(page.board().await, pieces(game.position()));
    page.shot("play").await;
    // Save: the record lands in the save folder and validates.
    page.fill("save-name", "browser-game").await;
    page.click("#save").await;
    let saved = save_dir.join("browser-game.agn");
    page.wait(
        "document.getElementById('message').textContent.startsWith('Saved ')",
        "the save",
    )
    .await;
    assert_eq!(
        page.text("message").await,
        format!("Saved {}", saved.display())
    );
    let text = std::fs::read(&saved).unwrap();
    let record = Records::new(&text[..])
        .next()
        .unwrap()
        .expect("a valid record");
    let saved_moves: Vec<String> = record
        .record
        .plies
        .iter()
        .map(|p| p.action.to_string())
        .collect();
    let page_moves: Vec<String> = moves
        .iter()
        .map(|m| m.split('x').next().unwrap().to_string())
        .collect();
    assert_eq!(saved_moves, page_moves);

    // Agents against each other, to the end: `random` as White, `alphabeta:depth=3` as
    // Black (seed 3: a 74-ply game); the saved record validates and has the result the
    // page shows.
    page.fill("white", "random").await;
    page.fill("black", "alphabeta:depth=3").await;
    page.fill("seed", "3").await;
    page.click("#new-game").await;
    page.wait_for(
        "document.getElementById('message').textContent.startsWith('Game over: ')",
        "the end of random against alphabeta:depth=3",
        Duration::from_secs(300),
    )
    .await;
    let over = page.text("message").await;
    page.fill("save-name", "agents.agn").await;
    page.click("#save").await;
    page.wait(
        "document.getElementById('message').textContent.startsWith('Saved ')",
        "the save",
    )
    .await;
    let text = std::fs::read(save_dir.join("agents.agn")).unwrap();
    let valid = Records::new(&text[..])
        .next()
        .unwrap()
        .expect("a valid record");
    let result = valid.record.result.to_string();
    assert!(
        over.starts_with(&format!("Game over: {result} (")),
        "{over} / {result}"
    );
    assert!(valid.game.is_over(), "played to the end");
    assert_eq!(
        valid.record.tag("Black").as_deref(),
        Some("alphabeta:depth=3")
    );
    let plies = page
        .js("return document.querySelectorAll('#play-moves .ply:not(.start)').length;")
        .await;
    assert_eq!(plies, json!(valid.record.plies.len()));

    // Editor: the start position; removing White's queen is a problem the engine names.
    page.click("#tab-editor").await;
    page.click("#editor-start").await;
    page.wait(
        &format!(
            "document.getElementById('notation').value === {}",
            json!(START_POSITION)
        ),
        "the start position",
    )
    .await;
    page.click("input[name='tool'][value='remove']").await;
    page.click_cell("f1").await;
    let mut without = Position::start(Rules::STANDARD).to_setup();
    without.pieces.remove(&"f1".parse().unwrap());
    let problem = Position::from_setup(without, Rules::STANDARD)
        .unwrap_err()
        .problems()[0]
        .clone();
    page.wait(
        &format!(
            "document.getElementById('problems').textContent.includes({})",
            json!(problem)
        ),
        "the editor's problem",
    )
    .await;
    assert_eq!(page.board().await.len(), 13);
    page.shot("editor").await;
    page.click("#editor-start").await;
    page.wait(
        "document.getElementById('problems').children.length === 0",
        "a valid position again",
    )
    .await;

    // Analysis of a replayed position: the engine's line and the evaluation's terms.
    page.click("#tab-replay").await;
    page.click("#game-list tbody tr[data-id='1']").await;
    page.wait_ply("ply 0 / 51").await;
    page.click("#movetext .ply[data-ply='30']").await;
    page.wait_ply("ply 30 ").await;
    let second: Game = Records::new(&bytes[..]).nth(1).unwrap().unwrap().game;
    let position = *second.position_before(30).unwrap();
    page.fill("depth", "4").await;
    page.click("#analyse").await;
    page.wait(
        "document.getElementById('analysis-line').textContent.includes('done')",
        "the analysis",
    )
    .await;
    let line = page.text("analysis-line").await;
    assert!(line.contains("depth 4"), "{line}");
    let best = line
        .split("best line: ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    assert!(parse_action(&best, &position).is_ok(), "{best} is legal");
    page.wait(
        "document.querySelectorAll('#terms tbody tr').length === 6",
        "the evaluation terms",
    )
    .await;
    let total = page
        .js("return document.querySelector('#terms tfoot td:last-child').textContent;")
        .await;
    let score = evaluate(&position).unwrap();
    assert_eq!(
        total,
        json!(if score > 0 {
            format!("+{score}")
        } else {
            score.to_string()
        })
    );
    page.js("document.getElementById('analysis-box').scrollIntoView({block: 'end'}); return true;")
        .await;
    page.shot_here("analysis").await;

    // A phone: one column, the board as wide as the screen, nothing wider than it.
    page.client.set_window_size(390, 844).await.unwrap();
    page.wait("window.innerWidth <= 400", "the narrow window")
        .await;
    let fits = page
        .js(
            "const b = document.getElementById('board').getBoundingClientRect(); \
             return [document.documentElement.scrollWidth, window.innerWidth, b.width];",
        )
        .await;
    let [scroll, inner, board] = [0, 1, 2].map(|i| fits[i].as_f64().unwrap());
    assert!(scroll <= inner + 1.0, "no sideways scrolling: {fits}");
    assert!(board >= inner * 0.85, "the board fills the width: {fits}");
    page.shot("phone").await;
}
