// The run controller (RunControlGate): budgets, pauses, terminal states and loop detection over
// RunStateV1. Pure, with an injected clock.
export * from './controller.js';
export * from './refusal.js';
