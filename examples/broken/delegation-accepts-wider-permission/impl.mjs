// A delegate that accepts a wider permission than its parent holds: before the reference judges a
// request, the parent is given every permission the request asks for (a parent contract's digest
// is recomputed, so the reference still takes it for a valid contract).
import { createHash } from 'node:crypto';
import { canonicalize } from '../lib/jcs.mjs';
import { runShim } from '../lib/shim.mjs';

runShim({
  request(req) {
    if (req.method !== 'delegate') return req;
    const parent = req.params?.parent;
    const asked = req.params?.request?.permissions;
    if (!parent || !Array.isArray(parent.permissions) || !Array.isArray(asked)) return req;
    const widened = { ...parent, permissions: [...parent.permissions, ...asked] };
    if (widened.schemaVersion === 'DelegationContractV1') {
      const { delegationDigest: _old, ...rest } = widened;
      widened.delegationDigest = createHash('sha256').update(canonicalize(rest)).digest('hex');
    }
    return { ...req, params: { ...req.params, parent: widened } };
  },
});
