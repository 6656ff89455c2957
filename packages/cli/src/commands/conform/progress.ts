// Live progress of a conform run on stderr, a phase at a time (golden cases, then the fault
// matrix). On a terminal: a bar per phase (cli-progress) with the running scenario's name, the
// elapsed time and an estimate of what is left. Without one (CI logs): a heading per phase, one
// mark per golden case (80 to a line, with the count), and one line per finished scenario that
// applied (those that did not are one count at the end of the phase: the summary says why, by
// capability).

import type { CaseResult } from '@agent-contracts/harness';
import { printable } from '@agent-contracts/harness';
import { SingleBar } from 'cli-progress';
import type { Io } from '../../io.js';

const MARK: Record<CaseResult['outcome'], string> = {
  pass: '.',
  fail: 'F',
  error: 'E',
  timeout: 'T',
  crash: 'C',
  'not-applicable': '-',
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

/** The progress display for `io`: a live bar on a terminal, plain lines otherwise. */
export function progressFor(io: Io): Progress {
  return io.progressStream ? new BarProgress(io.progressStream) : new LineProgress(io);
}

class LineProgress implements Progress {
  #total = 0;
  #done = 0;
  #faults = false;
  #notApplicable = 0;

  constructor(private readonly io: Io) {}

  async phase(title: string, total: number): Promise<void> {
    this.#total = total;
    this.#done = 0;
    this.#notApplicable = 0;
    this.#faults = title.startsWith('Fault');
    await this.io.err(`${title}\n`);
  }

  started(): void {}

  async result(r: CaseResult): Promise<void> {
    this.#done++;
    if (this.#faults && r.outcome === 'not-applicable') {
      this.#notApplicable++;
      return;
    }
    if (this.#faults) {
      const seconds = (r.durationMs / 1000).toFixed(1);
      await this.io.err(`  ${r.outcome.padEnd(14)} ${r.id} (${seconds} s) [${this.#done}/${this.#total}]\n`);
      return;
    }
    await this.io.err(MARK[r.outcome]);
    if (this.#done % 80 === 0 || this.#done === this.#total)
      await this.io.err(` ${this.#done}/${this.#total}\n`);
  }

  async endPhase(): Promise<void> {
    if (!this.#faults && this.#done % 80 !== 0 && this.#done !== this.#total) await this.io.err('\n');
    const n = this.#notApplicable;
    if (n)
      await this.io.err(
        `  ${'not-applicable'.padEnd(14)} ${n} ${n === 1 ? 'scenario' : 'scenarios'} [${this.#done}/${this.#total}] (what each needs: "Not applicable" in the summary)\n`,
      );
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
