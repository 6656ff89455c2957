// @module-tag integration
// The independent Python implementation judges the semantic-layer invalid fixtures as their
// .expected.json says (issue 25 §7): each gets the expected code at the expected path, and no
// code but that one and those its `alsoReports` names (which it may leave out: they come with the
// first). The golden cases check only the first half; this holds the second, so a fixture that
// breaks a second rule by one implementation's reading of docs/ is found. Its schema layer is
// left out: jsonschema and ajv word a failed anyOf differently.
import { describe, expect, it } from 'vitest';
import { listFixtures } from '../../../scripts/lib/fixture-corpus.ts';
import { pythonJson } from './helpers/python-json.ts';

// Answers {key: [[code, path], ...]} for [[key, contract, path], ...].
const JUDGE = `
from agent_ref.validate import judge
out = {}
for key, contract, path in data:
    with open(path, encoding="utf-8") as f:
        out[key] = [[i["code"], i["path"]] for i in judge(json.load(f), contract)]
json.dump(out, sys.stdout)
`;

/**
 * Where this implementation reports another code than the fixture allows, each with why; asserted
 * exact, so an entry that starts to agree fails until it is removed.
 */
const DISAGREES: Record<string, { extra: string[]; why: string }> = {};

const semantic = listFixtures().filter((f) => f.kind === 'invalid' && f.expected?.layer === 'semantic');

describe('python-reference agrees with the semantic fixtures', () => {
  it('reports each fixture’s code, and no code its .expected.json does not allow', () => {
    expect(semantic.length).toBeGreaterThan(300);
    const judged = pythonJson<Record<string, [string, string][]>>(
      JUDGE,
      semantic.map((f) => [`${f.contract}/${f.name}`, f.contract, f.path]),
    );
    const missing: string[] = [];
    const extra: Record<string, string[]> = {};
    for (const f of semantic) {
      const key = `${f.contract}/${f.name}`;
      const e = f.expected as { code: string; instancePath: string; alsoReports?: { code: string }[] };
      const issues = judged[key] ?? [];
      if (!issues.some(([code, path]) => code === e.code && path === e.instancePath))
        missing.push(`${key}: ${e.code} at "${e.instancePath}"`);
      const allowed = new Set([e.code, ...(e.alsoReports ?? []).map((a) => a.code)]);
      const other = [...new Set(issues.map(([code]) => code).filter((c) => !allowed.has(c)))].sort();
      if (other.length) extra[key] = other;
    }
    expect(missing).toEqual([]);
    expect(extra).toEqual(Object.fromEntries(Object.entries(DISAGREES).map(([k, v]) => [k, v.extra])));
    for (const v of Object.values(DISAGREES)) expect(v.why).toMatch(/\S/);
  });
});
