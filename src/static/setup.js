// /setup's script (the page is src/web/setup.html; the Worker serves it only while no GitHub
// client id is configured). GitHub's App manifest flow, all of it in this browser:
//   1. the manifest is built from this server's origin and POSTed to GitHub's "new App" page with
//      a random `state`, kept in sessionStorage for the return;
//   2. GitHub brings the person back to /setup?code=…&state=…; a `state` that is not the one this
//      browser stored is refused and its code is never used;
//   3. the code is converted at GitHub's API (POST /app-manifests/{code}/conversions, no
//      credentials, works once) and the client id and secret are shown with the commands that put
//      them into Cloudflare.
// The secrets live only in this page's DOM: they are never stored, logged or sent to this server
// (the page's CSP lets it talk to GitHub's API and nothing else). The App's private key and
// webhook secret in the answer are dropped: LogiKFlow never acts as the App.
(() => {
  'use strict';
  const STATE_KEY = 'logikflow-setup-state';
  const $ = (id) => document.getElementById(id);
  const main = $('main');
  const web = main.dataset.githubWeb;
  const api = main.dataset.githubApi;
  const origin = location.origin;
  const callback = `${origin}/oauth/callback`;
  // GitHub account names: letters, digits and single hyphens, at most 39 characters.
  const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

  function problem(text) {
    const box = $('problem');
    box.textContent = text;
    box.hidden = false;
    box.focus();
  }

  /** The GitHub App this server needs (`docs/deploying.md`, step 3, lists the same settings). */
  function manifest(name) {
    return {
      name,
      url: origin,
      description: `Reading orders for pull requests. People sign in to ${origin} with this App.`,
      // No webhook: LogiKFlow reads on demand and receives no events.
      hook_attributes: { url: origin, active: false },
      redirect_url: `${origin}/setup`,
      // GitHub sends sign-ins here only; the review pages' own sign-in goes through it too.
      callback_urls: [callback],
      public: false,
      default_permissions: { pull_requests: 'write', statuses: 'write', contents: 'read', metadata: 'read' },
      default_events: [],
      request_oauth_on_install: false,
      setup_on_update: false,
    };
  }

  function randomState() {
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  function showStart() {
    $('start').hidden = false;
    $('show-url').textContent = origin;
    $('show-callback').textContent = callback;
    const name = $('app-name');
    if (!name.value) name.value = `LogiKFlow ${location.hostname}`.slice(0, 34).trim();
    $('org').addEventListener('input', () => {
      document.querySelector('input[name=owner][value=org]').checked = true;
    });
    $('create').addEventListener('submit', (event) => {
      event.preventDefault();
      const appName = name.value.trim();
      const asOrg = document.querySelector('input[name=owner][value=org]').checked;
      const org = $('org').value.trim();
      if (!appName) return problem('Give the App a name.');
      if (asOrg && !LOGIN.test(org)) return problem('Give the organization\'s name as GitHub spells it in its address (letters, digits and hyphens).');
      const state = randomState();
      sessionStorage.setItem(STATE_KEY, state);
      const owner = asOrg ? `/organizations/${encodeURIComponent(org)}` : '';
      const form = $('to-github');
      form.action = `${web}${owner}/settings/apps/new?state=${state}`;
      $('manifest').value = JSON.stringify(manifest(appName));
      form.submit();
    });
  }

  /** Step 3: the code becomes the App's credentials, once. */
  async function convert(code) {
    $('working').hidden = false;
    let response;
    try {
      response = await fetch(`${api}/app-manifests/${encodeURIComponent(code)}/conversions`, {
        method: 'POST',
        headers: { accept: 'application/vnd.github+json' },
        credentials: 'omit',
        cache: 'no-store',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      $('working').hidden = true;
      return problem('GitHub could not be reached to read the new App. Reload this page to try again (within the hour).');
    }
    // GitHub answered: the code is spent or dead either way, so forget it and its state.
    sessionStorage.removeItem(STATE_KEY);
    history.replaceState(null, '', location.pathname);
    $('working').hidden = true;
    if (response.status === 404) {
      showStart();
      return problem('GitHub does not know this code (any more): each works once, for an hour. ' +
        'If the App was created, find it in GitHub under Settings, Developer settings, GitHub Apps, generate a client secret there ' +
        'and put its client id and secret into Cloudflare as docs/deploying.md says (step 4); or create another App below.');
    }
    let app = null;
    try {
      app = response.ok ? await response.json() : null;
    } catch {
      app = null;
    }
    if (!app || typeof app.client_id !== 'string' || typeof app.client_secret !== 'string') {
      showStart();
      return problem(`GitHub did not hand over the new App (it answered ${response.status}). Find it in GitHub's developer settings, or try again below.`);
    }
    show(app);
  }

  function show(app) {
    $('client-id').textContent = app.client_id;
    $('client-secret').textContent = app.client_secret;
    const link = $('app-link');
    link.textContent = typeof app.name === 'string' ? app.name : 'the App';
    let page = null;
    try {
      page = new URL(app.html_url);
    } catch {
      page = null;
    }
    if (page && page.protocol === 'https:') {
      link.href = page.href;
      $('install-link').href = `${page.href.replace(/\/$/, '')}/installations/new`;
    } else {
      link.removeAttribute('href');
      $('install-link').removeAttribute('href');
    }
    $('done').hidden = false;
    $('done-title').focus();
  }

  document.addEventListener('click', async (event) => {
    const button = event.target.closest('button.copy');
    if (!button) return;
    const text = $(button.dataset.copy).textContent;
    const what = button.getAttribute('aria-label').replace(/^Copy /, '');
    try {
      await navigator.clipboard.writeText(text);
      $('copied').textContent = `Copied ${what}.`;
    } catch {
      getSelection().selectAllChildren($(button.dataset.copy));
      $('copied').textContent = `Could not copy ${what}: it is selected, copy it with the keyboard.`;
    }
  });

  const params = new URLSearchParams(location.search);
  if (!params.has('code') && !params.has('state')) {
    showStart();
    return;
  }
  const expected = sessionStorage.getItem(STATE_KEY);
  if (!params.get('code') || !expected || params.get('state') !== expected) {
    // Not the answer to what this browser asked for: someone else's link, or a stale tab. The
    // code is not used, and a stored state stays for the real answer.
    history.replaceState(null, '', location.pathname);
    showStart();
    return problem('This answer from GitHub does not match the request this browser made (its state differs), so it was not used. ' +
      'Start again below; an App GitHub created anyway can be deleted in its settings.');
  }
  convert(params.get('code'));
})();
