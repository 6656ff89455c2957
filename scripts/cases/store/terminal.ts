// Terminal closeout cases: the preconditions of a terminal request and its evidence checks.
import { def, RECEIPT, STATE } from './defs.ts';
import { EVIDENCE, type EvidenceItem } from './evidence.ts';
import { H } from './names.ts';
import { event, FENCE, reach, reachPhase, S1, S2, type Task, v } from './task.ts';

// Terminal closeout preconditions.
export const terminal = (name: string, title: string, run: (t: Task) => Promise<void>, subject = RECEIPT) =>
  def('terminal', `terminal/${name}`, subject, 'terminal-closeout', title, run);

/** Refused terminal, nothing written: the untouched task then closes with the same context. */
export async function refusedTerminal(t: Task, request: Record<string, unknown>, code: string) {
  await t.refused('store.transitionOwner', request, code);
  await t.history();
}

terminal(
  'closes-with-a-receipt',
  'terminal by the holder with the current write context and the four evidence files: committed with the receipt; state and operation commits are then TASK_WRITE_OWNER_MISSING',
  async (t) => {
    await t.transition('acquire');
    await t.commitState({ step: 'done' });
    await t.context();
    await t.transition('terminal');
    await t.read({ full: true });
    await t.refused('store.commitState', t.stateRequest({ step: 'after' }), 'TASK_WRITE_OWNER_MISSING');
    await t.refused('store.commitOperation', t.opRequest(event('prepare')), 'TASK_WRITE_OWNER_MISSING');
  },
);
terminal(
  'replay-returns-the-stored-receipt',
  'the identical terminal request again: replayed with the stored receipt, nothing written',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    const request = t.defaultRequest('terminal');
    await t.sc.step('store.transitionOwner', { request }, { want: 'committed' });
    await t.history();
    await t.sc.step('store.transitionOwner', { request }, { want: 'replayed' });
    await t.history();
  },
);
terminal(
  'replay-with-another-status',
  'a terminal request for the closed lease with another terminalStatus: TASK_TERMINAL_REPLAY_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.read({ as: 'open' });
    await t.transition('terminal');
    await t.refused(
      'store.transitionOwner',
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ terminalStatus: 'failed' }) }, 'open'),
      'TASK_TERMINAL_REPLAY_MISMATCH',
    );
  },
);
terminal('unknown-status', 'terminal with terminalStatus "done": TASK_TERMINAL_INPUT_INVALID', async (t) => {
  await t.transition('acquire');
  await t.context();
  await refusedTerminal(
    t,
    t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ terminalStatus: 'done' }) }),
    'TASK_TERMINAL_INPUT_INVALID',
  );
});
for (const member of ['lifecycleRevision', 'settledSetDigest', 'writeContextDigest'] as const) {
  terminal(
    `without-${member}`,
    `terminal without ${member}: TASK_TERMINAL_EXPECTED_STATE_REQUIRED`,
    async (t) => {
      await t.transition('acquire');
      await t.context();
      const { [member]: _, ...rest } = t.terminalMember();
      await refusedTerminal(
        t,
        t.ownerRequest('terminal', S1, { terminal: rest }),
        'TASK_TERMINAL_EXPECTED_STATE_REQUIRED',
      );
    },
  );
}
terminal('stale-fence', 'terminal with a stale fence: LIFECYCLE_STATE_FENCE_MISMATCH', async (t) => {
  await t.transition('acquire');
  await t.context();
  await refusedTerminal(
    t,
    { ...t.defaultRequest('terminal'), expectedFence: FENCE(2, 1) },
    'LIFECYCLE_STATE_FENCE_MISMATCH',
  );
});
terminal(
  'by-non-holder',
  'terminal requested by a session that is not the holder: TASK_TERMINAL_OWNER_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S2, { terminal: t.terminalMember() }),
      'TASK_TERMINAL_OWNER_MISMATCH',
    );
  },
);
terminal(
  'with-unresolved-operation',
  'terminal while an operation is unresolved: TASK_TERMINAL_OPERATION_UNSETTLED',
  async (t) => {
    await t.transition('acquire');
    await reachPhase(t, 'dispatched');
    await t.context();
    await refusedTerminal(t, t.defaultRequest('terminal'), 'TASK_TERMINAL_OPERATION_UNSETTLED');
  },
);
terminal(
  'stale-lifecycle-revision',
  'terminal naming another lifecycleRevision: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ lifecycleRevision: 2 }) }),
      'TASK_TERMINAL_STATE_CAS_MISMATCH',
    );
  },
);
terminal(
  'stale-settled-set',
  'terminal naming a settled set digest other than the current one: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context('empty');
    await reachPhase(t, 'settled');
    await t.context();
    await refusedTerminal(
      t,
      t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ settledSetDigest: v('emptysettled') }) }),
      'TASK_TERMINAL_STATE_CAS_MISMATCH',
    );
  },
);
terminal(
  'stale-write-context',
  'terminal with the contextDigest of a write context read before the last commit: TASK_TERMINAL_STATE_CAS_MISMATCH',
  async (t) => {
    await t.transition('acquire');
    await t.context();
    await t.commitState({ step: 'after the context was read' });
    await refusedTerminal(t, t.defaultRequest('terminal'), 'TASK_TERMINAL_STATE_CAS_MISMATCH');
  },
);
/** A well-formed relative path of `n` characters (segments of 100, none near a file-name limit). */
const pathOfLength = (n: number) => {
  const dirs = `closeout/${`${'x'.repeat(99)}/`.repeat(9)}`;
  return `${dirs}${'y'.repeat(n - dirs.length - 3)}.md`;
};
const EVIDENCE_FAULTS: Array<[string, string, EvidenceItem[]]> = [
  ['three-items', 'TASK_TERMINAL_EVIDENCE_INCOMPLETE', EVIDENCE.slice(0, 3)],
  [
    'unsorted-roles',
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    [EVIDENCE[1], EVIDENCE[0], EVIDENCE[2], EVIDENCE[3]] as EvidenceItem[],
  ],
  [
    'role-twice',
    'TASK_TERMINAL_EVIDENCE_INCOMPLETE',
    [
      EVIDENCE[0],
      EVIDENCE[1],
      EVIDENCE[2],
      { ...(EVIDENCE[2] as EvidenceItem), path: 'closeout/report.md' },
    ] as EvidenceItem[],
  ],
  [
    'duplicate-path',
    'TASK_TERMINAL_EVIDENCE_DUPLICATE',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/memory.md' } : e)),
  ],
  [
    'parent-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: '../closeout/report.md' } : e)),
  ],
  [
    'absolute-path',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: '/closeout/report.md' } : e)),
  ],
  [
    'empty-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout//report.md' } : e)),
  ],
  [
    'dot-segment',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/./report.md' } : e)),
  ],
  [
    'backslash',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout\\report.md' } : e)),
  ],
  [
    'path-of-1025-characters',
    'TASK_TERMINAL_EVIDENCE_PATH_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: pathOfLength(1025) } : e)),
  ],
  [
    // At the limit the path is judged on: no such file.
    'path-of-1024-characters',
    'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: pathOfLength(1024) } : e)),
  ],
  [
    'link-out-of-the-root',
    'TASK_TERMINAL_EVIDENCE_SCOPE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/outside.md' } : e)),
  ],
  [
    'missing-file',
    'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout/missing.md' } : e)),
  ],
  [
    'directory',
    'TASK_TERMINAL_EVIDENCE_FILE_INVALID',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, path: 'closeout' } : e)),
  ],
  [
    'other-sha256',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, sha256: H('other bytes') } : e)),
  ],
  [
    'other-length',
    'TASK_TERMINAL_EVIDENCE_DIGEST_MISMATCH',
    EVIDENCE.map((e, i) => (i === 3 ? { ...e, bytes: e.bytes + 1 } : e)),
  ],
];
for (const [name, code, evidence] of EVIDENCE_FAULTS) {
  terminal(
    `evidence-${name}`,
    `terminal whose evidence has ${name.replace(/-/g, ' ')}: ${code}, nothing written; the untouched task then closes with the same write context`,
    async (t) => {
      await t.transition('acquire');
      await t.context();
      await refusedTerminal(
        t,
        t.ownerRequest('terminal', S1, { terminal: t.terminalMember({ evidence }) }),
        code,
      );
      await t.transition('terminal');
    },
  );
}
terminal(
  'reopen-invalidates-the-old-fence',
  'reopen: lifecycleRevision +1 and writerGeneration +1, the receipt kept only in the lineage; the fences of before the reopen are refused',
  async (t) => {
    await t.transition('acquire');
    await t.read({ as: 'open' });
    await t.context();
    await t.transition('terminal');
    await t.read({ as: 'closed' });
    await t.transition('reopen');
    await t.read({ full: true });
    for (const p of ['open', 'closed']) {
      await t.refused(
        'store.commitState',
        { ...t.stateRequest({ step: `with the ${p} fence` }), expectedFence: v(`${p}fence`) },
        'LIFECYCLE_STATE_FENCE_MISMATCH',
      );
    }
    await t.commitState({ step: 'after reopen' });
  },
  STATE,
);
terminal(
  'lineage-keeps-the-latest-64',
  'closed and reopened 65 times: the lineage holds the latest 64 closed revisions, the first dropped when the 65th closes (at most 64 entries, oldest dropped first)',
  async (t) => {
    await reach(t, 'terminal');
    for (let revision = 2; revision <= 65; revision++) {
      await t.transition('reopen');
      await t.context();
      await t.write('store.transitionOwner', t.defaultRequest('terminal', revision), 'committed');
    }
    await t.read({ full: true });
  },
  STATE,
);
terminal(
  'close-again-after-reopen',
  'a reopened task closes again against lifecycle revision 2: two lineage entries',
  async (t) => {
    await reach(t, 'terminal');
    await t.transition('reopen');
    await t.context();
    await t.write('store.transitionOwner', t.defaultRequest('terminal', 2), 'committed');
    await t.read({ full: true });
  },
  STATE,
);
