//! The consent page: joining the network is the consent. Served by the
//! authorization endpoint as HTML that works without JavaScript: one form
//! (a name; the network token or an invitation when the join policy needs
//! one; an optional member secret), labelled fields, the error in an alert
//! with focus on the field to fix, and every value rendered escaped. The
//! form POSTs back to the same endpoint with the authorization request in
//! hidden fields ([`super::authorize`]).

use crate::bindings::message::Response;
use crate::model::config::AccessPolicy;

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What the page shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<'a> {
    /// The network's name and id.
    pub network: (&'a str, &'a str),
    /// How the network admits joiners.
    pub policy: AccessPolicy,
    /// The client's name, if it gave one, and the host codes go to.
    pub client: (Option<&'a str>, &'a str),
    /// Where the form posts.
    pub action: &'a str,
    /// The authorization request, carried in hidden fields.
    pub hidden: Vec<(&'a str, &'a str)>,
    /// The name entered before, if the page is shown again.
    pub name: Option<&'a str>,
    /// Why the last attempt failed.
    pub error: Option<&'a str>,
}

const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#111}\
label{display:block;font-weight:600;margin-top:1rem}input{font:inherit;width:100%;padding:.4rem;box-sizing:border-box}\
.hint{color:#444;font-size:.9rem;margin:.2rem 0 0}.error{border:2px solid #b00;padding:.5rem;color:#700}\
button{font:inherit;margin:1.2rem .6rem 0 0;padding:.4rem 1rem}:focus{outline:3px solid #1a5fb4;outline-offset:2px}";

fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body><main>{body}</main></body></html>",
        escape(title)
    )
}

/// `html` as a response: not cached, not framed, no scripts.
pub fn html(status: u16, html: String) -> Response {
    Response::text(html)
        .with_status(status)
        .with_header("Content-Type", "text/html; charset=utf-8")
        .with_header("Cache-Control", "no-store")
        .with_header("X-Frame-Options", "DENY")
        .with_header(
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
        )
        .with_header("Referrer-Policy", "no-referrer")
}

fn field(id: &str, label: &str, kind: &str, hint: &str, extra: &str) -> String {
    format!(
        "<label for=\"{id}\">{label}</label><input id=\"{id}\" name=\"{id}\" type=\"{kind}\" \
         aria-describedby=\"{id}-hint\"{extra}><p class=\"hint\" id=\"{id}-hint\">{hint}</p>"
    )
}

/// The consent page.
pub fn page(page: &Page<'_>) -> String {
    let (network_name, network_id) = page.network;
    let client = page.client.0.unwrap_or("An application");
    let mut body = format!(
        "<h1>Join {} to connect</h1><p><strong>{}</strong> asks to use the network \
         <strong>{}</strong> ({}) as you, over MCP. Joining is your consent: it will act as \
         the member you join as, and the answer goes to <strong>{}</strong>.</p>",
        escape(network_name),
        escape(client),
        escape(network_name),
        escape(network_id),
        escape(page.client.1),
    );
    if let Some(error) = page.error {
        body.push_str(&format!(
            "<div class=\"error\" role=\"alert\" id=\"error\"><p>Could not join: {}</p></div>",
            escape(error)
        ));
    }
    body.push_str(&format!(
        "<form method=\"post\" action=\"{}\">",
        escape(page.action)
    ));
    for (name, value) in &page.hidden {
        body.push_str(&format!(
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
            escape(name),
            escape(value)
        ));
    }
    let invalid = if page.error.is_some() {
        " aria-invalid=\"true\""
    } else {
        ""
    };
    let name_extra = format!(
        " required autocomplete=\"username\" autofocus{invalid} value=\"{}\"",
        escape(page.name.unwrap_or(""))
    );
    body.push_str(&field(
        "name",
        "Your name in the network",
        "text",
        "A plain name joins as an agent (claude becomes agent:claude); write human:ada to join as a person.",
        &name_extra,
    ));
    match page.policy {
        AccessPolicy::Token => body.push_str(&field(
            "token",
            "Network token",
            "password",
            "This network admits only those who present its token.",
            " required autocomplete=\"off\"",
        )),
        AccessPolicy::Invite => body.push_str(&field(
            "invite",
            "Invitation code",
            "text",
            "This network is invite-only: enter the code a member gave you.",
            " required autocomplete=\"off\"",
        )),
        AccessPolicy::Open | AccessPolicy::DidVerify => {}
    }
    body.push_str(&field(
        "member_secret",
        "Member secret (optional)",
        "password",
        "Needed to join as a name that is already yours. For a new name, choose one \
         (16 characters or more) to be able to come back as it; left empty, the name stays \
         with this connection.",
        " autocomplete=\"current-password\"",
    ));
    body.push_str(
        "<button type=\"submit\" name=\"decision\" value=\"allow\">Join and allow</button>\
         <button type=\"submit\" name=\"decision\" value=\"deny\" formnovalidate>Cancel</button></form>",
    );
    document(&format!("Join {network_name}"), &body)
}

/// A page that says why the request cannot go on (and redirects nowhere).
pub fn refusal_page(message: &str) -> String {
    document(
        "Authorization failed",
        &format!(
            "<h1>This authorization request cannot go on</h1><p role=\"alert\">{}</p>\
             <p>Return to the application and connect again.</p>",
            escape(message)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(policy: AccessPolicy, error: Option<&'static str>) -> String {
        page(&Page {
            network: ("<Team>", "abc"),
            policy,
            client: (Some("\"Evil\" <script>"), "127.0.0.1"),
            action: "/networks/abc/oauth/authorize",
            hidden: vec![("state", "\"><script>alert(1)</script>")],
            name: Some("a\"b"),
            error,
        })
    }

    #[test]
    fn everything_rendered_is_escaped() {
        let html = sample(AccessPolicy::Open, Some("<b>bad</b>"));
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;Team&gt;"));
        assert!(html.contains("value=\"&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\""));
        assert!(html.contains("value=\"a&quot;b\""));
        assert!(html.contains("role=\"alert\""));
        assert!(html.contains("&lt;b&gt;bad&lt;/b&gt;"));
        assert!(!refusal_page("<x>").contains("<x>"));
    }

    #[test]
    fn the_policy_decides_which_credential_is_asked_for() {
        let open = sample(AccessPolicy::Open, None);
        assert!(!open.contains("name=\"token\"") && !open.contains("name=\"invite\""));
        assert!(!open.contains("aria-invalid"));
        let token = sample(AccessPolicy::Token, None);
        assert!(token.contains("<label for=\"token\">Network token</label>"));
        assert!(token.contains("name=\"token\" type=\"password\""));
        assert!(sample(AccessPolicy::Invite, None).contains("<label for=\"invite\">"));
        // Every input has a label.
        for id in ["name", "member_secret"] {
            assert!(open.contains(&format!("<label for=\"{id}\">")), "{id}");
        }
    }
}
