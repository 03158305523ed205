//! The `/settings` page: the apps connected to a person's account (with their access and last use,
//! and a Disconnect button each), their API tokens (create, list, revoke), and "Delete my data".
//!
//! Why: a person must be able to see and end every app's access at once, and to make a token for
//! clients without OAuth and for automation. Pure, so the rendering and its escaping of app and
//! token names (chosen by others) are tested natively.
//!
//! What not: no storage, no HTTP; `app::oauth::settings` loads the data and checks the forms.

use super::html::{escape, isolated_name, page};
use super::template::{fill_into, fragment};
use crate::oauth::person_api::{ApiTokenInfo, ConnectedApp};
use crate::person_data::Forgotten;

/// The token form and "Delete my data", with `{csrf}` (the form field) and `{max_name}` to fill in.
const SETTINGS_TAIL: &str = fragment(include_str!("settings-tail.html"));

/// The longest API token name accepted.
pub const MAX_TOKEN_NAME_CHARS: usize = 80;

/// The settings routes' own texts (the page's markup is below and in `settings-tail.html`).
pub mod texts {
    /// The person's object could not be reached (a 503).
    pub const UNAVAILABLE: &str = "Settings are unavailable right now; retry in a minute.";
    /// An API token form with an unknown access level.
    pub const CHOOSE_ACCESS: &str = "Choose read or write access.";
    /// "Delete my data" without its confirmation ticked.
    pub const CONFIRM_DELETE: &str = "Tick “Yes, delete my data” to confirm.";

    /// An API token form whose name is empty, too long or has control characters.
    pub fn name_the_token() -> String {
        format!(
            "Give the token a name of 1 to {} characters.",
            super::MAX_TOKEN_NAME_CHARS
        )
    }

    /// One step of "Delete my data" that left pull requests to clear.
    pub fn deleted_partly(cleared: usize) -> String {
        format!(
            "Deleted your ticks on {cleared} pull requests; more are left. Press Delete my data again to go on."
        )
    }
}

/// Everything the page shows.
pub struct SettingsView<'a> {
    pub login: &'a str,
    pub apps: &'a [ConnectedApp],
    pub tokens: &'a [ApiTokenInfo],
    /// The double-submit CSRF token every form carries.
    pub csrf: &'a str,
    /// A token just created: shown this once.
    pub new_token: Option<(&'a str, &'a str)>,
    /// A problem with the last form, shown above the lists.
    pub notice: Option<&'a str>,
}

/// A checked API token name: trimmed, 1 to 80 characters, no control characters.
pub fn token_name(raw: &str) -> Option<String> {
    let name = raw.trim();
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_TOKEN_NAME_CHARS
        && !name.chars().any(char::is_control);
    ok.then(|| name.to_string())
}

/// `2026-11-29 18:42 UTC`, or "never" for 0.
fn when(epoch_seconds: u64) -> String {
    if epoch_seconds == 0 {
        return "never".into();
    }
    let text = crate::time::rfc3339(epoch_seconds * 1000);
    format!("{} UTC", text[..16].replace('T', " "))
}

fn access(may_write: bool) -> &'static str {
    if may_write {
        "read + save"
    } else {
        "read"
    }
}

fn csrf_field(out: &mut String, csrf: &str) {
    out.push_str("<input type=\"hidden\" name=\"csrf\" value=\"");
    out.push_str(&escape(csrf));
    out.push_str("\">");
}

/// How a person signed in with one access chooses another without disconnecting first: the
/// sign-in again, with the consent page shown even though consent is remembered (issue #36).
pub const CHANGE_ACCESS: &str = "<p><a href=\"/signin?access=change&amp;next=/settings\">Change access</a>: sign in again and choose whether this browser may also save orders and diagrams and send reviews and comments to GitHub as you.</p>\n";

/// The page for a signed-in GitHub person.
pub fn settings(view: &SettingsView<'_>, base_url: &str) -> String {
    let mut out = String::with_capacity(4096);
    out.push_str("<h1>Settings</h1>\n<p>Signed in as <strong>");
    out.push_str(&escape(view.login));
    out.push_str("</strong>.</p>\n<form method=\"post\" action=\"/signout\" class=\"inline\">");
    csrf_field(&mut out, view.csrf);
    out.push_str("<button type=\"submit\">Sign out</button></form>\n");
    out.push_str(CHANGE_ACCESS);
    if let Some(notice) = view.notice {
        out.push_str("<p class=\"notice\" role=\"alert\">");
        out.push_str(&escape(notice));
        out.push_str("</p>\n");
    }
    if let Some((name, token)) = view.new_token {
        out.push_str("<section aria-labelledby=\"new-token\"><h2 id=\"new-token\">New API token: ");
        out.push_str(&escape(name));
        out.push_str(
            "</h2>\n<p>Copy it now: it is shown only this once.</p>\n<p><code id=\"api-token\">",
        );
        out.push_str(&escape(token));
        out.push_str("</code></p>\n<p>Use it as <code>Authorization: Bearer …</code> on <code>");
        out.push_str(&escape(&format!("{}/mcp", base_url.trim_end_matches('/'))));
        out.push_str("</code>.</p></section>\n");
    }

    out.push_str("<section aria-labelledby=\"apps\"><h2 id=\"apps\">Connected apps</h2>\n");
    if view.apps.is_empty() {
        out.push_str("<p>No apps are connected.</p>\n");
    } else {
        out.push_str("<table class=\"apps\"><thead><tr><th>App</th><th>Access</th><th>Connected</th><th>Last used</th><th></th></tr></thead><tbody>\n");
        for app in view.apps {
            out.push_str("<tr><td>");
            out.push_str(&isolated_name(&app.client_name));
            if app.current {
                out.push_str(" (this browser)");
            }
            out.push_str("</td><td>");
            out.push_str(access(app.may_write));
            out.push_str("</td><td>");
            out.push_str(&when(app.created_at));
            out.push_str("</td><td>");
            out.push_str(&when(app.last_used_at));
            out.push_str("</td><td><form method=\"post\" action=\"/settings/apps/disconnect\">");
            csrf_field(&mut out, view.csrf);
            out.push_str("<input type=\"hidden\" name=\"grant\" value=\"");
            out.push_str(&escape(&app.grant_id));
            out.push_str("\"><button type=\"submit\">Disconnect</button></form></td></tr>\n");
        }
        out.push_str("</tbody></table>\n");
    }
    out.push_str("</section>\n");

    out.push_str("<section aria-labelledby=\"tokens\"><h2 id=\"tokens\">API tokens</h2>\n");
    out.push_str("<p>For clients without OAuth and for automation. A token acts as you until you revoke it.</p>\n");
    if view.tokens.is_empty() {
        out.push_str("<p>No API tokens.</p>\n");
    } else {
        out.push_str("<table class=\"tokens\"><thead><tr><th>Name</th><th>Access</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>\n");
        for token in view.tokens {
            out.push_str("<tr><td>");
            out.push_str(&escape(&token.name));
            out.push_str("</td><td>");
            out.push_str(access(token.may_write));
            out.push_str("</td><td>");
            out.push_str(&when(token.created_at));
            out.push_str("</td><td>");
            out.push_str(&when(token.last_used_at));
            out.push_str("</td><td><form method=\"post\" action=\"/settings/tokens/revoke\">");
            csrf_field(&mut out, view.csrf);
            out.push_str("<input type=\"hidden\" name=\"token\" value=\"");
            out.push_str(&escape(&token.id));
            out.push_str("\"><button type=\"submit\">Revoke</button></form></td></tr>\n");
        }
        out.push_str("</tbody></table>\n");
    }
    // The token form and "Delete my data".
    let mut csrf = String::new();
    csrf_field(&mut csrf, view.csrf);
    let max_name = MAX_TOKEN_NAME_CHARS.to_string();
    fill_into(
        &mut out,
        SETTINGS_TAIL,
        &[("{csrf}", &csrf), ("{max_name}", &max_name)],
    );
    page("Settings", &out, base_url)
}

/// After "Delete my data": what was deleted. The browser's session cookies are cleared with it.
pub fn deleted(login: &str, forgotten: &Forgotten, base_url: &str) -> String {
    let body = format!(
        "<h1>Your data was deleted</h1>\n<p>Deleted for <strong>{}</strong>: connected apps: {}, API tokens: {}, GitHub token: {}, and your ticks. Reading orders and diagrams you saved stay, under your login.</p>\n",
        escape(login),
        forgotten.grants,
        forgotten.api_tokens,
        if forgotten.github_token { "yes" } else { "none kept" },
    );
    page("Data deleted", &body, base_url)
}

/// In local development the caller is a local user with no person object: nothing to manage.
pub fn local_dev(base_url: &str) -> String {
    page(
        "Settings",
        "<h1>Settings</h1>\n<p>Settings need a GitHub sign-in. In local development you act as the \
         local user, who has no connected apps or API tokens.</p>",
        base_url,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(name: &str, current: bool) -> ConnectedApp {
        ConnectedApp {
            grant_id: "g\"1".into(),
            client_name: name.into(),
            may_write: true,
            created_at: 1_700_000_000,
            last_used_at: 0,
            current,
        }
    }

    #[test]
    fn escapes_names_and_shows_access() {
        let apps = [app("<script>alert(1)</script>", false), app("Cursor", true)];
        let tokens = [ApiTokenInfo {
            id: "t1".into(),
            name: "CI & \"deploy\"".into(),
            may_write: false,
            created_at: 1_700_000_000,
            last_used_at: 1_700_000_060,
        }];
        let html = settings(
            &SettingsView {
                login: "octo",
                apps: &apps,
                tokens: &tokens,
                csrf: "tok",
                new_token: None,
                notice: None,
            },
            "https://h",
        );
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("CI &amp; &quot;deploy&quot;"));
        assert!(html.contains("value=\"g&quot;1\""));
        assert!(html.contains("<bdi>Cursor</bdi> (this browser)"));
        assert!(html.contains("read + save"));
        assert!(html.contains("<td>read</td>"));
        assert!(html.contains("2023-11-14 22:13 UTC"));
        assert!(html.contains("2023-11-14 22:14 UTC"));
        assert!(html.contains("never"));
        assert_eq!(html.matches("name=\"csrf\" value=\"tok\"").count(), 6);
        assert!(html.contains("action=\"/settings/delete\""));
        assert!(!html.contains("api-token"));
    }

    #[test]
    fn shows_a_new_token_once() {
        let html = settings(
            &SettingsView {
                login: "octo",
                apps: &[],
                tokens: &[],
                csrf: "tok",
                new_token: Some(("<b>CI</b>", "lfk_1_abc")),
                notice: Some("<i>bad</i>"),
            },
            "https://h",
        );
        assert!(html.contains("<code id=\"api-token\">lfk_1_abc</code>"));
        assert!(html.contains("&lt;b&gt;CI&lt;/b&gt;"));
        assert!(html.contains("&lt;i&gt;bad&lt;/i&gt;"));
        assert!(html.contains("No apps are connected."));
        assert!(local_dev("https://h").contains("need a GitHub sign-in"));
    }

    #[test]
    fn the_deleted_page_says_what_went_and_what_stays() {
        let html = deleted(
            "<octo>",
            &Forgotten {
                grants: 1,
                api_tokens: 2,
                github_token: true,
            },
            "https://h",
        );
        assert!(html.contains("&lt;octo&gt;"));
        assert!(html.contains("connected apps: 1, API tokens: 2, GitHub token: yes"));
        assert!(html.contains("saved stay"));
    }

    #[test]
    fn token_names() {
        assert_eq!(token_name("  CI  ").as_deref(), Some("CI"));
        assert_eq!(token_name(""), None);
        assert_eq!(token_name("   "), None);
        assert_eq!(token_name("a\nb"), None);
        assert!(token_name(&"é".repeat(80)).is_some());
        assert_eq!(token_name(&"x".repeat(81)), None);
    }
}
