//! stub
use crate::error::{Result, Warning};
use crate::format::ReadContext;
use crate::model::Corpus;
use std::io::Write;
/// Reads.
pub fn read_csv(_text: &str, _ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    Ok(Corpus::new())
}
/// Reads.
pub fn read_tsv(_text: &str, _ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    Ok(Corpus::new())
}
/// Writes.
pub fn write_csv(_c: &Corpus, _out: &mut dyn Write) -> Result<Vec<Warning>> {
    Ok(Vec::new())
}
/// Writes.
pub fn write_tsv(_c: &Corpus, _out: &mut dyn Write) -> Result<Vec<Warning>> {
    Ok(Vec::new())
}
