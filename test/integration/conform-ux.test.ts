// @module-tag integration
// @module-tag slow
// `agent-contracts conform` as a new user meets it, against the reference implementation
// (examples/reference-node): progress a person can follow in a CI log. The rest of what a new user
// meets, with the harness's fakes, is the CLI's own test (packages/cli/test/conform-ux.test.ts).
import { describe, expect, it } from 'vitest';
import { REFERENCE, runCli } from './helpers/cli.ts';

describe('conform for a new user', () => {
  it('without a terminal: a heading per phase and one line per finished scenario', () => {
    const r = runCli([
      'conform',
      '--impl',
      REFERENCE,
      '--filter',
      'validate/IntentSeedV1/valid/*',
      '--filter',
      'faults/store/stale-fence',
    ]);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^Golden cases: \d+\n\.+ \d+\/\d+\nFault matrix: 1 scenario\n {2}pass {11}faults\/store\/stale-fence \(\d+\.\d s\) \[1\/1\]\n$/,
    );
  });
});
