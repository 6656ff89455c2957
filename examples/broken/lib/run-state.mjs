// Helpers of the run-controller mutants: reseal a RunStateV1 they edited (stateDigest is
// digestOf the document without it, RFC 8785 JCS + SHA-256), so the edit is all that differs.
import { canonicalize, digestResult } from './jcs.mjs';

/** `state` with its stateDigest recomputed. */
export function reseal(state) {
  const { stateDigest: _old, ...rest } = state;
  return { ...rest, stateDigest: digestResult(canonicalize(rest)).sha256 };
}
