//! Walking a loaded PDF's page tree one page at a time ([`PageCursor`], made by
//! `Doc::pages` and `Doc::each_page`): without recursion, each node once, within the limits of
//! the document or of each page.

use super::{
    Doc, MAX_PAGES, MAX_STREAMED_PAGES, MAX_TOKENS, Obj, Page, Result, damaged, decode, get,
};
use std::collections::HashSet;

/// Where a walk of the page tree stands: the nodes still to visit.
pub struct PageCursor<'d, 'a> {
    pub(super) doc: &'d Doc<'a>,
    /// Each page has the limits on its own ([`Doc::each_page`]), not the document.
    pub(super) per_page: bool,
    pub(super) budget: usize,
    pub(super) visited: HashSet<u32>,
    pub(super) stack: Vec<(Obj, Option<Obj>)>,
    pub(super) count: usize,
}

impl PageCursor<'_, '_> {
    /// The next page, `None` after the last.
    pub fn next_page(&mut self) -> Result<Option<Page>> {
        let doc = self.doc;
        while let Some((node, inherited)) = self.stack.pop() {
            if let Obj::Ref(id) = node
                && !self.visited.insert(id)
            {
                return damaged("the page tree loops");
            }
            if self.per_page {
                doc.tokens.set(MAX_TOKENS);
                self.budget = doc.page_content;
            }
            let d = doc.dict(&node)?;
            let resources = get(&d, b"Resources").cloned().or(inherited);
            if let Some(kids) = get(&d, b"Kids") {
                let Obj::Array(kids) = doc.resolve(kids)? else {
                    return damaged("/Kids is not an array");
                };
                for k in kids.into_iter().rev() {
                    self.stack.push((k, resources.clone()));
                }
                continue;
            }
            match (self.count, self.per_page) {
                (MAX_PAGES, false) => return damaged("it has more than 1000 pages"),
                (MAX_STREAMED_PAGES, true) => {
                    return damaged("it has more than 10,000,000 pages");
                }
                _ => self.count += 1,
            }
            let fonts = match &resources {
                Some(r) => doc.fonts(r)?,
                None => Vec::new(),
            };
            let mut content = Vec::new();
            let parts = match get(&d, b"Contents").map(|c| doc.resolve_shallow(c)) {
                Some(Ok(Obj::Array(a))) => a,
                Some(Ok(o)) => vec![o],
                Some(Err(e)) => return Err(e),
                None => Vec::new(),
            };
            for part in parts {
                let Obj::Ref(id) = part else {
                    return damaged("a page's content is not a stream");
                };
                let (Obj::Dict(sd), Some(raw)) = doc.object(id)? else {
                    return damaged("a page's content is not a stream");
                };
                content.extend_from_slice(&decode(&sd, &raw, &mut self.budget)?);
                content.push(b'\n');
            }
            return Ok(Some(Page { fonts, content }));
        }
        Ok(None)
    }
}
