//! Word documents (one unit) and PowerPoint decks (a unit per slide, in presentation order,
//! with the speaker notes), read from their XML parts.

mod flow;
mod xml;

use crate::archive::Archive;
use crate::render::Unit;
use crate::run::Limits;
use crate::text::tidy;
use crate::DocumentError;
use flow::flow;
use xml::{walk, Step};

pub(crate) fn docx(bytes: &[u8], limits: &Limits) -> Result<Vec<Unit>, DocumentError> {
    let mut archive = Archive::open(bytes, "docx", limits)?;
    let body = archive
        .text("word/document.xml")?
        .ok_or_else(|| DocumentError::corrupt("docx", "it has no word/document.xml"))?;
    let mut text = flow(&body, "docx")?.text;
    for part in ["word/footnotes.xml", "word/endnotes.xml"] {
        if let Some(notes) = archive.text(part)? {
            let notes = flow(&notes, "docx")?.text;
            if !notes.trim().is_empty() {
                text.push_str("\n\n");
                text.push_str(&notes);
            }
        }
    }
    Ok(vec![Unit::numbered(1, tidy(&text))])
}

pub(crate) fn pptx(bytes: &[u8], limits: &Limits) -> Result<Vec<Unit>, DocumentError> {
    let mut archive = Archive::open(bytes, "pptx", limits)?;
    let mut units = Vec::new();
    for (index, slide) in slide_parts(&mut archive)?.into_iter().enumerate() {
        let Some(xml) = archive.text(&slide)? else {
            return Err(DocumentError::corrupt(
                "pptx",
                format!(
                    "slide {} is {slide}, which the file does not have",
                    index + 1
                ),
            ));
        };
        let content = flow(&xml, "pptx")?;
        let mut text = tidy(&content.text);
        if let Some(notes) = notes_part(&mut archive, &slide)? {
            let notes = tidy(&flow(&notes, "pptx")?.text);
            if !notes.trim().is_empty() {
                text.push_str("\n[notes]\n");
                text.push_str(&notes);
            }
        }
        let mut unit = Unit::numbered(index + 1, text);
        unit.name = content.title;
        units.push(unit);
    }
    Ok(units)
}

/// The slide parts in the order `ppt/presentation.xml` lists them.
fn slide_parts(archive: &mut Archive<'_>) -> Result<Vec<String>, DocumentError> {
    let presentation = archive
        .text("ppt/presentation.xml")?
        .ok_or_else(|| DocumentError::corrupt("pptx", "it has no ppt/presentation.xml"))?;
    let mut ids = Vec::new();
    walk(&presentation, "pptx", |step| {
        if let Step::Open(element) = step {
            if element.name() == "sldId" {
                ids.extend(element.attr(Some("r"), "id"));
            }
        }
    })?;
    let rels = relationships(archive, "ppt/_rels/presentation.xml.rels")?;
    ids.iter()
        .enumerate()
        .map(|(index, id)| {
            rels.iter()
                .find(|r| &r.id == id)
                .map(|r| resolve("ppt", &r.target))
                .ok_or_else(|| {
                    DocumentError::corrupt(
                        "pptx",
                        format!("slide {} links to `{id}`, which names no part", index + 1),
                    )
                })
        })
        .collect()
}

/// The notes part of `slide` (`ppt/slides/slide3.xml`), if it has one.
fn notes_part(archive: &mut Archive<'_>, slide: &str) -> Result<Option<String>, DocumentError> {
    let (folder, file) = slide.rsplit_once('/').unwrap_or(("", slide));
    let rels = relationships(archive, &format!("{folder}/_rels/{file}.rels"))?;
    match rels.iter().find(|r| r.kind.ends_with("/notesSlide")) {
        Some(notes) => archive.text(&resolve(folder, &notes.target)),
        None => Ok(None),
    }
}

struct Relationship {
    id: String,
    kind: String,
    target: String,
}

fn relationships(
    archive: &mut Archive<'_>,
    part: &str,
) -> Result<Vec<Relationship>, DocumentError> {
    let Some(xml) = archive.text(part)? else {
        return Ok(Vec::new());
    };
    let mut rels = Vec::new();
    walk(&xml, "pptx", |step| {
        if let Step::Open(element) = step {
            if element.name() == "Relationship" {
                rels.push(Relationship {
                    id: element.attr(None, "Id").unwrap_or_default(),
                    kind: element.attr(None, "Type").unwrap_or_default(),
                    target: element.attr(None, "Target").unwrap_or_default(),
                });
            }
        }
    })?;
    Ok(rels)
}

/// `target` relative to `folder` inside the archive (`..` steps up; `/x` is from the root).
fn resolve(folder: &str, target: &str) -> String {
    if let Some(absolute) = target.strip_prefix('/') {
        return absolute.to_string();
    }
    let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    for step in target.split('/') {
        match step {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            other => parts.push(other),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn targets_resolve_against_their_folder() {
        assert_eq!(resolve("ppt", "slides/slide1.xml"), "ppt/slides/slide1.xml");
        assert_eq!(
            resolve("ppt/slides", "../notesSlides/notesSlide2.xml"),
            "ppt/notesSlides/notesSlide2.xml"
        );
        assert_eq!(resolve("ppt/slides", "/ppt/x.xml"), "ppt/x.xml");
    }
}
