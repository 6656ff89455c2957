// @module-tag unit
// The transport's answers to replies that come after the harness gave up, to a foreign reply
// between two requests (docs/protocol.md#framing-and-errors: a violation, or late, and never the
// answer to the next request), and to an exit seen before the last lines were read, with a
// scripted child process: the test orders the events
// (exit, stdout lines, end of stdout, deadlines) itself, so what under load happens only now and
// then happens here every time.
import { afterEach, describe, expect, it, vi } from 'vitest';

const { children, ScriptedChild } = await vi.hoisted(async () => {
  // vi.hoisted runs before the imports: what it needs it imports itself.
  const { EventEmitter: Emitter } = await import('node:events');
  const { PassThrough: Pipe } = await import('node:stream');
  /** A child process whose every event the test sends; no pid, so no signal reaches a real group. */
  class ScriptedChild extends Emitter {
    readonly pid = undefined;
    readonly stdin = new Pipe();
    readonly stdout = new Pipe();
    readonly stderr = new Pipe();
    /** The requests written to stdin, parsed. */
    readonly requests: Array<{ id: number; method: string }> = [];
    constructor() {
      super();
      let buffered = '';
      this.stdin.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
          this.requests.push(JSON.parse(buffered.slice(0, nl)));
          buffered = buffered.slice(nl + 1);
        }
      });
    }
    /** Write one line to the harness. */
    say(line: unknown): void {
      this.stdout.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    }
    /** The process exits (the harness is told at once). */
    exit(code = 0): void {
      this.emit('exit', code, null);
    }
    /** stdout reaches its end, then every pipe is closed. */
    end(): void {
      this.stdout.end();
      this.stdout.once('end', () => setImmediate(() => this.emit('close', 0, null)));
    }
  }
  return { children: [] as InstanceType<typeof ScriptedChild>[], ScriptedChild };
});

vi.mock('node:child_process', () => ({
  spawn: () => {
    const child = new ScriptedChild();
    children.push(child);
    return child;
  },
}));

const { ImplementationProcess } = await import('../src/transport/process.ts');

/** Start a scripted implementation; the child the harness talks to. */
function start(options: { requestTimeoutMs?: number } = {}) {
  const p = ImplementationProcess.start({ command: 'scripted', ...options });
  return { p, child: children.at(-1)! };
}

/** The first request of a method the child has received, once it has. */
async function received(child: InstanceType<typeof ScriptedChild>, method: string) {
  await vi.waitFor(() => expect(child.requests.map((r) => r.method)).toContain(method));
  return child.requests.find((r) => r.method === method)!;
}

/** Let the stream events already queued run (stdout data, end, close). */
const flush = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

afterEach(() => {
  vi.useRealTimers();
  children.splice(0);
});

describe('replies after the harness gave up, and an exit seen first', () => {
  it('an exit seen before the reply to shutdown is read: the reply still answers it, no violation', async () => {
    const { p, child } = start();
    const closing = p.close(2_000);
    const shutdown = await received(child, 'shutdown');
    // The process answered and exited; the harness hears of the exit before it reads the line.
    child.exit(0);
    await flush();
    child.say({ jsonrpc: '2.0', id: shutdown.id, result: null });
    child.end();
    expect(await closing).toEqual({ code: 0, signal: null });
    expect(p.violations).toEqual([]);
    expect(p.lateReplies).toBe(0);
  });

  it('a reply to shutdown after its grace period is late: IMPL_SHUTDOWN_UNANSWERED once, no IMPL_UNKNOWN_ID', async () => {
    vi.useFakeTimers();
    const { p, child } = start();
    const closing = p.close(2_000);
    const shutdown = await received(child, 'shutdown');
    await vi.advanceTimersByTimeAsync(2_000);
    // The harness gave up on shutdown and closed stdin; now the answer comes.
    child.say({ jsonrpc: '2.0', id: shutdown.id, result: null });
    await vi.advanceTimersByTimeAsync(0);
    child.exit(0);
    child.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(await closing).toEqual({ code: 0, signal: null });
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_SHUTDOWN_UNANSWERED']);
    expect(p.violations[0]!.message).toContain('shutdown was not answered (IMPL_TIMEOUT)');
    expect(p.lateReplies).toBe(1);
  });

  it('a reply to a request a violation already failed is late, not a second violation', async () => {
    const { p, child } = start();
    const asked = p.call('echo', {});
    const echo = await received(child, 'echo');
    child.say('a log line, not JSON');
    await expect(asked).rejects.toMatchObject({ code: 'IMPL_GARBAGE_OUTPUT' });
    child.say({ jsonrpc: '2.0', id: echo.id, result: {} });
    await flush();
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_GARBAGE_OUTPUT']);
    expect(p.lateReplies).toBe(1);
    // A reply to an id never asked for is still foreign.
    child.say({ jsonrpc: '2.0', id: 999, result: {} });
    await flush();
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_GARBAGE_OUTPUT', 'IMPL_UNKNOWN_ID']);
  });

  it('a request the exit left unanswered fails with IMPL_EXITED once stdout has ended', async () => {
    const { p, child } = start();
    const asked = p.call('echo', {});
    await received(child, 'echo');
    let settled = false;
    asked.catch(() => {}).finally(() => (settled = true));
    child.exit(3);
    await flush();
    // stdout is still open: a reply written before the exit may yet be read.
    expect(settled).toBe(false);
    child.end();
    await expect(asked).rejects.toMatchObject({ code: 'IMPL_EXITED' });
    expect(p.violations).toEqual([]);
  });

  it('and after a bounded wait when something else holds stdout open', async () => {
    vi.useFakeTimers();
    const { p, child } = start({ requestTimeoutMs: 60_000 });
    const asked = p.call('echo', {});
    const failed = expect(asked).rejects.toMatchObject({ code: 'IMPL_EXITED' });
    await received(child, 'echo');
    child.exit(3);
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
  });
});

describe('a foreign reply between two requests never answers the next one', () => {
  it('a reply to an id never sent is IMPL_UNKNOWN_ID, even when it is the id the next request gets', async () => {
    const { p, child } = start();
    const first = p.call('echo', { n: 1 });
    const one = await received(child, 'echo');
    child.say({ jsonrpc: '2.0', id: one.id, result: { n: 1 } });
    expect(await first).toEqual({ result: { n: 1 } });
    // Between the requests: a forged reply to the id the harness will use next.
    child.say({ jsonrpc: '2.0', id: one.id + 1, result: { forged: true } });
    await flush();
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_UNKNOWN_ID']);
    let settled = false;
    const second = p.call('echo', { n: 2 });
    second.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(() => expect(child.requests).toHaveLength(2));
    expect(child.requests[1]!.id).toBe(one.id + 1);
    await flush();
    // The forged line was spent when it was read: the request waits for its own reply.
    expect(settled).toBe(false);
    child.say({ jsonrpc: '2.0', id: one.id + 1, result: { n: 2 } });
    expect(await second).toEqual({ result: { n: 2 } });
    expect(p.violations.map((v) => v.code)).toEqual(['IMPL_UNKNOWN_ID']);
    expect(p.lateReplies).toBe(0);
  });

  it('a reply to a request the harness gave up on is late, before or after the next request is sent', async () => {
    vi.useFakeTimers();
    const { p, child } = start();
    const gaveUp = expect(p.call('echo', { n: 1 }, { timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'IMPL_TIMEOUT',
    });
    const one = await received(child, 'echo');
    await vi.advanceTimersByTimeAsync(1_000);
    await gaveUp;
    const ignored = expect(p.call('echo', { n: 2 }, { timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'IMPL_TIMEOUT',
    });
    await vi.waitFor(() => expect(child.requests).toHaveLength(2));
    const two = child.requests[1]!;
    await vi.advanceTimersByTimeAsync(1_000);
    await ignored;
    // Before the next request: the late reply to the first.
    child.say({ jsonrpc: '2.0', id: one.id, result: { late: 1 } });
    await vi.advanceTimersByTimeAsync(0);
    let settled = false;
    const third = p.call('echo', { n: 3 }, { timeoutMs: 60_000 });
    third.then(
      () => (settled = true),
      () => (settled = true),
    );
    await vi.waitFor(() => expect(child.requests).toHaveLength(3));
    const three = child.requests[2]!;
    // After it, while it waits: the late reply to the second.
    child.say({ jsonrpc: '2.0', id: two.id, result: { late: 2 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    child.say({ jsonrpc: '2.0', id: three.id, result: { n: 3 } });
    expect(await third).toEqual({ result: { n: 3 } });
    expect(p.lateReplies).toBe(2);
    expect(p.violations).toEqual([]);
  });
});
