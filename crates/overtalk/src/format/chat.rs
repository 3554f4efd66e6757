//! TalkBank CHAT.
use crate::error::{Result, Warning};
use crate::format::ReadContext;
use crate::model::Corpus;
use std::io::Write;
/// Reads CHAT.
pub fn read(_text: &str, _ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    Err(crate::Error::unsupported("chat"))
}
/// Writes CHAT.
pub fn write(_c: &Corpus, _out: &mut dyn Write) -> Result<Vec<Warning>> {
    Err(crate::Error::unsupported("chat"))
}
