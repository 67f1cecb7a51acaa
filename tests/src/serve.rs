//! `agon serve` in end-to-end tests: start the real server on a free port of this machine,
//! and a small HTTP/1.1 client (requests with `Connection: close`, bodies plain or chunked)
//! so that the API can be called without another HTTP library.

use crate::cli::agon_path;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The test data folder.
pub fn data(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(path)
}

/// A running `agon serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
}

impl Server {
    /// Starts `agon serve --port 0 ARGS...` in the `tests/` folder (so that paths such as
    /// `data/records/...` work) and waits for the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(agon_path())
            .arg("serve")
            .args(["--port", "0"])
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start agon serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let first = lines
            .next()
            .expect("agon serve prints its address")
            .expect("read stdout");
        let url = first
            .strip_prefix("agon serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {first}"))
            .to_string();
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        // Keep reading stdout so that the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines.by_ref() {});
        Server {
            child,
            address,
            url,
        }
    }

    /// Sends a request and reads the whole answer.
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> Response {
        self.raw(method, path, body, &[("Content-Type", "application/json")])
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, None)
    }

    /// `POST path` with a JSON body.
    pub fn post(&self, path: &str, body: &serde_json::Value) -> Response {
        self.request("POST", path, Some(&body.to_string()))
    }

    /// `POST path` with a JSON body, the answer read line by line as it streams.
    pub fn stream(&self, path: &str, body: &serde_json::Value) -> LineStream {
        let body = body.to_string();
        let headers = [("Content-Type", "application/json")];
        LineStream::new(self.connect("POST", path, Some(&body), &headers))
    }

    /// A request with any headers (the `Host` header is added unless given).
    pub fn raw(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Response {
        let mut stream = self.connect(method, path, body, headers);
        let mut bytes = Vec::new();
        // A server that refuses a body it has not read (413) may reset the connection
        // after its answer; what arrived before the reset is the answer.
        if let Err(e) = stream.read_to_end(&mut bytes) {
            assert!(!bytes.is_empty(), "read the answer: {e}");
        }
        Response::parse(&bytes)
    }

    /// Opens a connection and sends a request; the answer is left to read.
    pub fn connect(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> TcpStream {
        let mut stream = TcpStream::connect(&self.address).expect("connect to agon serve");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("timeout");
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.address));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let body = body.unwrap_or("");
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        stream.write_all(head.as_bytes()).expect("send");
        if let Err(e) = stream.write_all(body.as_bytes()) {
            // The server may answer (413) and close before reading all of a large body:
            // its answer is still there to read.
            assert!(
                matches!(
                    e.kind(),
                    std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
                ),
                "send: {e}"
            );
        }
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (de-chunked).
    pub body: String,
}

impl Response {
    fn parse(bytes: &[u8]) -> Response {
        let text = String::from_utf8_lossy(bytes);
        let (head, rest) = text.split_once("\r\n\r\n").expect("a head and a body");
        let mut lines = head.lines();
        let status: u16 = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        Response {
            status,
            headers,
            body,
        }
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    /// The `error` message of a JSON error answer.
    #[track_caller]
    pub fn error(&self) -> String {
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error message: {}", self.body))
            .to_string()
    }

    /// Asserts an error status and returns the error message.
    #[track_caller]
    pub fn refusal(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        self.error()
    }

    /// Asserts the status and returns the JSON body.
    #[track_caller]
    pub fn expect(&self, status: u16) -> serde_json::Value {
        assert_eq!(self.status, status, "{}", self.body);
        self.json()
    }
}

/// The payload of a chunked body.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    loop {
        let Some((size, after)) = rest.split_once("\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || after.len() < size {
            return out;
        }
        out.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
}

/// Reads the lines of a streamed (chunked) answer one at a time.
pub struct LineStream {
    reader: BufReader<TcpStream>,
    pending: String,
    /// The status code.
    pub status: u16,
}

impl LineStream {
    /// Starts reading the answer on a connection (the head is consumed).
    pub fn new(stream: TcpStream) -> LineStream {
        let mut reader = BufReader::new(stream);
        let mut status = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            if status == 0 {
                status = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
            }
            if line == "\r\n" {
                break;
            }
        }
        LineStream {
            reader,
            pending: String::new(),
            status,
        }
    }

    /// The next line of the payload, or `None` at the end.
    pub fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(at) = self.pending.find('\n') {
                let line = self.pending[..at].to_string();
                self.pending.drain(..=at);
                return Some(line);
            }
            let mut size = String::new();
            if self.reader.read_line(&mut size).ok()? == 0 {
                return None;
            }
            let size = usize::from_str_radix(size.trim(), 16).ok()?;
            if size == 0 {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).ok()?;
            self.pending
                .push_str(&String::from_utf8_lossy(&chunk[..size]));
        }
    }
}
