// Process entry of `agent-contracts` (bin/agent-contracts.js imports the built copy of this).
import { killAllImplementations } from '@agent-contracts/harness/live';
import { processIo } from './io.js';
import { main } from './main.js';

// A closed pipe (`agent-contracts validate dir | head`) is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

process.exitCode = await main(process.argv.slice(2), processIo());
// Every run ends within a bound after its output, whatever an implementation left behind: the
// commands kill what they started, and this is the backstop if anything still holds the loop.
killAllImplementations();
setTimeout(() => process.exit(), 5_000).unref();
