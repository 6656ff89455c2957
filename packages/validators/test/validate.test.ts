// @module-tag unit
import { DIGEST_RULES } from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { digestIssues } from '../src/digests.ts';
import {
  ISSUE_CODES,
  type Issue,
  KEYWORD_CODES,
  type SemanticRule,
  SUPPORTED_CONTRACTS,
  ValidatorsError,
  validate,
} from '../src/index.ts';
import { resolvePointer } from '../src/pointer.ts';
import { listFixtures } from './helpers.ts';

const fixtures = listFixtures();
const validOf = (contract: string) =>
  fixtures.filter((f) => f.contract === contract && f.kind === 'valid').map((f) => f.document);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function issuesOf(doc: unknown): readonly Issue[] {
  const r = validate(doc);
  return r.ok ? r.warnings : r.issues;
}

describe('dispatch on schemaVersion', () => {
  it.each([null, 1, 'x', true, [], [{ schemaVersion: 'TaskRecoveryCommitFenceV1' }]])(
    'refuses a non-object document (%j) with DOCUMENT_NOT_OBJECT',
    (doc) => {
      const r = validate(doc);
      expect(r).toMatchObject({ ok: false, contract: null });
      expect(issuesOf(doc).map((i) => [i.code, i.path])).toEqual([['DOCUMENT_NOT_OBJECT', '']]);
    },
  );

  it('reports SCHEMA_VERSION_MISSING without schemaVersion, even if it is inherited', () => {
    expect(issuesOf({}).map((i) => i.code)).toEqual(['SCHEMA_VERSION_MISSING']);
    const inherited = Object.create({ schemaVersion: 'TaskRecoveryCommitFenceV1' });
    expect(issuesOf(inherited).map((i) => i.code)).toEqual(['SCHEMA_VERSION_MISSING']);
  });

  it.each(['NoSuchContractV1', '__proto__', 'constructor', 'toString', '', 42, null, { a: 1 }])(
    'reports SCHEMA_VERSION_UNKNOWN for %j and names the known contracts',
    (version) => {
      const r = validate({ schemaVersion: version });
      expect(r.ok).toBe(false);
      const [issue, ...rest] = issuesOf({ schemaVersion: version });
      expect(rest).toEqual([]);
      expect(issue).toMatchObject({
        code: 'SCHEMA_VERSION_UNKNOWN',
        path: '/schemaVersion',
        severity: 'error',
      });
      expect(issue!.message).toContain('docs/spec/index.md');
      if (typeof version === 'string') expect(issue!.message).toContain(SUPPORTED_CONTRACTS[0]);
    },
  );

  it('suggests the closest contract name', () => {
    const [issue] = issuesOf({ schemaVersion: 'TaskRecoveryCommitFenceV2' });
    expect(issue!.message).toContain('Did you mean "TaskRecoveryCommitFenceV1"?');
  });

  it('dispatches to the named contract and reports schema issues with stable codes', () => {
    const doc = { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: -1, force: true };
    const r = validate(doc);
    expect(r.contract).toBe('TaskRecoveryCommitFenceV1');
    expect(issuesOf(doc).map((i) => [i.code, i.path])).toEqual([
      ['SCHEMA_REQUIRED', ''],
      ['SCHEMA_ADDITIONAL_PROPERTY', ''],
      ['SCHEMA_MINIMUM', '/stateSequence'],
    ]);
    for (const issue of issuesOf(doc)) {
      expect(issue.rule).toMatch(
        /^https:\/\/agent-contracts\.dev\/schemas\/contracts\/TaskRecoveryCommitFenceV1\.schema\.json#\//,
      );
      expect(issue.message.length).toBeGreaterThan(20);
    }
    expect(issuesOf(doc)[0]!.message).toContain('"writerGeneration"');
    expect(issuesOf(doc)[1]!.message).toContain('"force"');
  });

  it('options.contract overrides dispatch; an unknown contract there is a thrown ValidatorsError', () => {
    const doc = { schemaVersion: 'Other', stateSequence: 0, writerGeneration: 0 };
    expect(issuesOf(doc).map((i) => i.code)).toEqual(['SCHEMA_VERSION_UNKNOWN']);
    const r = validate(doc, { contract: 'TaskRecoveryCommitFenceV1' });
    expect(r.ok ? [] : r.issues.map((i) => [i.code, i.path])).toEqual([['SCHEMA_CONST', '/schemaVersion']]);
    expect(() => validate(doc, { contract: 'Nope' })).toThrowError(ValidatorsError);
    try {
      validate(doc, { contract: 'Nope' });
    } catch (err) {
      expect((err as ValidatorsError).code).toBe('VALIDATORS_UNKNOWN_CONTRACT');
    }
  });

  it('returns the document itself as value on success', () => {
    const doc = { schemaVersion: 'TaskRecoveryCommitFenceV1', stateSequence: 0, writerGeneration: 0 };
    const r = validate(doc);
    expect(r).toEqual({ ok: true, contract: 'TaskRecoveryCommitFenceV1', value: doc, warnings: [] });
  });

  it('treats __proto__ and constructor keys as plain (additional) properties and pollutes nothing', () => {
    const doc = JSON.parse(
      '{"schemaVersion":"TaskRecoveryCommitFenceV1","stateSequence":0,"writerGeneration":0,' +
        '"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const messages = issuesOf(doc).map((i) => [
      i.code,
      i.message.includes('__proto__') || i.message.includes('constructor'),
    ]);
    expect(messages).toEqual([
      ['SCHEMA_ADDITIONAL_PROPERTY', true],
      ['SCHEMA_ADDITIONAL_PROPERTY', true],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('never lets a missing required property resolve through the prototype chain', () => {
    const doc = Object.assign(Object.create({ writerGeneration: 0 }), {
      schemaVersion: 'TaskRecoveryCommitFenceV1',
      stateSequence: 0,
    });
    expect(issuesOf(doc).map((i) => i.code)).toEqual(['SCHEMA_REQUIRED']);
  });
});

describe('issue codes', () => {
  it('every keyword code is a documented issue code', () => {
    for (const code of Object.values(KEYWORD_CODES)) expect(ISSUE_CODES).toHaveProperty(code);
  });
});

describe('digests', () => {
  it('reports DIGEST_MISMATCH at the digest field when a rule does not recompute', () => {
    const rule = {
      contract: 'X',
      pointer: '/d',
      covers: 'the `a` field',
      compute: () => [{ pointer: '/d', expected: 'b'.repeat(64) }],
    };
    const issues = digestIssues('X', { d: 'a'.repeat(64) }, [rule]);
    expect(issues.map((i) => [i.code, i.path, i.rule])).toEqual([['DIGEST_MISMATCH', '/d', 'digest:X/d']]);
    expect(issues[0]!.message).toContain('the `a` field');
    expect(digestIssues('X', { d: 'b'.repeat(64) }, [rule])).toEqual([]);
  });

  it('reports DIGEST_UNCOMPUTABLE instead of throwing when a rule throws', () => {
    const rule = {
      contract: 'X',
      pointer: '/d',
      covers: 'a',
      compute: () => {
        throw new TypeError('bad');
      },
    };
    expect(digestIssues('X', {}, [rule]).map((i) => i.code)).toEqual(['DIGEST_UNCOMPUTABLE']);
  });

  // For every digest rule with a valid fixture: change one hex character of the recorded value
  // (keeping the schema satisfied) and expect the rule's code (DIGEST_MISMATCH unless the spec
  // names one) at exactly that pointer.
  const cases = DIGEST_RULES.flatMap((rule) => {
    for (const doc of validOf(rule.contract)) {
      const target = rule.compute(doc).find((c) => typeof c.expected === 'string');
      if (target)
        return [
          {
            rule: `${rule.contract}${rule.pointer}`,
            doc,
            pointer: target.pointer,
            code: rule.code ?? 'DIGEST_MISMATCH',
          },
        ];
    }
    return [];
  });

  it('the corpus exercises digest rules', () => {
    expect(DIGEST_RULES.length === 0 || cases.length > 0).toBe(true);
  });

  it.each(cases)('a tampered $rule is a $code at its pointer', ({ doc, pointer, code }) => {
    const tampered = clone(doc) as Record<string, unknown>;
    const tokens = pointer.slice(1).split('/');
    let parent: Record<string, unknown> = tampered;
    for (const t of tokens.slice(0, -1)) parent = parent[t] as Record<string, unknown>;
    const key = tokens.at(-1)!;
    const value = String(resolvePointer(doc, pointer).value);
    const i = value.search(/[0-9a-f](?=[^0-9a-f]*$)/);
    expect(i).toBeGreaterThanOrEqual(0);
    const c = value[i]!;
    parent[key] = value.slice(0, i) + (c === '0' ? '1' : '0') + value.slice(i + 1);
    const r = validate(tampered);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.filter((x) => x.code.startsWith('SCHEMA_'))).toEqual([]);
    expect(
      r.issues.some((x) => x.code === code && x.path === pointer),
      JSON.stringify(r.issues),
    ).toBe(true);
    // Without digest checks nothing structural is wrong (semantic rules may still see the edit).
    const withoutDigests = validate(tampered, { digests: false });
    expect(
      withoutDigests.ok ? [] : withoutDigests.issues.filter((x) => x.code.startsWith('SCHEMA_')),
    ).toEqual([]);
  });
});

describe('semantic rule extension point', () => {
  const contract = 'TaskRecoveryCommitFenceV1';
  const doc = { schemaVersion: contract, stateSequence: 5, writerGeneration: 0 };
  const rule: SemanticRule = {
    code: 'TEST_SEQUENCE_EVEN',
    contract,
    specSection: 'docs/spec/test.md#even',
    description: 'stateSequence is even (test only).',
    check: (d) =>
      (d.stateSequence as number) % 2 === 0
        ? []
        : [
            {
              code: 'TEST_SEQUENCE_EVEN',
              path: '/stateSequence',
              message: 'odd',
              rule: 'docs/spec/test.md#even',
              severity: 'error',
            },
          ],
  };

  it('runs injected rules on structurally valid documents of their contract only', () => {
    expect(validate(doc, { rules: [rule] })).toMatchObject({
      ok: false,
      issues: [{ code: 'TEST_SEQUENCE_EVEN' }],
    });
    expect(validate({ ...doc, stateSequence: 4 }, { rules: [rule] }).ok).toBe(true);
    expect(validate({ ...doc, force: 1 }, { rules: [rule] })).toMatchObject({
      ok: false,
      issues: [{ code: 'SCHEMA_ADDITIONAL_PROPERTY' }],
    });
  });

  it('keeps warnings on a valid document', () => {
    const warn: SemanticRule = {
      ...rule,
      check: () => [{ code: 'TEST_WARN', path: '', message: 'w', rule: 'x', severity: 'warning' }],
    };
    expect(validate(doc, { rules: [warn] })).toMatchObject({ ok: true, warnings: [{ code: 'TEST_WARN' }] });
  });

  it('turns a crashing rule into RULE_FAILED', () => {
    const crash: SemanticRule = {
      ...rule,
      check: () => {
        throw new Error('boom');
      },
    };
    expect(validate(doc, { rules: [crash] })).toMatchObject({ ok: false, issues: [{ code: 'RULE_FAILED' }] });
  });

  it('turns stack exhaustion into DOCUMENT_TOO_DEEP', () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    const deep: SemanticRule = { ...rule, check: () => [recurse(0)] as never };
    expect(validate(doc, { rules: [deep] })).toMatchObject({
      ok: false,
      issues: [{ code: 'DOCUMENT_TOO_DEEP' }],
    });
  });
});
