// faults.mjs — fault injection rules for the GitHub stand-in.
//
// Why: LogiKFlow must behave well when GitHub misbehaves (5xx, revoked tokens, primary and
// secondary rate limits, slow answers, truncated bodies, dropped connections). Tests register
// rules with POST /_standin/faults; each GitHub request (REST or OAuth, never /_standin/*) takes
// the first matching rule, which is used up after `times` matches (0 = until cleared).

export const FAULT_KINDS = ['status', 'unauthorized', 'rate_limit', 'secondary_rate_limit', 'slow', 'truncated', 'reset'];

/** A validation problem in a fault spec (reported as HTTP 422 by the control API). */
export class FaultSpecError extends Error {}

/** Turns "substring" or "/regex/flags" into a matcher function over "path?query". */
function compilePath(path) {
  const m = /^\/(.+)\/([dgimsuy]*)$/s.exec(path);
  if (m) {
    let re;
    try {
      re = new RegExp(m[1], m[2].replace('g', ''));
    } catch (err) {
      throw new FaultSpecError(`invalid regex ${path}: ${err.message}`);
    }
    return (target) => re.test(target);
  }
  return (target) => target.includes(path);
}

const nonNegativeInt = (value, name, fallback, max) => {
  if (value === undefined || value === null) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > max) throw new FaultSpecError(`${name} must be an integer between 0 and ${max}`);
  return value;
};

export class FaultTable {
  constructor() {
    this.rules = [];
    this.nextId = 1;
  }

  /** Validates and stores a rule; returns its public description. */
  add(spec) {
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new FaultSpecError('body must be a JSON object');
    const { path, method, kind } = spec;
    if (typeof path !== 'string' || path === '') throw new FaultSpecError('path must be a non-empty string (substring or /regex/)');
    if (!FAULT_KINDS.includes(kind)) throw new FaultSpecError(`kind must be one of ${FAULT_KINDS.join(', ')}`);
    if (method !== undefined && (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))) throw new FaultSpecError('method must be an HTTP method name');
    let status;
    if (kind === 'status') {
      status = nonNegativeInt(spec.status, 'status', 500, 599);
      if (status < 400) throw new FaultSpecError('status must be between 400 and 599');
    }
    const rule = {
      id: this.nextId++,
      path,
      method: method ? method.toUpperCase() : undefined,
      kind,
      status,
      delayMs: kind === 'slow' ? nonNegativeInt(spec.delayMs, 'delayMs', 1000, 120000) : undefined,
      times: nonNegativeInt(spec.times, 'times', 1, 1e9),
      hits: 0,
    };
    rule.matches = compilePath(path);
    this.rules.push(rule);
    return describe(rule);
  }

  /** Finds the first rule matching this request and uses it up once; null when none match. */
  take(method, target) {
    const index = this.rules.findIndex((r) => (!r.method || r.method === method) && r.matches(target));
    if (index < 0) return null;
    const rule = this.rules[index];
    rule.hits++;
    if (rule.times !== 0 && rule.hits >= rule.times) this.rules.splice(index, 1);
    return describe(rule);
  }

  list() {
    return this.rules.map(describe);
  }

  clear() {
    const count = this.rules.length;
    this.rules = [];
    return count;
  }
}

function describe(rule) {
  const out = { id: rule.id, path: rule.path, kind: rule.kind, times: rule.times, hits: rule.hits };
  if (rule.method) out.method = rule.method;
  if (rule.status !== undefined) out.status = rule.status;
  if (rule.delayMs !== undefined) out.delayMs = rule.delayMs;
  return out;
}

/** GitHub-like bodies for injected 4xx/5xx statuses. */
export const STATUS_MESSAGES = {
  400: 'Bad Request',
  401: 'Bad credentials',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Server Error',
  502: 'Server Error',
  503: 'Service Unavailable',
  504: 'We couldn\u2019t respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.',
};
