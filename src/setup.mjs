// /setup: the page that creates this server's GitHub App with GitHub's App manifest flow, served
// only while no GitHub client id is configured; after that the request goes on to the Rust code
// like any other, which answers 404 (the route table doesn't know /setup).
//
// Why here and not in Rust: the page (src/web/setup.html), its style and its script are static
// assets, and the browser builds the manifest, checks `state` and converts GitHub's code, so the
// App's secrets never pass through this server or its logs. What is left for the Worker is to
// gate the page, read it through the ASSETS binding and fill in GitHub's web and API bases, which
// its form posts to, its script fetches from and its CSP allows. Done in Rust, that cost ~0.4 KB
// of the wasm's gzip size, which is over its budget (DESIGN.md section 7); here it costs none.
// It reads the same settings as Config (src/config.rs: blank means unset; the bases' defaults and
// trimmed `/`) and writes the same log line as src/log.rs, with nothing from the request in it.
//
// What not: no secret, no storage, no request to GitHub from the Worker.

const PATH = '/setup';

/** A setting as Config reads it: a var or secret, blank meaning unset. */
const setting = (env, name) => {
  const value = typeof env[name] === 'string' ? env[name].trim() : '';
  return value === '' ? null : value;
};
const base = (env, name, fallback) => (setting(env, name) ?? fallback).replace(/\/+$/, '');

/** `text` for an HTML attribute value. */
const attribute = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** True when `url` may be /setup: a cheap test that keeps every other request's cost unchanged. */
export const maybeSetup = (url) => url.includes(PATH);

/**
 * The /setup page for `request`, or null when the request is for the Rust code (another path,
 * another method, or a server that has its client id).
 */
export async function setupPage(request, env) {
  const started = Date.now();
  const url = new URL(request.url);
  if (url.pathname !== PATH || !['GET', 'HEAD'].includes(request.method) || setting(env, 'GITHUB_CLIENT_ID') !== null) {
    return null;
  }
  const web = base(env, 'GITHUB_OAUTH_URL', 'https://github.com');
  const api = base(env, 'GITHUB_API_URL', 'https://api.github.com');
  // The binding looks at the path only; Workers Static Assets serve setup.html at /setup.
  const asset = await env.ASSETS.fetch(new URL(PATH, url));
  const html = (await asset.text()).replaceAll('%GITHUB_WEB%', attribute(web)).replaceAll('%GITHUB_API%', attribute(api));
  const response = new Response(request.method === 'HEAD' ? null : html, {
    status: asset.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // The pages' CSP (src/web/html.rs), except that forms go only to GitHub's web host (the
      // manifest) and the script connects only to GitHub's API (the conversion). A source with a
      // trailing `/` allows every path under it (`https://ghe.example/api/v3/…`).
      'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; " +
        `connect-src ${api}/; base-uri 'none'; form-action ${web}/; frame-ancestors 'none'`,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    },
  });
  console.log(JSON.stringify({ event: 'request', route: 'setup', status: asset.status, ms: Date.now() - started, github_requests: 0, objects: 0 }));
  return response;
}
