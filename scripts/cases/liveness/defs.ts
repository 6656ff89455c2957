// The case registry: `add` runs a case's steps on a fresh Session and files the case under its
// group (conformance/cases/<group>/), in the order the case modules are loaded.
import type { Case } from '@agent-contracts/harness';
import { requirementsOf } from '../requirements.ts';
import { Session } from './session.ts';

interface CaseMeta {
  readonly id: string;
  readonly title: string;
  readonly gate: 'TurnLivenessRecoveryGate' | 'LocalTaskTraceGate';
  readonly subject: string;
  readonly spec: string;
  readonly requires: readonly string[];
}

export const groups = { liveness: [] as Case[], checkpoint: [] as Case[], trace: [] as Case[] };

export function add(meta: CaseMeta, build: (s: Session) => void): void {
  const s = new Session();
  build(s);
  const group = meta.id.split('/')[0] as keyof typeof groups;
  const head = { title: meta.title, gate: meta.gate, subject: meta.subject, spec: meta.spec };
  const requires = [...meta.requires];
  // A case that expects a terminal the recorder built compares its fixed occurrence key
  // `turn-terminal`, payload and event id whole (LTT-500).
  const extra = s.recorderTerminal ? ['LTT-500'] : [];
  groups[group].push({
    id: meta.id,
    ...head,
    ...requirementsOf({ id: meta.id, spec: meta.spec, steps: s.steps }, 'operation', extra),
    requires,
    steps: s.steps,
  });
}
