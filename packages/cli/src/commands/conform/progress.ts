// Live progress of a conform run on stderr, a phase at a time (golden cases, then the fault
// matrix). On a terminal: a bar per phase (cli-progress) with the running scenario's name, the
// elapsed time and an estimate of what is left. Without one (CI logs): a heading per phase, one
// mark per golden case that applied (80 to a line, with the count), and one line per finished
// scenario that applied. What did not apply is no mark and no line of its own: at the end of the
// phase, one line per capability the implementation does not declare, with how many items need
// it (the summary says which, under "Not applicable").

import type { CaseResult } from '@agent-contracts/harness';
import { printable } from '@agent-contracts/harness';
import { SingleBar } from 'cli-progress';
import type { Io } from '../../io.js';
import { byCapabilityOrder, isListCapability } from './undeclared.js';

const MARK: Record<Exclude<CaseResult['outcome'], 'not-applicable'>, string> = {
  pass: '.',
  fail: 'F',
  error: 'E',
  timeout: 'T',
  crash: 'C',
  'harness-error': 'H',
};

/** What the run tells its progress display. */
export interface Progress {
  /** A phase begins: its title and how many items it has. */
  phase(title: string, total: number): Promise<void>;
  /** A fault scenario started (its name is shown while it runs). */
  started(id: string): void;
  /** An item finished. */
  result(r: CaseResult): Promise<void>;
  /** The phase ended (every item reported). */
  endPhase(): Promise<void>;
}

/**
 * The capabilities a not-applicable item lacks (`hello` keys; none when it is not applicable for
 * another reason, or before `hello`).
 */
export type Undeclared = (r: CaseResult) => readonly string[];

/** The progress display for `io`: a live bar on a terminal, plain lines otherwise. */
export function progressFor(io: Io, undeclared: Undeclared = () => []): Progress {
  return io.progressStream ? new BarProgress(io.progressStream) : new LineProgress(io, undeclared);
}

/** How many marks a line of golden-case progress holds before its count. */
const MARKS_PER_LINE = 80;

class LineProgress implements Progress {
  #total = 0;
  #done = 0;
  #marks = 0;
  #faults = false;
  /** Not-applicable items of the phase by capability not declared ('' : another reason). */
  #notApplicable = new Map<string, number>();

  constructor(
    private readonly io: Io,
    private readonly undeclared: Undeclared,
  ) {}

  async phase(title: string, total: number): Promise<void> {
    this.#total = total;
    this.#done = 0;
    this.#marks = 0;
    this.#notApplicable.clear();
    this.#faults = title.startsWith('Fault');
    await this.io.err(`${title}\n`);
  }

  started(): void {}

  async result(r: CaseResult): Promise<void> {
    this.#done++;
    if (r.outcome === 'not-applicable') {
      const keys = this.undeclared(r);
      for (const key of keys.length ? keys : [''])
        this.#notApplicable.set(key, (this.#notApplicable.get(key) ?? 0) + 1);
    } else if (this.#faults) {
      const seconds = (r.durationMs / 1000).toFixed(1);
      await this.io.err(`  ${r.outcome.padEnd(14)} ${r.id} (${seconds} s) [${this.#done}/${this.#total}]\n`);
      return;
    } else {
      await this.io.err(MARK[r.outcome as keyof typeof MARK]);
      this.#marks++;
    }
    if (!this.#faults && this.#marks && (this.#marks % MARKS_PER_LINE === 0 || this.#done === this.#total)) {
      await this.io.err(` ${this.#done}/${this.#total}\n`);
      this.#marks = 0;
    }
  }

  async endPhase(): Promise<void> {
    if (!this.#faults && this.#marks) await this.io.err('\n');
    const noun = (n: number) =>
      this.#faults ? (n === 1 ? 'scenario' : 'scenarios') : n === 1 ? 'case' : 'cases';
    const lines = [...this.#notApplicable]
      .sort((a, b) => (a[0] === '' ? 1 : b[0] === '' ? -1 : byCapabilityOrder(a[0], b[0])))
      .map(([key, n]) => {
        const why =
          key === ''
            ? 'another reason'
            : `capability "${printable(key)}" ${isListCapability(key) ? 'does not list what they need' : 'not declared'}`;
        return `  ${'not-applicable'.padEnd(14)} ${n} ${noun(n)}: ${why}`;
      });
    if (!lines.length) return;
    lines[lines.length - 1] += ' (what each needs: "Not applicable" in the summary)';
    await this.io.err(`${lines.join('\n')}\n`);
  }
}

class BarProgress implements Progress {
  #bar: SingleBar | null = null;
  #bad = 0;
  #running = new Set<string>();

  constructor(private readonly stream: NodeJS.WritableStream) {}

  async phase(title: string, total: number): Promise<void> {
    this.stream.write(`${title}\n`);
    this.#bad = 0;
    this.#running.clear();
    this.#bar = new SingleBar({
      stream: this.stream,
      format:
        '  {bar} {value}/{total}  {bad}  {duration_formatted} elapsed, ~{eta_formatted} left  {running}',
      barsize: 30,
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
      fps: 5,
    });
    this.#bar.start(total, 0, { bad: 'all passing', running: '' });
  }

  started(id: string): void {
    this.#running.add(id);
    this.#bar?.update({ running: this.#runningText() });
    // A scenario runs for seconds: show its name at once, not at the next scheduled redraw.
    this.#bar?.render();
  }

  async result(r: CaseResult): Promise<void> {
    this.#running.delete(r.id);
    if (!['pass', 'not-applicable'].includes(r.outcome)) this.#bad++;
    this.#bar?.increment(1, {
      bad: this.#bad ? `${this.#bad} not passing` : 'all passing',
      running: this.#runningText(),
    });
  }

  #runningText(): string {
    const [first, ...rest] = this.#running;
    if (!first) return '';
    return `running ${printable(first)}${rest.length ? ` (+${rest.length})` : ''}`;
  }

  async endPhase(): Promise<void> {
    this.#bar?.update({ running: '' });
    this.#bar?.stop();
    this.#bar = null;
  }
}
