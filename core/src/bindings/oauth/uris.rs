//! The URIs OAuth compares and builds: which redirect URIs a client may
//! register, the canonical form a `resource` is compared in, and a redirect
//! with parameters added.
//!
//! * A redirect URI is absolute, has no fragment, and is `https`, `http` to a
//!   loopback host (a local client's listener), or a private-use scheme
//!   with a dot (`com.example.app:/cb`, RFC 8252 §7.1). The authorization
//!   endpoint then compares it exactly, as a string, to a registered one.
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

/// The host of a `scheme://host[:port]/…` URI, without port or brackets.
pub fn host(uri: &str) -> Option<&str> {
    let rest = uri.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    if let Some(v6) = authority.strip_prefix('[') {
        return v6.split_once(']').map(|(host, _)| host);
    }
    Some(
        authority
            .split_once(':')
            .map_or(authority, |(host, _)| host),
    )
}

/// True for `localhost` and loopback IP addresses.
pub fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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
    let host = host(uri).filter(|h| !h.is_empty());
    match scheme.to_ascii_lowercase().as_str() {
        "https" if host.is_some() => None,
        "http" if host.is_some_and(is_loopback) => None,
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
        assert_eq!(host("http://u:p@[::1]:80/x"), Some("::1"));
        assert_eq!(host("https://h.example:8443"), Some("h.example"));
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
