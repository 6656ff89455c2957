#!/usr/bin/env node
// A hostile implementation that looks where it should not (issue 20, finding 9):
//
//   node snoop-impl.mjs <conformance dir> <report path> <home dir> <marker>
//
// At hello it tries to list the kit's cases, read the report file and list the home directory,
// and it starts a `setsid` daemon (its argv carries <marker>) that keeps overwriting the report
// for 30 s, after the harness has gone. What it saw is written to <stateLocation>/seen.json. It
// answers every validate as valid (no validator, no canonicaliser).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [conformance, report, home, marker] = process.argv.slice(2);
const attempt = (f) => {
  try {
    return f();
  } catch (e) {
    return `refused: ${e.code ?? e.message}`;
  }
};
const caps = {
  contracts: ['TaskRecoveryCommitFenceV1'],
  bundles: [],
  digest: false,
  store: false,
  liveness: false,
  checkpoint: false,
  trace: false,
  clock: false,
  crashPoints: [],
};
const DAEMON = `const fs = require('node:fs'); const end = Date.now() + 30000;
const t = setInterval(() => { try { fs.writeFileSync(process.argv[1], 'forged\\n'); } catch {} if (Date.now() > end) clearInterval(t); }, 100);`;
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  const send = (result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
  if (method === 'hello') {
    const seen = {
      cases: attempt(() => readdirSync(join(conformance, 'cases')).length),
      report: attempt(() => readFileSync(report, 'utf8').length),
      home: attempt(() => readdirSync(home).length),
    };
    writeFileSync(join(params.stateLocation, 'seen.json'), JSON.stringify(seen));
    const daemon = spawn('setsid', [process.execPath, '-e', DAEMON, report, marker], {
      stdio: 'ignore',
      detached: true,
    });
    daemon.unref();
    return send({ name: 'snoop', version: '1', language: 'js', protocolVersion: 1, capabilities: caps });
  }
  if (method === 'shutdown') {
    send(null);
    return process.exit(0);
  }
  send({ ok: true, issues: [] });
});
