// @module-tag integration
// `report`, `diff` and `baseline update` on crafted reports, in process through `main` (and once
// through the real binary): a report that
// breaks its schema is refused with REPORT_INVALID (line, JSON Pointer, what to do), never a crash;
// what renders is well-formed, shows every string as text, and takes no verdict on trust.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { expectNoCrash, memoryIo, type Run, runCli, tempDir } from './helpers.ts';
import { markdownHtml, parseXml, tagNames } from './report-formats.ts';
import { kase, run, summary } from './report-lines.ts';

const { dir, cleanup } = tempDir();
afterAll(cleanup);

const XSS = `pass"><img src=x onerror="document.title='pwned'">`;
/** The CLI in process: the same `main` the binary runs. */
async function cli(args: string[]): Promise<Run> {
  const io = memoryIo();
  const status = await main(args, io);
  return { status, stdout: io.stdout, stderr: io.stderr };
}

let n = 0;
function file(lines: readonly unknown[]): string {
  const path = join(dir, `r${n++}.jsonl`);
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}

async function refused(args: string[], line: number, pointer: string) {
  const r = await cli(args);
  expectNoCrash(r);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^agent-contracts: REPORT_INVALID: /);
  expect(r.stderr).toContain(`line ${line}: ${pointer} `);
  expect(r.stderr).toMatch(/ReportLine\.schema\.json.*rerun conform/);
  return r;
}

describe('report refuses a report that breaks its schema', () => {
  it.each(['html', 'junit', 'markdown'])('an outcome carrying markup (--format %s)', async (format) => {
    await refused(['report', '--format', format, file([run, kase('a', XSS), summary()])], 2, '/outcome');
  });

  it('the binary prints the coded error and no stack trace', () => {
    const r = runCli(['report', '--format', 'html', file([run, kase('a', XSS), summary()])]);
    expectNoCrash(r);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^agent-contracts: REPORT_INVALID: .* line 2: \/outcome must be one of /);
  });

  it('a non-string detail, a non-string name and a missing gate, without CLI_INTERNAL_ERROR', async () => {
    await refused(
      ['report', '--format', 'markdown', file([run, kase('a', 'fail', { detail: 7 }), summary()])],
      2,
      '/detail',
    );
    const named = { ...run, implementation: { ...run.implementation, name: { x: 1 } } };
    await refused(
      ['report', '--format', 'html', file([named, kase('a', 'pass'), summary()])],
      1,
      '/implementation/name',
    );
    const { gate: _g, ...noGate } = kase('a', 'pass');
    await refused(['report', '--format', 'html', file([run, noGate, summary()])], 2, '/gate');
  });

  it('diff and baseline update refuse it the same way', async () => {
    const bad = file([run, kase('a', 'pass', { durationMs: '2' }), summary()]);
    await refused(['diff', bad, bad], 2, '/durationMs');
    await refused(['baseline', 'update', '--report', bad, '--out', join(dir, 'b.json')], 2, '/durationMs');
  });
});

describe('report derives the verdict from the case lines', () => {
  const lying = () => file([run, kase('a', 'pass'), kase('b', 'fail'), summary()]);

  it('a summary claiming conforms beside a failing case is not shown as conforming', async () => {
    const md = await cli(['report', '--format', 'markdown', lying()]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('**Does not conform**');
    expect(md.stdout).not.toContain('**Conforms**');
    expect(md.stdout).toContain('the summary claims the run conforms, but the case lines do not');
    expect(md.stderr).toMatch(/warning: .*the summary line disagrees with the case lines/);
    const html = await cli(['report', '--format', 'html', lying()]);
    expect(html.stdout).toContain('<span class="verdict">does not conform</span>');
    expect(html.stdout).toContain('<p class="warning">');
  });

  it('a report without a summary line is incomplete, not conforming', async () => {
    const md = await cli([
      'report',
      '--format',
      'markdown',
      '--allow-incomplete',
      file([run, kase('a', 'pass')]),
    ]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('**Incomplete**');
  });
});

describe('what report renders is well-formed and shows strings as text', () => {
  it('JUnit stays well-formed XML when stderr holds an ANSI colour code and other controls', async () => {
    const tail = 'panic: \u001b[31mboom\u001b[0m\u0000\u0007\r\nat main\u000b';
    const crash = kase('a', 'crash', { stderrTail: tail, detail: 'exited \u001b[2K' });
    const r = await cli(['report', '--format', 'junit', file([run, crash, summary({ conforms: false })])]);
    expect(r.status).toBe(0);
    const xml = parseXml(r.stdout);
    expect(xml.errors).toEqual([]);
    const error = xml.elements.find((e) => e.name === 'error')!;
    expect(error.attributes).toMatchObject({ type: 'crash', message: 'exited \\u001b[2K' });
    expect(error.text).toBe('panic: \\u001b[31mboom\\u001b[0m\\u0000\\u0007\\u000d\nat main\\u000b');
  });

  it('Markdown escapes markup, HTML tags, table pipes and line breaks from the report', async () => {
    const detail = `<img src=x onerror=alert(1)> **bold** | [link](javascript:alert(1)) http://127.0.0.1:9/\nnext`;
    const named = { ...run, implementation: { ...run.implementation, name: '<script>x</script> # *n*' } };
    const r = await cli([
      'report',
      '--format',
      'markdown',
      file([named, kase('a|<b>', 'fail', { detail }), summary()]),
    ]);
    expect(r.status).toBe(0);
    const html = markdownHtml(r.stdout);
    expect([...tagNames(html)].sort()).toEqual(
      ['blockquote', 'h1', 'h2', 'p', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr'].sort(),
    );
    expect(html).toContain('<h1>Conformance: &lt;script&gt;x&lt;/script&gt; # *n* 1 (node)</h1>');
    expect(html).toContain(
      '<td>a|&lt;b&gt;</td>\n<td>fail</td>\n<td>&lt;img src=x onerror=alert(1)&gt; **bold** | [link](javascript:alert(1)) http://127.0.0.1:9/\\u000anext</td>',
    );
  });

  it('diff prints case ids with their control characters as escapes', async () => {
    const before = file([run, kase('x\u001b[2J\u202e', 'pass'), summary()]);
    const after = file([
      run,
      kase('x\u001b[2J\u202e', 'fail'),
      summary({
        conforms: false,
        counts: { pass: 0, fail: 1, error: 0, timeout: 0, crash: 0, 'not-applicable': 0 },
        unexpectedFailures: ['x\u001b[2J\u202e'],
      }),
    ]);
    const r = await cli(['diff', before, after]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('Broken (1):\n  x\\u001b[2J\\u202e\n');
  });
});

describe('report --format junit leaves out what did not apply', () => {
  const cases = [
    kase('a', 'pass'),
    kase('n/1', 'not-applicable'),
    kase('n/2', 'not-applicable', { gate: 'RunControlGate', subject: 'RunStateV1' }),
  ];
  const counts = { pass: 1, fail: 0, error: 0, timeout: 0, crash: 0, 'not-applicable': 2 };

  it('without --junit-include-na: no testcase and no suite of not-applicable cases, a comment counts them', async () => {
    const r = await cli(['report', '--format', 'junit', file([run, ...cases, summary({ counts })])]);
    expect(r.status, r.stderr).toBe(0);
    const xml = parseXml(r.stdout);
    expect(xml.errors).toEqual([]);
    expect(xml.elements.filter((e) => e.name === 'testcase').map((e) => e.attributes.name)).toEqual(['a']);
    expect(xml.elements.filter((e) => e.name === 'testsuite').map((e) => e.attributes.name)).toEqual([
      'TaskContinuityWriteGate',
    ]);
    expect(r.stdout).toContain('tests="1" failures="0" errors="0" skipped="0"');
    expect(r.stdout).toContain(
      '<!-- 2 not-applicable cases left out: the report option junit-include-na lists them -->',
    );
  });

  it('with --junit-include-na: each is a skipped testcase, as before', async () => {
    const r = await cli([
      'report',
      '--format',
      'junit',
      '--junit-include-na',
      file([run, ...cases, summary({ counts })]),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(parseXml(r.stdout).elements.filter((e) => e.name === 'testcase')).toHaveLength(3);
    expect(r.stdout).toContain('tests="2" failures="0" errors="0" skipped="1"');
    expect(r.stdout).not.toContain('<!--');
  });

  it('--junit-include-na with another format is a usage error', async () => {
    const r = await cli(['report', '--format', 'markdown', '--junit-include-na', file([run, ...cases])]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('USAGE_BAD_VALUE: --junit-include-na goes with --format junit.');
  });
});
