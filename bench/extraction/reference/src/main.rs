//! Reads pages from stdin, one a line: `<id>\t<url or empty>\t<path of the page's HTML>`; writes one JSON line a page
//! to stdout: its id, the extractor's title and main text, and the milliseconds the extraction took (reading the
//! file excluded). A page the extractor fails on has an `error` and empty texts.
use std::io::{BufRead, Write};
use std::time::Instant;

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.expect("a manifest line");
        let mut fields = line.splitn(3, '\t');
        let (id, url, path) = match (fields.next(), fields.next(), fields.next()) {
            (Some(id), Some(url), Some(path)) => (id, url, path),
            _ => continue,
        };
        let bytes = std::fs::read(path).expect("the page's HTML");
        let html = String::from_utf8_lossy(&bytes);
        let mut options = rs_trafilatura::Options::default();
        if !url.is_empty() {
            options.url = Some(url.to_string());
        }
        let start = Instant::now();
        let result = rs_trafilatura::extract_with_options(&html, &options);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let record = match result {
            Ok(r) => serde_json::json!({ "id": id, "title": r.metadata.title.unwrap_or_default(), "text": r.content_text, "ms": ms }),
            Err(e) => serde_json::json!({ "id": id, "title": "", "text": "", "ms": ms, "error": e.to_string() }),
        };
        writeln!(out, "{record}").expect("stdout");
    }
}
