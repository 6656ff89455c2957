// The history checker lives in @agent-contracts/history (no storage drivers, so the conformance
// harness can use it without them); this subpath keeps `@agent-contracts/store/history` working.
export * from '@agent-contracts/history';
