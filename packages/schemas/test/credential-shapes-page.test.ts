// @module-tag unit
// The credential value shapes are normative on the PermissionPolicyGate page (a table of regular
// expressions, D-PRM-04); CREDENTIAL_VALUE_SHAPES is that table, pattern for pattern, in order.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_VALUE_SHAPES, credentialShapeOf } from '../src/index.ts';

const page = readFileSync(
  fileURLToPath(new URL('../../../docs/spec/permission-policy-gate.md', import.meta.url)),
  'utf8',
);

/** The rows of the page's table: shape name, pattern source, case-insensitive. */
function pageShapes(): Array<{ name: string; source: string; ignoreCase: boolean }> {
  const start = page.indexOf('| Shape | Pattern |');
  expect(start, 'the shapes table of #credentials').toBeGreaterThan(0);
  const rows = page.slice(start).split('\n').slice(2);
  const out: Array<{ name: string; source: string; ignoreCase: boolean }> = [];
  for (const row of rows) {
    if (!row.startsWith('|')) break;
    const m = row.match(/^\| ([^|]+) \| `(.+)`( \(case-insensitive\))? \|$/);
    expect(m, row).not.toBeNull();
    out.push({ name: m![1]!, source: m![2]!.replace(/\\\|/g, '|'), ignoreCase: m![3] !== undefined });
  }
  return out;
}

describe('credential value shapes', () => {
  it('are the table of docs/spec/permission-policy-gate.md#credentials', () => {
    const fromPage = pageShapes();
    expect(fromPage).toHaveLength(8);
    expect(
      CREDENTIAL_VALUE_SHAPES.map((s) => ({
        source: s.pattern.source,
        ignoreCase: s.pattern.flags.includes('i'),
      })),
    ).toEqual(fromPage.map(({ source, ignoreCase }) => ({ source, ignoreCase })));
  });

  it('match where the page says and not next to a word character', () => {
    expect(credentialShapeOf('key AKIAABCDEFGHIJKLMNOP here')).toBe('AWS access key id');
    expect(credentialShapeOf('xAKIAABCDEFGHIJKLMNOP')).toBeNull();
    expect(credentialShapeOf('xoxb-123')).toBeNull();
    expect(credentialShapeOf('https://a.example/?API-KEY=abcdef12')).toBe('password or secret assignment');
    expect(credentialShapeOf('Bearer\tabcdefghijklmnopqrst')).toBe('bearer token');
  });
});
