/**
 * Permission check with pluggable approvers. `ask` mode asks the approver once per call unless an allow
 * rule matches (settings `permissions.allow`, or an earlier `always` answer, scoped: `Bash(npm test:*)`,
 * `Write(src/)`); `auto` (and --accept-all) never asks. Settings `permissions.deny` refuses and
 * `permissions.ask` asks whatever the mode and the allow rules say (deny > ask > allow). Role guards are not
 * here: tools call them whatever the mode.
 */
import path from 'node:path';
import { canonicalPath, isInside, realpathOr } from '../fs-paths.js';
import { classify, ruleFor, ruleMatches, type RuleScope } from './permission-rules.js';
import { protectedWriteRule } from './protected-paths.js';
import { filePathOf } from './tool-input.js';
import type { StoredPermissionMode } from '../../contract/settings-schema.js';
import type { Approver, ApproverAnswer, PermissionChecker, PermissionDecision, PermissionRequest } from './types.js';

/**
 * `acceptEdits`: Write and Edit inside the workspace run unasked, the rest as in `ask`. `plan`: every tool that
 * needs permission is refused until ExitPlanMode's plan is approved, which switches to `ask`.
 */
export type PermissionMode = StoredPermissionMode | 'acceptEdits' | 'plan';

/** How plan mode's refusals begin: a refused call there is the mode working, not a failed turn. */
export const PLAN_REFUSAL_PREFIX = 'plan mode:';
const PLAN_REFUSAL = (tool: string) =>
  `${PLAN_REFUSAL_PREFIX} ${tool} is refused until your plan is approved. Explore with Read, Glob and Grep, then call ExitPlanMode with your plan and wait for the answer.`;

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

export interface CheckerOptions {
  /** Where path rules are relative to; without it, "always" allows the whole tool. */
  scope?: RuleScope;
  /** Allow rules from settings. */
  rules?: string[];
  /**
   * Setting `autoAllowSandboxedBash`: resolves true when Bash runs in the OS sandbox for this agent; such
   * commands then need no question (ask and deny rules still hold).
   */
  sandboxed?: () => Promise<boolean>;
  /** `permissions.ask` / `permissions.deny` from settings: deny > ask > allow, in every mode. */
  ask?: string[];
  deny?: string[];
  /** Persists a new rule (the "always" answer) so later sessions keep it; a promise it returns is awaited. */
  persist?: (rule: string) => unknown;
  /** `--add-dir`: directories that count as the workspace (acceptEdits lets edits there run unasked). */
  additionalDirs?: readonly string[];
}

export type RuleKind = 'allow' | 'ask' | 'deny';

export class SessionPermissionChecker implements PermissionChecker {
  private readonly rules: string[];
  private readonly ask: string[];
  private readonly deny: string[];

  constructor(
    private mode: PermissionMode,
    private approver: Approver,
    private readonly opts: CheckerOptions = {},
  ) {
    this.rules = [...(opts.rules ?? [])];
    this.ask = [...(opts.ask ?? [])];
    this.deny = [...(opts.deny ?? [])];
  }

  /** Rules an SDK host added for this process only, by kind; replaced as a whole by its `replaceRules`. */
  private readonly session: Record<RuleKind, string[]> = { allow: [], ask: [], deny: [] };

  private list(kind: RuleKind): string[] {
    return kind === 'allow' ? this.rules : kind === 'ask' ? this.ask : this.deny;
  }

  /** Adds rules for this process only (never written anywhere). */
  addRules(kind: RuleKind, rules: readonly string[]): void {
    const list = this.session[kind];
    for (const r of rules) if (!list.includes(r)) list.push(r);
  }

  /** Replaces this process's own rules of one kind; rules from settings and flags stay. */
  replaceRules(kind: RuleKind, rules: readonly string[]): void {
    this.session[kind] = [...new Set(rules)];
  }

  /** Removes rules wherever they came from, for this process. */
  removeRules(kind: RuleKind, rules: readonly string[]): void {
    for (const list of [this.session[kind], this.list(kind)]) {
      for (const r of rules) for (let i = list.indexOf(r); i >= 0; i = list.indexOf(r)) list.splice(i, 1);
    }
  }

  /** The rules of one kind in force now (settings, flags, answers, session). */
  rulesOf(kind: RuleKind): string[] {
    return [...this.list(kind), ...this.session[kind]];
  }

  setMode(mode: PermissionMode): void {
    this.mode = mode;
  }

  get currentMode(): PermissionMode {
    return this.mode;
  }

  /** A Write or Edit whose target is inside the workspace (acceptEdits lets it run unasked). */
  private isWorkspaceEdit(req: PermissionRequest): boolean {
    if (req.tool !== 'Write' && req.tool !== 'Edit') return false;
    const scope = this.opts.scope ?? { cwd: process.cwd(), projectRoot: process.cwd() };
    const p = filePathOf(req.input);
    if (p === undefined) return false;
    const abs = path.resolve(scope.cwd, p);
    let real: string;
    try {
      real = canonicalPath(abs);
    } catch {
      return false;
    }
    return [scope.worktree ?? scope.projectRoot, ...(this.opts.additionalDirs ?? [])].some((root) => isInside(real, realpathOr(root)));
  }

  setApprover(approver: Approver): void {
    this.approver = approver;
  }

  /** Allow rules in force: from settings and `always` answers. */
  allowRules(): string[] {
    return [...this.rules];
  }

  /** The rule an `always` answer to `req` would add. */
  scopeOf(req: PermissionRequest): string {
    return this.opts.scope ? ruleFor(req, this.opts.scope) : req.tool;
  }

  private allowedByRule(req: PermissionRequest): boolean {
    const scope = this.opts.scope ?? { cwd: process.cwd(), projectRoot: process.cwd() };
    return this.rulesOf('allow').some((r) => ruleMatches(r, req, scope));
  }

  private restriction(req: PermissionRequest) {
    const scope = this.opts.scope ?? { cwd: process.cwd(), projectRoot: process.cwd() };
    const v = classify(req, scope, { ask: this.rulesOf('ask'), deny: this.rulesOf('deny') });
    if (v?.kind === 'deny') return v;
    if (req.hookAsk) return { kind: 'ask' as const, rule: 'of a PreToolUse hook' };
    // A protected path (.git/, .mcp.json, …) asks whatever the mode and the allow rules say.
    const guarded = protectedWriteRule(req, scope.cwd);
    if (guarded) return { kind: 'ask' as const, rule: guarded };
    return v?.kind === 'allow' ? undefined : v;
  }

  restricts(req: PermissionRequest): boolean {
    return this.restriction(req) !== undefined;
  }

  denial(req: PermissionRequest): string | undefined {
    const restricted = this.restriction(req);
    return restricted?.kind === 'deny' ? `${req.tool} is refused by the rule ${restricted.rule} in settings permissions.deny; do it another way or ask the person to change the rule` : undefined;
  }

  async check(req: PermissionRequest, signal: AbortSignal): Promise<PermissionDecision> {
    const restricted = this.restriction(req);
    const denied = this.denial(req);
    if (denied) return { allowed: false, reason: denied };
    // Plan mode: only the plan itself goes to the approver (its answer ends plan mode).
    if (this.mode === 'plan' && req.tool !== 'ExitPlanMode') return { allowed: false, reason: PLAN_REFUSAL(req.tool) };
    if (!restricted && this.mode === 'acceptEdits' && this.isWorkspaceEdit(req)) return { allowed: true };
    // An ask rule asks even in `auto` mode and past allow rules: the person wrote it to be asked.
    if (!restricted && (this.mode === 'auto' || this.allowedByRule(req))) return { allowed: true };
    if (signal.aborted) return { allowed: false, reason: 'aborted' };
    if (!restricted && req.tool === 'Bash' && this.opts.sandboxed && (await this.opts.sandboxed())) return { allowed: true };
    const scope = this.scopeOf(req);
    let answer: ApproverAnswer;
    try {
      answer = await this.approver.decide({ ...req, scope, ...(restricted ? { askRule: restricted.rule } : {}) }, signal);
    } catch (err) {
      return { allowed: false, reason: signal.aborted ? 'aborted' : `approval failed: ${(err as Error).message}` };
    }
    if (answer === 'always' && restricted) return { allowed: true };
    if (answer === 'always') {
      if (!this.rules.includes(scope)) {
        this.rules.push(scope);
        await this.opts.persist?.(scope);
      }
      return { allowed: true };
    }
    if (answer === 'allow') return { allowed: true };
    if (typeof answer === 'object' && 'allow' in answer) return { allowed: true, input: answer.allow };
    if (typeof answer === 'object') return { allowed: false, reason: answer.deny, ...(answer.deniedByClient ? { deniedByClient: true } : {}) };
    const reason = this.approver instanceof DenyApprover ? this.approver.reason : 'the user denied this action';
    return { allowed: false, reason };
  }
}
