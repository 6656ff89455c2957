// Protocol v1 lives in @agent-contracts/protocol (docs/protocol.md); the harness re-exports it so
// that `import { PROTOCOL_VERSION, Refusal, ... } from '@agent-contracts/harness'` keeps working.
export * from '@agent-contracts/protocol';
