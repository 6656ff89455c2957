// Host events as the protocol carries them (liveness.event), and the engine event an
// implementation builds from one.
import type { TurnHostEvent } from '@agent-contracts/engines';

/** A host event as the protocol carries it (`at`: RFC 3339, default the implementation's clock). */
export type WireEvent = { readonly type: string; readonly at?: string; readonly [k: string]: unknown };

export const ups = (turnKey: string, extra: Record<string, unknown> = {}): WireEvent => ({
  type: 'UserPromptSubmit',
  turnKey,
  ...extra,
});
export const pre = (
  operationId: string,
  opts: { tool?: string; decision?: 'allowed' | 'blocked'; mutating?: boolean; targets?: string[] } = {},
): WireEvent => ({
  type: 'PreToolUse',
  operationId,
  toolName: opts.tool ?? 'Edit',
  hostDecision: opts.decision ?? 'allowed',
  mutating: opts.mutating ?? true,
  ...(opts.targets ? { targetPaths: opts.targets } : {}),
});
export const post = (operationId: string, extra: Record<string, unknown> = {}): WireEvent => ({
  type: 'PostToolUse',
  operationId,
  ...extra,
});
export const ev = (type: string, extra: Record<string, unknown> = {}): WireEvent => ({ type, ...extra });

/** The engine event the implementation builds from a wire event (the same mapping as its params reader). */
export function engineEvent(e: WireEvent, nowMs: number): TurnHostEvent {
  const { at, ...rest } = e;
  return { ...rest, at: at === undefined ? nowMs : Date.parse(at) } as unknown as TurnHostEvent;
}
