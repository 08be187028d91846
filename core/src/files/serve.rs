//! How a stored file is answered: a type that cannot run script in the
//! deployment's origin, `Content-Disposition` with the person's file name,
//! and headers that keep browsers from sniffing or framing it.

use super::StoredFile;

/// The type a file is served (or shown from a `blob:` URL) as: pictures
/// shown inline keep theirs, text and JSON are plain text, PDF is PDF, and
/// anything else — HTML and SVG among them — only downloads.
pub fn safe_type(mime: &str) -> &'static str {
    let essence = mime
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "image/png" => "image/png",
        "image/jpeg" => "image/jpeg",
        "image/gif" => "image/gif",
        "image/webp" => "image/webp",
        "application/pdf" => "application/pdf",
        "application/json" | "text/plain" | "text/markdown" | "text/csv" => {
            "text/plain;charset=utf-8"
        }
        _ => "application/octet-stream",
    }
}

/// True when the file may open in the browser rather than only download.
pub fn opens_in_browser(mime: &str) -> bool {
    safe_type(mime) != "application/octet-stream"
}

/// `Content-Disposition` for `name`: `inline` or `attachment`, with an
/// ASCII fallback name and the UTF-8 one (RFC 6266, RFC 8187).
pub fn disposition(name: &str, inline: bool) -> String {
    let fallback: String = name
        .chars()
        .map(|c| match c {
            ' '..='~' if c != '"' && c != '\\' => c,
            _ => '_',
        })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    let kind = if inline { "inline" } else { "attachment" };
    format!("{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}")
}

/// The headers of a stored file's answer; `download` asks for
/// `attachment` even when the type could show in the browser.
pub fn headers(file: &StoredFile, download: bool) -> Vec<(String, String)> {
    let inline = !download && opens_in_browser(&file.mime);
    vec![
        ("Content-Type".into(), safe_type(&file.mime).into()),
        ("Content-Length".into(), file.size.to_string()),
        (
            "Content-Disposition".into(),
            disposition(&file.name, inline),
        ),
        ("X-Content-Type-Options".into(), "nosniff".into()),
        // Opened on its own, the file runs nothing and frames nothing.
        (
            "Content-Security-Policy".into(),
            "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox".into(),
        ),
        ("Cache-Control".into(), "private, max-age=3600".into()),
        ("Cross-Origin-Resource-Policy".into(), "same-origin".into()),
    ]
}
