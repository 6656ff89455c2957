#!/usr/bin/env node
// Markdown of the mutation reports (.reports/mutation/<shard>.json, or the committed incremental
// files with --committed): the score per shard and every surviving or uncovered mutant, for
// docs/conformance-quality.md.
//   node tooling/mutate/summary.mjs [--committed]   print both tables
//   node tooling/mutate/summary.mjs --committed --write-doc   put them in docs/conformance-quality.md
//   node tooling/mutate/summary.mjs --committed --check-doc   fail when the doc's tables differ
//                                                             (CI: mutation-doc:check)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SHARDS } from './shards.mjs';

const committed = process.argv.includes('--committed');
const out = [];
const print = (line) => out.push(line);
const rows = [];
const survivors = [];
const total = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, measured: 0 };
for (const shard of Object.keys(SHARDS)) {
  const path = committed ? `tooling/mutate/incremental/${shard}.json` : `.reports/mutation/${shard}.json`;
  if (!existsSync(path)) {
    rows.push(`| ${shard} | not measured | | | | | | |`);
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const n = {
    Killed: 0,
    Timeout: 0,
    Survived: 0,
    NoCoverage: 0,
    Ignored: 0,
    CompileError: 0,
    RuntimeError: 0,
  };
  for (const [file, f] of Object.entries(report.files))
    for (const m of f.mutants) {
      n[m.status] = (n[m.status] ?? 0) + 1;
      if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const line = f.source.split('\n')[m.location.start.line - 1]?.trim() ?? '';
        survivors.push({
          shard,
          file,
          line: m.location.start.line,
          status: m.status,
          mutator: m.mutatorName,
          replacement: m.replacement ?? '',
          code: line,
        });
      }
    }
  const valid = n.Killed + n.Timeout + n.Survived + n.NoCoverage;
  for (const k of ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored']) total[k] += n[k];
  total.measured++;
  const score = valid ? ((100 * (n.Killed + n.Timeout)) / valid).toFixed(2) : '100.00';
  rows.push(
    `| ${shard} | **${score}%** | ${n.Killed} | ${n.Timeout} | ${n.Survived} | ${n.NoCoverage} | ${n.Ignored} | ${valid + n.Ignored} |`,
  );
}
// One line of a table cell: a replacement spanning lines (an object literal) is joined by spaces.
const cell = (s) =>
  `\`${String(s).replace(/\s+/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|').slice(0, 90)}\``;
print('| shard | score | killed | timeout | survived | no coverage | ignored | mutants |');
print('|---|---|---|---|---|---|---|---|');
for (const r of rows) print(r);
// Every measured shard's mutants together: the overall score (issue 22's goal is 85%).
const valid = total.Killed + total.Timeout + total.Survived + total.NoCoverage;
print(
  `| **overall** (${total.measured} of ${rows.length} shards measured) | **${valid ? ((100 * (total.Killed + total.Timeout)) / valid).toFixed(2) : '100.00'}%** | ${total.Killed} | ${total.Timeout} | ${total.Survived} | ${total.NoCoverage} | ${total.Ignored} | ${valid + total.Ignored} |`,
);
print('');
/**
 * A first reading of a survivor: an emptied string inside a sentence (a message the prose
 * ignorer did not recognise) is equivalent; anything else stays open until a case kills it or a
 * reviewer names it equivalent.
 */
/** Survivors a reviewer named equivalent, by `file:line:mutator`, with the reason. */
const EQUIVALENT = {
  'packages/engines/src/context/plan.ts:374:ConditionalExpression':
    'equivalent (`sourceRefs.length === 0` → `false`): an empty ref list has no ref with `exists: true`, so the third disjunct refuses it with the same code and path',
  'packages/engines/src/context/plan.ts:550:ConditionalExpression':
    'equivalent (→ `true` only): `explicit-request` comes first in precedence and applies exactly when `fullReadNote` is not null, so wherever the condition is false `fullReadNote` is already null (`false` and `!==` are killed)',
  'packages/engines/src/context/seed.ts:90:ConditionalExpression':
    "equivalent (`typeof chosen !== 'string'` → `false`): `CONTEXT_INTENTS.includes` is false for every value that is not a string, so the second disjunct refuses it with the same code and path",
  'packages/engines/src/context/seed.ts:97:ConditionalExpression':
    "equivalent (`typeof riskHint !== 'string'` → `false`): `RISKS.includes` is false for every value that is not a string, so the second disjunct refuses it (the whole condition → `false` is killed)",
  'packages/engines/src/context/seed.ts:100:ConditionalExpression':
    "equivalent (`typeof confidence !== 'number'` → `false`): `Number.isFinite` does not coerce, so it is false for every value that is not a number and the next disjunct refuses it (the other conditions → `false` are killed)",
  'packages/engines/src/context/receipt.ts:161:MethodExpression':
    "equivalent: a source with attempt records only has no latest record, so `satisfyingRecord` gives `undefined` and no identity is pushed; looping over every record's source adds none",
  'packages/engines/src/context/receipt.ts:323:StringLiteral':
    "equivalent for `'planned'` → `\"\"` only (`'blocked'` is killed): a structured receipt that is not blocked has its status derived by `deriveReceipt` before it is sealed",
  'packages/engines/src/context/receipt.ts:326:ArrayDeclaration':
    "equivalent: the draft's initial `satisfiedSourceIds` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:327:ArrayDeclaration':
    "equivalent: the draft's initial `missingSourceIds` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:330:MethodExpression':
    "equivalent: a plan's `triggeredEscalations` are unique values of the 17 triggers (its schema), so at most 17 are copied and the limit of 20 never cuts",
  'packages/engines/src/context/receipt.ts:344:ArrayDeclaration':
    "equivalent: the draft's initial `sourceIdentities` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:345:ObjectLiteral':
    "equivalent: the draft's initial `delivery` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:345:BooleanLiteral':
    "equivalent: the draft's initial `delivery` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:345:StringLiteral':
    "equivalent: the draft's initial `delivery.reasonCode` is overwritten by `deriveReceipt`, which computes it from the records before the receipt is sealed",
  'packages/engines/src/context/receipt.ts:385:MethodExpression':
    'equivalent: a receipt holds at most 17 planned escalations and goes stale once (stale is absorbing, a replay keeps only the planned ones), so it never holds more than 18 and the limit of 20 never cuts',
  'packages/engines/src/context/receipt.ts:414:ConditionalExpression':
    'equivalent: with no tool result the engine canonicalizes `undefined`, which throws, and the catch sets `observable` false as the condition does',
  'packages/engines/src/context/receipt.ts:414:LogicalOperator':
    'equivalent: with no tool result the engine canonicalizes `undefined`, which throws, and the catch sets `observable` false as the condition does',
  'packages/engines/src/context/receipt.ts:416:StringLiteral':
    'equivalent: the initial payload is read only when `observable` is true, and then `canonicalize` has replaced it (when it throws, `observable` is false)',
  'packages/engines/src/context/receipt.ts:417:ConditionalExpression':
    'equivalent (→ `true`): an unobservable result has no tool result, whose canonicalization throws, and the catch keeps `observable` false',
  'packages/engines/src/context/receipt.ts:460:ConditionalExpression':
    'equivalent: the metadata digests are 64-hex strings joined by commas, so lists of different lengths never join equal and the next operand refuses them',
  'packages/engines/src/context/receipt.ts:548:ConditionalExpression':
    'equivalent: message text (which cause the scope-drift message names; code, trigger and path are fixed)',
  'packages/engines/src/context/receipt.ts:548:EqualityOperator':
    'equivalent: message text (which cause the scope-drift message names; code, trigger and path are fixed)',
  'packages/engines/src/context/receipt.ts:549:StringLiteral':
    'equivalent: message text (the root the scope-drift message names)',
  'packages/engines/src/context/receipt.ts:550:StringLiteral':
    'equivalent: message text (the source the scope-drift message names)',
  'packages/engines/src/context/receipt.ts:550:LogicalOperator':
    'equivalent: message text (the source the scope-drift message names)',
  'packages/engines/src/context/records.ts:31:ConditionalExpression':
    'equivalent: for a source without a record `i` is -1 and `records[-1]` is `undefined`, as the `i < 0` branch gives',
  'packages/engines/src/context/records.ts:77:ConditionalExpression':
    'equivalent: `satisfiesAt(records, -1)` is false (`records[-1]` is `undefined`), so the guard changes nothing',
  'packages/engines/src/context/records.ts:109:ConditionalExpression':
    'equivalent for `false` only (`true` is killed): at or under the limit the eviction loop drops nothing (`excess` is not positive) and returns every record, as the early return does',
  'packages/engines/src/context/records.ts:109:EqualityOperator':
    'equivalent for `records.length < limit` only (`>` is killed): at exactly the limit `excess` is 0, so the eviction loop drops nothing and returns every record',
  'packages/store/src/task-store.ts:129:ObjectLiteral':
    "equivalent: without `contract` the validator picks TaskRecoveryStateV5 from the candidate's `schemaVersion`, which the engine always sets",
  'packages/store/src/task-store.ts:131:MethodExpression':
    'equivalent: message text (which issues the refusal message lists)',
  'packages/store/src/task-store.ts:131:ConditionalExpression':
    'equivalent: message text (which issues the refusal message lists)',
  'packages/store/src/task-store.ts:132:MethodExpression':
    'equivalent: message text (how many issues the refusal message lists)',
  'packages/store/src/task-store.ts:134:StringLiteral':
    'equivalent: message text (how an issue is shown in the refusal message)',
  'packages/store/src/task-store.ts:135:StringLiteral':
    'equivalent: message text (the separator of the issues in the refusal message)',
  'packages/store/src/task-store.ts:208:ConditionalExpression':
    'equivalent: `{ maxBytes: undefined }` falls back to the default limit as `{}` does (`options.maxBytes ?? DEFAULT_MAX_EVIDENCE_BYTES`)',
  'packages/store/src/task-store.ts:215:ConditionalExpression':
    'equivalent: `leaseDurationMs: undefined` falls back to the default duration as its absence does (lease.ts `env.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS`)',
  'packages/store/src/task-store.ts:216:ConditionalExpression':
    'equivalent: `maxEnvelopeBytes: undefined` is no limit, as its absence is (steps.ts checks `!== undefined`)',
  'packages/store/src/task-store.ts:270:ConditionalExpression':
    'equivalent: without a record the map holds `undefined` for the operation, which the engine reads with `priorRecords?.get(id)` as it reads a missing map, and `!prior` refuses the replay the same way',
  'packages/store/src/task-store.ts:337:BlockStatement':
    'equivalent: an empty catch returns `undefined`, and `refusal(code, message, undefined)` has no `currentFence`, as `{}` gives',
  'packages/engines/src/checkpoint/checkpoint.ts:121:ConditionalExpression':
    "equivalent (→ `false` only; `true` and `!==` are killed): for a checkpoint of no operation the checks below decide the same, `null` record → `resume-allowed`, any record → TURN_CHECKPOINT_KEY_MISMATCH (a record's `operationId` is a string, never the checkpoint's `null`); only the message differs",
  'packages/engines/src/checkpoint/checkpoint.ts:121:BlockStatement':
    "equivalent: for a checkpoint of no operation the checks below decide the same, `null` record → `resume-allowed`, any record → TURN_CHECKPOINT_KEY_MISMATCH (a record's `operationId` is a string, never the checkpoint's `null`); only the message differs",
  'packages/engines/src/checkpoint/validation.ts:185:ConditionalExpression':
    "equivalent for the `mode === 'post-execution'`, `input.deadlineAt !== null` and their conjunction → `true` only (the other mutants of the line are killed): a response-time validation has `deadlineAt: null` and a post-execution one a deadline (both refused otherwise above), so the mode and the deadline test are one",
  'packages/engines/src/checkpoint/validation.ts:185:LogicalOperator':
    "equivalent for `mode === 'post-execution' || input.deadlineAt !== null` only: a response-time validation has `deadlineAt: null` and a post-execution one a deadline (both refused otherwise above), so `||` and `&&` of the two agree",
  'packages/engines/src/policy/decide.ts:136:OptionalChaining':
    'equivalent: an `allow` always rests on a matched grant (PRM-003): a null grant adds `no-matching-grant`, a deny reason, so `grant` is never null where `decision` is `allow`',
  'packages/engines/src/local-task-trace/recorder.ts:123:ConditionalExpression':
    'equivalent: `Object.isFrozen` is true for every primitive and for `null`, so with a type check → `true` a non-object still stops at `!Object.isFrozen(value)`',
  'packages/engines/src/local-task-trace/recorder.ts:123:LogicalOperator':
    'equivalent: a primitive or `null` is frozen, so it still stops at `!Object.isFrozen(value)`; and every frozen object deepFreeze reaches is already deeply frozen (the events of a trace this module wrote; everything else it freezes is built or copied by the same call), so walking it again changes nothing',
  'packages/engines/src/local-task-trace/recorder.ts:133:ConditionalExpression':
    'equivalent: a non-finite reading makes an invalid Date, which the next check (`Number.isNaN(d.getTime())`) turns into the same `null` (that check → `false` is killed by recorder-edges.test.ts)',
  'packages/engines/src/local-task-trace/recorder.ts:307:ConditionalExpression':
    "unreachable: a trace holding only the new event is at most about 9.5 KiB of JCS (a payload of at most 8192 bytes, keys of at most 256 characters; docs/spec/local-task-trace-gate.md, 'Limits'), so the drop loop ends before one event is left",
  'packages/engines/src/local-task-trace/recorder.ts:309:StringLiteral':
    "unreachable: a trace holding only the new event is at most about 9.5 KiB of JCS (docs/spec/local-task-trace-gate.md, 'Limits'), so this refusal is never returned",
  'packages/engines/src/local-task-trace/recorder.ts:310:StringLiteral':
    "unreachable: a trace holding only the new event is at most about 9.5 KiB of JCS (docs/spec/local-task-trace-gate.md, 'Limits'), so this refusal is never returned",
  'packages/engines/src/local-task-trace/recorder.ts:334:ConditionalExpression':
    'equivalent for the type checks → `true` only (→ `false` is killed by recorder-edges.test.ts): `own` holds objects only, and `WeakSet.has` is false for every other value',
  'packages/engines/src/local-task-trace/recorder.ts:334:LogicalOperator':
    'equivalent: `own` holds objects only, and `WeakSet.has` is false for every other value, so the answer is `own.has(value)` either way',
  'packages/engines/src/local-task-trace/recorder.ts:339:ConditionalExpression':
    'equivalent: a memo of a pure function; computing the JCS size again gives the same number',
  'packages/engines/src/local-task-trace/recorder.ts:341:ConditionalExpression':
    'equivalent: a memo. Never storing only recomputes the same size; storing an unfrozen size is safe because every event sized is frozen, or built or copied by this call and frozen with the trace before it is returned, or dropped by this call and never sized again (only the events of a trace this module wrote are kept, and a dropped event is in none)',
  'packages/engines/src/local-task-trace/recorder.ts:416:ConditionalExpression':
    'equivalent: closeTrace refuses every current trace the condition excludes (A1 for none, A2 for one that is not a valid trace, A3 for a closed one), and a refused close leaves `previous` as it is',
  'packages/engines/src/local-task-trace/verdict.ts:83:ConditionalExpression':
    "equivalent (`seen.has(value)` → `false`): a cycle then recurses until the stack is exhausted, and isInertJson's catch returns the same `false` (the `return true` mutant is killed)",
  'packages/engines/src/local-task-trace/verdict.ts:139:EqualityOperator':
    'equivalent (`dot <= 0`): in a timestamp of the profile a `.` can only be at index 19, and traceInstantKey is only given timestamps that passed isTraceTimestamp (A8, and T7 on a schema-valid trace)',
  'packages/engines/src/local-task-trace/verdict.ts:145:ConditionalExpression':
    "equivalent for `value.length >= 1` → `true` only (the type-check mutants are killed by verdict.test.ts): `KEY` needs a first character, so `''` fails `KEY.test`",
  'packages/engines/src/local-task-trace/verdict.ts:149:ConditionalExpression':
    'equivalent: `Number.isSafeInteger` does not coerce and is false for every value that is not a number',
  'packages/engines/src/local-task-trace/verdict.ts:163:ConditionalExpression':
    "equivalent for `typeof value === 'string'` → `true` only (the whole condition → `true` is killed): `RESULTS` holds strings only and `Set.has` does not coerce",
  'packages/engines/src/local-task-trace/verdict.ts:168:ConditionalExpression':
    'equivalent: `TERMINAL_RESULTS` holds strings only and `Set.has` does not coerce, so the type check decides nothing',
  'packages/engines/src/local-task-trace/verdict.ts:175:StringLiteral':
    'equivalent: the key only has to tell (code, eventIndex) pairs apart, and a `null` index maps to one fixed string that is no decimal index, whichever string it is',
  'packages/engines/src/local-task-trace/verdict.ts:452:ConditionalExpression':
    'equivalent (`input !== undefined` → `true`): `isInertJson(undefined)` is false, so `size` is `null` either way',
  'packages/engines/src/local-task-trace/verdict.ts:465:MethodExpression':
    'equivalent: every identity failure is the same pair (TRACE_NOT_FOUND, null), which the builder merges, so the list holds exactly one entry before `slice(0, 1)`',
  'packages/engines/src/run-control/controller.ts:47:StringLiteral':
    "equivalent: `overLimit`'s answer is only compared with `null` (the one caller, after the event is applied), so which member it names, or an empty name, changes nothing",
  'packages/engines/src/run-control/controller.ts:116:StringLiteral':
    "equivalent: the draft's initial `stateDigest` is dropped by `finish`, which computes the digest of the rest",
  'packages/engines/src/run-control/controller.ts:145:ArrayDeclaration':
    'equivalent: the strings of a number, a boolean or `null` are only tested for a lone surrogate, which `"Stryker was here"` has not, as none of `[]` has',
  'packages/engines/src/run-control/controller.ts:229:ConditionalExpression':
    'equivalent: message text (which of the two inconsistent-outcome messages is sent; the code is fixed)',
  'packages/engines/src/run-control/controller.ts:229:EqualityOperator':
    'equivalent: message text (which of the two inconsistent-outcome messages is sent; the code is fixed)',
  'packages/engines/src/run-control/controller.ts:229:StringLiteral':
    'equivalent: message text (which of the two inconsistent-outcome messages is sent; the code is fixed)',
  'packages/engines/src/run-control/controller.ts:230:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/run-control/controller.ts:231:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/turn-liveness/card.ts:56:ConditionalExpression':
    'equivalent (each → `true` of this line): for a `stalled-recoverable` classification the escalated key is the key itself (same classification and reason), which the line above found different from the recorded one, and no key equals a `null` recorded one, so the extra check never returns',
  'packages/engines/src/turn-liveness/card.ts:56:LogicalOperator':
    'equivalent: for a `stalled-recoverable` classification the escalated key is the key itself (same classification and reason), which the line above found different from the recorded one, and no key equals a `null` recorded one, so the extra check never returns',
  'packages/engines/src/turn-liveness/card.ts:88:ConditionalExpression':
    'equivalent (→ `true`): classifyAt classifies a state with a lease by the lease rows only, so a stale classification of a source with a lease always has reason `operation-lease-expired`, and a source without one gives `null` either way',
  'packages/engines/src/turn-liveness/card.ts:88:OptionalChaining':
    'equivalent: reason `operation-lease-expired` comes only from the lease rows of classifyAt, so the source classified holds its lease',
  'packages/engines/src/turn-liveness/card.ts:89:StringLiteral':
    'equivalent: message text (the lease the card message names)',
  'packages/engines/src/turn-liveness/machine.ts:235:ConditionalExpression':
    'equivalent: unreachable on a valid state: `judge` hands validateCheckpoint a known mode, a deadline exactly for post-execution and evidence items the engine built in their right shape, so it never refuses',
  'packages/engines/src/turn-liveness/machine.ts:282:LogicalOperator':
    'equivalent: `checkpointFrom` runs only on a started turn (idle and terminal states return before the edge; a prompt goes to `startTurn`), whose checkpoint is never `null` (TurnLivenessStateV1: `null` only before the first turn)',
  'packages/engines/src/turn-liveness/machine.ts:282:OptionalChaining':
    'equivalent: `checkpointFrom` runs only on a started turn (idle and terminal states return before the edge; a prompt goes to `startTurn`), whose checkpoint is never `null` (TurnLivenessStateV1: `null` only before the first turn)',
  'packages/engines/src/turn-liveness/machine.ts:282:ArrayDeclaration':
    'equivalent (uncovered): `checkpointFrom` runs only on a started turn (idle and terminal states return before the edge; a prompt goes to `startTurn`), whose checkpoint is never `null` (TurnLivenessStateV1: `null` only before the first turn)',
  'packages/engines/src/turn-liveness/machine.ts:397:ConditionalExpression':
    'equivalent: a lease is held only in a `running` turn (TurnLivenessStateV1 invariant 5, kept by every edge), where `ack(s)` is `s` and `state` is already `running`, so the refusal of the next line returns the same state and code',
  'packages/engines/src/turn-liveness/machine.ts:397:BooleanLiteral':
    'equivalent: a lease is held only in a `running` turn (TurnLivenessStateV1 invariant 5, kept by every edge), where `ack(s)` is `s` and `state` is already `running`, so the refusal of the next line returns the same state and code; an `ok` decision has no `code` and is leased either way',
  'packages/engines/src/turn-liveness/machine.ts:397:StringLiteral':
    'equivalent: a lease is held only in a `running` turn (TurnLivenessStateV1 invariant 5, kept by every edge), where `ack(s)` is `s` and `state` is already `running`, so the refusal of the next line returns the same state and code',
  'packages/engines/src/turn-liveness/machine.ts:425:ConditionalExpression':
    "equivalent (`s.state === 'running'` → `true`): a lease is held only in a `running` turn (TurnLivenessStateV1 invariant 5, kept by every edge), so `lease !== null` implies it",
  'packages/engines/src/turn-liveness/machine.ts:520:ConditionalExpression':
    'equivalent (uncovered): unreachable, applyTurnEvent hands every UserPromptSubmit to `startTurn`, never to `edge`',
  'packages/engines/src/turn-liveness/machine.ts:520:StringLiteral':
    'equivalent (uncovered): unreachable, applyTurnEvent hands every UserPromptSubmit to `startTurn`, never to `edge`',
  'packages/engines/src/turn-liveness/machine.ts:575:ConditionalExpression':
    'equivalent (→ `true`): the other states that reach step 2 are idle and terminal ones with a UserPromptSubmit, which classifyAt classifies as themselves, never stale, so `dueNoticeKey` gives no key',
  'packages/engines/src/turn-liveness/observe.ts:54:ObjectLiteral':
    'equivalent: `{}` is not ok either, and its missing `issues` becomes `[]` in the refusal (`verdict.issues ?? []`), as `{ ok: false, issues: [] }` gives (the `[]` → `["Stryker was here"]` mutant is killed)',
  'packages/engines/src/turn-liveness/observe.ts:120:ConditionalExpression':
    "equivalent for the whole condition → `false` only (`state.state !== 'running'` → `true` is killed): an idle or terminal state classifies as itself, never stale, so `dueNoticeKey` gives no key and the tick returns the state and no card, as the early return does",
  'packages/engines/src/turn-liveness/thresholds.ts:16:ConditionalExpression':
    'equivalent for `value === undefined` → `false` only: `Number.isFinite(undefined)` is false, so the next disjunct gives the default',
  'packages/engines/src/task-continuity/evidence.ts:17:StringLiteral':
    'equivalent: message text (the roles the message lists; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/steps.ts:146:ConditionalExpression':
    'equivalent for `true` only: without a limit `bytes > undefined` is false, so the envelope is measured and written as before',
  'packages/engines/src/task-continuity/stored-envelope.ts:40:LogicalOperator':
    'equivalent: an `owner` that is not an object throws on its refs or has no `transitionRef` object, an `operations` that is not an object has no `unresolved: null` (no JSON value but an object has a member); both are refused further on, in this function or its catch',
  'packages/engines/src/task-continuity/stored-envelope.ts:40:ConditionalExpression':
    'equivalent (`!isObject(e.owner) || !isObject(e.operations)` → `false`): an `owner` that is not an object throws on its refs or has no `transitionRef` object, an `operations` that is not an object has no `unresolved: null`; both are refused further on, in this function or its catch',
  'packages/engines/src/task-continuity/stored-envelope.ts:71:ConditionalExpression':
    'equivalent: a `terminalReceipt` that is not an object has no `receiptDigest` equal to its recomputed digest, so the next check refuses it',
  'packages/engines/src/task-continuity/stored-envelope.ts:98:StringLiteral':
    'equivalent: message text (the reason of a throw that is not an Error)',
  'packages/engines/src/task-continuity/task-key.ts:32:ConditionalExpression':
    'equivalent: an empty `taskId` fails the UUID pattern too, with the same code (another message)',
  'packages/engines/src/task-continuity/task-key.ts:32:StringLiteral':
    'equivalent: an empty `taskId` fails the UUID pattern too, with the same code (another message)',
  'packages/engines/src/task-continuity/task-key.ts:34:ConditionalExpression':
    'equivalent: an empty `projectRootIdentity` fails its pattern too, with the same code (another message)',
  'packages/engines/src/task-continuity/task-key.ts:34:StringLiteral':
    'equivalent: an empty `projectRootIdentity` fails its pattern too, with the same code (another message)',
  'packages/engines/src/task-continuity/time.ts:6:EqualityOperator':
    'equivalent for `dot <= 0` only: a timestamp starts with its year, never with `.`, so `dot` is never 0 (`dot >= 0` is killed)',
  'packages/engines/src/task-continuity/time.ts:21:EqualityOperator':
    'equivalent: `sa !== sb` on this line, so `sa <= sb` is `sa < sb`',
  'packages/engines/src/task-continuity/time.ts:22:EqualityOperator':
    'equivalent: `fa === fb` returned 0 before, so `fa <= fb` is `fa < fb`',
  'packages/engines/src/task-continuity/operation-commit.ts:120:ConditionalExpression':
    'equivalent for `t.length < 1` → `false` only (the other conditions of the line are killed by packages/engines/test/task-continuity/operation-commit-shape.test.ts): a non-string is refused by the `typeof` test before it, and the empty string fails `TARGET`, which needs at least one character, so the line returns `false` for it either way',
  'packages/engines/src/task-continuity/operation-commit.ts:122:ConditionalExpression':
    'equivalent for `t.trim() !== t` → `false` only (the NFKC test is killed): `TARGET` on line 120 already refused a target that starts or ends with `\\s`, and `\\s` is exactly the set `trim` strips (WhiteSpace and LineTerminator of ECMA-262), so `trim` returns every target that reaches this line unchanged',
  'packages/engines/src/task-continuity/operation-commit.ts:122:MethodExpression':
    'equivalent (`t.trim()` → `t`): `TARGET` on line 120 already refused a target that starts or ends with `\\s`, the set `trim` strips, so `t.trim()` is `t` for every target that reaches this line',
  'packages/engines/src/task-continuity/operation-commit.ts:205:ConditionalExpression':
    'equivalent for `prior.operationId !== event.operationId` → `false` only (the other operands are killed): `bindingMatches(prior, event)` in the next operand compares `operationId` too, so a prior record of another operation is no replay either way',
  'packages/engines/src/task-continuity/operation-commit.ts:305:ObjectLiteral':
    'equivalent: with the envelope generation `checkOperationTransition` adds two checks, the generation of a new record (unreachable: `u` is never null here) and the same-generation column, which lines 244 to 249 have already refused with `TASK_OPERATION_CAS_MISMATCH` for every same-generation edge',
  'packages/engines/src/task-continuity/operation-commit.ts:450:ArithmeticOperator':
    'equivalent (`history.length + 1`): the two indexes past the end read `undefined`, which `?.` turns into no record, so the loop goes on to the same entries in the same order',
  'packages/engines/src/task-continuity/operation-commit.ts:451:OptionalChaining':
    'equivalent (`history[i].operations`): the loop reads only indexes 0 to `length - 1` of an array of envelopes, each of which holds one (`?.` is there for the index type, not for a value)',
  'packages/engines/src/task-continuity/operation-edges.ts:300:ConditionalExpression':
    "equivalent: the `default` case is the switch's last and holds only `break`",
  'packages/engines/src/task-continuity/owner-commit.ts:73:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:75:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:75:MethodExpression':
    'equivalent: message text (how many unknown members the message lists)',
  'packages/engines/src/task-continuity/owner-commit.ts:76:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:83:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:85:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:102:StringLiteral':
    'equivalent: message text (what the malformed-request message names; the code is fixed, the wording is not)',
  'packages/engines/src/task-continuity/owner-commit.ts:172:ConditionalExpression':
    'equivalent (`request.operation === ref.operation` → `true`): `ref.requestDigest` is the digest of the whole request that wrote the lease, `operation` included, so an equal `requestDigest` is the same operation',
  'packages/engines/src/task-continuity/owner-commit.ts:173:ConditionalExpression':
    'equivalent: a replay of a transition other than `terminal` finds no receipt, since step 3 refuses a receipt on a lease that is not `terminal` and only the `terminal` row leads to that status (reopen, the one row out of it, writes its own transitionRef)',
  'packages/engines/src/task-continuity/owner-commit.ts:178:ConditionalExpression':
    'equivalent on every envelope a store writes: the lease is `terminal` exactly when its transitionRef.operation is `terminal` (only the `terminal` row leads there; reopen, the one row out, writes its own transitionRef), so this conjunct and the next are one',
  'packages/engines/src/task-continuity/owner-commit.ts:179:ConditionalExpression':
    'equivalent on every envelope a store writes: the lease is `terminal` exactly when its transitionRef.operation is `terminal` (only the `terminal` row leads there; reopen, the one row out, writes its own transitionRef), so this conjunct and the one before are one',
  'packages/engines/src/task-continuity/owner-commit.ts:207:LogicalOperator':
    'equivalent: message text (the status the refusal message names)',
  'packages/engines/src/task-continuity/owner-commit.ts:307:OptionalChaining':
    'equivalent: reopen passes the row check only from a `terminal` lease, and step 3 refuses a `terminal` lease without its receipt, so `terminalReceipt` is never null here',
  'packages/engines/src/task-continuity/owner-commit.ts:351:ConditionalExpression':
    "equivalent: the `default` case is the switch's last and holds only `break`",
  'packages/engines/src/task-continuity/owner-transitions.ts:326:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/owner-transitions.ts:334:LogicalOperator':
    'equivalent: message text (the statuses the refusal message names)',
  'packages/engines/src/task-continuity/owner-transitions.ts:334:ArrowFunction':
    'equivalent: message text (the statuses the refusal message names)',
  'packages/engines/src/task-continuity/owner-transitions.ts:360:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/owner-transitions.ts:383:OptionalChaining':
    'equivalent: the rows that set a ref (handoff-prepare, takeover-prepare) start from a lease, never from no envelope, and the row check above refuses a `null` prev',
  'packages/engines/src/task-continuity/owner-transitions.ts:384:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/owner-transitions.ts:388:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/owner-transitions.ts:396:OptionalChaining':
    'equivalent (`prev.handoffRef`): handoff-accept starts only from a `handoff-pending` lease, and the row check above refuses a `null` prev (`prev?.handoffRef.targetSessionDigest` is killed)',
  'packages/engines/src/task-continuity/owner-transitions.ts:397:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/owner-transitions.ts:399:OptionalChaining':
    'equivalent (`prev.takeoverRef`): takeover-accept starts only from a `takeover-pending` lease, and the row check above refuses a `null` prev (`prev?.takeoverRef.targetSessionDigest` is killed)',
  'packages/engines/src/task-continuity/owner-transitions.ts:400:StringLiteral':
    'equivalent: message text (the spec fixes codes and data, not wording)',
  'packages/engines/src/task-continuity/write-context.ts:66:ConditionalExpression':
    'equivalent: a ref with a `mode` member that goes on to the present-ref check fails it (it needs exactly the four members of a lease ref)',
  'packages/engines/src/task-continuity/write-context.ts:66:StringLiteral':
    'equivalent: a ref with a `mode` member that goes on to the present-ref check fails it (it needs exactly the four members of a lease ref)',
  'packages/engines/src/context/reuse.ts:170:ConditionalExpression':
    "equivalent for `currentDigest === null` → `false` only (the other mutants of the line are killed by packages/engines/test/context/reuse.test.ts): a null digest differs from a V2 prior receipt's `sourceIdentitiesDigest`, which is always a digest, so the next operand refuses with the same code",
  'packages/engines/src/context/ledger.ts:64:ConditionalExpression':
    'equivalent: for a source without a record `i` is -1 and `records[-1]` is `undefined`, as the `i < 0` branch gives',
};

function resolution(s) {
  const named = EQUIVALENT[`${s.file}:${s.line}:${s.mutator}`];
  if (named) return named;
  const sentence = /(['"`])[^'"`]*[a-z]+ [a-z]+[^'"`]*\1/.test(s.code) && !/code:/.test(s.code);
  if (s.mutator === 'StringLiteral' && /^(''|""|``)$/.test(s.replacement) && sentence)
    return 'equivalent: message text (the spec fixes codes and data, not wording)';
  return 'open: no golden case or unit test kills it yet';
}
print('| shard | where | status | mutation | code | resolution |');
print('|---|---|---|---|---|---|');
for (const s of survivors)
  print(
    `| ${s.shard} | ${s.file.replace(/^packages\//, '')}:${s.line} | ${s.status} | ${s.mutator} → ${cell(s.replacement)} | ${cell(s.code)} | ${resolution(s)} |`,
  );

const DOC = 'docs/conformance-quality.md';
/** The doc with its score table and survivors table replaced by those printed above. */
function withTables(doc) {
  const lines = doc.split('\n');
  for (const header of ['| shard | score |', '| shard | where |']) {
    const from = (ls) => ls.findIndex((l) => l.startsWith(header));
    const end = (ls, i) => {
      let j = i;
      while (j < ls.length && ls[j].startsWith('|')) j++;
      return j;
    };
    const d = from(lines);
    const g = from(out);
    if (d < 0) throw new Error(`${DOC} has no table starting "${header}"`);
    lines.splice(d, end(lines, d) - d, ...out.slice(g, end(out, g)));
  }
  return lines.join('\n');
}
const writeDoc = process.argv.includes('--write-doc');
const checkDoc = process.argv.includes('--check-doc');
if ((writeDoc || checkDoc) && !committed)
  throw new Error('--write-doc and --check-doc read the committed files: add --committed');
if (writeDoc) writeFileSync(DOC, withTables(readFileSync(DOC, 'utf8')));
else if (checkDoc) {
  const doc = readFileSync(DOC, 'utf8');
  if (withTables(doc) !== doc) {
    console.error(
      `mutation-doc:check: the score or survivors table in ${DOC} differs from the committed incremental files and the EQUIVALENT table; run \`node tooling/mutate/summary.mjs --committed --write-doc\` and commit the doc.`,
    );
    process.exit(1);
  }
  console.log(`mutation-doc:check: ${DOC} has the tables of the committed mutation results`);
} else console.log(out.join('\n'));
