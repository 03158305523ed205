//! Which handler a request's method and path go to: the Worker's one route table, the OAuth
//! endpoints included, so a 405 and its `Allow` header are decided here for every path. Pure, so
//! the table is tested natively.

use crate::github::api::is_repo_name;
use crate::oauth::metadata as oauth;

/// A page or endpoint of the Worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The MCP endpoint (every method; the transport answers 405 to the ones it does not serve).
    Mcp,
    /// RFC 9728 protected-resource metadata, path-suffixed or root form.
    ResourceMetadata,
    /// An endpoint of the authorization server (`app::oauth`, its shell `service::oauth_server`), with a method it takes.
    OAuth(OAuthEndpoint),
    /// `OPTIONS` on an OAuth endpoint: the CORS preflight, whatever the endpoint.
    OAuthPreflight(OAuthEndpoint),
    /// The landing page.
    Home,
    /// The ordering guide as Markdown.
    GuideMarkdown,
    /// The review page of a pull request (`GET /r/{owner}/{repo}/pull/{n}`).
    Review(PullPath),
    /// A reviewer ticking a checklist item or file (`POST …/ticks`).
    Tick(PullPath),
    /// Arranging the order on the web (`GET` shows the form, `POST` saves it).
    Arrange(PullPath),
    /// One file entry's diff, loaded on demand (`GET …/diff?path=&hunks=&first=`).
    ReviewDiff(PullPath),
    /// Lines around a change, for "expand context" (`GET …/context?path=&from=&to=`).
    ReviewContext(PullPath),
    /// Finishing the review on the page (issue 29): `POST …/comments`, `…/drafts`, `…/review`,
    /// `…/replies`, `…/threads`, `…/preview`.
    ReviewWrite(PullPath, ReviewWrite),
    /// Reviewers' web sign-in, its OAuth callback, and sign-out.
    SignIn,
    SignInCallback,
    SignOut,
    /// The settings page: connected apps and API tokens (`GET /settings`).
    Settings,
    /// `POST /settings/apps/disconnect`: end one app's access.
    SettingsDisconnect,
    /// `POST /settings/tokens`: create an API token.
    SettingsCreateToken,
    /// `POST /settings/tokens/revoke`: revoke an API token.
    SettingsRevokeToken,
    /// `POST /settings/delete`: delete the person's data (grants, tokens, GitHub token, ticks).
    SettingsDeleteData,
    /// `/setup`, any method: the page that creates the GitHub App while the server has none
    /// (`web::setup_page`); `service` answers 404 to anything else.
    Setup,
    /// Anything else.
    NotFound,
    /// A known path with a method it does not serve, and the methods it does (`Allow`).
    MethodNotAllowed(&'static str),
}

/// What a review page's form asks for (`service::review_write`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewWrite {
    /// `…/comments`: a line comment, kept as a draft or sent at once.
    Comment,
    /// `…/drafts`: change or delete a draft.
    Draft,
    /// `…/review`: send the review with every draft and a verdict.
    Submit,
    /// `…/replies`: reply in a thread.
    Reply,
    /// `…/threads`: resolve or unresolve a thread.
    Thread,
    /// `…/preview`: a comment's Markdown rendered as the page would show it.
    Preview,
}

impl ReviewWrite {
    fn of(tail: &str) -> Option<ReviewWrite> {
        Some(match tail {
            "comments" => ReviewWrite::Comment,
            "drafts" => ReviewWrite::Draft,
            "review" => ReviewWrite::Submit,
            "replies" => ReviewWrite::Reply,
            "threads" => ReviewWrite::Thread,
            "preview" => ReviewWrite::Preview,
            _ => return None,
        })
    }
}

/// The authorization server's endpoints (paths in `oauth::metadata`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OAuthEndpoint {
    /// `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata.
    Metadata,
    /// `GET /authorize`: the authorization request.
    Authorize,
    /// `GET /oauth/callback`: GitHub's redirect back.
    Callback,
    /// `POST /authorize/consent`: the consent form's answer.
    Consent,
    /// `POST /oauth/token`: code exchange and refresh.
    Token,
    /// `POST /oauth/register`: dynamic registration (RFC 7591).
    Register,
    /// `POST /oauth/revoke`: revocation (RFC 7009).
    Revoke,
}

impl OAuthEndpoint {
    /// The endpoint at `path`, if any.
    pub fn of(path: &str) -> Option<OAuthEndpoint> {
        Some(match path {
            oauth::METADATA_PATH => OAuthEndpoint::Metadata,
            oauth::AUTHORIZE_PATH => OAuthEndpoint::Authorize,
            oauth::CALLBACK_PATH => OAuthEndpoint::Callback,
            oauth::CONSENT_PATH => OAuthEndpoint::Consent,
            oauth::TOKEN_PATH => OAuthEndpoint::Token,
            oauth::REGISTER_PATH => OAuthEndpoint::Register,
            oauth::REVOKE_PATH => OAuthEndpoint::Revoke,
            _ => return None,
        })
    }

    /// The methods it takes (`Allow`): the metadata is read, the two browser redirects arrive
    /// as `GET`, everything else is a form `POST`.
    fn allow(self) -> &'static str {
        match self {
            OAuthEndpoint::Metadata => READ,
            OAuthEndpoint::Authorize | OAuthEndpoint::Callback => GET,
            _ => POST,
        }
    }

    /// Its fixed name in the request log.
    pub fn label(self) -> &'static str {
        match self {
            OAuthEndpoint::Metadata => "oauth_metadata",
            OAuthEndpoint::Authorize => "authorize",
            OAuthEndpoint::Callback => "oauth_callback",
            OAuthEndpoint::Consent => "consent",
            OAuthEndpoint::Token => "token",
            OAuthEndpoint::Register => "register",
            OAuthEndpoint::Revoke => "revoke",
        }
    }
}

/// An OAuth path's route: `OPTIONS` is its CORS preflight (clients in a browser call these
/// endpoints cross-origin), a method it takes is the endpoint, any other a 405.
fn oauth_route(method: &str, endpoint: OAuthEndpoint) -> Route {
    let allow = endpoint.allow();
    let takes = match allow {
        READ => matches!(method, "GET" | "HEAD"),
        _ => method == allow,
    };
    if method == "OPTIONS" {
        Route::OAuthPreflight(endpoint)
    } else if takes {
        Route::OAuth(endpoint)
    } else {
        Route::MethodNotAllowed(allow)
    }
}

/// The pull request a `/r/…` path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullPath {
    pub owner: String,
    pub repo: String,
    pub number: u64,
}

/// Reads `/r/{owner}/{repo}/pull/{n}` and what follows it.
fn pull_path(path: &str) -> Option<(PullPath, &str)> {
    let rest = path.strip_prefix("/r/")?;
    let mut parts = rest.splitn(5, '/');
    let owner = parts.next()?;
    let repo = parts.next()?;
    if parts.next()? != "pull" {
        return None;
    }
    let number: u64 = parts.next()?.parse().ok().filter(|n| *n > 0)?;
    let tail = parts.next().unwrap_or("");
    (is_repo_name(owner) && is_repo_name(repo)).then(|| {
        (
            PullPath {
                owner: owner.to_string(),
                repo: repo.to_string(),
                number,
            },
            tail,
        )
    })
}

/// The `Allow` header of a 405, by what the path takes.
const READ: &str = "GET, HEAD";
const GET: &str = "GET";
const POST: &str = "POST";
const READ_AND_POST: &str = "GET, HEAD, POST";

pub fn route(method: &str, path: &str) -> Route {
    if let Some(endpoint) = OAuthEndpoint::of(path) {
        return oauth_route(method, endpoint);
    }
    if let Some((pull, tail)) = pull_path(path) {
        return match (method, tail) {
            ("GET" | "HEAD", "") => Route::Review(pull),
            ("POST", "ticks") => Route::Tick(pull),
            ("GET" | "HEAD" | "POST", "arrange") => Route::Arrange(pull),
            ("GET" | "HEAD", "diff") => Route::ReviewDiff(pull),
            ("GET" | "HEAD", "context") => Route::ReviewContext(pull),
            ("POST", tail) if ReviewWrite::of(tail).is_some() => match ReviewWrite::of(tail) {
                Some(write) => Route::ReviewWrite(pull, write),
                None => Route::NotFound,
            },
            (_, tail) if ReviewWrite::of(tail).is_some() => Route::MethodNotAllowed(POST),
            (_, "ticks") => Route::MethodNotAllowed(POST),
            (_, "arrange") => Route::MethodNotAllowed(READ_AND_POST),
            (_, "" | "diff" | "context") => Route::MethodNotAllowed(READ),
            _ => Route::NotFound,
        };
    }
    let read = matches!(method, "GET" | "HEAD");
    let page = |route: Route| {
        if read {
            route
        } else {
            Route::MethodNotAllowed(READ)
        }
    };
    let form = |route: Route| {
        if method == "POST" {
            route
        } else {
            Route::MethodNotAllowed(POST)
        }
    };
    match path {
        "/mcp" | "/mcp/" => Route::Mcp,
        "/.well-known/oauth-protected-resource" | "/.well-known/oauth-protected-resource/mcp" => {
            page(Route::ResourceMetadata)
        }
        "/" => page(Route::Home),
        "/docs/ordering-guide.md" => page(Route::GuideMarkdown),
        "/signin" => page(Route::SignIn),
        "/signin/callback" => page(Route::SignInCallback),
        // GET shows a button; only a POST with the CSRF pair signs out, so another site can't
        // sign a person out with a link or a top-level navigation.
        "/signout" if read || method == "POST" => Route::SignOut,
        "/signout" => Route::MethodNotAllowed(READ_AND_POST),
        "/settings" => page(Route::Settings),
        "/settings/apps/disconnect" => form(Route::SettingsDisconnect),
        "/settings/tokens" => form(Route::SettingsCreateToken),
        "/settings/tokens/revoke" => form(Route::SettingsRevokeToken),
        "/settings/delete" => form(Route::SettingsDeleteData),
        "/setup" => Route::Setup,
        _ => Route::NotFound,
    }
}

impl Route {
    /// The request log's name for this route of `path`: [`Route::label`], except that an OAuth
    /// path keeps its endpoint's name for a method it does not take too, as it always has.
    pub fn log_label(&self, path: &str) -> &'static str {
        match self {
            Route::MethodNotAllowed(_) => {
                OAuthEndpoint::of(path).map_or_else(|| self.label(), OAuthEndpoint::label)
            }
            _ => self.label(),
        }
    }

    /// A short fixed name for the request log (`log`): never the path, which carries names.
    pub fn label(&self) -> &'static str {
        match self {
            Route::Mcp => "mcp",
            Route::OAuth(endpoint) | Route::OAuthPreflight(endpoint) => endpoint.label(),
            Route::ResourceMetadata => "resource_metadata",
            Route::Home => "home",
            Route::GuideMarkdown => "guide",
            Route::Review(_) => "review",
            Route::Tick(_) => "tick",
            Route::Arrange(_) => "arrange",
            Route::ReviewDiff(_) => "review_diff",
            Route::ReviewContext(_) => "review_context",
            Route::ReviewWrite(_, write) => match write {
                ReviewWrite::Comment => "review_comment",
                ReviewWrite::Draft => "review_draft",
                ReviewWrite::Submit => "review_submit",
                ReviewWrite::Reply => "review_reply",
                ReviewWrite::Thread => "review_thread",
                ReviewWrite::Preview => "review_preview",
            },
            Route::SignIn => "signin",
            Route::SignInCallback => "signin_callback",
            Route::SignOut => "signout",
            Route::Settings => "settings",
            Route::SettingsDisconnect => "settings_disconnect",
            Route::SettingsCreateToken => "settings_create_token",
            Route::SettingsRevokeToken => "settings_revoke_token",
            Route::SettingsDeleteData => "settings_delete_data",
            Route::Setup => "setup",
            Route::NotFound => "not_found",
            Route::MethodNotAllowed(_) => "method_not_allowed",
        }
    }
}

/// The log label of a request (`Route::log_label`).
pub fn label(method: &str, path: &str) -> &'static str {
    route(method, path).log_label(path)
}

/// Every label [`label`] can return, for the log's tests.
pub const ROUTE_LABELS: &[&str] = &[
    "oauth_metadata",
    "authorize",
    "consent",
    "oauth_callback",
    "token",
    "register",
    "revoke",
    "mcp",
    "resource_metadata",
    "home",
    "guide",
    "review",
    "tick",
    "arrange",
    "review_diff",
    "review_context",
    "signin",
    "signin_callback",
    "signout",
    "settings",
    "settings_disconnect",
    "settings_create_token",
    "settings_revoke_token",
    "settings_delete_data",
    "not_found",
    "method_not_allowed",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn check(method: &str, path: &str, expected: Route) {
        assert_eq!(route(method, path), expected, "{method} {path}");
    }

    #[test]
    fn routes() {
        check("POST", "/mcp", Route::Mcp);
        check("GET", "/mcp", Route::Mcp);
        check("DELETE", "/mcp", Route::Mcp);
        check("GET", "/r/../../pull/1", Route::NotFound);
        check("POST", "/r/./app/pull/1/ticks", Route::NotFound);
        check("GET", "/r/acme/../pull/1", Route::NotFound);
        check(
            "GET",
            "/.well-known/oauth-protected-resource/mcp",
            Route::ResourceMetadata,
        );
        check(
            "GET",
            "/.well-known/oauth-protected-resource",
            Route::ResourceMetadata,
        );
        check("GET", "/", Route::Home);
        check("POST", "/", Route::MethodNotAllowed(READ));
        check("GET", "/docs/ordering-guide.md", Route::GuideMarkdown);
        check("GET", "/nope", Route::NotFound);
        check("GET", "/mcpx", Route::NotFound);
        // `/setup` answers 404 to other methods itself, as when the server has its App.
        check("GET", "/setup", Route::Setup);
        check("POST", "/setup", Route::Setup);
        check("GET", "/setup.html", Route::NotFound);
        let pull = || PullPath {
            owner: "acme".into(),
            repo: "app.js".into(),
            number: 12,
        };
        check("GET", "/r/acme/app.js/pull/12", Route::Review(pull()));
        check("POST", "/r/acme/app.js/pull/12/ticks", Route::Tick(pull()));
        check(
            "GET",
            "/r/acme/app.js/pull/12/ticks",
            Route::MethodNotAllowed(POST),
        );
        check(
            "PUT",
            "/r/acme/app.js/pull/12/arrange",
            Route::MethodNotAllowed(READ_AND_POST),
        );
        check(
            "GET",
            "/r/acme/app.js/pull/12/arrange",
            Route::Arrange(pull()),
        );
        check(
            "POST",
            "/r/acme/app.js/pull/12/arrange",
            Route::Arrange(pull()),
        );
        check(
            "POST",
            "/r/acme/app.js/pull/12",
            Route::MethodNotAllowed(READ),
        );
        check(
            "GET",
            "/r/acme/app.js/pull/12/diff",
            Route::ReviewDiff(pull()),
        );
        check(
            "GET",
            "/r/acme/app.js/pull/12/context",
            Route::ReviewContext(pull()),
        );
        check(
            "POST",
            "/r/acme/app.js/pull/12/diff",
            Route::MethodNotAllowed(READ),
        );
        check("GET", "/r/acme/app.js/pull/12/diff/x", Route::NotFound);
        check("GET", "/r/acme/app.js/pull/0", Route::NotFound);
        check("GET", "/r/acme/app.js/issues/12", Route::NotFound);
        check("GET", "/r/ac%20me/app/pull/1", Route::NotFound);
        check("GET", "/r/acme/app/pull/1/other", Route::NotFound);
        check("GET", "/signin", Route::SignIn);
        check("GET", "/signin/callback", Route::SignInCallback);
        check("GET", "/signout", Route::SignOut);
        check("POST", "/signout", Route::SignOut);
        check("DELETE", "/signout", Route::MethodNotAllowed(READ_AND_POST));
        check("POST", "/signin", Route::MethodNotAllowed(READ));
        check("GET", "/settings", Route::Settings);
        check("HEAD", "/settings", Route::Settings);
        check("POST", "/settings", Route::MethodNotAllowed(READ));
        check(
            "POST",
            "/settings/apps/disconnect",
            Route::SettingsDisconnect,
        );
        check(
            "GET",
            "/settings/apps/disconnect",
            Route::MethodNotAllowed(POST),
        );
        check("POST", "/settings/tokens", Route::SettingsCreateToken);
        check("GET", "/settings/tokens", Route::MethodNotAllowed(POST));
        check(
            "POST",
            "/settings/tokens/revoke",
            Route::SettingsRevokeToken,
        );
        check(
            "GET",
            "/settings/tokens/revoke",
            Route::MethodNotAllowed(POST),
        );
        check("POST", "/settings/delete", Route::SettingsDeleteData);
        check("GET", "/settings/delete", Route::MethodNotAllowed(POST));
        check("GET", "/settings/other", Route::NotFound);
        use OAuthEndpoint as O;
        check(
            "GET",
            "/.well-known/oauth-authorization-server",
            Route::OAuth(O::Metadata),
        );
        check(
            "HEAD",
            "/.well-known/oauth-authorization-server",
            Route::OAuth(O::Metadata),
        );
        check(
            "POST",
            "/.well-known/oauth-authorization-server",
            Route::MethodNotAllowed(READ),
        );
        check("GET", "/authorize", Route::OAuth(O::Authorize));
        check("HEAD", "/authorize", Route::MethodNotAllowed(GET));
        check("GET", "/oauth/callback", Route::OAuth(O::Callback));
        check("POST", "/oauth/callback", Route::MethodNotAllowed(GET));
        check("POST", "/authorize/consent", Route::OAuth(O::Consent));
        check("GET", "/authorize/consent", Route::MethodNotAllowed(POST));
        check("POST", "/oauth/token", Route::OAuth(O::Token));
        check("GET", "/oauth/token", Route::MethodNotAllowed(POST));
        check("POST", "/oauth/register", Route::OAuth(O::Register));
        check("PUT", "/oauth/register", Route::MethodNotAllowed(POST));
        check("POST", "/oauth/revoke", Route::OAuth(O::Revoke));
        check("OPTIONS", "/oauth/token", Route::OAuthPreflight(O::Token));
        check("OPTIONS", "/authorize", Route::OAuthPreflight(O::Authorize));
        check("OPTIONS", "/mcp", Route::Mcp);
        check("GET", "/oauth", Route::NotFound);
    }

    /// Moved from `oauth::metadata` with the table: exactly these paths are the OAuth endpoints.
    #[test]
    fn oauth_paths() {
        for path in [
            "/.well-known/oauth-authorization-server",
            "/authorize",
            "/authorize/consent",
            "/oauth/callback",
            "/oauth/token",
            "/oauth/register",
            "/oauth/revoke",
        ] {
            assert!(OAuthEndpoint::of(path).is_some(), "{path}");
        }
        for path in [
            "/mcp",
            "/",
            "/oauth",
            "/authorize/",
            "/.well-known/oauth-protected-resource",
        ] {
            assert!(OAuthEndpoint::of(path).is_none(), "{path}");
        }
    }

    #[test]
    fn labels_name_the_route_never_the_path() {
        assert_eq!(label("GET", "/r/acme/secret-repo/pull/12"), "review");
        assert_eq!(label("POST", "/r/acme/secret-repo/pull/12/ticks"), "tick");
        assert_eq!(label("GET", "/r/acme/app/pull/12/diff"), "review_diff");
        assert_eq!(
            label("GET", "/r/acme/app/pull/12/context"),
            "review_context"
        );
        assert_eq!(label("GET", "/oauth/callback"), "oauth_callback");
        assert_eq!(label("POST", "/oauth/token"), "token");
        assert_eq!(label("POST", "/mcp"), "mcp");
        assert_eq!(label("GET", "/anything/else"), "not_found");
        for (method, path) in [
            ("GET", "/.well-known/oauth-authorization-server"),
            ("GET", "/authorize"),
            ("POST", "/authorize/consent"),
            ("POST", "/oauth/register"),
            ("POST", "/oauth/revoke"),
            ("GET", "/.well-known/oauth-protected-resource"),
            ("GET", "/"),
            ("GET", "/docs/ordering-guide"),
            ("GET", "/r/a/b/pull/1/arrange"),
            ("GET", "/signin"),
            ("GET", "/signin/callback"),
            ("GET", "/signout"),
            ("GET", "/settings"),
            ("POST", "/settings/apps/disconnect"),
            ("POST", "/settings/tokens"),
            ("POST", "/settings/tokens/revoke"),
            ("POST", "/settings/delete"),
            ("POST", "/"),
        ] {
            let name = label(method, path);
            assert!(ROUTE_LABELS.contains(&name), "{name} is not listed");
        }
    }
}
