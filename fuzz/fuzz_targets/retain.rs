//! Retained input: a reader that retains its input lends exactly the input's bytes at the
//! offsets it reports, whatever the sizes of the reads and wherever the caller releases;
//! retaining changes nothing the reader reports; it never keeps more than its limit; and
//! at the limit the rest of the input comes back whole (`Reader::into_rest`).
//!
//! The first four bytes are the parameters: a seed for the read sizes and release points,
//! and the retention limit (small limits make the reader stop early).
#![no_main]

use agon_notation::{Location, Reader, SyntaxError, Visitor};
use libfuzzer_sys::fuzz_target;
use std::io::{self, Read};

/// Every place the reader reports, in order.
#[derive(Default)]
struct Places(Vec<Location>);

impl Visitor for Places {
    fn begin_game(&mut self, at: Location) {
        self.0.push(at);
    }
    fn syntax_error(&mut self, error: SyntaxError) {
        self.0.push(error.at);
    }
    fn end_game(&mut self, at: Location) {
        self.0.push(at);
    }
}

/// A small deterministic generator (xorshift) for read sizes and release points.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Hands out the input in reads of random sizes (1 byte to 2 KiB).
struct Chunks<'a> {
    input: &'a [u8],
    dice: Dice,
}

impl Read for Chunks<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.dice.below(2048) as usize)
            .min(out.len())
            .min(self.input.len());
        out[..n].copy_from_slice(&self.input[..n]);
        self.input = &self.input[n..];
        Ok(n)
    }
}

fn places(mut reader: Reader<impl Read>) -> Vec<Location> {
    let mut places = Places::default();
    while reader.read_game(&mut places).expect("reads from memory") {}
    places.0
}

fuzz_target!(|data: &[u8]| {
    let Some((params, input)) = data.split_first_chunk::<4>() else {
        return;
    };
    let seed = u64::from(u16::from_le_bytes([params[0], params[1]])) | 1;
    let limit = match u16::from_le_bytes([params[2], params[3]]) {
        0 => usize::MAX,
        n => usize::from(n),
    };
    let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut reader = Reader::new(Chunks {
        input,
        dice: Dice(seed),
    });
    reader.retain_from(0, limit);
    let mut from = 0u64;
    let mut reported = Places::default();
    loop {
        let mut game = Places::default();
        let more = reader.read_game(&mut game).expect("reads from memory");
        let read = reader.bytes_read();
        assert!(read <= input.len() as u64);
        assert!(read - from <= limit as u64, "at most the limit is kept");
        // Every retained range reads as the input there; others are refused.
        for _ in 0..4 {
            let start = from + dice.below(read - from + 1);
            let end = start + dice.below(read - start + 1);
            let lent = reader.retained(start..end).expect("a retained range");
            assert_eq!(lent, &input[start as usize..end as usize]);
        }
        if from > 0 {
            assert!(reader.retained(from - 1..read).is_none());
        }
        assert!(reader.retained(from..read + 1).is_none());
        // The game itself, as a caller cuts it.
        if let (Some(first), Some(last)) = (game.0.first(), game.0.last()) {
            assert!(first.offset >= from, "a game starts after what was released");
            let lent = reader.retained(first.offset..last.offset).expect("the game");
            assert_eq!(lent, &input[first.offset as usize..last.offset as usize]);
        }
        reported.0.extend(game.0);
        if reader.retention_full() || !more {
            break;
        }
        // Release somewhere up to the next unread byte (what the reader still looks at
        // must stay, whatever the caller releases).
        let next = reader.location().offset;
        from += dice.below(next - from + 1);
        reader.release(from);
    }
    if reader.retention_full() {
        assert!(reader.bytes_read() - from >= limit as u64 && !reader.input_ended());
    } else {
        assert!(reader.input_ended());
        assert_eq!(reported.0, places(Reader::new(input)), "retention changes nothing");
    }
    let mut rest = Vec::new();
    reader
        .into_rest(from)
        .expect("the retained offset")
        .read_to_end(&mut rest)
        .expect("reads from memory");
    assert_eq!(rest, &input[from as usize..]);
});
