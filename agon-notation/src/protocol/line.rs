//! Reading protocol lines with a length cap: a peer that never sends a line break cannot
//! make the reader hold more than [`MAX_LINE`] bytes.

use std::io::{self, BufRead};

/// The longest line either side has to accept, in bytes (a `position` command of a
/// 100 000-ply game fits).
pub const MAX_LINE: usize = 1 << 20;

/// One line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line without its line break (`\n` or `\r\n`); bytes that are not UTF-8 become
    /// U+FFFD.
    Text(String),
    /// A line longer than the cap: its bytes were read and dropped; this is its length.
    TooLong(usize),
}

/// Reads one line of at most `max` bytes (counting a `\r` before the `\n`). Returns `None`
/// at the end of the input (a last line without a line break is still returned).
///
/// ```
/// use agon_notation::protocol::{read_line, Line};
/// let mut input = &b"isready\r\nxxxxxxxx\nquit"[..];
/// assert_eq!(read_line(&mut input, 8).unwrap(), Some(Line::Text("isready".into())));
/// assert_eq!(read_line(&mut input, 7).unwrap(), Some(Line::TooLong(8)));
/// assert_eq!(read_line(&mut input, 7).unwrap(), Some(Line::Text("quit".into())));
/// assert_eq!(read_line(&mut input, 7).unwrap(), None);
/// ```
pub fn read_line(reader: &mut impl BufRead, max: usize) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    let mut seen_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        let used = chunk.len() + usize::from(found);
        length += chunk.len();
        if length <= max {
            bytes.extend_from_slice(chunk);
        } else if !bytes.is_empty() {
            bytes = Vec::new();
        }
        reader.consume(used);
        if found {
            break;
        }
    }
    if length > max {
        return Ok(Some(Line::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&bytes).into_owned(),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    fn lines(input: &[u8], max: usize, buffer: usize) -> Vec<Line> {
        let mut reader = BufReader::with_capacity(buffer, input);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, max).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn lines_split_on_line_breaks_whatever_the_buffer_size() {
        let input = b"agon\r\n\nisready\nposition startpos\nquit";
        for buffer in [1, 2, 3, 7, 64] {
            assert_eq!(
                lines(input, 100, buffer),
                [
                    Line::Text("agon".into()),
                    Line::Text(String::new()),
                    Line::Text("isready".into()),
                    Line::Text("position startpos".into()),
                    Line::Text("quit".into()),
                ],
                "buffer {buffer}"
            );
        }
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let mut input = vec![b'x'; 10_000];
        input.extend_from_slice(b"\nisready\n");
        for buffer in [1, 5, 8192] {
            assert_eq!(
                lines(&input, 100, buffer),
                [Line::TooLong(10_000), Line::Text("isready".into())]
            );
        }
        assert_eq!(
            lines(b"12345\n123456\n", 5, 4),
            [Line::Text("12345".into()), Line::TooLong(6)]
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced() {
        assert_eq!(
            lines(b"go \xff\n", 100, 8),
            [Line::Text("go \u{fffd}".into())]
        );
    }
}
