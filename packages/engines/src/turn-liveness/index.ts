// Turn liveness (TurnLivenessRecoveryGate): thresholds, classification, the event state machine,
// recovery cards and read-only observation. Pure, with an injected clock.
export * from './card.js';
export * from './classify.js';
export * from './machine.js';
export * from './observe.js';
export * from './thresholds.js';
