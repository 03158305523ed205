//! The OAuth consent page and the sign-in error page.
//!
//! Why: this is the one moment a person decides what an app may do, so the page says who is
//! asking (Verified with its domain for Client ID Metadata Document clients, Unverified for
//! self-registered ones, whose name is only their own claim), where the browser goes next, and
//! what access is granted: reading is always included, saving can be unticked. Every client-given
//! text is escaped; the form carries a CSRF token whose other half is a `__Host-` cookie, and the
//! page is sent with `frame-ancestors 'none'` and `X-Frame-Options: DENY` so it cannot be
//! clickjacked.
//! The error page comes as a whole reply (`error_reply`), the same wherever it is sent; the
//! consent page's reply also sets the flow's cookies, so `app::oauth::flow` builds it.
//! What not: no decisions and, for the consent page, no headers beyond the CSP text.

use super::html::{escape, isolated_name, page, CSP};
use super::template::fragment;
use crate::http::HttpReply;
use crate::oauth::error::Error;

/// The page's words for an app not identified by a document.
const CONSENT_UNVERIFIED: &str = fragment(include_str!("consent-unverified.html"));

/// The page's note on what connecting grants.
const CONSENT_NOTE: &str = fragment(include_str!("consent-note.html"));

/// What the consent page shows.
#[derive(Debug, Clone, Copy)]
pub struct ConsentView<'a> {
    pub client_name: &'a str,
    /// The domain vouching for a metadata-document client; `None` for a self-registered one.
    pub verified_domain: Option<&'a str>,
    /// Where the browser goes after the answer (`RedirectUri::display`).
    pub redirect_display: &'a str,
    /// The GitHub login the person signed in as.
    pub login: &'a str,
    /// The pending consent's id and the CSRF token, both echoed in hidden fields.
    pub consent_id: &'a str,
    pub csrf: &'a str,
    pub base_url: &'a str,
}

/// The label of the always-granted access.
pub const READ_ACCESS: &str = "Read pull requests and saved orders";
/// The label of the access that can be unticked.
pub const WRITE_ACCESS: &str = "Save reading orders and diagrams";
/// What the write access also covers (issue 36): a web sign-in without it sends nothing to
/// GitHub from the review page (`app::pull_request::calls::WriteCall::sends_to_github`).
pub const WRITE_ACCESS_COVERS: &str = "and, from LogiKFlow's review page, send reviews, comments and replies and resolve threads on GitHub as you";

/// The consent page (its form posts to `/authorize/consent`).
pub fn consent_page(view: &ConsentView) -> String {
    let name = isolated_name(view.client_name);
    let mut body = String::with_capacity(4096);
    body.push_str("<link rel=\"stylesheet\" href=\"/static/consent.css\">\n");
    body.push_str("<h1>Connect ");
    body.push_str(&name);
    body.push_str(" to LogiKFlow?</h1>\n");
    match view.verified_domain {
        Some(domain) => {
            body.push_str("<p class=\"who verified\">Verified: ");
            body.push_str(&escape(domain));
            body.push_str("</p>\n<p>This app is identified by a document on <strong>");
            body.push_str(&escape(domain));
            body.push_str("</strong>.</p>\n");
        }
        None => body.push_str(CONSENT_UNVERIFIED),
    }
    body.push_str("<p>Signed in with GitHub as <strong>");
    body.push_str(&escape(view.login));
    body.push_str("</strong>. After you answer, your browser returns to <strong>");
    body.push_str(&escape(view.redirect_display));
    body.push_str("</strong>.</p>\n");
    body.push_str("<form method=\"post\" action=\"/authorize/consent\">\n");
    body.push_str("<input type=\"hidden\" name=\"consent\" value=\"");
    body.push_str(&escape(view.consent_id));
    body.push_str("\">\n<input type=\"hidden\" name=\"csrf\" value=\"");
    body.push_str(&escape(view.csrf));
    body.push_str("\">\n<h2>");
    body.push_str(&name);
    body.push_str(" will be able to</h2>\n<ul class=\"access\">\n<li>");
    body.push_str(READ_ACCESS);
    body.push_str(" <span class=\"note\">(always)</span></li>\n");
    body.push_str("<li><label><input type=\"checkbox\" name=\"write\" value=\"on\" checked> ");
    body.push_str(WRITE_ACCESS);
    body.push_str(" <span class=\"note\">(");
    body.push_str(WRITE_ACCESS_COVERS);
    body.push_str(")</span></label></li>\n</ul>\n");
    body.push_str(CONSENT_NOTE);
    page(
        &format!(
            "Connect {}",
            crate::unicode::without_hidden(view.client_name)
        ),
        &body,
        view.base_url,
    )
}

/// The consent page's Content-Security-Policy: the shared one, with `form-action` also allowing
/// the client's redirect target, because browsers check the redirect that follows a form post
/// against `form-action` too. `redirect_source` comes from `RedirectUri::csp_source`.
pub fn consent_csp(redirect_source: Option<&str>) -> String {
    match redirect_source {
        Some(source) => CSP.replace(
            "form-action 'self'",
            &format!("form-action 'self' {source}"),
        ),
        None => CSP.to_string(),
    }
}

/// A sign-in error page: what went wrong and what to do, never a redirect.
pub fn error_page(title: &str, message: &str, base_url: &str) -> String {
    let mut body = String::with_capacity(512);
    body.push_str("<h1>");
    body.push_str(&escape(title));
    body.push_str("</h1>\n<p>");
    let mut message = escape(message);
    if let Some(first) = message.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    body.push_str(&message);
    body.push_str(".</p>\n<p>Go back to the app you were connecting and start again. ");
    body.push_str("If this keeps happening, the app may be misconfigured.</p>\n");
    page(title, &body, base_url)
}

/// The sign-in error page as a whole reply, for errors that must not go back to an unvalidated
/// redirect URI: the error's status, never framed, never cached, and `retry-after` when it is a
/// rate limit.
pub fn error_reply(error: &Error, base_url: &str) -> HttpReply {
    let page = error_page(error.page_title(), &error.description(), base_url);
    let mut reply = HttpReply::new(error.status(), "text/html; charset=utf-8", page)
        .with_header("content-security-policy", CSP)
        .with_header("x-frame-options", "DENY")
        .with_header("referrer-policy", "no-referrer")
        .with_header("cache-control", "no-store");
    if let Error::TooManyRequests {
        retry_after_seconds,
    } = error
    {
        reply = reply.with_header("retry-after", retry_after_seconds.to_string());
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view<'a>(name: &'a str, domain: Option<&'a str>) -> ConsentView<'a> {
        ConsentView {
            client_name: name,
            verified_domain: domain,
            redirect_display: "127.0.0.1 (this computer)",
            login: "octo",
            consent_id: "lfp_1001_abc",
            csrf: "tok",
            base_url: "https://logikflow.dev",
        }
    }

    #[test]
    fn names_the_app_and_the_access() {
        let html = consent_page(&view("Claude Code", Some("claude.ai")));
        assert!(html.contains("Connect <bdi>Claude Code</bdi> to LogiKFlow?"));
        assert!(html.contains("Verified: claude.ai"));
        assert!(html.contains(READ_ACCESS));
        assert!(html.contains("name=\"write\" value=\"on\" checked"));
        assert!(html.contains(WRITE_ACCESS));
        // Issue 36: the words say writing covers reviews and comments sent to GitHub as you.
        assert!(html
            .contains("send reviews, comments and replies and resolve threads on GitHub as you"));
        assert!(html.contains("name=\"csrf\" value=\"tok\""));
        assert!(html.contains("name=\"consent\" value=\"lfp_1001_abc\""));
        assert!(html.contains("127.0.0.1 (this computer)"));
        assert!(html.contains("value=\"approve\"") && html.contains("value=\"deny\""));
        assert!(!html.contains("<script"));
    }

    #[test]
    fn names_are_isolated_and_never_reordered() {
        let html = consent_page(&view("Claude Code \u{202E}gnp.exe\u{202C} \u{200B}", None));
        assert!(
            !html.contains('\u{202E}') && !html.contains('\u{202C}') && !html.contains('\u{200B}')
        );
        assert!(
            html.contains("Connect <bdi>Claude Code gnp.exe </bdi> to LogiKFlow?"),
            "{html}"
        );
        assert!(html.contains("<h2><bdi>Claude Code gnp.exe </bdi> will be able to</h2>"));
        assert!(
            html.contains("<title>Connect Claude Code gnp.exe "),
            "{html}"
        );
    }

    #[test]
    fn unverified_apps_say_so() {
        let html = consent_page(&view("Cursor", None));
        assert!(html.contains("Unverified"));
        assert!(!html.contains("Verified:"));
    }

    #[test]
    fn client_text_is_escaped() {
        let html = consent_page(&ConsentView {
            redirect_display: "<b>x</b>",
            login: "<i>",
            ..view("<script>alert(1)</script>\"", Some("\"><img src=x>"))
        });
        assert!(!html.contains("<script>alert"));
        assert!(!html.contains("<img src=x>"));
        assert!(!html.contains("<b>x</b>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;"));
    }

    #[test]
    fn csp_allows_only_the_redirect_target() {
        let csp = consent_csp(Some("cursor:"));
        assert!(csp.contains("form-action 'self' cursor:;"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"));
        assert_eq!(consent_csp(None), CSP);
    }

    #[test]
    fn error_pages() {
        let html = error_page(
            "Unknown app",
            "this <client> is unknown",
            "https://logikflow.dev",
        );
        assert!(html.contains("<h1>Unknown app</h1>"));
        assert!(html.contains("This &lt;client&gt; is unknown."));
    }

    #[test]
    fn page_reply_cannot_be_framed() {
        let reply = error_reply(&Error::UnknownClient, "https://logikflow.dev");
        assert_eq!(reply.status, 401);
        assert_eq!(reply.header("x-frame-options"), Some("DENY"));
        assert!(reply.body.contains("Unknown app"));
    }
}
