// @module-tag unit
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assignIds,
  buildCatalogue,
  coverageOf,
  FAULT_KIND_NAMES,
  levelOfRequirements,
  loadCases,
  loadFaultScenarios,
  loadRequirements,
  parsePage,
  REQUIREMENT_PAGES,
  RequirementIdsExhaustedError,
  runCoverage,
} from '@agent-contracts/harness';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = 'docs/spec/fixture-gate.md';

/** A page with one of each thing the parser must tell apart. */
const FIXTURE = [
  '# Fixture gate',
  '',
  '> Status: normative. MUST/SHOULD/MAY per RFC 2119 and RFC 8174.',
  '',
  '## Store operations',
  '',
  'A store MUST refuse a stale fence with `LIFECYCLE_STATE_FENCE_MISMATCH`. It records nothing',
  'else. Hosts SHOULD retry once. Writers MAY batch. The word `MUST` in code is not a key word.',
  '',
  '- A list item that MUST NOT be skipped.',
  '',
  '| Field | Rule |',
  '|---|---|',
  '| `a` | `b` RECOMMENDED in order |',
  '',
  '<!-- fields:Thing -->',
  '| `x` | generated: hosts SHOULD use it |',
  '<!-- /fields:Thing -->',
  '',
  '```',
  'code MUST be ignored',
  '```',
  '',
].join('\n');

describe('requirement parser', () => {
  it('finds every normative sentence outside code, legends and generated blocks, with its level and anchor', () => {
    const found = parsePage(PAGE, FIXTURE);
    expect(found.map((s) => [s.level, s.anchor, s.sentence])).toEqual([
      [
        'MUST',
        'store-operations',
        'A store MUST refuse a stale fence with `LIFECYCLE_STATE_FENCE_MISMATCH`.',
      ],
      ['SHOULD', 'store-operations', 'Hosts SHOULD retry once.'],
      ['MAY', 'store-operations', 'Writers MAY batch.'],
      ['MUST', 'store-operations', 'A list item that MUST NOT be skipped.'],
      ['SHOULD', 'store-operations', '`b` RECOMMENDED in order'],
    ]);
    expect(found.every((s) => s.id === null)).toBe(true);
    expect(found[0]!.codes).toEqual(['LIFECYCLE_STATE_FENCE_MISMATCH']);
  });

  it('does not end a sentence at an abbreviation, and does not take a table header cell for a requirement', () => {
    const page = [
      '## Limits',
      '',
      'A store MUST refuse a key that is too long (e.g. 300 characters), i.e. longer than 256. It MAY log it.',
      '',
      '| field | RECOMMENDED value |',
      '|---|---|',
      '| `a` | a writer SHOULD send 1 |',
      '',
    ].join('\n');
    const found = parsePage(PAGE, page);
    expect(found.map((s) => [s.level, s.sentence])).toEqual([
      ['MUST', 'A store MUST refuse a key that is too long (e.g. 300 characters), i.e. longer than 256.'],
      ['MAY', 'It MAY log it.'],
      ['SHOULD', 'a writer SHOULD send 1'],
    ]);
  });

  it('assigns the next free id to each sentence without one, and a second run changes nothing', () => {
    const once = assignIds(PAGE, FIXTURE, 'FIX', new Set());
    expect(once.assigned).toEqual(['FIX-001', 'FIX-002', 'FIX-003', 'FIX-004', 'FIX-005']);
    expect(once.text).toContain('**FIX-001** A store MUST refuse');
    expect(once.text).toContain('- **FIX-004** A list item');
    expect(once.text).toContain('| `a` | **FIX-005** `b` RECOMMENDED');
    // Only insertions: every line of the page is still there, in order.
    expect(once.text.replace(/\*\*FIX-\d{3}\*\* /g, '')).toBe(FIXTURE);
    const twice = assignIds(PAGE, once.text, 'FIX', new Set(['FIX-001']));
    expect(twice).toEqual({ text: once.text, assigned: [] });
    expect(parsePage(PAGE, once.text).map((s) => s.id)).toEqual(once.assigned);
  });

  it('never renumbers: a new sentence gets a number after every id ever taken, below the reserved range', () => {
    const numbered = assignIds(PAGE, FIXTURE, 'FIX', new Set()).text;
    const merged = numbered.replace('It records nothing', 'Readers MUST NOT write. It records nothing');
    const taken = new Set(['FIX-001', 'FIX-002', 'FIX-003', 'FIX-004', 'FIX-005', 'FIX-009', 'FIX-500']);
    const again = assignIds(PAGE, merged, 'FIX', taken);
    expect(again.assigned).toEqual(['FIX-010']);
    expect(again.text).toContain('**FIX-010** Readers MUST NOT write.');
    expect(parsePage(PAGE, again.text).map((s) => s.id)).toEqual([
      'FIX-001',
      'FIX-010',
      'FIX-002',
      'FIX-003',
      'FIX-004',
      'FIX-005',
    ]);
    let error: unknown;
    try {
      assignIds(PAGE, FIXTURE, 'FIX', new Set(['FIX-499']));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RequirementIdsExhaustedError);
    expect((error as RequirementIdsExhaustedError).code).toBe('REQUIREMENT_IDS_EXHAUSTED');
  });

  it('the catalogue refuses a sentence without id, a duplicate id and a marker on no normative sentence', () => {
    const numbered = assignIds(PAGE, FIXTURE, 'FIX', new Set()).text;
    expect(buildCatalogue([{ page: PAGE, text: numbered }]).problems).toEqual([]);
    const problems = (text: string) => buildCatalogue([{ page: PAGE, text }]).problems.join('\n');
    expect(problems(FIXTURE)).toMatch(/a normative sentence has no requirement id/);
    expect(problems(numbered.replace('**FIX-002**', '**FIX-001**'))).toMatch(/FIX-001 is used twice/);
    expect(problems(numbered.replace('It records nothing', '**FIX-077** It records nothing'))).toMatch(
      /FIX-077 marks no normative sentence/,
    );
    const withdrawn = numbered.replace('**FIX-003** Writers', '**FIX-003** *(withdrawn)* Writers');
    const w = buildCatalogue([{ page: PAGE, text: withdrawn }]);
    expect(w.problems).toEqual([]);
    expect(w.requirements.find((r) => r.id === 'FIX-003')?.withdrawn).toBe(true);
  });
});

describe('requirement coverage', () => {
  const catalogue = buildCatalogue([
    { page: PAGE, text: assignIds(PAGE, FIXTURE, 'FIX', new Set()).text },
  ]).requirements;

  it('a MUST that no case tests fails the check, unless it is listed with a reason', () => {
    const cases = [{ id: 'c/1', requirements: ['FIX-001'] }];
    const { problems } = coverageOf(catalogue, cases, [], []);
    expect(problems).toEqual([expect.stringMatching(/^FIX-004 .* is a MUST that no case or scenario tests/)]);
    const reason = 'an obligation on the host, which the protocol does not expose';
    expect(coverageOf(catalogue, cases, [], [{ id: 'FIX-004', reason }]).problems).toEqual([]);
    // SHOULD and MAY requirements without a case are listed, not failed.
    expect(coverageOf(catalogue, cases, [], [{ id: 'FIX-004', reason }]).rows).toHaveLength(5);
  });

  it('a case or scenario whose requirements are all generic fails the check: it names none of its own gate', () => {
    const two = buildCatalogue([
      { page: 'docs/spec/index.md', text: '# Index\n\n**GEN-001** A document MUST be closed.\n' },
      { page: 'docs/protocol.md', text: '# Protocol\n\n**PROTO-001** A reply MUST carry its id.\n' },
      { page: 'docs/spec/run-control-gate.md', text: '# Run\n\n**RUN-001** A controller MUST stop.\n' },
    ]).requirements;
    const own = { id: 'run/own', gate: 'RunControlGate', requirements: ['GEN-001', 'RUN-001'] };
    const generic = { id: 'run/generic', gate: 'RunControlGate', requirements: ['GEN-001', 'PROTO-001'] };
    // The digests have no page of their own: their cases name the index's requirements.
    const digest = { id: 'digest/x', gate: 'Digests', requirements: ['GEN-001', 'PROTO-001'] };
    expect(coverageOf(two, [own, digest], [], []).problems).toEqual([]);
    expect(
      coverageOf(two, [own, generic, digest], [{ ...generic, id: 'faults/run/x' }], []).problems,
    ).toEqual([
      "case run/generic names no requirement of its gate RunControlGate, only generic ones (GEN-001, PROTO-001): name one of the gate's page, or write the sentence it tests there (`pnpm requirements:assign`)",
      "scenario faults/run/x names no requirement of its gate RunControlGate, only generic ones (GEN-001, PROTO-001): name one of the gate's page, or write the sentence it tests there (`pnpm requirements:assign`)",
    ]);
  });

  it('every case of the corpus names a requirement of its own gate; only the digests have none of their own', () => {
    const catalogueFile = JSON.parse(readFileSync(join(REPO, 'conformance/requirements.json'), 'utf8'));
    const gateOf = new Map<string, string>(
      catalogueFile.requirements.map((r: { id: string; gate: string }) => [r.id, r.gate]),
    );
    const strays = loadCases(join(REPO, 'conformance'))
      .filter((c) => c.gate !== 'Digests' && !c.requirements.some((id) => gateOf.get(id) === c.gate))
      .map((c) => c.id);
    expect(strays).toEqual([]);
    // The liveness classification and state-machine cases count for their gate.
    const liveness = loadCases(join(REPO, 'conformance')).filter((c) =>
      c.spec.endsWith('turn-liveness-recovery-gate.md#classification'),
    );
    expect(liveness.length).toBeGreaterThan(10);
    expect(liveness.every((c) => c.requirements.includes('TLR-021'))).toBe(true);
  });

  it('a case naming an unknown id, and a stale or unexplained untestable entry, fail the check', () => {
    const all = [{ id: 'c/1', requirements: ['FIX-001', 'FIX-004'] }];
    expect(
      coverageOf(catalogue, [{ id: 'c/2', requirements: ['FIX-404'] }, ...all], [], []).problems,
    ).toEqual(['case c/2 names FIX-404, which no page of the catalogue defines']);
    expect(
      coverageOf(catalogue, all, [{ id: 'faults/x/y', requirements: ['NOPE-001'] }], []).problems,
    ).toEqual(['scenario faults/x/y names NOPE-001, which no page of the catalogue defines']);
    expect(
      coverageOf(catalogue, all, [], [{ id: 'FIX-004', reason: 'a reason long enough to be read' }]).problems,
    ).toEqual(['requirements-untestable.json lists FIX-004, but c/1 tests it: remove the entry']);
    expect(coverageOf(catalogue, all, [], [{ id: 'FIX-002', reason: 'x' }]).problems).toEqual([
      'requirements-untestable.json lists FIX-002, which is not a MUST',
      'requirements-untestable.json: FIX-002 needs a reason (why a black-box harness cannot observe it)',
    ]);
  });

  it('the level of a case is the strongest of its requirements; MAY alone is SHOULD', () => {
    expect(levelOfRequirements(['FIX-002', 'FIX-001'], catalogue)).toBe('MUST');
    expect(levelOfRequirements(['FIX-002'], catalogue)).toBe('SHOULD');
    expect(levelOfRequirements(['FIX-003'], catalogue)).toBe('SHOULD');
  });

  it('an implementation passing every checkpoint case, and nothing else, covers requirements of their gate', () => {
    // Issue 21: such a run showed `TurnLivenessRecoveryGate 0/21`, the checkpoint cases naming only generic ids.
    const corpus = loadCases(join(REPO, 'conformance'));
    const checkpoint = corpus.filter((c) => c.id.startsWith('checkpoint/'));
    expect(checkpoint.length).toBeGreaterThan(10);
    const results = corpus.map((c) => ({
      requirements: c.requirements,
      outcome: c.id.startsWith('checkpoint/') ? 'pass' : 'fail',
    }));
    const coverage = runCoverage(loadRequirements(join(REPO, 'conformance')), results);
    const gate = coverage.find((g) => g.gate === 'TurnLivenessRecoveryGate')!;
    expect(checkpoint.every((c) => c.gate === 'TurnLivenessRecoveryGate')).toBe(true);
    expect(gate.tested).toBeGreaterThan(0);
    // Each checkpoint case counts for the gate: one of its requirements is the gate's own.
    const own = new Set(
      loadRequirements(join(REPO, 'conformance'))
        .filter((r) => r.gate === 'TurnLivenessRecoveryGate')
        .map((r) => r.id),
    );
    expect(checkpoint.filter((c) => !c.requirements.some((id) => own.has(id))).map((c) => c.id)).toEqual([]);
  });

  it('run coverage counts per gate the requirements named by a passing case', () => {
    const results = [
      { requirements: ['FIX-001', 'FIX-002'], outcome: 'pass' },
      { requirements: ['FIX-004'], outcome: 'fail' },
      { outcome: 'pass' },
    ];
    expect(runCoverage(catalogue, results)).toEqual([{ gate: PAGE, tested: 2, total: 5 }]);
  });
});

describe('the committed catalogue', () => {
  it('holds every requirement of the pages, and every case and scenario names only its ids', () => {
    const built = buildCatalogue(
      REQUIREMENT_PAGES.map((p) => ({ page: p.page, text: readFileSync(join(REPO, p.page), 'utf8') })),
    );
    expect(built.problems).toEqual([]);
    const committed = loadRequirements(join(REPO, 'conformance'));
    expect(committed.map((r) => r.id)).toEqual(built.requirements.map((r) => r.id));
    const ids = new Set(committed.map((r) => r.id));
    const conformance = join(REPO, 'conformance');
    for (const c of [...loadCases(conformance), ...loadFaultScenarios(conformance, FAULT_KIND_NAMES)]) {
      for (const id of c.requirements) expect(ids.has(id), `${c.id} names ${id}`).toBe(true);
      expect(c.level, c.id).toBe(levelOfRequirements(c.requirements, committed));
    }
  });

  it('the key turn-terminal of a terminal the recorder built is checked by MUST cases naming LTT-500', () => {
    const cases = loadCases(join(REPO, 'conformance'));
    const recorder = cases.filter((c) => c.id.startsWith('trace/LocalTaskTraceV1/'));
    let built = 0;
    for (const c of recorder) {
      const asserts = c.steps.some((s) =>
        JSON.stringify(s.expect).includes('"occurrenceKey":"turn-terminal"'),
      );
      // A key that a stored trace or the caller supplied is copied, not chosen by the recorder.
      const supplied = c.steps.some(
        (s) =>
          JSON.stringify(s.params).includes('turn-terminal') ||
          (s.method === 'trace.load' && (s.params as { trace?: unknown }).trace !== null),
      );
      if (!asserts || supplied) continue;
      built++;
      expect({ id: c.id, names: c.requirements.includes('LTT-500'), level: c.level }).toEqual({
        id: c.id,
        names: true,
        level: 'MUST',
      });
    }
    expect(built).toBeGreaterThan(0);
  });
});
