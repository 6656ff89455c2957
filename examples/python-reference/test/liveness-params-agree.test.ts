// @module-tag integration
// Malformed `liveness.event` params (docs/protocol.md, D-TLR-59): a digest that is not 64
// lowercase hex digits, or a target that is not a workspace-relative artifact path, is -32602 in
// both references, before the engine copies it into a turn state whose schema it would break.
// The same params go to examples/reference-node's handler and to the Python reference's
// `check_event`; both must accept the well-formed ones and refuse the others as malformed params.
import { InvalidParams } from '@agent-contracts/protocol';
import { createHandler } from '@agent-contracts/reference-node';
import { describe, expect, it } from 'vitest';
import { pythonJson } from './helpers/python-json.ts';

const HEX = 'ab'.repeat(32);

// Answers ["ok" | "invalid-params" | crash text, ...] for the params given.
const CHECK = `
from agent_ref.liveness import check_event
from agent_ref.errors import InvalidParams
out = []
for p in data:
    try:
        check_event(p)
        out.append("ok")
    except InvalidParams:
        out.append("invalid-params")
    except Exception as e:
        out.append(repr(e))
json.dump(out, sys.stdout)
`;

const pre = (over: Record<string, unknown>) => ({
  event: {
    type: 'PreToolUse',
    at: '2026-12-03T09:00:01.000Z',
    operationId: 'op-1',
    toolName: 'edit',
    hostDecision: 'allowed',
    mutating: true,
    ...over,
  },
});
const post = (over: Record<string, unknown>) => ({
  event: { type: 'PostToolUse', at: '2026-12-03T09:00:02.000Z', operationId: 'op-1', ...over },
});
const withContext = (context: Record<string, unknown>) => ({ ...pre({}), context });

const WELL_FORMED = [
  pre({}),
  pre({ operationRecordDigest: HEX }),
  pre({ operationRecordDigest: null }),
  pre({ targetPaths: ['src/a.ts', '.github/workflows/ci.yml', `${'d/'.repeat(255)}f`] }),
  pre({ targetPaths: [`${'𝒳'.repeat(512)}`] }),
  post({ mutatedTargets: [] }),
  post({ mutatedTargets: ['docs/read me.md'] }),
  withContext({ taskOperationSetDigest: HEX }),
  withContext({ taskOperationSetDigest: null }),
];
const MALFORMED = [
  pre({ operationRecordDigest: '' }),
  pre({ operationRecordDigest: HEX.toUpperCase() }),
  pre({ operationRecordDigest: `${HEX}0` }),
  pre({ operationRecordDigest: `${HEX}\n` }),
  pre({ targetPaths: [''] }),
  pre({ targetPaths: ['/etc/passwd'] }),
  pre({ targetPaths: ['~/.ssh/id'] }),
  pre({ targetPaths: ['src/../../x'] }),
  pre({ targetPaths: ['C:\\x'] }),
  pre({ targetPaths: ['a'.repeat(513)] }),
  pre({ targetPaths: [`${'𝒳'.repeat(513)}`] }),
  pre({ targetPaths: null }),
  post({ mutatedTargets: [''] }),
  post({ mutatedTargets: ['./x'] }),
  post({ mutatedTargets: ['a|b'] }),
  withContext({ taskOperationSetDigest: '' }),
  withContext({ taskOperationSetDigest: 'not a digest' }),
];

async function reference(params: unknown): Promise<string> {
  const h = createHandler();
  await h.handle('clock.set', { now: '2026-12-03T09:00:00.000Z' });
  await h.handle('liveness.event', {
    event: { type: 'UserPromptSubmit', at: '2026-12-03T09:00:00.500Z', turnKey: 'turn-1' },
  });
  // A tool output needs the call's lease first, or the engine refuses it (a -32000 refusal).
  if ((params as { event: { type: string } }).event.type === 'PostToolUse')
    await h.handle('liveness.event', pre({}));
  try {
    await h.handle('liveness.event', params);
    return 'ok';
  } catch (e) {
    return e instanceof InvalidParams ? 'invalid-params' : String(e);
  }
}

const python = (params: unknown[]) => pythonJson<string[]>(CHECK, params);

describe('malformed liveness.event params are -32602 in both references (D-TLR-59)', () => {
  it('the well-formed params are accepted by both', async () => {
    const all = [...WELL_FORMED];
    expect(await Promise.all(all.map(reference))).toEqual(all.map(() => 'ok'));
    expect(python(all)).toEqual(all.map(() => 'ok'));
  });
  it('a digest or a target path the turn state could not hold is malformed params in both', async () => {
    const all = [...MALFORMED];
    expect(await Promise.all(all.map(reference))).toEqual(all.map(() => 'invalid-params'));
    expect(python(all)).toEqual(all.map(() => 'invalid-params'));
  });
});
