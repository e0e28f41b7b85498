//! Workbooks (XLSX, XLS, ODS) through calamine: a unit per sheet, named after it, its used
//! range as tab-separated rows.

use crate::archive::check_bytes;
use crate::format::Format;
use crate::render::Unit;
use crate::run::Limits;
use crate::DocumentError;
use calamine::{open_workbook_auto_from_rs, Data, Error as SheetError, Reader};
use std::io::Cursor;

pub(crate) fn sheets(
    bytes: &[u8],
    format: Format,
    limits: &Limits,
) -> Result<Vec<Unit>, DocumentError> {
    let name = format.as_str();
    if format.is_zip() {
        check_bytes(bytes, name, limits)?;
    }
    let mut workbook =
        open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|e| sheet_error(name, e))?;
    let mut units = Vec::new();
    for (index, sheet) in workbook.sheet_names().into_iter().enumerate() {
        let range = workbook
            .worksheet_range(&sheet)
            .map_err(|e| sheet_error(name, e))?;
        let mut text = String::new();
        for row in range.rows() {
            let cells: Vec<String> = row.iter().map(cell).collect();
            text.push_str(cells.join("\t").trim_end_matches('\t'));
            text.push('\n');
        }
        let mut unit = Unit::numbered(index + 1, text);
        unit.name = Some(sheet);
        units.push(unit);
    }
    Ok(units)
}

/// A cell as one line of text: tabs and line breaks inside it become spaces.
fn cell(data: &Data) -> String {
    data.to_string()
        .chars()
        .map(|c| {
            if matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

fn sheet_error(format: &'static str, error: SheetError) -> DocumentError {
    let message = error.to_string();
    if message.contains("password protected") || message.contains("encrypted") {
        DocumentError::Encrypted
    } else {
        DocumentError::corrupt(format, message)
    }
}
