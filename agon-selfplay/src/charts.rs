//! Charts (placeholder until the plotting module lands).

use crate::error::Result;
use crate::row::GameRow;
use crate::summary::Summary;
use std::path::Path;

/// Writes the charts of a summary into `dir`.
pub fn write_charts(_dir: &Path, _summary: &Summary, _rows: &[GameRow]) -> Result<()> {
    Ok(())
}
