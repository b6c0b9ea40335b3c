/** Whether the OS sandbox runs in this process, for the start-up warning, `/team`, `/sandbox` and the dashboard. */

export type SandboxStatus =
  | { state: 'os'; platform: string; detail: string }
  | { state: 'guards-only'; reason: string; fix: string }
  | { state: 'off'; reason: string }
  | { state: 'pending' };

let current: SandboxStatus = { state: 'pending' };

export function currentSandboxStatus(): SandboxStatus {
  return current;
}

export function setSandboxStatus(s: SandboxStatus): void {
  current = s;
}

/** One line for people: the `/team` header, the dashboard, the start-up warning. */
export function describeSandboxStatus(s: SandboxStatus): string {
  switch (s.state) {
    case 'os':
      return `sandbox: on (${s.detail})`;
    case 'guards-only':
      return `sandbox: unavailable, guards only — ${s.reason}. Fix: ${s.fix}`;
    case 'off':
      return `sandbox: off (${s.reason}), guards only`;
    case 'pending':
      return 'sandbox: starting';
  }
}
