//! A walk over an XML part's elements and text, entity references resolved, names without
//! their namespace prefix.

use crate::DocumentError;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

/// One step of the walk. An empty element (`<a:br/>`) is an `Open` directly followed by its
/// `Close`.
pub(crate) enum Step<'a, 'x> {
    Open(&'a Element<'x>),
    Close(&'a str),
    Text(&'a str),
}

/// An element's start tag.
pub(crate) struct Element<'x>(BytesStart<'x>);

impl Element<'_> {
    /// The local name (`t` for `<w:t>`).
    pub(crate) fn name(&self) -> &str {
        local(self.0.name().0)
    }

    /// The value of the attribute whose local name is `name` and whose prefix is `prefix`
    /// (`None`: no prefix).
    pub(crate) fn attr(&self, prefix: Option<&str>, name: &str) -> Option<String> {
        self.0
            .attributes()
            .with_checks(false)
            .flatten()
            .find_map(|a| {
                let key: &str = a.key.as_ref();
                let (p, n) = match key.split_once(':') {
                    Some((p, n)) => (Some(p), n),
                    None => (None, key),
                };
                (n == name && p.is_some() == prefix.is_some())
                    .then(|| {
                        a.normalized_value(XmlVersion::Implicit1_0)
                            .ok()
                            .map(|v| v.into_owned())
                    })
                    .flatten()
            })
    }
}

fn local(name: &str) -> &str {
    name.rsplit_once(':').map_or(name, |(_, n)| n)
}

/// Walks `xml`, calling `on` for every element and text.
pub(crate) fn walk(
    xml: &str,
    format: &'static str,
    mut on: impl FnMut(Step<'_, '_>),
) -> Result<(), DocumentError> {
    let mut reader = Reader::from_str(xml);
    loop {
        let event = reader
            .read_event()
            .map_err(|e| DocumentError::corrupt(format, format!("bad XML: {e}")))?;
        match event {
            Event::Start(start) => on(Step::Open(&Element(start))),
            Event::Empty(start) => {
                let element = Element(start);
                on(Step::Open(&element));
                on(Step::Close(element.name()));
            }
            Event::End(end) => on(Step::Close(local(end.name().0))),
            Event::Text(text) => on(Step::Text(&text.xml10_content())),
            Event::CData(text) => on(Step::Text(&text.xml10_content())),
            Event::GeneralRef(reference) => {
                if let Ok(Some(c)) = reference.resolve_char_ref() {
                    on(Step::Text(c.encode_utf8(&mut [0; 4])));
                } else if let Some(s) = resolve_predefined_entity(&reference.xml10_content()) {
                    on(Step::Text(s));
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}
