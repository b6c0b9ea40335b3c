/**
 * Claude Code's permission requests, answered from thclaws. The `PermissionRequest` hook thclaws installs
 * runs `thclaws claude-team hook`: it records the request as `<id>.json` in thclaws' approvals folder (0700),
 * waits for `<id>.answer.json` (written by `approve`/`deny`), and prints the decision in the hook output
 * Claude Code 2.1.333 reads: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":
 * {"behavior":"allow"|"deny","message"?}}}`. When nobody answers in time it prints nothing, and Claude Code
 * falls back to its own dialog: the request is never decided by a timeout.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { approvalsDir, claudeDir } from './paths.js';
import { pidAlive } from '../store/index.js';

/** The fields of Claude Code's hook input thclaws uses (the rest pass through). */
export const hookInputSchema = z
  .object({
    hook_event_name: z.string(),
    session_id: z.string().optional(),
    cwd: z.string().optional(),
    tool_name: z.string(),
    tool_input: z.unknown().optional(),
    agent_id: z.string().optional(),
    agent_type: z.string().optional(),
  })
  .passthrough();
export type HookInput = z.infer<typeof hookInputSchema>;

export interface ApprovalRequest {
  id: string;
  createdAt: string;
  /** The member asking: the teammate's name for an in-process teammate, else the lead. */
  agent: string;
  sessionId?: string;
  cwd?: string;
  toolName: string;
  toolInput: unknown;
  /** The waiting hook process: a request whose hook is gone is no longer pending. */
  hookPid: number;
}

const answerSchema = z.object({ behavior: z.enum(['allow', 'deny']), message: z.string().optional() });
export type ApprovalAnswer = z.infer<typeof answerSchema>;

const requestFile = (dir: string, id: string) => path.join(dir, `${id}.json`);
const answerFile = (dir: string, id: string) => path.join(dir, `${id}.answer.json`);

async function writeAtomic(file: string, data: unknown): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(data, null, 2), { mode: 0o600 });
  await rename(tmp, file);
}

/** The hook's side: record the request, wait up to `waitMs` for an answer; undefined = no answer (ask). */
export async function awaitDecision(input: HookInput, waitMs: number, root = claudeDir(), pollMs = 100): Promise<ApprovalAnswer | undefined> {
  const dir = approvalsDir(root);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const request: ApprovalRequest = {
    id,
    createdAt: new Date().toISOString(),
    agent: input.agent_type ?? 'team-lead',
    ...(input.session_id ? { sessionId: input.session_id } : {}),
    ...(input.cwd ? { cwd: input.cwd } : {}),
    toolName: input.tool_name,
    toolInput: input.tool_input ?? {},
    hookPid: process.pid,
  };
  await writeAtomic(requestFile(dir, id), request);
  const deadline = Date.now() + waitMs;
  try {
    while (Date.now() < deadline) {
      const raw = await readFile(answerFile(dir, id), 'utf8').catch(() => undefined);
      if (raw !== undefined) {
        const r = answerSchema.safeParse(JSON.parse(raw));
        if (r.success) return r.data;
      }
      await new Promise((f) => setTimeout(f, pollMs));
    }
    return undefined;
  } finally {
    await rm(requestFile(dir, id), { force: true });
    await rm(answerFile(dir, id), { force: true });
  }
}

/** The JSON a PermissionRequest hook prints for an answer. */
export function hookOutput(answer: ApprovalAnswer): string {
  const decision = answer.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: answer.message ?? 'Denied from thclaws' };
  return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
}

/** The requests still waiting (their hook process alive), oldest first. */
export async function pendingApprovals(root = claudeDir()): Promise<ApprovalRequest[]> {
  const dir = approvalsDir(root);
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: ApprovalRequest[] = [];
  for (const name of names.filter((n) => /^[\w-]+\.json$/.test(n) && !n.endsWith('.answer.json'))) {
    const raw = await readFile(path.join(dir, name), 'utf8').catch(() => undefined);
    if (raw === undefined) continue;
    let req: ApprovalRequest;
    try {
      req = JSON.parse(raw) as ApprovalRequest;
    } catch {
      continue; // thclaws' own file mid-rename cannot be torn (atomic); anything else is not a request
    }
    if (pidAlive(req.hookPid)) out.push(req);
  }
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Answers a pending request; an unknown or already-answered id is an error naming the pending ones. */
export async function answerApproval(id: string, answer: ApprovalAnswer, root = claudeDir()): Promise<ApprovalRequest> {
  const pending = await pendingApprovals(root);
  const req = pending.find((r) => r.id === id);
  if (!req) throw new Error(`no pending Claude Code approval "${id}"; pending: ${pending.map((r) => r.id).join(', ') || '(none)'}`);
  await writeAtomic(answerFile(approvalsDir(root), id), answer);
  return req;
}
