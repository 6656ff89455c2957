import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sha256Hex } from '@agent-contracts/digest';
import {
  type Baseline,
  type Case,
  CaseCorpusError,
  type CaseLine,
  type CaseResult,
  catalogueDigest,
  countOutcomes,
  expectedFailureOf,
  FAULT_KIND_NAMES,
  FAULT_KINDS_LOADING_PG,
  FaultCorpusError,
  type FaultScenario,
  globMatch,
  HarnessError,
  type Implementation,
  INHERITED_ENVIRONMENT,
  type InterruptedLine,
  inShard,
  isExploreLine,
  judgeRun,
  killAllImplementations,
  loadCases,
  loadFaultScenarios,
  loadPg,
  loadRequirements,
  PgNotInstalledError,
  parseBaseline,
  parseShard,
  printable,
  REPORT_VERSION,
  type Requirement,
  RequirementCatalogueError,
  RunLedger,
  type RunLine,
  runCoverage,
  runFaultMatrix,
  runSuite,
  START_TIMEOUT_MS,
  type SummaryLine,
  startSubprocess,
  verdictScope,
  WireLog,
} from '@agent-contracts/harness';
import { conformanceDirectory } from '@agent-contracts/kit';
import {
  PROTOCOL_VERSION,
  parseStateLocation,
  type StateLocation,
  StateLocationError,
} from '@agent-contracts/protocol';
import { commandArgs, intOption } from '../../args.js';
import { painter, useColor } from '../../color.js';
import type { Command } from '../../command.js';
import { CliError } from '../../errors.js';
import type { Io } from '../../io.js';
import { invocationDirectory } from '../../io.js';
import { kitVersion } from '../../kit-version.js';
import { EXPLORE_HELP, EXPLORE_OPTIONS, exploreSettings } from './explore.js';
import { type Isolation, isolation } from './isolate.js';
import { progressFor } from './progress.js';
import { opaqueDirectory, prepareStateRoot } from './state.js';
import { emptyShard, renderSummary } from './summary.js';
import { appliesAnywhere, reportDigestLine, runViolationsText } from './trust.js';
import { undeclaredCapabilities } from './undeclared.js';

/** How much of a failed start's stderr the console shows, and each report line carries. */
const STDERR_SHOWN = 2000;
const STDERR_IN_REPORT = 2048;

const HELP = `Usage: agent-contracts conform --impl "<command>" [options]

Run the conformance kit against an implementation: the command is started as a long-running
subprocess speaking protocol v${PROTOCOL_VERSION} (newline-delimited JSON-RPC 2.0 on stdin/stdout; docs/protocol.md).
Every golden case ends as pass, fail, error, timeout, crash or not-applicable. Then the fault
matrix (conformance/faults/) runs: scenarios that kill, freeze and restart implementation
processes, run several on one state location, and read durable state back through a fresh one.

Options:
  --impl <command>        the implementation's command line (run by /bin/sh -c)   [required]
  --filter <glob>         only cases and fault scenarios whose id matches (repeatable; *
                          matches anything; e.g. 'faults/*' runs only the fault matrix)
  --no-faults             skip the fault matrix
  --shard <i/n>           only the i-th of n shards (stable hashing of case ids)
  --jobs <n>              run n implementation processes in parallel (default 1)
  --timeout <ms>          deadline of one request (default 10000)
  --start-timeout <ms>    deadline of starting the implementation and its hello (default
                          30000, never less than --timeout)
  --restart-budget <n>    restarts allowed after crashes or hangs (default 3)
  --baseline <file>       expected failures (JSON); an unexpected failure fails the run, and so
                          does a baseline entry that now passes
  --strict                a failed SHOULD case fails the run too (without it, it is a warning:
                          listed apart in the summary, \`warnings\` in the report)
  --report <file>         write the canonical JSONL report there
  --otel <file>           also write the run as an OTLP JSON trace: a span per case and
                          fault scenario (outcome, requirements, differences)
  --wire <file>           also write every JSON-RPC message of the cases and fault scenarios
                          that did not pass (both directions, with the item, step and time) to
                          this JSONL file; bounded, written whole or not at all
  --wire-all              with --wire, the messages of every case and scenario
  --state <dir>           durable state location for the implementation (default: a temp dir);
                          it must be empty or absent (STATE_NOT_EMPTY), see --clean-state
  --clean-state           delete what the --state directory holds before the run
  --isolate               run the implementation under bubblewrap (bwrap): its own PID
                          namespace, only its own directory (read-only), its state and a
                          private /tmp visible; the kit's data, the report and home hidden
  --bind <path[:rw]>      with --isolate, show one more path (read-only; :rw writable);
                          repeatable
  --state-url <url>       a postgres:// URL instead: job i gets the schema <s>_<i>, where <s> is
                          the URL's schema=<s> parameter or a fresh ac_conform_<random> name
  --conformance <dir>     the conformance data (default: the @agent-contracts/kit package)
  --env <NAME[=VALUE]>    set an environment variable for the implementation (repeatable):
                          NAME alone passes the harness's own value. By default the
                          implementation inherits only ${INHERITED_ENVIRONMENT.join(', ')}
${EXPLORE_HELP}  --color, --no-color     force colour on or off
  -h, --help              show this help

Exit codes: 0 conforms (given the baseline); 1 does not (including an implementation that cannot
be started or does not answer); 2 usage error, or a harness error (malformed cases or baseline).
`;

const OPTIONS = {
  impl: { type: 'string' },
  filter: { type: 'string', multiple: true },
  shard: { type: 'string' },
  jobs: { type: 'string' },
  timeout: { type: 'string' },
  'start-timeout': { type: 'string' },
  'restart-budget': { type: 'string' },
  baseline: { type: 'string' },
  strict: { type: 'boolean' },
  report: { type: 'string' },
  otel: { type: 'string' },
  wire: { type: 'string' },
  'wire-all': { type: 'boolean' },
  state: { type: 'string' },
  'clean-state': { type: 'boolean' },
  isolate: { type: 'boolean' },
  bind: { type: 'string', multiple: true },
  'state-url': { type: 'string' },
  'no-faults': { type: 'boolean' },
  conformance: { type: 'string' },
  env: { type: 'string', multiple: true },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  ...EXPLORE_OPTIONS,
} as const;

/**
 * `--state-url`: a PostgreSQL URL whose `schema` parameter is made unique per job (`<s>_<job>`),
 * so that parallel jobs, and runs on one database, never share tasks.
 */
function jobStateUrls(text: string): (job: number) => string {
  let target: StateLocation | null = null;
  try {
    target = parseStateLocation(text);
  } catch (e) {
    // A PostgreSQL URL with a bad schema= says so; anything else is not a PostgreSQL URL.
    if (e instanceof StateLocationError && e.message.startsWith('schema='))
      throw new CliError('USAGE_BAD_VALUE', `--state-url ${e.message}.`);
  }
  if (target?.kind !== 'postgres' || !new URL(target.url).host) {
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--state-url must be a postgres:// or postgresql:// URL with a host, e.g. postgres://user:pw@127.0.0.1:5432/db.`,
    );
  }
  const base = target.schema ?? `ac_conform_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z_][a-z0-9_]{0,55}$/.test(base)) {
    throw new CliError(
      'USAGE_BAD_VALUE',
      `--state-url schema=${JSON.stringify(base)} must be a lowercase SQL identifier of at most 56 characters ([a-z_][a-z0-9_]*).`,
    );
  }
  return (job) => {
    // The URL as given, its schema= (if any) replaced in place.
    const u = new URL(text);
    u.searchParams.set('schema', `${base}_${job}`);
    return u.href;
  };
}

/** `--env NAME[=VALUE]` options as the variables they set. */
function envOption(texts: readonly string[], io: Io): Record<string, string> {
  const env: Record<string, string> = {};
  for (const text of texts) {
    const eq = text.indexOf('=');
    const name = eq === -1 ? text : text.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--env ${JSON.stringify(text)} must be NAME or NAME=VALUE with NAME a variable name ([A-Za-z_][A-Za-z0-9_]*).`,
      );
    }
    const value = eq === -1 ? io.env[name] : text.slice(eq + 1);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** `agent-contracts conform`. */
export const conformCommand: Command = {
  name: 'conform',
  summary: 'run the conformance kit against an implementation (a subprocess speaking protocol v1)',
  help: HELP,
  async run(args, io) {
    const parsed = await commandArgs(io, 'conform', HELP, args, OPTIONS, false);
    if (!parsed) return 0;
    const { values } = parsed;
    if (!values.impl?.trim()) {
      throw new CliError(
        'USAGE_MISSING_ARGUMENT',
        'name the implementation with --impl "<command>". Run `agent-contracts conform --help`.',
      );
    }
    const shard = values.shard === undefined ? null : parseShard(values.shard);
    if (values.shard !== undefined && !shard) {
      throw new CliError(
        'USAGE_BAD_VALUE',
        `--shard ${JSON.stringify(values.shard)} must be i/n with 1 <= i <= n, e.g. 2/4.`,
      );
    }
    const jobs = intOption('jobs', values.jobs, 1, 1, 64);
    const timeoutMs = intOption('timeout', values.timeout, 10_000, 1, 3_600_000);
    const startTimeoutMs = intOption(
      'start-timeout',
      values['start-timeout'],
      START_TIMEOUT_MS,
      1,
      3_600_000,
    );
    const restartBudget = intOption('restart-budget', values['restart-budget'], 3, 0, 1000);
    const here = invocationDirectory(io);
    const conformanceDir =
      values.conformance === undefined ? conformanceDirectory : resolve(here, values.conformance);
    const reportPath = values.report === undefined ? undefined : resolve(here, values.report);
    const otelPath = values.otel === undefined ? undefined : resolve(here, values.otel);
    const wirePath = values.wire === undefined ? undefined : resolve(here, values.wire);
    if (values['wire-all'] && wirePath === undefined)
      throw new CliError(
        'USAGE_BAD_VALUE',
        '--wire-all records every message to the --wire file; give --wire <file> too.',
      );
    if (wirePath !== undefined && [reportPath, otelPath].includes(wirePath))
      throw new CliError(
        'USAGE_BAD_VALUE',
        '--wire needs a file of its own, not that of --report or --otel.',
      );
    const wire = wirePath === undefined ? null : new WireLog({ all: values['wire-all'] ?? false });
    /** Write the wire log; a failure to is a warning, never the end of the run. */
    const writeWire = (): string => {
      if (!wire || wirePath === undefined) return '';
      try {
        wire.write(wirePath);
        return `the messages are in ${wirePath}`;
      } catch (e) {
        return `the --wire file could not be written (${(e as Error).message})`;
      }
    };
    const baselinePath = values.baseline === undefined ? undefined : resolve(here, values.baseline);
    const implEnv = envOption(values.env ?? [], io);
    const colorFlag = values['no-color'] ? false : values.color ? true : undefined;
    const paint = painter(useColor(io, colorFlag));

    let baseline: Baseline | null = null;
    let baselineSha256: string | undefined;
    if (baselinePath !== undefined) {
      let text: string;
      try {
        const bytes = readFileSync(baselinePath);
        baselineSha256 = sha256Hex(bytes);
        text = bytes.toString('utf8');
      } catch (e) {
        throw new CliError(
          'BASELINE_INVALID',
          `cannot read --baseline ${values.baseline}: ${(e as Error).message}`,
        );
      }
      try {
        baseline = parseBaseline(text);
      } catch (e) {
        throw new CliError('BASELINE_INVALID', `--baseline ${values.baseline}: ${(e as Error).message}`);
      }
    }

    let cases: Case[];
    try {
      cases = loadCases(conformanceDir);
    } catch (e) {
      if (e instanceof CaseCorpusError) throw new CliError('CASES_INVALID', e.message);
      throw new CliError(
        'CASES_INVALID',
        `cannot read cases from ${conformanceDir}: ${(e as Error).message}`,
      );
    }
    let catalogue: Requirement[];
    try {
      catalogue = loadRequirements(conformanceDir);
    } catch (e) {
      if (e instanceof RequirementCatalogueError) throw new CliError('CASES_INVALID', e.message);
      throw e;
    }
    let allFaults: FaultScenario[] = [];
    // The catalogue the run chooses from, recorded in the run line (report-check.ts): the fault
    // scenarios are read with --no-faults too, for their ids.
    let catalogueSha256: string | undefined;
    try {
      const scenarios = loadFaultScenarios(conformanceDir, FAULT_KIND_NAMES);
      catalogueSha256 = catalogueDigest({
        cases: cases.map((c) => c.id),
        faults: scenarios.map((f) => f.id),
      });
      if (!values['no-faults']) allFaults = scenarios;
    } catch (e) {
      if (!values['no-faults']) {
        if (e instanceof FaultCorpusError) throw new CliError('CASES_INVALID', e.message);
        throw new CliError(
          'CASES_INVALID',
          `cannot read fault scenarios from ${conformanceDir}: ${(e as Error).message}`,
        );
      }
    }
    if (cases.length === 0 && allFaults.length === 0) {
      throw new CliError(
        'CASES_INVALID',
        `${conformanceDir} holds no cases (cases/**/*.json) and no fault scenarios (faults/**/*.json); point --conformance at the kit's conformance directory, or leave it out to use the kit's own.`,
      );
    }
    const filters = values.filter ?? [];
    const exploring = exploreSettings(values, filters, (p) => resolve(here, p));
    const caseCount = cases.length;
    // What every shard of this run selects together: an implementation to which none of it
    // applies gets no NO VERDICT from any shard (trust.ts).
    const requiresOfAllShards = [...cases, ...allFaults]
      .filter((c) => !filters.length || filters.some((g) => globMatch(g, c.id)))
      .map((c) => c.requires);
    cases = cases.filter(
      (c) => (!filters.length || filters.some((g) => globMatch(g, c.id))) && (!shard || inShard(c.id, shard)),
    );
    const faults = allFaults.filter(
      (f) => (!filters.length || filters.some((g) => globMatch(g, f.id))) && (!shard || inShard(f.id, shard)),
    );
    const total = cases.length + faults.length + (exploring?.capabilities.length ?? 0);
    if (total === 0) {
      const what = [
        ...filters.map((f) => `--filter ${JSON.stringify(f)}`),
        ...(shard ? [`--shard ${values.shard}`] : []),
        ...(values['no-faults'] ? ['--no-faults'] : []),
      ].join(' with ');
      throw new CliError(
        'USAGE_BAD_VALUE',
        `no case or fault scenario matches ${what}, of ${caseCount} cases and ${allFaults.length} scenarios; ids look like "digest/jcs/..." or "faults/store/stale-fence", and a filter is a glob over the whole id ("digest/*" runs the digest cases, "*fence*" anything about fences).`,
      );
    }

    const stateUrl = values['state-url'] === undefined ? null : jobStateUrls(values['state-url']);
    if (stateUrl && values.state !== undefined)
      throw new CliError('USAGE_BAD_VALUE', 'give --state or --state-url, not both.');
    // The driver a selected scenario loads on PostgreSQL: missing, the run stops before it starts.
    if (stateUrl && faults.some((f) => FAULT_KINDS_LOADING_PG.has(f.fault))) {
      try {
        await loadPg('conform --state-url (the fault scenario that drops PostgreSQL connections)');
      } catch (e) {
        if (e instanceof PgNotInstalledError) throw new CliError('PG_NOT_INSTALLED', e.message);
        throw e;
      }
    }
    if (values['clean-state'] && values.state === undefined)
      throw new CliError(
        'USAGE_BAD_VALUE',
        '--clean-state empties the --state directory; give --state <dir> too.',
      );
    const { root: stateRoot, owned: ownState } = prepareStateRoot(
      values.state === undefined ? undefined : resolve(here, values.state),
      values['clean-state'] ?? false,
    );
    if (values.bind?.length && !values.isolate)
      throw new CliError(
        'USAGE_BAD_VALUE',
        '--bind adds a path to the sandbox of --isolate; give --isolate too.',
      );
    let isolated: Isolation | null = null;
    try {
      isolated = values.isolate
        ? isolation({
            env: io.env,
            here,
            stateRoot,
            conformanceDir,
            ...(reportPath === undefined ? {} : { reportPath }),
            ...(baselinePath === undefined ? {} : { baselinePath }),
            ...(otelPath === undefined ? {} : { otelPath }),
            ...(wirePath === undefined ? {} : { wirePath }),
            binds: values.bind ?? [],
          })
        : null;
    } catch (e) {
      if (ownState) rmSync(stateRoot, { recursive: true, force: true });
      throw e;
    }
    const sandbox = isolated ? { sandbox: isolated.sandbox } : {};
    // One ledger for the run: the hello every process must repeat, and the violations no case
    // can be charged with (docs/protocol.md#session).
    const ledger = new RunLedger();
    const started = Date.now();
    const results: CaseResult[] = [];
    // A not-applicable item counts under each capability it needs that hello did not declare.
    const requiresOf = new Map([...cases, ...faults].map((c) => [c.id, c.requires]));
    const display = progressFor(io, (r) =>
      ledger.hello ? undeclaredCapabilities(requiresOf.get(r.id) ?? [], ledger.hello.capabilities) : [],
    );
    let shown = Promise.resolve();
    const finishedAt = new Map<CaseResult, number>();
    const progress = (r: CaseResult) => {
      wire?.finish(r);
      results.push(r);
      finishedAt.set(r, Date.now());
      shown = shown.then(() => display.result(r));
    };

    const runLine = (): RunLine => {
      const h = ledger.hello;
      return {
        type: 'run',
        reportVersion: REPORT_VERSION,
        kit: { name: '@agent-contracts/cli', version: kitVersion() },
        protocolVersion: PROTOCOL_VERSION,
        implementation: {
          name: h?.name ?? 'unknown',
          version: h?.version ?? 'unknown',
          language: h?.language ?? 'unknown',
          command: values.impl!,
          capabilities: h?.capabilities ?? null,
        },
        startedAt: new Date(started).toISOString(),
        filter: filters,
        shard: values.shard ?? null,
        baseline: values.baseline ?? null,
        ...(baselineSha256 === undefined ? {} : { baselineSha256 }),
        ...(values['no-faults'] ? { noFaults: true } : {}),
        ...(catalogueSha256 === undefined ? {} : { catalogue: catalogueSha256 }),
      };
    };
    const caseLinesOf = (list: readonly CaseResult[]): CaseLine[] =>
      list.map((r) => {
        const e = expectedFailureOf(baseline, r);
        return e ? { type: 'case', ...r, expectedFailure: e.reason } : { type: 'case', ...r };
      });
    // SIGINT or SIGTERM: nothing the run started outlives it, its temporary state goes, and what
    // finished is kept as a report that ends with an `interrupted` line instead of a summary
    // (never a verdict; `report` and `diff` refuse it with REPORT_INTERRUPTED).
    const interrupt = (signal: NodeJS.Signals) => {
      killAllImplementations();
      if (ownState) rmSync(stateRoot, { recursive: true, force: true });
      isolated?.cleanup();
      let where = 'no --report was given, so nothing was written';
      if (reportPath !== undefined) {
        const marker: InterruptedLine = {
          type: 'interrupted',
          signal: signal === 'SIGTERM' ? 'SIGTERM' : 'SIGINT',
          at: new Date().toISOString(),
          finished: results.length,
          total,
        };
        const partial = [runLine(), ...caseLinesOf(results), marker].map((l) => JSON.stringify(l));
        try {
          writeFileSync(reportPath, `${partial.join('\n')}\n`);
          where = `the ${results.length} finished items are in ${reportPath}, marked interrupted (no verdict; render it with \`agent-contracts report --allow-incomplete\`)`;
        } catch (e) {
          where = `the report could not be written (${(e as Error).message})`;
        }
      }
      const wired = writeWire();
      process.stderr.write(
        `\nagent-contracts: interrupted by ${signal} after ${results.length} of ${total} items; ${printable(where)}${wired ? `; ${printable(wired)}` : ''}.\n`,
      );
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
      return await runAll();
    } finally {
      isolated?.cleanup();
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }

    async function runAll(): Promise<number> {
      // Partition the cases over the jobs, each with its own process and state location.
      const parts = Array.from({ length: jobs }, (_, i) => cases.filter((_, j) => j % jobs === i)).filter(
        (p) => p.length,
      );
      let unreachable: string | null = null;
      // Every job's process is started (and must answer hello) before any case runs: one that
      // cannot be started stops the run at once, every item an error carrying the reason and the
      // implementation's stderr, in the report as on the console (no progress mark per case).
      let startTail = '';
      // Each job's session of the wire log: its processes' tap, and the case it is on.
      const sessions = parts.map(() => wire?.session());
      const processes = await Promise.all(
        parts.map(async (_, i): Promise<Implementation | null> => {
          // The job's directory: its durable state, or (with --state-url) its host-local state;
          // an opaque name, so that nothing in its path tells one job from another.
          const local = opaqueDirectory(stateRoot);
          const state = stateUrl ? stateUrl(i + 1) : local;
          try {
            return await startSubprocess({
              command: values.impl!,
              stateLocation: state,
              localDirectory: local,
              requestTimeoutMs: timeoutMs,
              startTimeoutMs,
              env: implEnv,
              cwd: here,
              run: ledger,
              ...sandbox,
              ...(sessions[i] ? { wire: sessions[i].tap } : {}),
            });
          } catch (e) {
            if (unreachable === null) {
              unreachable =
                e instanceof HarnessError
                  ? `${e.code}: ${e.message}${e.stderrTail ? `\n${e.stderrTail.slice(-STDERR_SHOWN)}` : ''}`
                  : String(e);
              startTail = e instanceof HarnessError ? e.stderrTail.slice(-STDERR_IN_REPORT) : '';
            }
            return null;
          }
        }),
      );
      if (unreachable !== null) {
        await Promise.all(processes.map((impl) => impl?.close().catch(() => {})));
        const why = (unreachable as string).split('\n')[0] ?? '';
        for (const c of [...cases, ...faults])
          results.push({
            id: c.id,
            gate: c.gate,
            subject: c.subject,
            level: c.level,
            requirements: c.requirements,
            outcome: 'error',
            detail: `the implementation could not be started: ${why}`,
            durationMs: 0,
            ...(startTail ? { stderrTail: startTail } : {}),
          });
        await io.err(
          `The implementation could not be started: ${printable(why)}\nNo case was run: the ${results.length} items are errors in the report${startTail ? ", each with the implementation's stderr" : ''}.\n`,
        );
      } else if (cases.length) {
        await display.phase(
          `Golden cases: ${cases.length}${parts.length > 1 ? ` on ${parts.length} jobs` : ''}`,
          cases.length,
        );
        await Promise.all(
          parts.map(async (part, i) => {
            const impl = processes[i]!;
            try {
              await runSuite(impl, part, {
                conformanceDir,
                timeoutMs,
                restartBudget,
                onResult: progress,
                run: ledger,
                sessionName: `golden session ${i + 1}`,
                ...(sessions[i]
                  ? {
                      onCaseStart: (c: Case) => sessions[i]!.begin(c.id),
                      onStep: (n: number) => sessions[i]!.step(n),
                    }
                  : {}),
              });
            } finally {
              await impl.close().catch(() => {});
            }
          }),
        );
      }
      await shown;
      if (cases.length && unreachable === null) await display.endPhase();
      // The fault matrix, after the golden cases: its own state location, shared by the processes
      // each scenario starts (several at once, killed, frozen and restarted). An implementation
      // that could not even be started is not started again for each scenario (its items are
      // errors already).
      const faultsRun = faults.length > 0 && unreachable === null;
      if (faultsRun)
        await display.phase(
          `Fault matrix: ${faults.length} scenario${faults.length === 1 ? '' : 's'}`,
          faults.length,
        );
      if (faultsRun) {
        const faultState = stateUrl ? stateUrl(parts.length + 1) : opaqueDirectory(stateRoot);
        await runFaultMatrix(faults, {
          command: values.impl!,
          stateLocation: faultState,
          env: implEnv,
          cwd: here,
          ...sandbox,
          timeoutMs,
          startTimeoutMs,
          conformanceDir,
          jobs,
          run: ledger,
          ...(ledger.hello ? { hello: ledger.hello } : {}),
          onStart: (f) => display.started(f.id),
          ...(wire ? { wireFor: (id: string) => wire.scenario(id) } : {}),
          onResult: (r) => void progress(r),
        });
      }
      await shown;
      if (faultsRun) await display.endPhase();
      let explored = '';
      if (exploring?.capabilities.length) {
        // Loaded here: fast-check and the reference engines are for --explore only.
        const { runExploration } = await import('./explore-run.js');
        const found = await runExploration(
          exploring,
          {
            command: values.impl!,
            stateDirectory: opaqueDirectory(stateRoot),
            run: ledger,
            ...sandbox,
            env: implEnv,
            cwd: here,
            timeoutMs,
            startTimeoutMs,
            catalogue,
          },
          io,
        );
        results.push(...found.lines);
        explored = found.report;
      }
      if (ownState) rmSync(stateRoot, { recursive: true, force: true });

      // Results in case order, whatever order the jobs finished in.
      const order = new Map([...cases, ...faults].map((c, i) => [c.id, i]));
      const rank = (id: string) => order.get(id) ?? order.size;
      results.sort((a, b) => rank(a.id) - rank(b.id));
      const strict = values.strict ?? false;
      const verdict = judgeRun(results, baseline, { strict });
      const runViolations = ledger.violations;
      const run = runLine();
      const caseLines = caseLinesOf(results);
      const summary: SummaryLine = {
        type: 'summary',
        finishedAt: new Date().toISOString(),
        durationMs: Date.now() - started,
        counts: countOutcomes(results.filter((r) => !isExploreLine(r))),
        ...(exploring ? { explore: countOutcomes(results.filter(isExploreLine)) } : {}),
        conforms: verdict.conforms && unreachable === null && runViolations.count === 0,
        unexpectedFailures: verdict.unexpectedFailures,
        warnings: verdict.warnings,
        strict,
        stalePassing: verdict.stalePassing,
        ...(runViolations.count ? { runViolations } : {}),
        scope: verdictScope(run, caseLines),
      };
      const lines = [
        JSON.stringify(run),
        ...caseLines.map((l) => JSON.stringify(l)),
        JSON.stringify(summary),
      ];
      const reportText = `${lines.join('\n')}\n`;
      const wired = writeWire();
      if (wired.startsWith('the --wire file'))
        await io.err(`agent-contracts: warning: ${printable(wired)}.\n`);
      if (reportPath !== undefined) writeFileSync(reportPath, reportText);
      if (otelPath !== undefined) {
        // Loaded here: the OpenTelemetry packages are for --otel only.
        const { runTrace, writeOtelTrace } = await import('./otel.js');
        writeOtelTrace(
          otelPath,
          runTrace(run, results, finishedAt, { ms: Date.now(), conforms: summary.conforms }),
        );
      }

      const judgedNowhere = ledger.hello !== null && !appliesAnywhere(requiresOfAllShards, ledger.hello);
      const requires = new Map([...cases, ...faults].map((c) => [c.id, c.requires]));
      const coverage = runCoverage(catalogue, results);
      await io.out(
        runViolationsText(summary, paint) +
          renderSummary(run, caseLines, summary, paint, unreachable, requires, coverage, judgedNowhere, {
            path: wired.startsWith('the messages') ? (wirePath ?? null) : null,
            all: values['wire-all'] ?? false,
          }) +
          (reportPath === undefined ? '' : reportDigestLine(reportPath, reportText)),
      );
      if (explored) await io.out(explored);
      // A shard in which nothing applied observed nothing: it is no verdict, neither a pass nor a
      // failure, so it does not turn a CI shard matrix red (D-GEN-14).
      if (shard !== null && emptyShard(summary) && unreachable === null && !judgedNowhere) return 0;
      // A defect of the kit is a harness error (exit 2), whatever the implementation did.
      if (verdict.harnessErrors.length) return 2;
      return summary.conforms ? 0 : 1;
    }
  },
};

export type { Io };
