//! `/setup`: the page that creates this server's GitHub App with GitHub's App manifest flow,
//! served only while no GitHub client id is configured (`docs/deploying.md`, step 3).
//!
//! Why so little here: the page (`web/setup.html`, compiled in), its style and its script
//! (`static/setup.js`) run in the browser, which builds the manifest, checks `state` and converts
//! GitHub's code, so the App's secrets never pass through this server or its logs. What is left
//! for the Worker is to gate the page (`service`) and fill in GitHub's web and API bases, which
//! its form posts to, its script fetches from and its CSP allows.
//!
//! What not: no secret, no storage, no request to GitHub from the Worker.

use super::escape::escape;

/// The page, with `%GITHUB_WEB%` and `%GITHUB_API%` to fill in.
const TEMPLATE: &str = include_str!("setup.html");

/// The page with GitHub's web and API bases (as `Config` has them: no trailing `/`) filled in.
pub fn page(web: &str, api: &str) -> String {
    fill(TEMPLATE, web, api)
}

fn fill(template: &str, web: &str, api: &str) -> String {
    template
        .replace("%GITHUB_WEB%", &escape(web))
        .replace("%GITHUB_API%", &escape(api))
}

/// The pages' CSP (`html::CSP`), except that forms go only to GitHub's web host (the manifest)
/// and the script connects only to GitHub's API (the conversion). A source with a trailing `/`
/// allows every path under it (`https://ghe.example/api/v3/…`).
pub fn csp(web: &str, api: &str) -> String {
    format!(
        "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; \
         connect-src {api}/; base-uri 'none'; form-action {web}/; frame-ancestors 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bases_are_filled_in_escaped() {
        let template =
            r#"<form action="%GITHUB_WEB%/settings/apps/new"><p data-api="%GITHUB_API%">"#;
        assert_eq!(
            fill(
                template,
                "https://ghe.test",
                "https://ghe.test/api/v3?a=1&b=\"2\""
            ),
            r#"<form action="https://ghe.test/settings/apps/new"><p data-api="https://ghe.test/api/v3?a=1&amp;b=&quot;2&quot;">"#
        );
    }

    #[test]
    fn the_policy_names_githubs_hosts_only_where_the_page_needs_them() {
        let policy = csp("https://github.com", "https://api.github.com");
        assert!(policy.contains("connect-src https://api.github.com/;"));
        assert!(policy.contains("form-action https://github.com/;"));
        assert!(policy.contains("script-src 'self';"));
        assert!(policy.contains("frame-ancestors 'none'"));
    }

    /// The page holds both markers, so a base is never left out.
    #[test]
    fn the_page_has_both_bases() {
        assert!(TEMPLATE.contains("%GITHUB_WEB%") && TEMPLATE.contains("%GITHUB_API%"));
        let page = page("https://github.com", "https://api.github.com");
        assert!(page.starts_with("<!doctype html>"), "{page}");
        assert!(!page.contains('%'), "every marker is filled");
        assert!(page.contains(r#"data-github-api="https://api.github.com""#));
    }
}
