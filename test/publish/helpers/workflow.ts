// Runs a GitHub Actions workflow file locally, as far as a test can: every job (in `needs`
// order, every combination of a list matrix) starts from a fresh clone of the project's
// repository, and its `run:` steps run as written with the shell GitHub's runner would use: the
// step's `shell`, else `defaults.run.shell` of the job, else of the workflow, else the runner's
// default `bash -e` (no pipefail: only `shell: bash` is `bash --noprofile --norc -eo pipefail`).
// Expressions (`${{ }}` and `if:`) are evaluated by @actions/expressions, GitHub's own evaluator,
// with the contexts `github` (of the event given), `matrix` and `env`, the status functions and
// `hashFiles`; a condition without a status function means `success() && (...)`, as on GitHub.
// The few `uses:` actions the recipe needs are emulated; any other action, an unknown context
// or function, or a key this runner does not implement is an error, so a workflow cannot rely on
// something this runner silently skips.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { data, Evaluator, Lexer, Parser } from '@actions/expressions';
import { truthy } from '@actions/expressions/result';
import { globSync } from 'tinyglobby';
import { parse } from 'yaml';

export interface StepResult {
  readonly job: string;
  readonly step: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly output: string;
  /** The command line a `run:` step ran with (`{0}` is the script); absent for actions. */
  readonly shell?: string;
}

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  if?: string | boolean;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  shell?: string;
}

interface Defaults {
  run?: { shell?: string };
}

type Permissions = Record<string, string> | 'read-all' | 'write-all';

interface Job {
  name?: string;
  needs?: string | string[];
  if?: string | boolean;
  env?: Record<string, string>;
  defaults?: Defaults;
  permissions?: Permissions;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}

interface Workflow {
  env?: Record<string, string>;
  defaults?: Defaults;
  permissions?: Permissions;
  jobs: Record<string, Job>;
}

/** The event that triggers the run: a push to main, or a pull request (from a fork or not). */
export type WorkflowEvent =
  | { readonly name: 'push' }
  | { readonly name: 'pull_request'; readonly fork: boolean };

export interface RunOptions {
  /** A git repository: every job clones it. */
  readonly repository: string;
  /** Environment added to every step (the test's PATH, npm settings). */
  readonly env?: Readonly<Record<string, string>>;
  /** Only these jobs (and no others); default all. */
  readonly only?: readonly string[];
  /** The triggering event; default a push to main. */
  readonly event?: WorkflowEvent;
  /** Where artifacts live (uploaded, downloaded); default a fresh directory per run. */
  readonly artifacts?: string;
}

// The keys this runner implements; any other is refused rather than ignored.
const KEYS = {
  workflow: ['name', 'on', 'env', 'defaults', 'permissions', 'jobs'],
  job: ['name', 'runs-on', 'needs', 'if', 'env', 'defaults', 'permissions', 'strategy', 'steps'],
  strategy: ['matrix', 'fail-fast'],
  step: ['name', 'id', 'run', 'uses', 'if', 'with', 'env', 'shell'],
  defaults: ['run'],
  'defaults.run': ['shell'],
} as const;

function checkKeys(what: keyof typeof KEYS, value: object | undefined, where: string): void {
  for (const key of Object.keys(value ?? {}))
    if (!(KEYS[what] as readonly string[]).includes(key))
      throw new Error(
        `workflow: ${where}: key ${key} is not emulated; add it to test/publish/helpers/workflow.ts`,
      );
}

function checkWorkflow(workflow: Workflow): void {
  checkKeys('workflow', workflow, 'top level');
  const checkDefaults = (d: Defaults | undefined, where: string) => {
    checkKeys('defaults', d, `${where}defaults`);
    checkKeys('defaults.run', d?.run, `${where}defaults.run`);
  };
  checkDefaults(workflow.defaults, '');
  for (const [id, job] of Object.entries(workflow.jobs)) {
    checkKeys('job', job, `jobs.${id}`);
    checkKeys('strategy', job.strategy, `jobs.${id}.strategy`);
    checkDefaults(job.defaults, `jobs.${id}.`);
    job.steps.forEach((s, i) => {
      checkKeys('step', s, `jobs.${id}.steps[${i}]`);
    });
  }
}

/** The command line of a shell, as GitHub's runner has it on Linux (`{0}`: the script). */
const SHELLS: Record<string, readonly string[]> = {
  // No `shell:` anywhere: `bash -e {0}` (docs: workflow syntax, jobs.<job_id>.steps[*].shell).
  '': ['bash', '-e', '{0}'],
  bash: ['bash', '--noprofile', '--norc', '-eo', 'pipefail', '{0}'],
  sh: ['sh', '-e', '{0}'],
};

function shellOf(workflow: Workflow, job: Job, step: Step): readonly string[] {
  const shell = step.shell ?? job.defaults?.run?.shell ?? workflow.defaults?.run?.shell ?? '';
  const line = SHELLS[shell];
  if (!line) throw new Error(`workflow: shell ${shell} is not emulated (bash, sh or none)`);
  return line;
}

/** GitHub's `hashFiles`: '' when no file matches, else a SHA-256 over each file's SHA-256. */
function hashFiles(workspace: string, patterns: readonly string[]): string {
  const files = globSync([...patterns], {
    cwd: workspace,
    onlyFiles: true,
    dot: true,
    ignore: ['.git/**'],
  }).sort();
  if (files.length === 0) return '';
  const all = createHash('sha256');
  for (const f of files)
    all.update(
      createHash('sha256')
        .update(readFileSync(join(workspace, f)))
        .digest(),
    );
  return all.digest('hex');
}

interface Scope {
  readonly contexts: Record<string, unknown>;
  /** Whether what came before succeeded (earlier steps of a job; the needed jobs of a job). */
  readonly succeeded: boolean;
  readonly workspace?: string;
}

const STATUS = /\b(?:always|success|failure|cancelled)\s*\(/i;

function evaluate(expression: string, scope: Scope): data.ExpressionData {
  const functions = [
    { name: 'always', minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(true) },
    { name: 'success', minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(scope.succeeded) },
    { name: 'failure', minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(!scope.succeeded) },
    { name: 'cancelled', minArgs: 0, maxArgs: 0, call: () => new data.BooleanData(false) },
    {
      name: 'hashFiles',
      minArgs: 1,
      maxArgs: 255,
      call: (...patterns: data.ExpressionData[]) => {
        if (!scope.workspace) throw new Error('workflow: hashFiles is only available in steps');
        return new data.StringData(
          hashFiles(
            scope.workspace,
            patterns.map((p) => p.coerceString()),
          ),
        );
      },
    },
  ];
  try {
    const tokens = new Lexer(expression).lex().tokens;
    const expr = new Parser(tokens, Object.keys(scope.contexts), functions).parse();
    const context = JSON.parse(JSON.stringify(scope.contexts), data.reviver) as data.Dictionary;
    return new Evaluator(expr, context, new Map(functions.map((f) => [f.name.toLowerCase(), f]))).evaluate();
  } catch (e) {
    throw new Error(`workflow: expression ${expression}: ${(e as Error).message}`);
  }
}

/** Every `${{ expression }}` in `text` replaced by its value as a string. */
function expand(text: string, scope: Scope): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/gs, (_, expr: string) => evaluate(expr, scope).coerceString());
}

/** An `if:` condition (with or without `${{ }}`); `success()` is implied without a status function. */
function condition(value: string | boolean | undefined, scope: Scope): boolean {
  if (value === undefined) return scope.succeeded;
  if (typeof value === 'boolean') return value && scope.succeeded;
  const text = value.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
  return truthy(evaluate(STATUS.test(text) ? text : `success() && (${text})`, scope));
}

/** Every combination of a matrix of lists (no include/exclude). */
function combinations(matrix: Record<string, unknown> | undefined): Record<string, string>[] {
  if (!matrix) return [{}];
  let out: Record<string, string>[] = [{}];
  for (const [key, values] of Object.entries(matrix)) {
    if (!Array.isArray(values))
      throw new Error(`workflow: matrix.${key} must be a list (include/exclude unsupported)`);
    out = out.flatMap((combo) => values.map((v) => ({ ...combo, [key]: String(v) })));
  }
  return out;
}

/** Jobs in an order that puts each after the jobs it needs. */
function jobOrder(jobs: Record<string, Job>): string[] {
  const order: string[] = [];
  const visit = (id: string, path: string[]) => {
    if (order.includes(id)) return;
    if (path.includes(id)) throw new Error(`workflow: needs cycle ${[...path, id].join(' -> ')}`);
    const job = jobs[id];
    if (!job) throw new Error(`workflow: needs names an unknown job ${id}`);
    for (const need of [job.needs ?? []].flat()) visit(need, [...path, id]);
    order.push(id);
  };
  for (const id of Object.keys(jobs)) visit(id, []);
  return order;
}

function lines(value: unknown): string[] {
  return String(value ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** A simple glob (only `*`, within one path segment) as a RegExp. */
function globRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
}

/** The github context of an event: a repository owner/runtime, a fork contributor/runtime. */
function githubContext(event: WorkflowEvent): Record<string, unknown> {
  const repository = 'owner/runtime';
  if (event.name === 'push') return { event_name: 'push', repository, ref: 'refs/heads/main', event: {} };
  const head = event.fork ? 'contributor/runtime' : repository;
  return {
    event_name: 'pull_request',
    repository,
    ref: 'refs/pull/1/merge',
    event: { pull_request: { number: 1, head: { repo: { full_name: head, fork: event.fork } } } },
  };
}

/**
 * Whether the job's GITHUB_TOKEN may write `scope` (e.g. checks): a pull request from a fork
 * gets a read-only token whatever the workflow asks; otherwise the job's (or the workflow's)
 * `permissions` must grant it (the repository's default for the token is not assumed).
 */
function tokenMayWrite(workflow: Workflow, job: Job, event: WorkflowEvent, scope: string): boolean {
  if (event.name === 'pull_request' && event.fork) return false;
  const p = job.permissions ?? workflow.permissions;
  return p === 'write-all' || (typeof p === 'object' && p[scope] === 'write');
}

interface ActionContext {
  readonly workflow: Workflow;
  readonly job: Job;
  readonly event: WorkflowEvent;
  readonly workspace: string;
  readonly artifacts: string;
}

/** The emulated actions: each returns what it did, or throws. */
function useAction(step: Step, input: Record<string, unknown>, ctx: ActionContext): string {
  const action = step.uses ?? '';
  const name = action.replace(/@.*$/, '');
  const { workspace, artifacts } = ctx;
  switch (name) {
    case 'actions/checkout':
    case 'actions/setup-node':
    case 'actions/setup-python':
      return `${name}: the job's clone and this machine's tools`;
    case 'actions/upload-artifact': {
      const artifact = join(artifacts, String(input.name ?? 'artifact'));
      mkdirSync(artifact, { recursive: true });
      for (const path of lines(input.path)) {
        const from = join(workspace, path);
        if (!existsSync(from)) throw new Error(`upload-artifact: ${path} does not exist`);
        cpSync(from, join(artifact, path.split('/').pop()!), { recursive: true });
      }
      return `uploaded ${readdirSync(artifact).join(', ')} as ${String(input.name)}`;
    }
    case 'actions/download-artifact': {
      const pattern = globRegExp(String(input.pattern ?? '*'));
      const into = join(workspace, String(input.path ?? '.'));
      if (input['merge-multiple'] !== true && input['merge-multiple'] !== 'true')
        throw new Error('download-artifact: only merge-multiple: true is emulated');
      mkdirSync(into, { recursive: true });
      const names = existsSync(artifacts) ? readdirSync(artifacts).filter((n) => pattern.test(n)) : [];
      if (names.length === 0)
        throw new Error(`download-artifact: no artifact matches ${String(input.pattern)}`);
      for (const n of names) cpSync(join(artifacts, n), into, { recursive: true });
      return `downloaded ${names.join(', ')}`;
    }
    case 'mikepenz/action-junit-report': {
      const paths = lines(input.report_paths).flatMap((glob) => {
        const dir = join(workspace, glob.split('/').slice(0, -1).join('/'));
        const re = globRegExp(glob.split('/').pop()!);
        return existsSync(dir)
          ? readdirSync(dir)
              .filter((f) => re.test(f))
              .map((f) => join(dir, f))
          : [];
      });
      if (paths.length === 0)
        throw new Error(`action-junit-report: no file matches ${String(input.report_paths)}`);
      let tests = 0;
      let skipped = 0;
      for (const p of paths) {
        const xml = readFileSync(p, 'utf8');
        if (!xml.includes('<testsuites')) throw new Error(`action-junit-report: ${p} is not JUnit XML`);
        tests += xml.match(/<testcase\b/g)?.length ?? 0;
        skipped += xml.match(/<skipped\b/g)?.length ?? 0;
      }
      const read = `read ${paths.length} JUnit files: ${tests} tests, ${skipped} skipped`;
      const annotateOnly = String(input.annotate_only ?? 'false');
      if (!['true', 'false'].includes(annotateOnly))
        throw new Error(`action-junit-report: annotate_only must be true or false, not ${annotateOnly}`);
      // annotate_only writes annotations as workflow commands: no check run, no token needed.
      if (annotateOnly === 'true') return `${read}; annotations only, no check run`;
      // Creating a check run is a POST to the checks API with the job's token.
      if (!tokenMayWrite(ctx.workflow, ctx.job, ctx.event, 'checks'))
        throw new Error(
          'action-junit-report: HttpError: Resource not accessible by integration (403): the token cannot write checks',
        );
      return `${read}; check run created`;
    }
    default:
      throw new Error(
        `workflow: action ${action} is not emulated; add it to test/publish/helpers/workflow.ts`,
      );
  }
}

/** Runs the workflow; returns one result per step of every job run. */
export function runWorkflow(file: string, options: RunOptions): StepResult[] {
  const workflow = parse(readFileSync(file, 'utf8')) as Workflow;
  checkWorkflow(workflow);
  const event = options.event ?? { name: 'push' };
  const github = githubContext(event);
  const root = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'workflow-'));
  const artifacts = options.artifacts ?? join(root, 'artifacts');
  const results: StepResult[] = [];
  /** Each job that ran: whether it (every combination of its matrix) succeeded. */
  const outcome = new Map<string, boolean>();
  for (const id of jobOrder(workflow.jobs)) {
    if (options.only && !options.only.includes(id)) continue;
    const job = workflow.jobs[id]!;
    const needs = [job.needs ?? []].flat();
    const needsOk = needs.every((n) => outcome.get(n) === true);
    if (!condition(job.if, { contexts: { github }, succeeded: needsOk })) {
      results.push({
        job: id,
        step: '(job)',
        status: 'skipped',
        output: `if: ${String(job.if ?? 'success()')} was false`,
      });
      continue;
    }
    let jobOk = true;
    for (const matrix of combinations(job.strategy?.matrix)) {
      const label = Object.keys(matrix).length ? `${id} (${Object.values(matrix).join(', ')})` : id;
      const jobDir = mkdtempSync(join(root, `${id}-`));
      const workspace = join(jobDir, 'workspace');
      const runnerTemp = join(jobDir, 'runner-temp');
      mkdirSync(runnerTemp);
      const clone = spawnSync('git', ['clone', '--quiet', options.repository, workspace], {
        encoding: 'utf8',
      });
      if (clone.status !== 0) throw new Error(`git clone failed: ${clone.stderr}`);
      const baseEnv: Record<string, string> = { ...workflow.env, ...job.env };
      let failed = false;
      job.steps.forEach((step, index) => {
        const stepName = step.name ?? step.run?.split('\n')[0] ?? step.uses ?? `step ${index + 1}`;
        const scope: Scope = { contexts: { github, matrix, env: baseEnv }, succeeded: !failed, workspace };
        if (!condition(step.if, scope)) {
          results.push({
            job: label,
            step: stepName,
            status: 'skipped',
            output: `if: ${String(step.if ?? 'success()')} was false`,
          });
          return;
        }
        if (step.uses !== undefined) {
          try {
            const input = Object.fromEntries(
              Object.entries(step.with ?? {}).map(([k, v]) => [
                k,
                typeof v === 'string' ? expand(v, scope) : v,
              ]),
            );
            results.push({
              job: label,
              step: stepName,
              status: 'ok',
              output: useAction(step, input, { workflow, job, event, workspace, artifacts }),
            });
          } catch (e) {
            failed = true;
            results.push({ job: label, step: stepName, status: 'failed', output: (e as Error).message });
          }
          return;
        }
        const summary = join(runnerTemp, `summary-${index}.md`);
        writeFileSync(summary, '');
        const script = join(runnerTemp, `step-${index}.sh`);
        writeFileSync(script, expand(step.run ?? '', scope));
        const stepEnv = Object.fromEntries(
          Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(String(v), scope)]),
        );
        const env: Record<string, string> = {
          ...(process.env as Record<string, string>),
          ...options.env,
          ...baseEnv,
          ...stepEnv,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_EVENT_NAME: event.name,
          GITHUB_WORKSPACE: workspace,
          RUNNER_TEMP: runnerTemp,
          GITHUB_STEP_SUMMARY: summary,
        };
        const [command, ...args] = shellOf(workflow, job, step).map((a) => (a === '{0}' ? script : a));
        const r = spawnSync(command!, args, {
          cwd: workspace,
          env,
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        });
        const ok = r.status === 0;
        if (!ok) failed = true;
        results.push({
          job: label,
          step: stepName,
          status: ok ? 'ok' : 'failed',
          output: `${r.stdout}${r.stderr}${existsSync(summary) ? readFileSync(summary, 'utf8') : ''}`,
          shell: [command, ...args].join(' ').replace(script, '{0}'),
        });
      });
      if (failed) jobOk = false;
    }
    outcome.set(id, jobOk);
  }
  return results;
}
