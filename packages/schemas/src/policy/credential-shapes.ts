// What a credential value looks like (PermissionPolicyGate, "Credentials"): strings that no
// decision, no protocol message and nothing that can reach a model's context may carry. The list
// is the page's; a match is refused as PERMISSION_CREDENTIAL_VALUE_IN_CONTEXT.

/** The shapes of credential values, each named for the message that reports it. */
export const CREDENTIAL_VALUE_SHAPES: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  { name: 'PEM private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { name: 'AWS access key id', pattern: /\bA(?:KIA|SIA)[0-9A-Z]{16}\b/ },
  { name: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/ },
  { name: 'API secret key (sk-)', pattern: /\bsk-[A-Za-z0-9_-]{20,}/ },
  { name: 'Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/ },
  { name: 'bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{16,}/ },
  {
    name: 'password or secret assignment',
    pattern: /\b(?:password|passwd|secret|api[_-]?key|access[_-]?token)\s*[=:]\s*\S{6,}/i,
  },
];

/** The name of the first credential shape `text` matches, or null. */
export function credentialShapeOf(text: string): string | null {
  for (const s of CREDENTIAL_VALUE_SHAPES) if (s.pattern.test(text)) return s.name;
  return null;
}

/**
 * The JSON Pointer and shape of every string (member names included) in `value` that looks like a
 * credential value, depth-first in document order. Bounded by `limit` findings.
 *
 * @example
 * credentialValuesIn({ resource: 'https://x/?api_key=abcdef123456' }); // [{ path: '/resource', shape: ... }]
 */
export function credentialValuesIn(
  value: unknown,
  limit = 16,
): Array<{ readonly path: string; readonly shape: string }> {
  const out: Array<{ path: string; shape: string }> = [];
  const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
  const walk = (v: unknown, path: string): void => {
    if (out.length >= limit) return;
    if (typeof v === 'string') {
      const shape = credentialShapeOf(v);
      if (shape) out.push({ path, shape });
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}/${i}`);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const shape = credentialShapeOf(k);
        if (shape && out.length < limit) out.push({ path: `${path}/${esc(k)}`, shape });
        walk(x, `${path}/${esc(k)}`);
      }
    }
  };
  walk(value, '');
  return out;
}
