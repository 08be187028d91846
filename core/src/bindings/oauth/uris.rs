//! The URIs OAuth compares and builds: which redirect URIs a client may
//! register, the canonical form a `resource` is compared in, and a redirect
//! with parameters added.
//!
//! * A redirect URI is absolute, has no fragment, and is `https`, `http` to a
//!   loopback host (a local client's listener), or a private-use scheme
//!   with a dot (`com.example.app:/cb`, RFC 8252 §7.1). Its host is the one
//!   a browser will use: the URI is read by the WHATWG URL parser
//!   ([`crate::outbound::parse`]), so `http://evil.example\@127.0.0.1/cb`
//!   is `evil.example`'s. The authorization endpoint then compares it
//!   exactly, as a string, to a registered one.
//! * A `resource` (RFC 8707) is compared with its scheme and host
//!   lowercased and trailing `/`s dropped.

use super::form;

/// Longest redirect URI a client may register.
pub const MAX_URI_LEN: usize = 2048;

/// The scheme of `uri` (before the first `:`), when it is a valid one.
fn scheme(uri: &str) -> Option<&str> {
    let (scheme, _) = uri.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(scheme)
}

/// The host of `uri` as a browser reads it (the WHATWG URL parser: `\\`
/// ends the authority of an http(s) URL, percent-encoding and IPv4 short
/// forms are undone), without port; IPv6 in brackets. `None` when it does
/// not parse or names no host.
pub fn host(uri: &str) -> Option<String> {
    let parsed = crate::outbound::parse(uri)?;
    parsed
        .host_str()
        .filter(|h| !h.is_empty())
        .map(str::to_owned)
}

/// True for `localhost` and loopback IP addresses, as the URL parser reads the
/// host of `uri` (RFC 8252 §7.3's loopback redirect).
pub fn is_loopback(uri: &str) -> bool {
    use url::Host;
    match crate::outbound::parse(uri).as_ref().and_then(|u| u.host()) {
        Some(Host::Domain(name)) => name.trim_end_matches('.') == "localhost",
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// Why `uri` may not be registered as a redirect URI, if it may not.
pub fn redirect_refusal(uri: &str) -> Option<&'static str> {
    if uri.len() > MAX_URI_LEN {
        return Some("a redirect URI is at most 2048 characters");
    }
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Some("a redirect URI has no spaces or control characters");
    }
    if uri.contains('#') {
        return Some("a redirect URI has no fragment");
    }
    let Some(scheme) = scheme(uri) else {
        return Some("a redirect URI is an absolute URI");
    };
    // `https:///x` is `https://x/` to a browser: an authority must be written.
    let written = uri
        .split_once("://")
        .is_some_and(|(_, rest)| !rest.starts_with(['/', '\\']));
    let host = host(uri).filter(|_| written);
    match scheme.to_ascii_lowercase().as_str() {
        "https" if host.is_some() => None,
        "http" if host.is_some() && is_loopback(uri) => None,
        "http" => Some("an http redirect URI must be to a loopback host; use https"),
        "https" => Some("a redirect URI names a host"),
        "javascript" | "data" | "vbscript" | "file" => Some("that scheme cannot be a redirect"),
        private if private.contains('.') => None,
        _ => Some("a redirect URI is https, http to a loopback host, or a private-use scheme"),
    }
}

/// `uri` in the form resources are compared in.
pub fn canonical(uri: &str) -> String {
    let Some((scheme, rest)) = uri.split_once("://") else {
        return uri.to_owned();
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(end);
    let path = path.trim_end_matches('/');
    format!(
        "{}://{}{path}",
        scheme.to_ascii_lowercase(),
        authority.to_ascii_lowercase()
    )
}

/// True when `a` and `b` name the same resource.
pub fn same_resource(a: &str, b: &str) -> bool {
    canonical(a) == canonical(b)
}

/// `uri` with `pairs` added to its query.
pub fn with_params<'a>(uri: &str, pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let added = form::encode(pairs);
    let separator = match uri.split_once('?') {
        None => '?',
        Some((_, "")) => return format!("{uri}{added}"),
        Some(_) => '&',
    };
    format!("{uri}{separator}{added}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn redirect_uris_are_https_loopback_or_private_use() {
        for ok in [
            "https://client.example/cb",
            "http://127.0.0.1:33418/callback",
            "http://localhost:6274/oauth/callback",
            "http://[::1]:8080/cb",
            "com.example.app:/oauth",
        ] {
            assert_eq!(redirect_refusal(ok), None, "{ok}");
        }
        for bad in [
            "http://client.example/cb",
            "http://localhost.evil.example/cb",
            "http://127.evil.example/cb",
            "http://127.0.0.1.evil.example/cb",
            "http://evil.example\\@127.0.0.1/cb",
            "http://evil.example\\@localhost/cb",
            "http://localhost@evil.example/cb",
            "http://127.0.0.1:1@evil.example/cb",
            "http://[::1]@evil.example/cb",
            "https://client.example/cb#x",
            "javascript:alert(1)",
            "data:text/html,x",
            "/relative",
            "cb",
            "custom:/cb",
            "https:///nohost",
            "https://a b/",
        ] {
            assert!(redirect_refusal(bad).is_some(), "{bad}");
        }
        assert!(redirect_refusal(&format!("https://h/{}", "x".repeat(MAX_URI_LEN))).is_some());
    }

    #[test]
    fn resources_compare_in_canonical_form() {
        assert!(same_resource(
            "HTTPS://Edge.Example/networks/a/mcp",
            "https://edge.example/networks/a/mcp/"
        ));
        assert!(!same_resource(
            "https://edge.example/networks/a/mcp",
            "https://edge.example/networks/b/mcp"
        ));
        // The path keeps its case.
        assert!(!same_resource(
            "https://h/Networks/a/mcp",
            "https://h/networks/a/mcp"
        ));
        assert_eq!(host("http://u:p@[::1]:80/x").as_deref(), Some("[::1]"));
        assert_eq!(host("https://h.example:8443").as_deref(), Some("h.example"));
        // The host a browser sends the code to, which the consent page shows.
        assert_eq!(
            host("http://evil.example\\@127.0.0.1/cb").as_deref(),
            Some("evil.example")
        );
        assert_eq!(host("http://0x7f.1/cb").as_deref(), Some("127.0.0.1"));
    }

    #[test]
    fn parameters_are_added_to_the_query() {
        assert_eq!(
            with_params("http://l/cb", [("code", "a b")]),
            "http://l/cb?code=a%20b"
        );
        assert_eq!(
            with_params("http://l/cb?x=1", [("code", "c")]),
            "http://l/cb?x=1&code=c"
        );
        assert_eq!(
            with_params("http://l/cb?", [("code", "c")]),
            "http://l/cb?code=c"
        );
    }

    proptest! {
        #[test]
        fn no_uri_makes_the_checks_panic(uri in "\\PC{0,80}") {
            let _ = redirect_refusal(&uri);
            let _ = canonical(&uri);
            let _ = host(&uri);
        }

        #[test]
        fn a_canonical_form_is_its_own(uri in "[a-zA-Z]{1,5}://[a-zA-Z0-9.:]{0,12}(/[a-z]{0,4}){0,3}") {
            prop_assert_eq!(canonical(&canonical(&uri)), canonical(&uri));
        }
    }
}
