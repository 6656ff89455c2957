// The reference implementation's request handler: one function per protocol method, shared by
// the stdio server (main.ts) and the in-process adapter.
import { canonicalize, DigestError, sha256Hex } from '@agent-contracts/digest';
import { ManualClock, systemClock } from '@agent-contracts/engines';
import {
  type HelloParams,
  type HelloResult,
  type InProcessAdapter,
  PROTOCOL_VERSION,
  ProtocolRefusal,
  type ValidateResult,
} from '@agent-contracts/harness';
import {
  BUNDLE_KINDS,
  type Issue,
  SUPPORTED_CONTRACTS,
  validate,
  validateBundle,
} from '@agent-contracts/validators';

/** Malformed params: answered as JSON-RPC -32602. */
export class InvalidParams extends Error {}

/** A method this implementation does not have: answered as JSON-RPC -32601. */
export class MethodNotFound extends Error {}

const VERSION = '0.0.0';

function asObject(params: unknown, method: string): Record<string, unknown> {
  if (!params || typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParams(`${method}: params must be an object (see docs/protocol.md)`);
  }
  return params as Record<string, unknown>;
}

const errorsOnly = (issues: readonly Issue[]) =>
  issues.filter((i) => i.severity === 'error').map((i) => ({ code: i.code, path: i.path }));

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** Where durable state lives (directory or database URL), as the harness's `hello` says. */
  readonly stateLocation?: string | null;
}

/**
 * The reference implementation as a protocol handler.
 *
 * @example
 * const impl = createHandler();
 * await impl.handle('hello', { protocolVersion: 1, stateLocation: null });
 */
export function createHandler(
  _options: HandlerOptions = {},
): InProcessAdapter & { readonly clock: ManualClock } {
  const clock = new ManualClock(systemClock.now());
  let stateLocation: string | null = _options.stateLocation ?? null;

  const methods: Record<string, (params: unknown) => unknown> = {
    hello(params): HelloResult {
      const p = asObject(params, 'hello') as Partial<HelloParams>;
      if (p.protocolVersion !== PROTOCOL_VERSION) {
        throw new ProtocolRefusal(
          'PROTOCOL_VERSION_UNSUPPORTED',
          `this implementation speaks protocol ${PROTOCOL_VERSION}, not ${String(p.protocolVersion)}`,
        );
      }
      stateLocation = typeof p.stateLocation === 'string' ? p.stateLocation : null;
      return {
        name: 'agent-contracts reference (node)',
        version: VERSION,
        language: 'typescript',
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {
          contracts: [...SUPPORTED_CONTRACTS],
          bundles: [...BUNDLE_KINDS],
          digest: true,
          store: false,
          liveness: false,
          checkpoint: false,
          trace: false,
          clock: true,
          crashPoints: [],
        },
      };
    },
    validate(params): ValidateResult {
      const p = asObject(params, 'validate');
      if (!('document' in p)) throw new InvalidParams('validate: params.document is required');
      const contract = p.contract;
      if (
        contract !== undefined &&
        (typeof contract !== 'string' || !SUPPORTED_CONTRACTS.includes(contract))
      ) {
        throw new ProtocolRefusal(
          'SCHEMA_VERSION_UNKNOWN',
          `validate: unknown contract ${JSON.stringify(contract)}`,
        );
      }
      const r = validate(p.document, contract === undefined ? {} : { contract });
      return r.ok ? { ok: true, issues: [] } : { ok: false, issues: errorsOnly(r.issues) };
    },
    validateBundle(params): ValidateResult {
      const r = validateBundle(asObject(params, 'validateBundle'));
      return r.ok ? { ok: true, issues: [] } : { ok: false, issues: errorsOnly(r.issues) };
    },
    digest(params) {
      const p = asObject(params, 'digest');
      if (typeof p.json !== 'string') throw new InvalidParams('digest: params.json must be JSON text');
      let value: unknown;
      try {
        value = JSON.parse(p.json);
      } catch {
        throw new ProtocolRefusal('DIGEST_INPUT_INVALID', 'digest: params.json is not JSON');
      }
      try {
        const canonical = canonicalize(value);
        return { canonical, sha256: sha256Hex(canonical) };
      } catch (e) {
        if (e instanceof DigestError) throw new ProtocolRefusal(e.code, e.message, { path: e.path });
        throw e;
      }
    },
    'clock.set'(params) {
      const p = asObject(params, 'clock.set');
      const t = typeof p.now === 'string' ? Date.parse(p.now) : Number.NaN;
      if (Number.isNaN(t)) throw new InvalidParams('clock.set: params.now must be an RFC 3339 timestamp');
      clock.set(t);
      return { now: new Date(clock.now()).toISOString() };
    },
    'clock.advance'(params) {
      const p = asObject(params, 'clock.advance');
      if (typeof p.ms !== 'number' || !Number.isFinite(p.ms))
        throw new InvalidParams('clock.advance: params.ms must be a number');
      clock.advance(p.ms);
      return { now: new Date(clock.now()).toISOString() };
    },
    shutdown() {
      return null;
    },
  };

  return {
    clock,
    async handle(method, params) {
      const fn = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!fn) throw new MethodNotFound(`method ${method} is not implemented (see hello's capabilities)`);
      return fn(params);
    },
    async reset() {
      clock.set(systemClock.now());
      void stateLocation;
    },
  };
}
