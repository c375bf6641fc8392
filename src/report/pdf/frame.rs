//! printpdf's frame of a document of many empty pages, made from its frame of one page: the
//! bytes printpdf gives for `total` pages (a test holds them to printpdf's own, page counts
//! from 1 to hundreds), without printpdf holding `total` pages in memory (it took about 16 KB
//! a page, 1.1 GB for the acta of a million acceptances). The frame's shape, as printpdf
//! numbers its objects for one page:
//!
//! ```text
//! 1, 2        the two fonts            (their descriptors and streams: 9 to 14)
//! 3           the page tree            /Count 1/Kids[18 0 R]
//! 4 to 7      outlines, info, the optional content's usage and intent
//! 8           the page's optional content group
//! 9 to 15     the fonts' streams and descriptors, the fonts' dictionary
//! 16, 17, 18  the page's resources, contents and page
//! 19          the catalog                /OCGs[8 0 R] ... /ON[8 0 R]
//! 20          the cross-reference stream
//! ```
//!
//! For `total` pages, 8 and 16 to 18 repeat once a page, what follows each is renumbered, and
//! the page tree and the catalog list every page's objects.

/// The one-page frame's objects: each one's bytes, from `N 0 obj` to the next object.
struct Template<'a> {
    objects: Vec<&'a [u8]>,
    /// The bytes after the cross-reference stream's entries (`\nendstream ... %%EOF`).
    tail: &'a [u8],
    /// The cross-reference stream's dictionary, from `20 0 obj` to its `stream\n`.
    xref_head: &'a [u8],
}

/// Objects in the one-page frame (the 20th is the cross-reference stream).
const OBJECTS: usize = 20;
/// The per-page objects of the one-page frame: its optional content group, resources,
/// contents and page.
const OCG: usize = 8;
const PAGE: [usize; 3] = [16, 17, 18];

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl<'a> Template<'a> {
    /// The one-page frame cut into its objects, or `None` if it is not the shape above.
    fn read(one: &'a [u8]) -> Option<Template<'a>> {
        let sx = find(&one[one.len().saturating_sub(64)..], b"startxref\n")?
            + one.len().saturating_sub(64);
        let digits = one[sx + 10..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let xref: usize = std::str::from_utf8(&one[sx + 10..sx + 10 + digits])
            .ok()?
            .parse()
            .ok()?;
        let head_end = xref + find(&one[xref..], b">>stream\n")? + 9;
        let entries = one.get(head_end..head_end + 7 * OBJECTS)?;
        let mut offsets = Vec::with_capacity(OBJECTS + 1);
        for (k, e) in entries.chunks_exact(7).enumerate() {
            if e[0] != 1 || e[5..] != [0, 0] {
                return None;
            }
            let at = u32::from_be_bytes([e[1], e[2], e[3], e[4]]) as usize;
            if !one
                .get(at..)?
                .starts_with(format!("{} 0 obj\n", k + 1).as_bytes())
            {
                return None;
            }
            offsets.push(at);
        }
        if offsets.windows(2).any(|w| w[0] >= w[1]) || offsets[OBJECTS - 1] != xref {
            return None;
        }
        offsets.push(head_end);
        let objects: Vec<&[u8]> = offsets.windows(2).map(|w| &one[w[0]..w[1]]).collect();
        let expect = |k: usize, what: &[u8]| find(objects[k - 1], what).is_some();
        let shaped = one.starts_with(b"%PDF-1.3\n")
            && offsets[0] == 9
            && expect(3, b"<</Type/Pages/Count 1/Kids[18 0 R]>>")
            && expect(OCG, b"/Type/OCG/Name(")
            && expect(18, b"/Type/Page/")
            && expect(19, b"/Type/Catalog/")
            && expect(
                OBJECTS,
                b"/Type/XRef/Size 21/W[1 4 2]/Index[1 20]/Length 140>>",
            );
        shaped.then_some(Template {
            xref_head: objects[OBJECTS - 1],
            objects,
            tail: &one[head_end + 7 * OBJECTS..],
        })
    }
}

/// Where object `t` of the one-page frame goes in a frame of `total` pages, for page `page`
/// (the per-page objects), or for every page (`None`: a shared object's reference to a
/// per-page object names them all).
fn renumbered(t: usize, total: usize, page: Option<usize>) -> Vec<usize> {
    let d = total - 1;
    let each = |f: &dyn Fn(usize) -> usize| match page {
        Some(i) => vec![f(i)],
        None => (0..total).map(f).collect(),
    };
    match t {
        1..=7 => vec![t],
        OCG => each(&|i| OCG + i),
        16..=18 => each(&|i| t + d + 3 * i),
        _ => vec![t + if t < 16 { d } else { 4 * d }],
    }
}

/// `bytes` (an object's dictionary) with every `N 0 R` renumbered for page `page`.
fn references(bytes: &[u8], total: usize, page: Option<usize>, out: &mut Vec<u8>) {
    let mut rest = bytes;
    while let Some(at) = find(rest, b" 0 R") {
        let digits = rest[..at]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        out.extend_from_slice(&rest[..at - digits]);
        let t: usize = std::str::from_utf8(&rest[at - digits..at])
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let refs: Vec<String> = renumbered(t, total, page)
            .into_iter()
            .map(|n| format!("{n} 0 R"))
            .collect();
        out.extend_from_slice(refs.join(" ").as_bytes());
        rest = &rest[at + 4..];
    }
    out.extend_from_slice(rest);
}

/// Object `t` of the template written as object `n` (of page `page`).
fn object(obj: &[u8], t: usize, n: usize, total: usize, page: Option<usize>, out: &mut Vec<u8>) {
    let header = format!("{t} 0 obj\n");
    let body = &obj[header.len()..];
    out.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
    // a stream's bytes are copied as they are; only its dictionary names objects
    let dict_end = find(body, b">>stream\n").map_or(body.len(), |at| at + 9);
    let (dict, stream) = body.split_at(dict_end);
    if t == 3 {
        let mut renumbered = Vec::new();
        references(dict, total, page, &mut renumbered);
        let count = format!("/Count {total}/");
        let at = find(&renumbered, b"/Count 1/").expect("the template's page tree");
        out.extend_from_slice(&renumbered[..at]);
        out.extend_from_slice(count.as_bytes());
        out.extend_from_slice(&renumbered[at + 9..]);
    } else {
        references(dict, total, page, out);
    }
    out.extend_from_slice(stream);
}

/// printpdf's frame of `total` pages, made from its frame of one (`one`, as `finish` leaves
/// it); `None` if `one` is not of the shape this knows.
pub(super) fn frame_of(one: &[u8], total: usize) -> Option<Vec<u8>> {
    let t = Template::read(one)?;
    if total == 0 {
        return None;
    }
    let size = OBJECTS + 4 * (total - 1);
    let mut out = Vec::with_capacity(one.len() + (total - 1) * 500);
    out.extend_from_slice(b"%PDF-1.3\n");
    let mut offsets = Vec::with_capacity(size);
    for (k, obj) in t.objects[..OBJECTS - 1].iter().enumerate() {
        let k = k + 1;
        match k {
            OCG => {
                for i in 0..total {
                    offsets.push(out.len());
                    object(obj, k, OCG + i, total, Some(i), &mut out);
                }
            }
            16 => {
                for i in 0..total {
                    for p in PAGE {
                        offsets.push(out.len());
                        let n = renumbered(p, total, Some(i))[0];
                        object(t.objects[p - 1], p, n, total, Some(i), &mut out);
                    }
                }
            }
            17 | 18 => {}
            _ => {
                offsets.push(out.len());
                object(obj, k, renumbered(k, total, None)[0], total, None, &mut out);
            }
        }
    }
    // the cross-reference stream, its entries where the objects now are
    let xref = out.len();
    offsets.push(xref);
    let mut head = Vec::new();
    object(t.xref_head, OBJECTS, size, total, None, &mut head);
    let old = format!("/Size 21/W[1 4 2]/Index[1 20]/Length {}>>", 7 * OBJECTS);
    let new = format!(
        "/Size {}/W[1 4 2]/Index[1 {size}]/Length {}>>",
        size + 1,
        7 * size
    );
    let at = find(&head, old.as_bytes())?;
    out.extend_from_slice(&head[..at]);
    out.extend_from_slice(new.as_bytes());
    out.extend_from_slice(&head[at + old.len()..]);
    for at in offsets {
        out.push(1);
        out.extend_from_slice(&u32::try_from(at).ok()?.to_be_bytes());
        out.extend_from_slice(&[0, 0]);
    }
    let sx = find(t.tail, b"startxref\n")?;
    out.extend_from_slice(&t.tail[..sx]);
    out.extend_from_slice(format!("startxref\n{xref}\n%%EOF").as_bytes());
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_frame_of_many_pages_is_printpdfs_own() {
        let subset = |s: &str| {
            crate::report::subset::subset(super::super::REGULAR, s.chars()).expect("subsets")
        };
        let (regular, bold) = (subset("Acta ñ 0123"), subset("Negrilla"));
        let frame = |total| {
            super::super::stream::printpdf_frame(
                "Acta X N.º 3",
                "Adjudicación N.º 3",
                (2024, 3, 15),
                total,
                &regular,
                &bold,
            )
        };
        let one = frame(1);
        // page counts that move object numbers across a digit (9 → 10, 99 → 100 ...)
        for total in [1, 2, 3, 4, 7, 22, 23, 24, 25, 97, 100, 230, 1001] {
            let made = super::frame_of(&one, total).expect("the one-page frame is understood");
            let printpdf = frame(total);
            if made != printpdf {
                let at = made
                    .iter()
                    .zip(&printpdf)
                    .position(|(a, b)| a != b)
                    .unwrap_or(made.len().min(printpdf.len()));
                let show = |b: &[u8]| {
                    String::from_utf8_lossy(&b[at.saturating_sub(60)..(at + 60).min(b.len())])
                        .into_owned()
                };
                panic!(
                    "{total} pages: differ at byte {at} of {}/{}:\n{}\n---\n{}",
                    made.len(),
                    printpdf.len(),
                    show(&made),
                    show(&printpdf)
                );
            }
        }
    }
}
