//! `agon serve`: a local web board to replay records, play against agents, analyse
//! positions and set up positions, with a JSON API under `/api/` (docs/serve.md).
//!
//! Layout: [`app`] routes requests; [`bridge`] is the one door into agon-core and
//! agon-notation (replaying games, views of positions); [`library`] holds the records;
//! [`search`] runs agents and analyses on their own threads; [`page`] serves the embedded
//! page, which draws the board from [`geometry`] (the renderer's numbers).

mod app;
mod bridge;
mod error;
mod geometry;
mod library;
mod page;
mod save;
mod search;

use crate::error::{CliError, CliResult};
use app::AppState;
use clap::Args;
use library::Library;
use search::Searches;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Examples shown after `agon serve --help`.
pub const EXAMPLES: &str = "\
Examples:
  agon serve                                 the board at http://127.0.0.1:1842/
  agon serve games.agn --open                replay a file's games, in the browser
  agon serve records/ --port 8000            every .agn file under a folder
  agon serve --port 0                        any free port (the address is printed)
  agon serve --save-dir saved/               where the page's Save button writes
The page replays records (from the command line, an upload or pasted text), plays games
against any agent under any rule set, analyses positions and edits positions. Only this
machine can reach it unless --host says otherwise. Ctrl-C stops the server.";

/// Options of `agon serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Record files or folders (every .agn file inside) to open on the page.
    #[arg(value_name = "FILE")]
    pub records: Vec<PathBuf>,

    /// The port to listen on (0: any free port).
    #[arg(long, value_name = "PORT", default_value_t = 1842)]
    pub port: u16,

    /// The address to listen on. The default serves this machine only; 0.0.0.0 serves
    /// every network the machine is on (anyone there can use the page and its Save).
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub host: String,

    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,

    /// The folder where the page's Save button writes records.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub save_dir: PathBuf,

    /// The longest an agent may think for one action, or an analysis may run, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub think_limit: u64,

    /// The most searches (agents' actions and analyses) that run at once; more wait for a
    /// free one (default: one per CPU).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub max_searches: Option<u64>,
}

/// Runs `agon serve`.
pub fn run(args: &ServeArgs) -> CliResult {
    let library = Library::default();
    for path in crate::files::expand_folders(&args.records) {
        let bytes = std::fs::read(&path).map_err(|e| {
            CliError::new(format!(
                "cannot open {}: {}",
                path.display(),
                crate::error::describe_io(&e)
            ))
        })?;
        let name = path.display().to_string();
        let summaries = library
            .open(&name, &bytes)
            .map_err(|e| CliError::new(e.message))?;
        let invalid = summaries.iter().filter(|s| !s.valid).count();
        eprintln!(
            "{name}: {} game{}{}",
            summaries.len(),
            if summaries.len() == 1 { "" } else { "s" },
            if invalid > 0 {
                format!(", {invalid} invalid (`agon validate {name}` lists them)")
            } else {
                String::new()
            }
        );
    }
    if !args.save_dir.is_dir() {
        return Err(CliError::with_hint(
            format!("--save-dir {}: no such folder", args.save_dir.display()),
            "create it first, or leave --save-dir out to save in the current folder",
        ));
    }
    let host = match args.host.as_str() {
        "localhost" => "127.0.0.1",
        other => other,
    };
    let ip: std::net::IpAddr = host.parse().map_err(|_| {
        CliError::with_hint(
            format!("--host {}: not an IP address", args.host),
            "use 127.0.0.1 or localhost (this machine only, the default), ::1, or 0.0.0.0 (every network)",
        )
    })?;
    let address = SocketAddr::new(ip, args.port);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let state = Arc::new(AppState {
        library,
        searches: Arc::new(Searches::new(
            args.max_searches.map_or(threads, |n| n as usize),
            Duration::from_secs(args.think_limit),
        )),
        save_dir: args.save_dir.clone(),
        local_only: ip.is_loopback(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads.min(4))
        .enable_all()
        .build()
        .map_err(|e| CliError::new(format!("cannot start the server: {e}")))?;
    runtime.block_on(serve(address, state, args.open))
}

async fn serve(address: SocketAddr, state: Arc<AppState>, open: bool) -> CliResult {
    let listener = tokio::net::TcpListener::bind(address).await.map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::AddrInUse => "another program listens there".to_string(),
            _ => crate::error::describe_io(&e),
        };
        CliError::with_hint(
            format!("cannot listen on {address}: {why}"),
            "choose another port with --port, or --port 0 for any free one",
        )
    })?;
    let bound = listener
        .local_addr()
        .map_err(|e| CliError::new(format!("cannot listen on {address}: {e}")))?;
    let host = if bound.ip().is_unspecified() {
        "127.0.0.1".to_string()
    } else if bound.is_ipv6() {
        format!("[{}]", bound.ip())
    } else {
        bound.ip().to_string()
    };
    let url = format!("http://{host}:{}/", bound.port());
    println!("agon serve: listening on {url}");
    println!("Press Ctrl-C to stop.");
    if open {
        open_browser(&url);
    }
    let searches = Arc::clone(&state.searches);
    let router = app::router(state);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            eprintln!("agon serve: stopping");
            searches.stop_all();
        })
        .await
        .map_err(|e| CliError::new(format!("the server failed: {e}")))?;
    Ok(0)
}

/// Waits for Ctrl-C (or, on Unix, SIGTERM).
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        let (mut ctrl_c, mut terminate) = (std::pin::pin!(ctrl_c), std::pin::pin!(terminate));
        std::future::poll_fn(|cx| {
            use std::future::Future;
            if ctrl_c.as_mut().poll(cx).is_ready() || terminate.as_mut().poll(cx).is_ready() {
                std::task::Poll::Ready(())
            } else {
                std::task::Poll::Pending
            }
        })
        .await;
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

/// Opens a URL in the default browser, or says how to open it.
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = command {
        eprintln!("agon: cannot open a browser ({e}); open {url} yourself");
    }
}
