// apps.mjs — GitHub App registration from a manifest, for the stand-in.
//
// Why: LogiKFlow's `/setup` page creates its GitHub App through GitHub's App manifest flow
// (POST the manifest to github.com/settings/apps/new, GitHub redirects back with a one-time code,
// the page converts the code at POST /app-manifests/{code}/conversions). This module holds the
// manifest rules GitHub applies, the apps created so far and their one-time codes; the stand-in
// serves the pages and the endpoint (github-standin.mjs) and registers each app's client id and
// secret with its OAuth flow (oauth.mjs), so the credentials the flow hands out really sign
// people in. It does not model installations, webhooks or the App's own (JWT) authentication.

import { generateKeyPairSync, randomBytes } from 'node:crypto';

const CODE_TTL_MS = 60 * 60 * 1000; // GitHub: the three steps must be done within an hour
const MAX_NAME = 34; // GitHub App names are at most 34 characters
const MAX_CALLBACK_URLS = 10;

/** Permissions a manifest may ask for (GitHub's repository, organization and account permissions). */
const PERMISSIONS = new Set([
  'actions', 'administration', 'attestations', 'checks', 'codespaces', 'contents', 'dependabot_secrets', 'deployments',
  'discussions', 'environments', 'issues', 'merge_queues', 'metadata', 'packages', 'pages', 'pull_requests',
  'repository_custom_properties', 'repository_hooks', 'repository_projects', 'secret_scanning_alerts', 'secrets',
  'security_events', 'single_file', 'statuses', 'vulnerability_alerts', 'workflows', 'members',
  'organization_administration', 'organization_custom_roles', 'organization_hooks', 'organization_plan',
  'organization_projects', 'organization_secrets', 'organization_self_hosted_runners', 'team_discussions',
  'email_addresses', 'followers', 'git_ssh_keys', 'gpg_keys', 'interaction_limits', 'profile', 'starring',
]);

/** Webhook events a manifest may subscribe to (the common ones). */
const EVENTS = new Set([
  'check_run', 'check_suite', 'create', 'delete', 'deployment', 'deployment_status', 'issue_comment', 'issues',
  'label', 'member', 'meta', 'milestone', 'public', 'pull_request', 'pull_request_review',
  'pull_request_review_comment', 'pull_request_review_thread', 'push', 'release', 'repository', 'status',
  'workflow_dispatch', 'workflow_job', 'workflow_run',
]);

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base62 = (length) => [...randomBytes(length)].map((b) => BASE62[b % 62]).join('');

const isUrl = (value) => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** GitHub's slug of an App name: lower case, runs of other characters become one hyphen. */
export const slugOf = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');

/**
 * Reads a manifest the way GitHub does. `text` is the posted `manifest` field; `name` (optional)
 * is the name typed on the registration page, which wins over the manifest's. Returns
 * `{ manifest, errors }`; the app may be created only when `errors` is empty. Unknown keys are
 * ignored, as GitHub ignores them.
 */
export function readManifest(text, { name, takenSlugs = new Set() } = {}) {
  const errors = [];
  let manifest;
  try {
    manifest = JSON.parse(String(text ?? ''));
  } catch {
    return { manifest: null, errors: ['The manifest is not valid JSON.'] };
  }
  if (!isObject(manifest)) return { manifest: null, errors: ['The manifest must be a JSON object.'] };

  const appName = (name ?? manifest.name ?? '').toString().trim();
  if (appName === '') errors.push("Name can't be blank.");
  else if (appName.length > MAX_NAME) errors.push(`Name is too long (maximum is ${MAX_NAME} characters).`);
  else if (slugOf(appName) === '') errors.push('Name must contain letters or digits.');
  else if (takenSlugs.has(slugOf(appName))) errors.push('Name has already been taken.');
  if (manifest.name !== undefined && typeof manifest.name !== 'string') errors.push('name must be a string.');

  if (manifest.url === undefined || manifest.url === '') errors.push("Url can't be blank.");
  else if (!isUrl(manifest.url)) errors.push('Url must be a valid http or https URL.');
  if (manifest.description !== undefined && typeof manifest.description !== 'string') errors.push('description must be a string.');
  for (const key of ['redirect_url', 'setup_url']) {
    if (manifest[key] !== undefined && !isUrl(manifest[key])) errors.push(`${key} must be a valid http or https URL.`);
  }
  for (const key of ['public', 'request_oauth_on_install', 'setup_on_update']) {
    if (manifest[key] !== undefined && typeof manifest[key] !== 'boolean') errors.push(`${key} must be true or false.`);
  }

  const callbacks = manifest.callback_urls;
  if (callbacks !== undefined) {
    if (!Array.isArray(callbacks)) errors.push('callback_urls must be a list of URLs.');
    else if (callbacks.length > MAX_CALLBACK_URLS) errors.push(`callback_urls can have at most ${MAX_CALLBACK_URLS} URLs.`);
    else for (const url of callbacks) if (!isUrl(url)) errors.push(`Callback URL ${JSON.stringify(url)} must be a valid http or https URL.`);
  }
  if (manifest.request_oauth_on_install === true && !(Array.isArray(callbacks) && callbacks.length > 0)) {
    errors.push('A callback URL is required to request user authorization during installation.');
  }

  const hook = manifest.hook_attributes;
  if (hook !== undefined) {
    if (!isObject(hook)) errors.push('hook_attributes must be an object.');
    else {
      if (hook.active !== undefined && typeof hook.active !== 'boolean') errors.push('hook_attributes.active must be true or false.');
      if (hook.url === undefined || hook.url === '') {
        if (hook.active !== false) errors.push("Hook url can't be blank.");
      } else if (!isUrl(hook.url)) errors.push('Hook url must be a valid http or https URL.');
    }
  }

  const permissions = manifest.default_permissions ?? {};
  if (!isObject(permissions)) errors.push('default_permissions must be an object of permission: access.');
  else {
    for (const [permission, access] of Object.entries(permissions)) {
      if (!PERMISSIONS.has(permission)) errors.push(`Default permission ${JSON.stringify(permission)} is not a GitHub App permission.`);
      else if (permission === 'metadata' && access !== 'read') errors.push('Default permission metadata can only be "read".');
      else if (!['read', 'write'].includes(access)) errors.push(`Default permission ${permission} must be "read" or "write", not ${JSON.stringify(access)}.`);
    }
  }
  const events = manifest.default_events ?? [];
  if (!Array.isArray(events)) errors.push('default_events must be a list of event names.');
  else {
    for (const event of events) if (!EVENTS.has(event)) errors.push(`Default event ${JSON.stringify(event)} is not supported.`);
  }
  return { manifest: { ...manifest, name: appName }, errors };
}

export class Apps {
  /**
   * @param {object} o
   * @param {() => number} o.now the stand-in's clock in ms
   * @param {import('./oauth.mjs').Auth} o.auth the OAuth flow that learns each app's credentials
   */
  constructor({ now, auth }) {
    this.now = now;
    this.auth = auth;
    this.apps = []; // every app created, with its secrets
    this.codes = new Map(); // one-time code -> { app, expiresAt, used }
    this.nextId = 300001;
  }

  takenSlugs() {
    return new Set(this.apps.map((app) => app.slug));
  }

  /**
   * Creates the app a checked manifest describes, owned by `owner` ({ login, id, type }), and
   * returns `{ app, code }`: the code is what GitHub appends to the manifest's redirect_url.
   */
  create(manifest, owner) {
    const id = this.nextId++;
    const stamp = new Date(this.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const hook = isObject(manifest.hook_attributes) ? manifest.hook_attributes : null;
    const app = {
      id,
      slug: slugOf(manifest.name),
      name: manifest.name,
      description: manifest.description ?? '',
      external_url: manifest.url,
      owner,
      public: manifest.public ?? true,
      permissions: { ...(manifest.default_permissions ?? {}) },
      events: [...(manifest.default_events ?? [])],
      callback_urls: [...(manifest.callback_urls ?? [])],
      redirect_url: manifest.redirect_url ?? null,
      request_oauth_on_install: manifest.request_oauth_on_install ?? false,
      hook_active: Boolean(hook && hook.active !== false),
      created_at: stamp,
      updated_at: stamp,
      client_id: `Iv23li${base62(14)}`,
      client_secret: randomBytes(20).toString('hex'),
      webhook_secret: hook ? randomBytes(20).toString('hex') : null,
      pem: privateKey.export({ type: 'pkcs1', format: 'pem' }),
    };
    this.apps.push(app);
    // New GitHub Apps expire their user tokens (GitHub's default since 2023; a manifest can't change it).
    this.auth.registerApp({ clientId: app.client_id, clientSecret: app.client_secret, callbackUrls: app.callback_urls, expiring: true });
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, { app, expiresAt: this.now() + CODE_TTL_MS, used: false });
    return { app, code };
  }

  /** POST /app-manifests/{code}/conversions: the app with its secrets, once; null after that. */
  convert(code) {
    const entry = this.codes.get(code);
    if (!entry || entry.used || this.now() >= entry.expiresAt) return null;
    entry.used = true;
    return entry.app;
  }

  /** What the control API shows: the apps without their secrets. */
  list() {
    return this.apps.map(({ client_secret: _s, webhook_secret: _w, pem: _p, ...app }) => app);
  }
}
