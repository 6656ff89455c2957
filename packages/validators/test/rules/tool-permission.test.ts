// @module-tag unit
// The ToolPermissionBoundaryGate rules beyond one fixture per code: several breaks in one
// document are each reported, the bundle shape is refused once, the confirmation order of
// D-TPB-05 holds for every pair, and the edges the page settles (a waivable confirmation may be
// waived, a fallback may go unused, a fallbackId without use-fallback is unresolved).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  computeBoundaryDigest,
  computeHumanInLoopBoundaryId,
  computeToolPermissionBoundaryId,
  type HumanInLoopBoundaryV1,
  type HumanLoopActionClass,
  type ToolPermissionBoundaryV1,
} from '@agent-contracts/schemas';
import { describe, expect, it } from 'vitest';
import { validate, validateBundle } from '../../src/index.ts';
import { repoRoot } from '../helpers.ts';

const read = <T>(rel: string): T => JSON.parse(readFileSync(join(repoRoot, 'conformance', rel), 'utf8')) as T;
const ideTool = read<ToolPermissionBoundaryV1>(
  'fixtures/ToolPermissionBoundaryV1/valid/ide-coding-agent-automatic-mode.json',
);
const ideHuman = read<HumanInLoopBoundaryV1>(
  'fixtures/HumanInLoopBoundaryV1/valid/ide-coding-agent-action-classes.json',
);

/** Copy, edit, and recompute id and digest, so only the edit is judged. */
function editTool(edit: (d: ToolPermissionBoundaryV1) => void): ToolPermissionBoundaryV1 {
  const d = structuredClone(ideTool);
  edit(d);
  d.boundaryId = computeToolPermissionBoundaryId(d);
  d.boundaryDigest = computeBoundaryDigest(d);
  return d;
}
function editHuman(edit: (d: HumanInLoopBoundaryV1) => void, base = ideHuman): HumanInLoopBoundaryV1 {
  const d = structuredClone(base);
  edit(d);
  d.boundaryId = computeHumanInLoopBoundaryId(d);
  d.boundaryDigest = computeBoundaryDigest(d);
  return d;
}

const codes = (doc: unknown) => {
  const r = validate(doc);
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};
const bundleCodes = (documents: unknown[]) => {
  const r = validateBundle({ kind: 'tool-permission-boundary', documents });
  return r.ok ? [] : r.issues.map((i) => `${i.code} ${i.path}`);
};

describe('ToolPermissionBoundaryV1 rules', () => {
  it('report every break of one document, each at its own path', () => {
    const doc = editTool((d) => {
      d.adapterStates[2]!.behaviour = 'local-shadow-deny';
      d.adapterStates[3]!.behaviour = 'local-shadow-deny';
      d.permissionOwners[1]!.holder.kind = 'model';
      d.permissionOwners[2]!.holder.kind = 'user';
    });
    expect(codes(doc)).toEqual([
      'TOOL_PERMISSION_OWNER_NOT_HOST /permissionOwners/1/holder/kind',
      'TOOL_PERMISSION_OWNER_NOT_HOST /permissionOwners/2/holder/kind',
      'TOOL_PERMISSION_SHADOW_DENY /adapterStates/2/behaviour',
      'TOOL_PERMISSION_SHADOW_DENY /adapterStates/3/behaviour',
    ]);
  });

  it('allow another holder for the classes the host does not own', () => {
    const doc = editTool((d) => {
      d.permissionOwners[4]!.holder = { kind: 'external-service', name: 'egress-proxy' };
    });
    expect(codes(doc)).toEqual([]);
  });

  it('refuse a fallbackId beside a behaviour other than use-fallback, and accept an unused fallback', () => {
    expect(
      codes(
        editTool((d) => {
          d.adapterStates[3]!.fallbackId = 'manual-command-instruction';
        }),
      ),
    ).toEqual(['TOOL_PERMISSION_FALLBACK_UNRESOLVED /adapterStates/3/fallbackId']);
    expect(ideTool.adapterStates.some((a) => a.fallbackId === 'manual-command-instruction')).toBe(false);
    expect(codes(ideTool)).toEqual([]);
  });

  it('refuse use-fallback without a fallbackId', () => {
    expect(
      codes(
        editTool((d) => {
          d.adapterStates[2] = { state: 'invalid', behaviour: 'use-fallback', fallbackId: null };
        }),
      ),
    ).toEqual(['TOOL_PERMISSION_FALLBACK_UNRESOLVED /adapterStates/2/fallbackId']);
  });

  it('report each missing host-owned class and adapter state once', () => {
    const doc = editTool((d) => {
      d.permissionOwners = d.permissionOwners.filter((r) => r.permissionClass === 'network-egress');
      d.adapterStates = [];
    });
    // adapterStates has minItems 1, so this is a schema failure, not four semantic ones.
    expect(codes(doc)).toEqual(['SCHEMA_MIN_ITEMS /adapterStates']);
    const fewer = editTool((d) => {
      d.permissionOwners = d.permissionOwners.filter((r) => r.permissionClass === 'network-egress');
      d.adapterStates = d.adapterStates.slice(0, 1);
    });
    expect(codes(fewer)).toEqual([
      ...['file-read', 'file-write', 'file-delete', 'command-execute'].map(
        () => 'TOOL_PERMISSION_CLASS_MISSING /permissionOwners',
      ),
      ...['failed', 'invalid', 'outside-workspace'].map(
        () => 'TOOL_PERMISSION_ADAPTER_STATE_MISSING /adapterStates',
      ),
    ]);
  });
});

describe('HumanInLoopBoundaryV1 rules', () => {
  it('refuse the model as well as the agent as the one finally responsible', () => {
    const doc = editHuman((d) => {
      d.actionClasses[0]!.finalResponsibility = 'model';
      d.actionClasses[1]!.finalResponsibility = 'agent';
    });
    expect(codes(doc)).toEqual([
      'HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN /actionClasses/0/finalResponsibility',
      'HUMAN_LOOP_RESPONSIBILITY_NOT_HUMAN /actionClasses/1/finalResponsibility',
    ]);
  });

  it('let a reversible class run in automatic mode without confirmation and without review', () => {
    const i = ideHuman.actionClasses.findIndex((c) => c.actionClass === 'test-commands');
    expect(ideHuman.actionClasses[i]).toMatchObject({
      reversibility: 'reversible',
      automaticMode: 'without-confirmation',
      humanReview: 'none',
    });
    expect(codes(ideHuman)).toEqual([]);
  });
});

describe('the tool-permission-boundary bundle', () => {
  it('accepts the valid pair', () => {
    expect(bundleCodes([ideTool, ideHuman])).toEqual([]);
  });

  for (const [label, documents] of [
    ['one document', [ideTool]],
    ['the human boundary first', [ideHuman, ideTool]],
    ['three documents', [ideTool, ideHuman, ideHuman]],
    ['two tool boundaries', [ideTool, ideTool]],
  ] as const) {
    it(`refuses ${label} with BUNDLE_INVALID once and judges nothing else`, () => {
      expect(bundleCodes([...documents])).toEqual(['BUNDLE_INVALID /documents']);
    });
  }

  it('refuses a human boundary of another revision at its subject', () => {
    const other = editHuman((d) => {
      d.subject.revision = 'git:51ab0c99e7d3f612';
    });
    expect(bundleCodes([ideTool, other])).toEqual(['HUMAN_LOOP_TOOL_BOUNDARY_MISMATCH /documents/1/subject']);
  });

  it('lets automatic mode proceed with confirmation over a non-waivable operation', () => {
    const i = ideHuman.actionClasses.findIndex((c) => c.actionClass === 'shell-commands');
    expect(ideHuman.actionClasses[i]!.automaticMode).toBe('with-confirmation');
    const shell = ideTool.dangerousOperations.find((o) => o.operationId === 'run-shell-command');
    expect(shell?.waivable).toBe(false);
    expect(bundleCodes([ideTool, ideHuman])).toEqual([]);
  });

  // D-TPB-05: each-action satisfies per-invocation and per-session; once-per-session satisfies
  // per-session; not-required satisfies neither.
  const table: ReadonlyArray<
    readonly [HumanLoopActionClass['userConfirmation'], 'per-invocation' | 'per-session', boolean]
  > = [
    ['each-action', 'per-invocation', true],
    ['each-action', 'per-session', true],
    ['once-per-session', 'per-invocation', false],
    ['once-per-session', 'per-session', true],
    ['not-required', 'per-invocation', false],
    ['not-required', 'per-session', false],
  ];
  for (const [asked, required, ok] of table) {
    it(`a class asking ${asked} over an operation needing ${required} is ${ok ? 'accepted' : 'refused'}`, () => {
      const tool = editTool((d) => {
        for (const o of d.dangerousOperations) o.confirmation = required;
      });
      const human = editHuman((d) => {
        d.toolPermissionBoundaryId = tool.boundaryId;
        for (const c of d.actionClasses) if (c.operations.length) c.userConfirmation = asked;
      });
      const expected = human.actionClasses.flatMap((c, i) =>
        c.operations.length
          ? [`HUMAN_LOOP_CONFIRMATION_WEAKER_THAN_TOOL /documents/1/actionClasses/${i}/userConfirmation`]
          : [],
      );
      expect(bundleCodes([tool, human])).toEqual(ok ? [] : expected);
    });
  }
});
