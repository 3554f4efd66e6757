//! The few encodings a self-contained HTML file needs: HTML escaping, JSON that cannot close
//! its `<script>` element, base64 (embedded audio, CSP hashes) and SHA-256 (CSP hashes).

/// Escapes text for HTML element content and quoted attribute values alike.
///
/// ```
/// use overtalk::report::escape;
/// assert_eq!(escape("\"><img src=x>"), "&quot;&gt;&lt;img src=x&gt;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Makes serialised JSON safe inside `<script type="application/json">`: `<`, `>` and `&`
/// become `\u003c`, `\u003e`, `\u0026` (they only occur inside strings, where the escape is
/// the same character), so no `</script>` or `<!--` can appear; U+2028/U+2029 are escaped too.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

use base64::Engine as _;
use sha2::Digest as _;

/// Standard base64 with padding (RFC 4648 §4), for embedded audio and CSP hashes.
pub fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// SHA-256 (FIPS 180-4) of `data`: what a Content-Security-Policy hash source names.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    sha2::Sha256::digest(data).into()
}

/// The CSP hash source of an inline element's exact text: `'sha256-…'`.
pub fn csp_hash(text: &str) -> String {
    format!("'sha256-{}'", base64(&sha256(text.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn sha256_known_vectors() {
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        let million = vec![b'a'; 1_000_000];
        assert_eq!(
            hex(&sha256(&million)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn base64_rfc4648_vectors() {
        let cases =
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")];
        for (i, o) in cases {
            assert_eq!(base64(i.as_bytes()), o);
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }

    #[test]
    fn script_json_cannot_close_the_element() {
        let s = serde_json::to_string("</script><script>alert(1)</script><!--&\u{2028}").unwrap();
        let safe = script_json(&s);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><script>alert(1)</script><!--&\u{2028}");
    }

    #[test]
    fn escape_covers_text_and_attributes() {
        assert_eq!(escape("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    }
}
