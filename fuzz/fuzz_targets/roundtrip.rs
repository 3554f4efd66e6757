//! Whatever any reader accepts must survive writing and reading back: through RTTM the
//! segments and speakers stay identical; through every other writable format that holds the
//! recording, the annotation read back equals the one written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::{read_bytes, read_str, write, Format, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(first) = read_bytes(data, None, None, &overtalk_fuzz::read_options()) else { return };
    // What overtalk wrote is read back without the fuzzing limits: it may be larger than the input.
    let options = ReadOptions::default();
    let mut rttm = Vec::new();
    // Speaker labels with spaces or empty ones are rewritten by the RTTM writer (with a
    // warning); compare only when the writer changed nothing.
    let Ok(warnings) = write(&first.corpus, Format::Rttm, &mut rttm) else { return };
    if !warnings.is_empty() {
        return;
    }
    let text = String::from_utf8(rttm).expect("RTTM writer emits UTF-8");
    let second = read_str(&text, Format::Rttm, &options).expect("RTTM written by overtalk reads back");
    for (id, t) in first.corpus.iter() {
        if t.annotation().is_empty() {
            continue;
        }
        let back = second.corpus.get(id).expect("recording survives RTTM");
        assert_eq!(back.annotation().tracks().len(), t.annotation().tracks().len());
        for (a, b) in back.annotation().tracks().iter().zip(t.annotation().tracks()) {
            assert_eq!(a.segment, b.segment);
            assert_eq!(back.annotation().speaker_name(a.speaker), t.annotation().speaker_name(b.speaker));
        }
    }
    let mut json = Vec::new();
    if write(&first.corpus, Format::Json, &mut json).is_ok() {
        let again = read_bytes(&json, None, Some(Format::Json), &options).expect("own JSON reads back");
        assert_eq!(again.corpus, first.corpus);
    }
});
