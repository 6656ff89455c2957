import type { ContractEntry } from '../gates.js';

/** Catalogue entries of this area, in spec order. */
export const LOCAL_TASK_TRACE_CONTRACTS: readonly ContractEntry[] = [];
