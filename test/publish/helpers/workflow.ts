// Runs a GitHub Actions workflow file locally, as far as a test can: every job (in `needs`
// order, every combination of a list matrix) starts from a fresh clone of the project's
// repository, and its `run:` steps run as written with the runner's default shell
// (`bash --noprofile --norc -eo pipefail`). The few `uses:` actions the recipe needs are
// emulated; any other action, or an expression other than `${{ matrix.<key> }}`, is an error, so
// a workflow cannot rely on something this runner silently skips.
import { spawnSync } from 'node:child_process';
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
import { parse } from 'yaml';

export interface StepResult {
  readonly job: string;
  readonly step: string;
  readonly status: 'ok' | 'failed' | 'skipped';
  readonly output: string;
}

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}

interface Job {
  name?: string;
  needs?: string | string[];
  if?: string;
  env?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown> };
  steps: Step[];
}

interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

export interface RunOptions {
  /** A git repository: every job clones it. */
  readonly repository: string;
  /** Environment added to every step (the test's PATH, npm settings). */
  readonly env?: Readonly<Record<string, string>>;
  /** Only these jobs (and no others); default all. */
  readonly only?: readonly string[];
}

/** `${{ matrix.key }}` replaced; any other expression refused. */
function expand(text: string, matrix: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    const m = /^matrix\.([A-Za-z_][\w-]*)$/.exec(expr);
    if (!m || !(m[1]! in matrix)) throw new Error(`workflow: unsupported expression \${{ ${expr} }}`);
    return matrix[m[1]!]!;
  });
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

/** The emulated actions: each returns what it did, or throws. */
function useAction(
  step: Step,
  workspace: string,
  artifacts: string,
  matrix: Readonly<Record<string, string>>,
): string {
  const action = step.uses ?? '';
  const name = action.replace(/@.*$/, '');
  const input = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([k, v]) => [k, typeof v === 'string' ? expand(v, matrix) : v]),
  );
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
      if (input['merge-multiple'] !== true)
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
      for (const p of paths)
        if (!readFileSync(p, 'utf8').includes('<testsuites'))
          throw new Error(`action-junit-report: ${p} is not JUnit XML`);
      return `read ${paths.length} JUnit files`;
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
  const root = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'workflow-'));
  const artifacts = join(root, 'artifacts');
  const results: StepResult[] = [];
  const failedJobs = new Set<string>();
  for (const id of jobOrder(workflow.jobs)) {
    if (options.only && !options.only.includes(id)) continue;
    const job = workflow.jobs[id]!;
    const needsFailed = [job.needs ?? []].flat().some((n) => failedJobs.has(n));
    if (needsFailed && job.if !== 'always()') {
      results.push({ job: id, step: '(job)', status: 'skipped', output: 'a needed job failed' });
      failedJobs.add(id);
      continue;
    }
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
      let failed = false;
      job.steps.forEach((step, index) => {
        const stepName = step.name ?? step.run?.split('\n')[0] ?? step.uses ?? `step ${index + 1}`;
        if (failed && step.if !== 'always()') {
          results.push({ job: label, step: stepName, status: 'skipped', output: '' });
          return;
        }
        if (step.uses !== undefined) {
          try {
            results.push({
              job: label,
              step: stepName,
              status: 'ok',
              output: useAction(step, workspace, artifacts, matrix),
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
        writeFileSync(script, expand(step.run ?? '', matrix));
        const env: Record<string, string> = {
          ...(process.env as Record<string, string>),
          ...options.env,
          ...workflow.env,
          ...job.env,
          ...step.env,
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: workspace,
          RUNNER_TEMP: runnerTemp,
          GITHUB_STEP_SUMMARY: summary,
        };
        const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
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
        });
      });
      if (failed) failedJobs.add(id);
    }
  }
  return results;
}
