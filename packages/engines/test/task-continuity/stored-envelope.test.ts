// @module-tag unit
// Step 3 of the commit algorithm (docs/spec/task-continuity-write-gate.md, TCW-004): a stored
// envelope that fails a digest or a single-envelope invariant is refused with
// LIFECYCLE_STATE_UNAVAILABLE. No golden case can hand a store a corrupt envelope through the
// protocol, so each check is held here: every valid fixture of TaskRecoveryStateV5 passes, and
// each one broken in a single place, with every other digest recomputed, is refused.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  envelopeDigestOf,
  leaseDigestOf,
  receiptDigestOf,
  recordDigestOf,
  refDigestOf,
  settledSetDigestOf,
  stateDigestOf,
  targetSetDigestOf,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { checkStoredEnvelope } from '../../src/task-continuity/index.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests break envelopes on purpose, past their type.
type Doc = Record<string, any>;
const dir = fileURLToPath(
  new URL('../../../../conformance/fixtures/TaskRecoveryStateV5/valid/', import.meta.url),
);
const FIXTURES: Readonly<Record<string, Doc>> = Object.fromEntries(
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(`${dir}${f}`, 'utf8')) as Doc]),
);
const fixture = (name: string): Doc => structuredClone(FIXTURES[name] as Doc);

/** The digests an envelope recomputes, innermost first; `keep` names the one left as it is. */
type Seal = 'ref' | 'lease' | 'targets' | 'record' | 'settled' | 'receipt' | 'state' | 'envelope';
function reseal(e: Doc, keep?: Seal): Doc {
  const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
  const o = e.owner;
  if (isObj(o)) {
    for (const key of ['handoffRef', 'takeoverRef', 'transitionRef'])
      if (keep !== 'ref' && isObj(o[key])) o[key].refDigest = refDigestOf(o[key]);
    if (keep !== 'lease') o.leaseDigest = leaseDigestOf(o);
  }
  const u = isObj(e.operations) ? e.operations.unresolved : null;
  if (isObj(u)) {
    if (keep !== 'targets') u.targetSetDigest = targetSetDigestOf(u.exactTargets);
    if (keep !== 'record') u.recordDigest = recordDigestOf(u);
  }
  if (isObj(e.operations) && keep !== 'settled')
    e.operations.settledSetDigest = settledSetDigestOf(e.operations);
  if (isObj(e.terminalReceipt) && keep !== 'receipt')
    e.terminalReceipt.receiptDigest = receiptDigestOf(e.terminalReceipt);
  if (keep !== 'state') e.stateDigest = stateDigestOf(e);
  if (keep !== 'envelope') e.envelopeDigest = envelopeDigestOf(e);
  return e;
}
const broken = (name: string, edit: (e: Doc) => void, keep?: Seal): Doc => {
  const e = fixture(name);
  edit(e);
  return reseal(e, keep);
};
const refused = (value: unknown) =>
  expect(checkStoredEnvelope(value)).toMatchObject({ ok: false, code: 'LIFECYCLE_STATE_UNAVAILABLE' });
const accepted = (value: unknown) => expect(checkStoredEnvelope(value)).toEqual({ ok: true });

const OTHER = 'f'.repeat(64);

describe('checkStoredEnvelope (TCW-004): a stored envelope a store may build on', () => {
  it('accepts every valid TaskRecoveryStateV5 fixture, and each one resealed unchanged', () => {
    expect(Object.keys(FIXTURES).length).toBeGreaterThanOrEqual(6);
    for (const name of Object.keys(FIXTURES)) {
      accepted(fixture(name));
      accepted(reseal(fixture(name)));
    }
  });

  it('refuses what is not a TaskRecoveryStateV5', () => {
    for (const v of [null, 'envelope', [fixture('first-acquire')], { schemaVersion: 'TaskRecoveryStateV4' }])
      refused(v);
    refused(broken('first-acquire', (e) => delete e.schemaVersion));
  });

  it('refuses an envelope without owner, operations, state or terminalLineage objects', () => {
    refused(broken('first-acquire', (e) => (e.owner = null), 'lease'));
    refused(broken('first-acquire', (e) => (e.owner = [e.owner]), 'lease'));
    refused(broken('first-acquire', (e) => (e.operations = 'none'), 'settled'));
    refused(broken('first-acquire', (e) => (e.state = [])));
    refused(broken('first-acquire', (e) => (e.state = null)));
    // A string is no object either, though every digest recomputes over it.
    refused(broken('first-acquire', (e) => (e.state = 'intake')));
    refused(broken('first-acquire', (e) => (e.terminalLineage = {})));
  });

  it('recomputes the refDigest of each of the owner refs', () => {
    const ref = { operation: 'handoff', committedAt: '2026-11-30T05:41:12.000Z', refDigest: OTHER };
    accepted(broken('first-acquire', (e) => (e.owner.handoffRef = { ...ref })));
    refused(broken('first-acquire', (e) => (e.owner.handoffRef = { ...ref }), 'ref'));
    accepted(broken('first-acquire', (e) => (e.owner.takeoverRef = { ...ref })));
    refused(broken('first-acquire', (e) => (e.owner.takeoverRef = { ...ref }), 'ref'));
    refused(
      broken(
        'takeover-pending-with-dispatched-operation',
        (e) => (e.owner.takeoverRef.refDigest = OTHER),
        'ref',
      ),
    );
    refused(broken('first-acquire', (e) => (e.owner.transitionRef.refDigest = OTHER), 'ref'));
  });

  it('refuses an owner without a transitionRef, and a leaseDigest that does not recompute', () => {
    refused(broken('first-acquire', (e) => (e.owner.transitionRef = null)));
    refused(broken('first-acquire', (e) => (e.owner.leaseDigest = OTHER), 'lease'));
  });

  it('recomputes the unresolved operation and refuses one newer than the envelope', () => {
    const name = 'operation-dispatched-in-flight';
    refused(broken(name, (e) => (e.operations.unresolved = 'op')));
    refused(broken(name, (e) => (e.operations.unresolved.exactTargets = 'src/ledger/posting.ts'), 'targets'));
    // Not an array, though its targetSetDigest and recordDigest recompute over the string.
    refused(broken(name, (e) => (e.operations.unresolved.exactTargets = 'src/ledger/posting.ts')));
    refused(broken(name, (e) => (e.operations.unresolved.targetSetDigest = OTHER), 'targets'));
    refused(broken(name, (e) => (e.operations.unresolved.recordDigest = OTHER), 'record'));
    refused(broken(name, (e) => (e.operations.unresolved.writerGeneration = e.writerGeneration + 1)));
    refused(broken(name, (e) => (e.operations.unresolved.expectedStateSequence = e.sequence)));
    // At the bounds: the envelope's own generation, and the sequence just before it.
    accepted(broken(name, (e) => (e.operations.unresolved.expectedStateSequence = e.sequence - 1)));
    expect(FIXTURES[name]?.operations.unresolved.writerGeneration).toBe(FIXTURES[name]?.writerGeneration);
  });

  it('recomputes the settled set', () => {
    refused(broken('reconciled-after-takeover', (e) => (e.operations.settled = null), 'settled'));
    // Not an array, though the settledSetDigest recomputes over it.
    refused(broken('reconciled-after-takeover', (e) => (e.operations.settled = 'none')));
    refused(broken('reconciled-after-takeover', (e) => (e.operations.settledSetDigest = OTHER), 'settled'));
    refused(broken('reconciled-after-takeover', (e) => (e.operations.settledTotal += 1), 'settled'));
  });

  it('recomputes the terminal receipt, which is set exactly when the owner is terminal', () => {
    refused(broken('terminal-completed', (e) => (e.terminalReceipt = 'completed')));
    refused(broken('terminal-completed', (e) => (e.terminalReceipt.receiptDigest = OTHER), 'receipt'));
    refused(broken('terminal-completed', (e) => (e.terminalReceipt = null)));
    const receipt = FIXTURES['terminal-completed']?.terminalReceipt;
    refused(broken('reconciled-after-takeover', (e) => (e.terminalReceipt = structuredClone(receipt))));
  });

  it('recomputes stateDigest and envelopeDigest', () => {
    refused(broken('first-acquire', (e) => (e.stateDigest = OTHER), 'state'));
    refused(broken('first-acquire', (e) => (e.state = { changed: true }), 'state'));
    refused(broken('first-acquire', (e) => (e.envelopeDigest = OTHER), 'envelope'));
    refused(broken('first-acquire', (e) => (e.committedAt = '2026-11-30T05:41:13.000Z'), 'envelope'));
  });

  it('refuses an owner of another task or project root', () => {
    refused(broken('first-acquire', (e) => (e.owner.taskId = '0199b6e2-4c1d-7a3e-8f52-3d9c0e7a41b7')));
    refused(broken('first-acquire', (e) => (e.owner.projectRootIdentity = OTHER)));
  });

  it('refuses counters that do not match the owner', () => {
    refused(broken('first-acquire', (e) => (e.writerGeneration = e.owner.ownerGeneration + 1)));
    refused(broken('first-acquire', (e) => (e.lifecycleRevision = e.owner.reopenGeneration)));
    refused(
      broken('reopened-lifecycle-revision-2', (e) => (e.lifecycleRevision = e.owner.reopenGeneration + 2)),
    );
  });

  it('refuses a sequence that is not a positive integer or disagrees with previousEnvelopeDigest', () => {
    refused(broken('first-acquire', (e) => (e.sequence = 0)));
    refused(broken('first-acquire', (e) => (e.sequence = 1.5)));
    refused(broken('first-acquire', (e) => (e.sequence = '1')));
    refused(broken('first-acquire', (e) => (e.previousEnvelopeDigest = OTHER)));
    refused(broken('operation-dispatched-in-flight', (e) => (e.previousEnvelopeDigest = null)));
    refused(broken('reconciled-after-takeover', (e) => (e.sequence = 1)));
    // With a previousEnvelopeDigest, so that only the sequence itself is wrong.
    for (const sequence of [0, -1, 2.5, '2']) {
      refused(broken('reconciled-after-takeover', (e) => (e.sequence = sequence)));
    }
  });

  it('refuses an envelope whose digests cannot be computed, without throwing', () => {
    const e = fixture('first-acquire');
    e.state = { big: 1n };
    refused(e);
  });
});
