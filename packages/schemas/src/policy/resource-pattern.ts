// Resource patterns of PermissionPolicyGate and DelegationGate: an exact resource, or a prefix
// ending in one `*`. One definition, read by the validators and the engines.

/** The pattern that covers every resource: a delegation never grants it (DELEGATION_WILDCARD_GRANT). */
export const ANY_RESOURCE = '*';

/**
 * Whether `pattern` covers `resource` (itself a resource or a pattern): equal strings, or
 * `pattern` ends in `*` and `resource` starts with what precedes it. A `*` elsewhere is literal.
 *
 * @example
 * resourcePatternCovers('repo:/src/*', 'repo:/src/auth.ts'); // true
 * resourcePatternCovers('repo:/src/*', 'repo:/*'); // false: the wider pattern is not covered
 */
export function resourcePatternCovers(pattern: string, resource: string): boolean {
  if (pattern === resource) return true;
  if (!pattern.endsWith('*')) return false;
  return resource.startsWith(pattern.slice(0, -1));
}

/** Whether any of `patterns` covers `resource`. */
export function anyPatternCovers(patterns: readonly string[], resource: string): boolean {
  return patterns.some((p) => resourcePatternCovers(p, resource));
}
