/**
 * Permission check with pluggable approvers. `ask` mode asks the approver once per call unless the person
 * answered `always` for that tool earlier in this session; `auto` (and --accept-all) never asks.
 * Role guards are not here: tools call them whatever the mode.
 */
import type { Approver, ApproverAnswer, PermissionChecker, PermissionDecision, PermissionRequest } from './types.js';

export type PermissionMode = 'ask' | 'auto';

export class AcceptAllApprover implements Approver {
  async decide(): Promise<ApproverAnswer> {
    return 'allow';
  }
}

/** For runs with nobody to ask (`-p` without a terminal): refuse with a reason the model can relay. */
export class DenyApprover implements Approver {
  constructor(readonly reason = 'no one to approve in this mode; run with --accept-all or --permission-mode auto') {}
  async decide(): Promise<ApproverAnswer> {
    return 'deny';
  }
}

/** Adapts a function (a REPL prompt, a dashboard round trip) to an Approver. */
export class CallbackApprover implements Approver {
  constructor(private readonly fn: (req: PermissionRequest, signal: AbortSignal) => Promise<ApproverAnswer>) {}
  decide(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    return this.fn(req, signal);
  }
}

export class SessionPermissionChecker implements PermissionChecker {
  private readonly alwaysAllowed = new Set<string>();

  constructor(
    private mode: PermissionMode,
    private approver: Approver,
  ) {}

  setMode(mode: PermissionMode): void {
    this.mode = mode;
  }

  setApprover(approver: Approver): void {
    this.approver = approver;
  }

  /** Tools the person allowed for the rest of the session. */
  allowedTools(): string[] {
    return [...this.alwaysAllowed];
  }

  async check(req: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    if (this.mode === 'auto' || this.alwaysAllowed.has(req.tool)) return { allowed: true };
    if (signal.aborted) return { allowed: false, reason: 'aborted' };
    let answer: ApproverAnswer;
    try {
      answer = await this.approver.decide(req, signal);
    } catch (err) {
      return { allowed: false, reason: signal.aborted ? 'aborted' : `approval failed: ${(err as Error).message}` };
    }
    if (answer === 'always') {
      this.alwaysAllowed.add(req.tool);
      return { allowed: true };
    }
    if (answer === 'allow') return { allowed: true };
    const reason = this.approver instanceof DenyApprover ? this.approver.reason : 'the user denied this action';
    return { allowed: false, reason };
  }
}
