/** The OS sandbox for the Bash tool: a policy per role (policy.ts), the engine (runtime.ts), status and explanations. */
export { createRoleSandbox, SandboxUnavailableError, type RoleSandbox } from './bash-sandbox.js';
export { explainRefusal } from './explain.js';
export { areaOf, ownWorktree, policyFor, type AreaRule, type PolicyInput, type SandboxPolicy } from './policy.js';
export { probeSandbox, quickCheck, stopSandboxRuntime, INSTALL_FIX } from './runtime.js';
export { DEFAULT_BUILD_DIRS, DEFAULT_DENY_READ, layeredSandboxSettings, sandboxSettings, SandboxSettingsError, type SandboxSettings } from './settings.js';
export { currentSandboxStatus, describeSandboxStatus, setSandboxStatus, type SandboxStatus } from './status.js';
export { readSettingsLayer, workspaceSandboxStatus } from './workspace-status.js';
