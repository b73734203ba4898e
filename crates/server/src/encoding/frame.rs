//! Compressed answers assembled from parts: a varying head and tail,
//! written per request as stored (uncompressed) blocks, around a middle
//! compressed once. Decompressed, the result is exactly head + middle +
//! tail, byte for byte.
//!
//! - gzip (RFC 1952 around RFC 1951 deflate): the middle is raw deflate
//!   ended by a sync flush (byte-aligned, not final); head and tail are
//!   stored blocks, the tail's final. Deflate distances never reach before
//!   the middle's own start, so what precedes it does not matter. The CRC
//!   of the whole is the head's, combined with the middle's (kept), then
//!   the tail's.
//! - brotli (RFC 7932): the middle is a "catable" bare stream (brotli's
//!   own mode for concatenation: no stream header, no static dictionary,
//!   no initial distances, its first two bytes stored so literal contexts
//!   never look before it, byte-aligned at both ends); head and tail are
//!   uncompressed meta-blocks, then an empty last meta-block.

use super::chunks::Chunks;
use bytes::Bytes;
use std::io::Write;

/// gzip level of a middle (zlib's default).
const GZIP_LEVEL: u32 = 6;
/// brotli quality of a middle: about gzip -9's size for a page of markets
/// at a few milliseconds, paid once per distinct answer.
const BROTLI_QUALITY: i32 = 5;
/// brotli window (log2 bytes), written in the stream header: 4 MiB.
const BROTLI_LGWIN: u32 = 22;
/// The largest block of stored bytes either format takes.
const STORED_MAX: usize = 65_535;

/// A middle compressed in both codings.
#[derive(Debug, Clone)]
pub struct Middle {
    /// Raw deflate, sync-flushed.
    pub deflate: Bytes,
    /// CRC-32 state of the uncompressed middle (to combine).
    pub crc: crc32fast::Hasher,
    pub len: usize,
    /// A catable, bare brotli stream.
    pub brotli: Bytes,
}

impl Middle {
    /// `None` if a compressor fails (the answer is then sent as is).
    pub fn compress(bytes: &[u8]) -> Option<Self> {
        let mut crc = crc32fast::Hasher::new();
        crc.update(bytes);
        Some(Self {
            deflate: deflate_sync(bytes)?,
            crc,
            len: bytes.len(),
            brotli: brotli_bare(bytes)?,
        })
    }

    /// Bytes held, for the cache's weight.
    pub fn weight(&self) -> usize {
        self.deflate.len() + self.brotli.len()
    }

    /// The gzip answer `head` + this middle + `tail`, in three pieces: the
    /// kept deflate is shared, not copied.
    pub fn gzip(&self, head: &[u8], tail: &[u8]) -> Chunks {
        let mut prefix = Vec::with_capacity(head.len() + 16);
        gzip_prefix(&mut prefix, head);
        let mut suffix = Vec::with_capacity(tail.len() + 16);
        gzip_suffix(
            &mut suffix,
            tail,
            self.crc_after(head),
            head.len() + self.len,
        );
        Chunks::new(prefix.into(), self.deflate.clone(), suffix.into())
    }

    /// The CRC-32 state of `head` followed by this middle.
    pub fn crc_after(&self, head: &[u8]) -> crc32fast::Hasher {
        let mut crc = crc32fast::Hasher::new();
        crc.update(head);
        crc.combine(&self.crc);
        crc
    }

    /// The brotli answer `head` + this middle + `tail`, in three pieces.
    /// `head` must not be empty: its meta-block also byte-aligns the
    /// stream header.
    pub fn brotli(&self, head: &[u8], tail: &[u8]) -> Chunks {
        let mut prefix = Vec::with_capacity(head.len() + 8);
        brotli_prefix(&mut prefix, head);
        let mut suffix = Vec::with_capacity(tail.len() + 8);
        brotli_suffix(&mut suffix, tail);
        Chunks::new(prefix.into(), self.brotli.clone(), suffix.into())
    }
}

/// The start of a gzip answer: its header, then `head` as stored blocks
/// (not final), byte-aligned for a kept middle to follow.
pub fn gzip_prefix(out: &mut Vec<u8>, head: &[u8]) {
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
    stored_deflate(out, head, false);
}

/// The end of a gzip answer: `tail` as the final stored block(s), then
/// the CRC-32 of the whole answer (`crc`: the state after everything
/// before `tail`) and its length (`len_before`: bytes before `tail`).
pub fn gzip_suffix(out: &mut Vec<u8>, tail: &[u8], mut crc: crc32fast::Hasher, len_before: usize) {
    stored_deflate(out, tail, true);
    crc.update(tail);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    // ISIZE is the length modulo 2^32 (RFC 1952).
    out.extend_from_slice(&((len_before + tail.len()) as u32).to_le_bytes());
}

/// The start of a brotli answer: the stream header and `head` (not
/// empty: its meta-block byte-aligns the header) as uncompressed
/// meta-blocks, for a kept catable middle to follow.
pub fn brotli_prefix(out: &mut Vec<u8>, head: &[u8]) {
    // WBITS for a window of 2^22: 4 bits, (22 - 17) << 1 | 1.
    stored_brotli(out, head, ((BROTLI_LGWIN - 17) << 1 | 1, 4));
}

/// The end of a brotli answer: `tail` as uncompressed meta-blocks, then
/// an empty last meta-block.
pub fn brotli_suffix(out: &mut Vec<u8>, tail: &[u8]) {
    stored_brotli(out, tail, (0, 0));
    // ISLAST, ISLASTEMPTY.
    out.push(0b11);
}

/// Raw deflate of `bytes`, sync-flushed so that more blocks may follow.
fn deflate_sync(bytes: &[u8]) -> Option<Bytes> {
    let mut compress = flate2::Compress::new(flate2::Compression::new(GZIP_LEVEL), false);
    let mut out = Vec::with_capacity(bytes.len() / 3 + 64);
    loop {
        let consumed = usize::try_from(compress.total_in()).ok()?;
        if out.capacity() - out.len() < 64 {
            out.reserve(out.capacity().max(4096));
        }
        compress
            .compress_vec(
                bytes.get(consumed..)?,
                &mut out,
                flate2::FlushCompress::Sync,
            )
            .ok()?;
        // zlib's rule: the flush is complete when, with all input taken,
        // a call leaves room in the output. (Calling again would add one
        // more empty block per call.)
        if compress.total_in() == bytes.len() as u64 && out.len() < out.capacity() {
            return Some(Bytes::from(out));
        }
    }
}

/// A catable, bare brotli stream of `bytes`.
fn brotli_bare(bytes: &[u8]) -> Option<Bytes> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY,
        lgwin: BROTLI_LGWIN as i32,
        catable: true,
        bare_stream: true,
        size_hint: bytes.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(bytes.len() / 3 + 64);
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).ok()?;
    Some(Bytes::from(out))
}

/// `bytes` as deflate stored blocks (byte-aligned), the last one final if
/// `last` (an empty final block when `bytes` is empty).
fn stored_deflate(out: &mut Vec<u8>, bytes: &[u8], last: bool) {
    let mut chunks = bytes.chunks(STORED_MAX).peekable();
    if chunks.peek().is_none() {
        if last {
            out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
        }
        return;
    }
    while let Some(chunk) = chunks.next() {
        let len = chunk.len() as u16;
        out.push(u8::from(last && chunks.peek().is_none()));
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(chunk);
    }
}

/// `bytes` as brotli uncompressed meta-blocks, the first preceded by
/// `lead` (bits, count: the stream header), which with the 20 header bits
/// must fill whole bytes (4 bits, or none when byte-aligned already).
fn stored_brotli(out: &mut Vec<u8>, bytes: &[u8], lead: (u32, u32)) {
    let (mut lead_bits, mut lead_len) = lead;
    for chunk in bytes.chunks(STORED_MAX) {
        // ISLAST = 0, MNIBBLES = 4 (code 0), MLEN - 1 in 16 bits,
        // ISUNCOMPRESSED = 1, then zeros to the byte boundary.
        let header = ((chunk.len() as u32 - 1) << 3) | (1 << 19);
        let bits = lead_bits | (header << lead_len);
        let len = (lead_len + 20).div_ceil(8) as usize;
        out.extend_from_slice(&bits.to_le_bytes()[..len]);
        out.extend_from_slice(chunk);
        (lead_bits, lead_len) = (0, 0);
    }
}

/// `bytes` gzip-compressed whole (the proxy's stored entries).
pub fn gzip_whole(bytes: &[u8]) -> Option<Bytes> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        flate2::Compression::new(GZIP_LEVEL),
    );
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

/// `bytes` brotli-compressed whole (the proxy's stored entries).
pub fn brotli_whole(bytes: &[u8]) -> Option<Bytes> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: BROTLI_QUALITY,
        lgwin: BROTLI_LGWIN as i32,
        size_hint: bytes.len(),
        ..Default::default()
    };
    let mut out = Vec::with_capacity(bytes.len() / 4 + 64);
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params).ok()?;
    Some(Bytes::from(out))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Read;

    pub(crate) fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    pub(crate) fn unbrotli(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(bytes, 4096)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    /// Text like an answer's: repetitive JSON, and some bytes that do not
    /// repeat.
    fn sample(n: usize) -> Vec<u8> {
        let mut out = b"{\"items\":[".to_vec();
        let mut x = 7u64;
        for i in 0..n {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            out.extend_from_slice(
                format!(
                    "{{\"id\":\"m_{i}\",\"price\":0.{:02},\"salt\":{x}}},",
                    x % 97
                )
                .as_bytes(),
            );
        }
        out
    }

    #[test]
    fn parts_decompress_to_the_whole_in_both_codings() {
        // Heads ending in every kind of byte (brotli's literal contexts
        // read the two bytes before), tails empty or not, middles from a
        // few bytes to more than one stored block and one deflate window.
        let heads: [&[u8]; 4] = [
            b"{",
            b"{\"pagination\":{\"next_cursor\":\"AbC\"}",
            b"\x00\xff",
            &[b'z'; 70_000],
        ];
        let tails: [&[u8]; 3] = [b"", b"\"meta\":{\"request_time\":0.013}}", &[b'q'; 66_000]];
        for middle in [b"x".to_vec(), sample(40), sample(2_000)] {
            let compressed = Middle::compress(&middle).unwrap();
            for head in heads {
                for tail in tails {
                    let whole = [head, &middle[..], tail].concat();
                    assert_eq!(gunzip(&compressed.gzip(head, tail).concat()), whole);
                    assert_eq!(unbrotli(&compressed.brotli(head, tail).concat()), whole);
                }
            }
        }
    }

    #[test]
    fn middles_are_compressed() {
        let middle = sample(2_000);
        let compressed = Middle::compress(&middle).unwrap();
        assert!(
            compressed.deflate.len() < middle.len() / 2,
            "{}",
            compressed.deflate.len()
        );
        assert!(
            compressed.brotli.len() < middle.len() / 2,
            "{}",
            compressed.brotli.len()
        );
    }

    #[test]
    fn wholes_round_trip() {
        let body = sample(100);
        assert_eq!(gunzip(&gzip_whole(&body).unwrap()), body);
        assert_eq!(unbrotli(&brotli_whole(&body).unwrap()), body);
    }
}
