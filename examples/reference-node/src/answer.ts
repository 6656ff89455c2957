// An engine's document, checked against its contract before it is answered. Whose fault a
// failure is decides its error (docs/protocol.md#framing-and-errors): a value the caller sent that
// the contract does not allow is malformed params (-32602); anything else is the engine breaking
// its own contract, an InternalError (-32603), never blamed on the caller.
import { InternalError, InvalidParams } from '@agent-contracts/protocol';
import { type Issue, validate } from '@agent-contracts/validators';

/** Which issues of the answer are the caller's. */
export interface Blame {
  /** Members the engine computes (JSON Pointers): a schema issue there is the engine's. */
  readonly computed: readonly string[];
  /** Rule codes that judge only what the caller sent (e.g. two members of the params that disagree). */
  readonly callerRules?: readonly string[];
}

const under = (path: string, pointer: string) => path === pointer || path.startsWith(`${pointer}/`);

/** Whether an issue of the answer is the caller's: a schema issue at a member copied from the params. */
function callersIssue(issue: Issue, blame: Blame): boolean {
  if (blame.callerRules?.includes(issue.code)) return true;
  return issue.code.startsWith('SCHEMA_') && !blame.computed.some((c) => under(issue.path, c));
}

/**
 * `document` if it is valid against its contract; else the error its first issue calls for.
 *
 * @example
 * return checkedAnswer('policy.decide', decision, { computed: ['/decisionId'] });
 */
export function checkedAnswer<T>(method: string, document: T, blame: Blame): T {
  const v = validate(document);
  if (v.ok) return document;
  const errors = v.issues.filter((i) => i.severity === 'error');
  const engines = errors.find((i) => !callersIssue(i, blame));
  if (engines)
    throw new InternalError(
      `${method}: the engine's answer breaks its contract (${engines.code} at ${engines.path || '/'}: ${engines.message})`,
    );
  const first = errors[0]!;
  throw new InvalidParams(
    `${method}: the params give no valid answer (${first.code} at ${first.path || '/'}: ${first.message})`,
  );
}
