//! Tests of the reader on small PDFs built here by hand, each worked out from ISO 32000-1: an
//! object an update frees (7.5.4), free entries that free nothing, a hybrid file's /XRefStm
//! (7.5.8.4) with and without its table marking the packed objects free, objects packed in one
//! object stream looked up again (7.5.7) and the memory kept streams take, reals read as doubles.

use super::*;

/// A PDF written a piece at a time, each object's offset kept for the cross-references.
struct Pdf {
    bytes: Vec<u8>,
    offsets: HashMap<u32, usize>,
}

impl Pdf {
    fn new() -> Pdf {
        Pdf {
            bytes: b"%PDF-1.7\n".to_vec(),
            offsets: HashMap::new(),
        }
    }

    fn obj(&mut self, n: u32, body: &[u8]) {
        self.offsets.insert(n, self.bytes.len());
        self.bytes
            .extend_from_slice(format!("{n} 0 obj\n").as_bytes());
        self.bytes.extend_from_slice(body);
        self.bytes.extend_from_slice(b"\nendobj\n");
    }

    fn stream(&mut self, n: u32, dict: &str, data: &[u8]) {
        let mut body = format!("<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.obj(n, &body);
    }

    /// A cross-reference table, one subsection an entry: `Some(n)` in use at object n's
    /// offset, `None` free (generation 1); then its trailer and `startxref`.
    fn table(&mut self, entries: &[(u32, bool)], trailer: &str) {
        let at = self.bytes.len();
        let mut t = String::from("xref\n0 1\n0000000000 65535 f \n");
        for &(id, used) in entries {
            t.push_str(&format!("{id} 1\n"));
            if used {
                t.push_str(&format!("{:010} 00000 n \n", self.offsets[&id]));
            } else {
                t.push_str("0000000000 00001 f \n");
            }
        }
        t.push_str(&format!(
            "trailer\n<< {trailer} >>\nstartxref\n{at}\n%%EOF\n"
        ));
        self.bytes.extend_from_slice(t.as_bytes());
    }

    fn last_xref(&self) -> usize {
        let s = String::from_utf8_lossy(&self.bytes);
        let at = s.rfind("startxref\n").unwrap() + 10;
        s[at..].lines().next().unwrap().parse().unwrap()
    }
}

const CATALOG: &[u8] = b"<< /Type /Catalog /Pages 2 0 R >>";
const PAGES: &[u8] = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>";
const FONT: &[u8] = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";

fn page(contents: u32) -> Vec<u8> {
    format!(
        "<< /Type /Page /Parent 2 0 R /Contents {contents} 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
    )
    .into_bytes()
}

/// A first revision whose page draws object 4, then an update that draws object 6 instead and
/// frees object 4.
#[test]
fn an_object_an_update_frees_is_not_read_from_the_older_section() {
    let mut pdf = Pdf::new();
    pdf.obj(1, CATALOG);
    pdf.obj(2, PAGES);
    pdf.obj(3, &page(4));
    pdf.stream(4, "", b"BT /F1 12 Tf 72 720 Td (uno) Tj ET");
    pdf.obj(5, FONT);
    pdf.table(
        &[(1, true), (2, true), (3, true), (4, true), (5, true)],
        "/Size 6 /Root 1 0 R",
    );
    let first = pdf.last_xref();
    pdf.obj(3, &page(6));
    pdf.stream(6, "", b"BT /F1 12 Tf 72 720 Td (dos) Tj ET");
    pdf.table(
        &[(3, true), (4, false), (6, true)],
        &format!("/Size 7 /Root 1 0 R /Prev {first}"),
    );
    let doc = Doc::load(&pdf.bytes).unwrap();
    let pages = doc.pages().unwrap();
    // each content stream ends its line when a page is read
    assert_eq!(pages[0].content, b"BT /F1 12 Tf 72 720 Td (dos) Tj ET\n");
    // the freed object is gone: the first revision's entry for it is not read
    assert_eq!(
        doc.resolve(&Obj::Ref(4)),
        Err(Unreadable::Damaged("an object it refers to is missing"))
    );
    assert_eq!(doc.highest_object(), Some(6));
    // an update that frees the highest object: new objects are numbered after it still
    let mut freed = pdf.bytes.clone();
    let second = pdf.last_xref();
    let mut update = Pdf {
        bytes: std::mem::take(&mut freed),
        offsets: pdf.offsets.clone(),
    };
    update.table(
        &[(6, false)],
        &format!("/Size 7 /Root 1 0 R /Prev {second}"),
    );
    assert_eq!(Doc::load(&update.bytes).unwrap().highest_object(), Some(6));
    // the first revision alone still has it
    let old = Doc::load(
        &pdf.bytes[..first
            + pdf.bytes[first..]
                .windows(5)
                .position(|w| w == b"%%EOF")
                .unwrap()
            + 5],
    )
    .unwrap();
    assert!(matches!(old.resolve(&Obj::Ref(4)), Ok(Obj::Dict(_))));
}

/// A hybrid file: its table gives the catalogue, the page tree's root, the content and the
/// object stream 6; the page (4) and its font (5) are packed in object stream 6, which only
/// the stream at /XRefStm (7) places (type 2 rows of /W [1 2 1]).
fn hybrid() -> Vec<u8> {
    let mut pdf = Pdf::new();
    pdf.obj(1, CATALOG);
    pdf.obj(2, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>");
    pdf.stream(3, "", b"BT /F1 12 Tf 72 720 Td (hibrido) Tj ET");
    let page = String::from_utf8(page(3)).unwrap();
    let header = format!("4 0 5 {} ", page.len() + 1);
    let packed = format!("{header}{page} {}", String::from_utf8_lossy(FONT));
    pdf.stream(
        6,
        &format!("/Type /ObjStm /N 2 /First {}", header.len()),
        packed.as_bytes(),
    );
    let rows = [2u8, 0, 6, 0, 2, 0, 6, 1];
    pdf.stream(7, "/Type /XRef /Size 8 /W [1 2 1] /Index [4 2]", &rows);
    let stm = pdf.offsets[&7];
    pdf.table(
        &[(1, true), (2, true), (3, true), (6, true)],
        &format!("/Size 8 /Root 1 0 R /XRefStm {stm}"),
    );
    pdf.bytes
}

#[test]
fn a_hybrid_file_s_packed_objects_are_found_through_its_xrefstm() {
    let bytes = hybrid();
    let doc = Doc::load(&bytes).unwrap();
    let pages = doc.pages().unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].fonts, [(b"F1".to_vec(), b"Helvetica".to_vec())]);
    assert_eq!(
        pages[0].content,
        b"BT /F1 12 Tf 72 720 Td (hibrido) Tj ET\n"
    );
    // read from the file an object at a time, the same
    let mut file = tempfile::tempfile().unwrap();
    std::io::Write::write_all(&mut file, &bytes).unwrap();
    let from_file = Doc::open(file, bytes.len() as u64, MAX_CONTENT).unwrap();
    let mut cursor = from_file.each_page().unwrap();
    let page = cursor.next_page().unwrap().unwrap();
    assert_eq!(page.content, pages[0].content);
}

#[test]
fn objects_packed_in_one_stream_inflate_it_once() {
    let bytes = hybrid();
    let doc = Doc::load(&bytes).unwrap();
    let font = Obj::Dict(vec![
        (b"Type".to_vec(), Obj::Name(b"Font".to_vec())),
        (b"Subtype".to_vec(), Obj::Name(b"Type1".to_vec())),
        (b"BaseFont".to_vec(), Obj::Name(b"Helvetica".to_vec())),
    ]);
    assert_eq!(doc.resolve(&Obj::Ref(5)).unwrap(), font);
    assert!(
        matches!(doc.resolve(&Obj::Ref(4)), Ok(Obj::Dict(d)) if get(&d, b"Type") == Some(&Obj::Name(b"Page".to_vec())))
    );
    assert_eq!(doc.resolve(&Obj::Ref(5)).unwrap(), font);
    assert_eq!(doc.inflated.get(), 1, "the object stream inflated once");
}

#[test]
fn reals_are_read_as_doubles() {
    let mut seen = Vec::new();
    operations(b"612.123456789 -0.000001 Td", |_, args| {
        seen.extend(args.iter().filter_map(Obj::as_f64))
    })
    .unwrap();
    // a 24-bit float read them as 612.1235 and -0.000001 as -9.99999997e-7
    assert_eq!(seen, [612.123456789, -0.000001]);
}

/// A hybrid file as the standard's example lays it out (ISO 32000-1, 7.5.8.4; Word's "Save as
/// PDF" does the same): its table gives the catalogue, the page tree's root and the content in
/// use and marks free the page (4) and font (5) packed in object stream 6, the object stream and
/// the cross-reference stream 7 itself; only the stream at /XRefStm places them (rows of /W
/// [1 2 1]: type 2 for 4 and 5, type 1 at their offsets for 6 and 7).
fn hybrid_as_the_standard_shows() -> Pdf {
    let mut pdf = Pdf::new();
    pdf.obj(1, CATALOG);
    pdf.obj(2, b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>");
    pdf.stream(3, "", b"BT /F1 12 Tf 72 720 Td (hibrido) Tj ET");
    let page = String::from_utf8(page(3)).unwrap();
    let header = format!("4 0 5 {} ", page.len() + 1);
    let packed = format!("{header}{page} {}", String::from_utf8_lossy(FONT));
    pdf.stream(
        6,
        &format!("/Type /ObjStm /N 2 /First {}", header.len()),
        packed.as_bytes(),
    );
    let stm = pdf.bytes.len();
    let [a, b] = u16::try_from(pdf.offsets[&6]).unwrap().to_be_bytes();
    let [c, d] = u16::try_from(stm).unwrap().to_be_bytes();
    let rows = [2u8, 0, 6, 0, 2, 0, 6, 1, 1, a, b, 0, 1, c, d, 0];
    pdf.stream(7, "/Type /XRef /Size 8 /W [1 2 1] /Index [4 4]", &rows);
    assert_eq!(pdf.offsets[&7], stm);
    pdf.table(
        &[
            (1, true),
            (2, true),
            (3, true),
            (4, false),
            (5, false),
            (6, false),
            (7, false),
        ],
        &format!("/Size 8 /Root 1 0 R /XRefStm {stm}"),
    );
    pdf
}

#[test]
fn a_hybrid_file_s_table_marking_its_packed_objects_free_does_not_hide_them() {
    let mut pdf = hybrid_as_the_standard_shows();
    let doc = Doc::load(&pdf.bytes).unwrap();
    let pages = doc.pages().unwrap();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].fonts, [(b"F1".to_vec(), b"Helvetica".to_vec())]);
    assert_eq!(
        pages[0].content,
        b"BT /F1 12 Tf 72 720 Td (hibrido) Tj ET\n"
    );
    assert_eq!(doc.highest_object(), Some(7));
    // a newer section's free entry still hides the object the hybrid section packs
    let prev = pdf.last_xref();
    pdf.table(&[(5, false)], &format!("/Size 8 /Root 1 0 R /Prev {prev}"));
    let doc = Doc::load(&pdf.bytes).unwrap();
    assert_eq!(
        doc.resolve(&Obj::Ref(5)),
        Err(Unreadable::Damaged("an object it refers to is missing"))
    );
    assert!(matches!(doc.resolve(&Obj::Ref(4)), Ok(Obj::Dict(_))));
}

/// Free entries that free nothing that exists: one numbered at the section's `/Size` or past
/// it, one above 8,388,607 (the most a PDF may have), one at 4,294,967,295 (the last u32).
/// The highest object is the highest in use, 5, as if they were not there.
#[test]
fn free_entries_past_the_size_or_the_most_a_pdf_may_have_are_left_out() {
    for stray in [6, 1000, MAX_OBJECT + 1, u32::MAX] {
        let mut pdf = Pdf::new();
        pdf.obj(1, CATALOG);
        pdf.obj(2, PAGES);
        pdf.obj(3, &page(4));
        pdf.stream(4, "", b"BT /F1 12 Tf 72 720 Td (uno) Tj ET");
        pdf.obj(5, FONT);
        pdf.table(
            &[
                (1, true),
                (2, true),
                (3, true),
                (4, true),
                (5, true),
                (stray, false),
            ],
            "/Size 6 /Root 1 0 R",
        );
        let doc = Doc::load(&pdf.bytes).unwrap();
        assert_eq!(doc.highest_object(), Some(5), "{stray}");
        assert_eq!(doc.pages().unwrap().len(), 1);
    }
}

/// Object streams 20, 21 and 22 of `n` objects each (the first is object 10, 11, 12; the
/// others' pairs `0 0`), placed by a hybrid file's /XRefStm.
fn full_object_streams(n: usize) -> Vec<u8> {
    let mut pdf = Pdf::new();
    pdf.obj(1, CATALOG);
    pdf.obj(2, PAGES);
    for (id, stream) in [(10, 20), (11, 21), (12, 22)] {
        let mut data = format!("{id} 0 ").into_bytes();
        data.extend(b"0 0 ".repeat(n - 1));
        let first = data.len();
        data.extend_from_slice(b"<< /X 1 >>");
        pdf.stream(
            stream,
            &format!("/Type /ObjStm /N {n} /First {first}"),
            &data,
        );
    }
    let rows = [2u8, 20, 0, 2, 21, 0, 2, 22, 0];
    pdf.stream(30, "/Type /XRef /Size 31 /W [1 1 1] /Index [10 3]", &rows);
    let stm = pdf.offsets[&30];
    pdf.table(
        &[(1, true), (2, true), (20, true), (21, true), (22, true)],
        &format!("/Size 31 /Root 1 0 R /XRefStm {stm}"),
    );
    pdf.bytes
}

/// Three streams of a million objects each take 4 MiB of bytes and 16 MiB of places (16 bytes
/// a place) each: the cache keeps what fits in 32 MiB, the last one (two would take 40 MiB),
/// not all three (60 MiB).
#[test]
fn the_kept_object_streams_places_count_in_their_memory() {
    let n = xref::MAX_PLACES;
    let bytes = full_object_streams(n);
    let doc = Doc::load(&bytes).unwrap();
    let x = Obj::Dict(vec![(b"X".to_vec(), Obj::Int(1))]);
    for id in [10, 11, 12] {
        assert_eq!(doc.resolve(&Obj::Ref(id)).unwrap(), x);
    }
    let kept = doc.unpacked.borrow();
    let one = 4 * n + 10 + 16 * n;
    let sizes: Vec<usize> = kept.iter().map(|(_, u)| u.size()).collect();
    assert_eq!(kept.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [22]);
    assert!(sizes.iter().all(|&s| s >= one), "{sizes:?}");
    assert!(sizes.iter().sum::<usize>() <= 32 << 20, "{sizes:?}");
    drop(kept);
    // one object more than 1,048,576 in a stream: refused before its places are read
    let bytes = full_object_streams(n + 1);
    let doc = Doc::load(&bytes).unwrap();
    assert_eq!(
        doc.resolve(&Obj::Ref(10)),
        Err(Unreadable::Damaged(
            "an object stream holds more than 1,048,576 objects"
        ))
    );
    assert_eq!(doc.inflated.get(), 0);
}

/// When what object streams may still inflate to is less than a stream's bytes, the refusal
/// names that limit (256 MiB over all lookups), not the 16 MiB of one document's pages.
#[test]
fn object_streams_past_their_budget_are_refused_naming_it() {
    let bytes = hybrid();
    let doc = Doc::load(&bytes).unwrap();
    doc.objstm_budget.set(10);
    let e = doc.resolve(&Obj::Ref(5)).unwrap_err();
    assert_eq!(e, Unreadable::ObjectStreamsTooLarge);
    assert_eq!(
        e.to_string(),
        "its object streams inflate to more than 256 MiB, all lookups together, the most vigia \
         reads"
    );
}
