// Checkpoints and their validation (TurnLivenessRecoveryGate): pure, with an injected clock.
export * from './checkpoint.js';
export * from './validation.js';
