//! One builder for the RIFF/WAVE (and RF64) files the tests write by hand: a plain file from
//! its format fields and samples, then the one chunk or field a test changes (a size left as
//! a placeholder, a chunk added before another, moved first or read back from a real file).

use std::path::Path;

/// A RIFF/WAVE file as its chunks in file order, written by [`Wav::bytes`] with each chunk's
/// true size unless a size is set to something else, and a pad byte after an odd chunk that
/// is not the last (a file may end on an odd byte, as many writers leave it).
#[derive(Clone, Debug)]
pub struct Wav {
    /// `RIFF`, or `RF64` for the 64-bit form.
    magic: [u8; 4],
    chunks: Vec<([u8; 4], Vec<u8>)>,
    /// The RIFF size written instead of the true one.
    riff_size: Option<u32>,
    /// The `data` chunk's size written instead of its true one.
    data_size: Option<u32>,
}

impl Wav {
    /// A file of format `tag` with the plain 16-byte `fmt ` chunk (as Python's `wave` and many
    /// recorders write it): `channels` at `rate` Hz in blocks of `block` bytes (the byte rate
    /// is `rate × block`), `bits` per sample, and `data` as the `data` chunk.
    pub fn new(tag: u16, channels: u16, rate: u32, block: u16, bits: u16, data: &[u8]) -> Wav {
        let mut fmt = Vec::with_capacity(16);
        fmt.extend_from_slice(&tag.to_le_bytes());
        fmt.extend_from_slice(&channels.to_le_bytes());
        fmt.extend_from_slice(&rate.to_le_bytes());
        fmt.extend_from_slice(&(rate * u32::from(block)).to_le_bytes());
        fmt.extend_from_slice(&block.to_le_bytes());
        fmt.extend_from_slice(&bits.to_le_bytes());
        Wav::with_fmt(fmt, data)
    }

    /// 16-bit PCM (format tag 1) of `channels` interleaved `samples`.
    pub fn pcm16(rate: u32, channels: u16, samples: &[i16]) -> Wav {
        let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
        Wav::new(1, channels, rate, channels * 2, 16, &data)
    }

    /// A file whose `fmt ` chunk body is `fmt` as given (an extensible header, odd fields).
    pub fn with_fmt(fmt: Vec<u8>, data: &[u8]) -> Wav {
        Wav {
            magic: *b"RIFF",
            chunks: vec![(*b"fmt ", fmt), (*b"data", data.to_vec())],
            riff_size: None,
            data_size: None,
        }
    }

    /// The chunks of a file's bytes (one hound wrote, say), each body as long as its size says
    /// or as the bytes go.
    pub fn parse(bytes: &[u8]) -> Wav {
        let mut chunks = Vec::new();
        let mut at = 12;
        while at + 8 <= bytes.len() {
            let id = [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]];
            let size =
                u32::from_le_bytes([bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7]]);
            let size = size as usize;
            chunks.push((id, bytes[at + 8..(at + 8 + size).min(bytes.len())].to_vec()));
            at += 8 + size + (size & 1);
        }
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        Wav { magic, chunks, riff_size: None, data_size: None }
    }

    /// The body of the first chunk `id`.
    pub fn chunk(&self, id: &[u8; 4]) -> Option<&[u8]> {
        self.chunks.iter().find(|(c, _)| c == id).map(|(_, body)| body.as_slice())
    }

    /// `extra` after the `fmt ` chunk's 16 bytes: an extension size (`cbSize`), and what it
    /// counts (an extensible header's valid bits, channel mask and sub-format GUID).
    pub fn fmt_extension(mut self, extra: &[u8]) -> Wav {
        let fmt = self.chunks.iter_mut().find(|(c, _)| c == b"fmt ").unwrap();
        fmt.1.extend_from_slice(extra);
        self
    }

    /// `RF64` (or any other four bytes) in place of `RIFF`.
    pub fn magic(mut self, magic: &[u8; 4]) -> Wav {
        self.magic = *magic;
        self
    }

    /// The RIFF size written as `size`.
    pub fn riff_size(mut self, size: u32) -> Wav {
        self.riff_size = Some(size);
        self
    }

    /// The `data` chunk's size written as `size` (its bytes unchanged).
    pub fn data_size(mut self, size: u32) -> Wav {
        self.data_size = Some(size);
        self
    }

    /// The RIFF and `data` sizes both written as `size` (0 or 0xFFFFFFFF: what a streaming
    /// recorder or `ffmpeg -f wav -` to a pipe leaves).
    pub fn placeholder_sizes(self, size: u32) -> Wav {
        self.riff_size(size).data_size(size)
    }

    /// A chunk `id` holding `body`, put before the first chunk `before`.
    pub fn insert_before(mut self, before: &[u8; 4], id: &[u8; 4], body: &[u8]) -> Wav {
        let at = self.chunks.iter().position(|(c, _)| c == before).unwrap();
        self.chunks.insert(at, (*id, body.to_vec()));
        self
    }

    /// The chunks `ids`, in that order, and no others.
    pub fn only(mut self, ids: &[&[u8; 4]]) -> Wav {
        self.chunks = ids
            .iter()
            .map(|id| self.chunks.iter().find(|(c, _)| c == *id).unwrap().clone())
            .collect();
        self
    }

    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut body = b"WAVE".to_vec();
        for (i, (id, chunk)) in self.chunks.iter().enumerate() {
            let size = match self.data_size {
                Some(size) if id == b"data" => size,
                _ => chunk.len() as u32,
            };
            body.extend_from_slice(id);
            body.extend_from_slice(&size.to_le_bytes());
            body.extend_from_slice(chunk);
            if chunk.len() % 2 == 1 && i + 1 < self.chunks.len() {
                body.push(0);
            }
        }
        let mut b = self.magic.to_vec();
        b.extend_from_slice(&self.riff_size.unwrap_or(body.len() as u32).to_le_bytes());
        b.extend_from_slice(&body);
        b
    }

    /// Writes the file's bytes to `path`.
    pub fn write(&self, path: &Path) {
        std::fs::write(path, self.bytes()).unwrap();
    }
}
