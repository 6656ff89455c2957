// @module-tag integration
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessError } from '../src/errors.ts';
import { ImplementationProcess } from '../src/transport/process.ts';

const fake = fileURLToPath(new URL('./fakes/fake-impl.mjs', import.meta.url));
const started: ImplementationProcess[] = [];
function start(mode: string, extra: Partial<Parameters<typeof ImplementationProcess.start>[0]> = {}) {
  const p = ImplementationProcess.start({
    command: `node ${fake} ${mode}`,
    requestTimeoutMs: 3_000,
    ...extra,
  });
  started.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.kill()));
});

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(HarnessError);
    return e as HarnessError;
  }
  throw new Error('expected the request to fail, but it succeeded');
}

describe('ImplementationProcess', () => {
  it('round-trips requests over one long-running process and shuts it down cleanly', async () => {
    const p = start('ok');
    for (let i = 0; i < 20; i++) {
      expect(await p.call('echo', { i })).toEqual({ result: { method: 'echo', params: { i } } });
    }
    const exit = await p.close();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(p.stderrTail).toContain('fake-impl starting in mode ok');
  });

  it('a reply to shutdown after its grace period is late: one IMPL_SHUTDOWN_UNANSWERED, no IMPL_UNKNOWN_ID', async () => {
    // The fake answers shutdown when stdin closes, which close() does once the grace period ended.
    const p = start('late-shutdown');
    expect(await p.call('echo', 1)).toEqual({ result: { method: 'echo', params: 1 } });
    expect(await p.close(300)).toEqual({ code: 0, signal: null });
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_SHUTDOWN_UNANSWERED']);
    expect(p.lateReplies).toBe(1);
  });

  it('matches out-of-order replies by id', async () => {
    const p = start('out-of-order');
    const [a, b] = await Promise.all([p.call('first', 1), p.call('second', 2)]);
    expect(a).toEqual({ result: { method: 'first', params: 1 } });
    expect(b).toEqual({ result: { method: 'second', params: 2 } });
  });

  it('reassembles a reply split across writes, and tolerates CRLF line ends', async () => {
    expect(await start('split').call('x')).toEqual({ result: { method: 'x' } });
    expect(await start('crlf').call('y')).toEqual({ result: { method: 'y' } });
  });

  it.each([
    ['hang', 'IMPL_TIMEOUT'],
    ['garbage', 'IMPL_GARBAGE_OUTPUT'],
    ['not-jsonrpc', 'IMPL_GARBAGE_OUTPUT'],
    ['both-result-and-error', 'IMPL_GARBAGE_OUTPUT'],
    ['wrong-id', 'IMPL_UNKNOWN_ID'],
    ['missing-id', 'IMPL_MISSING_ID'],
    ['crash', 'IMPL_EXITED'],
    ['kill-self', 'IMPL_EXITED'],
    ['close-stdout', 'IMPL_STDOUT_CLOSED'],
  ])('a %s implementation fails the request with %s, never hangs', async (mode, code) => {
    const p = start(mode, { requestTimeoutMs: mode === 'hang' ? 300 : 3_000 });
    // The short deadline is for the hang, not for starting node: wait until the fake is up.
    if (mode === 'hang')
      await vi.waitFor(() => expect(p.stderrTail).toContain('mode hang'), { timeout: 30_000 });
    const err = await failure(p.call('hello', {}));
    expect(err.code).toBe(code);
    expect(err.stderrTail).toContain(`mode ${mode}`);
  });

  it('quotes a stray stdout line in the error, escaped and bounded (issue 24, finding 4)', async () => {
    const p = start('stray-at-start');
    const err = await failure(p.call('hello', {}));
    expect(err.code).toBe('IMPL_GARBAGE_OUTPUT');
    expect(err.message).toMatch(
      /^hello: stdout carried a line that is not JSON \(logs belong on stderr\): "\\u001b\[32mListening\\u001b\[0m on 3000 \\"ready\\" \.+…"$/,
    );
    // Nothing of the line can draw on a terminal, and the quote is bounded.
    expect([...err.message].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect(err.message.length).toBeLessThan(320);
  });

  it('returns an error reply as a value: only transport failures are thrown', async () => {
    const p = start('rpc-error');
    const reply = await p.call('hello', {});
    expect(reply).toEqual({ error: { code: -32601, message: 'no method hello' } });
    expect('result' in reply).toBe(false);
  });

  it('records protocol violations even after the request failed', async () => {
    const p = start('wrong-id');
    await failure(p.call('a'));
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_UNKNOWN_ID']);
    expect(p.violations[0]!.excerpt).toContain('"id":1001');
  });

  it('refuses an oversized line without buffering it whole, and recovers for the next request', async () => {
    const p = start('oversized', { maxLineBytes: 1024 * 1024 });
    const err = await failure(p.call('big'));
    expect(err.code).toBe('IMPL_OVERSIZED_OUTPUT');
  });

  it('reports a command that cannot start as IMPL_SPAWN_FAILED or IMPL_EXITED, with stderr', async () => {
    const p = ImplementationProcess.start({ command: '/nonexistent/impl --serve', requestTimeoutMs: 2_000 });
    started.push(p);
    const err = await failure(p.call('hello'));
    expect(['IMPL_SPAWN_FAILED', 'IMPL_EXITED', 'IMPL_NOT_RUNNING']).toContain(err.code);
    expect(err.stderrTail + err.message).toMatch(/nonexistent|not found|could not start|exited/);
    await p.exited;
    expect(p.running).toBe(false);
    expect((await failure(p.call('again'))).code).toMatch(/IMPL_(NOT_RUNNING|SPAWN_FAILED)/);
    expect(p.stderrTail).toMatch(/not found|No such file/);
  });

  it('SIGSTOP makes requests time out; SIGCONT resumes; kill -9 ends it', async () => {
    const p = start('ok');
    expect(await p.call('before')).toEqual({ result: { method: 'before', params: null } });
    p.signal('SIGSTOP');
    expect((await failure(p.call('paused', undefined, { timeoutMs: 300 }))).code).toBe('IMPL_TIMEOUT');
    p.signal('SIGCONT');
    // The paused request's late reply arrives for an id nobody waits for any more: counted as
    // late (the harness gave up first, so it is no violation), and it does not disturb the next
    // request.
    expect(await p.call('after')).toEqual({ result: { method: 'after', params: null } });
    expect(p.lateReplies).toBe(1);
    expect(p.violations).toEqual([]);
    const exit = await p.kill();
    expect(exit.signal).toBe('SIGKILL');
  });
});
