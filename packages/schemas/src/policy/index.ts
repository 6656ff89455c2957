// Pure helpers of PermissionPolicyGate and DelegationGate shared by the validators and the engines.
export * from './credential-shapes.js';
export * from './delegation-scope.js';
export * from './resource-pattern.js';
