//! Which handler a request's method and path go to. Pure, so the route table is tested natively.

/// A page or endpoint of the Worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The MCP endpoint (every method; the transport answers 405 to the ones it does not serve).
    Mcp,
    /// RFC 9728 protected-resource metadata, path-suffixed or root form.
    ResourceMetadata,
    /// The landing page.
    Home,
    /// The ordering guide as HTML.
    GuidePage,
    /// The ordering guide as Markdown.
    GuideMarkdown,
    /// Anything else.
    NotFound,
    /// A known path with a method it does not serve.
    MethodNotAllowed,
}

pub fn route(method: &str, path: &str) -> Route {
    let read = matches!(method, "GET" | "HEAD");
    let page = |route: Route| if read { route } else { Route::MethodNotAllowed };
    match path {
        "/mcp" | "/mcp/" => Route::Mcp,
        "/.well-known/oauth-protected-resource" | "/.well-known/oauth-protected-resource/mcp" => {
            page(Route::ResourceMetadata)
        }
        "/" => page(Route::Home),
        "/docs/ordering-guide" | "/docs/ordering-guide/" => page(Route::GuidePage),
        "/docs/ordering-guide.md" => page(Route::GuideMarkdown),
        _ => Route::NotFound,
    }
}

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
        check("POST", "/", Route::MethodNotAllowed);
        check("GET", "/docs/ordering-guide", Route::GuidePage);
        check("GET", "/docs/ordering-guide.md", Route::GuideMarkdown);
        check("GET", "/nope", Route::NotFound);
        check("GET", "/mcpx", Route::NotFound);
    }
}
