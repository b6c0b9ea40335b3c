/**
 * The shapes of Claude Code's team files, tolerant of drift: only the fields thclaws shows are required,
 * everything else passes through. A file that fails is reported with its path, the Claude Code version that
 * wrote it (when known) and what failed (ClaudeCodeFormatError), never read as empty.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export const memberSchema = z
  .object({
    name: z.string(),
    agentId: z.string().optional(),
    agentType: z.string().optional(),
    backendType: z.string().optional(),
    tmuxPaneId: z.string().optional(),
    cwd: z.string().optional(),
    model: z.string().optional(),
    color: z.string().optional(),
    isActive: z.boolean().optional(),
    joinedAt: z.number().optional(),
  })
  .passthrough();
export type ClaudeMember = z.infer<typeof memberSchema>;

export const teamConfigSchema = z
  .object({
    name: z.string(),
    createdAt: z.number().optional(),
    leadAgentId: z.string().optional(),
    leadSessionId: z.string().optional(),
    leadProcess: z.object({ pid: z.number(), procStart: z.string().optional() }).passthrough().optional(),
    members: z.array(memberSchema),
  })
  .passthrough();
export type ClaudeTeamConfig = z.infer<typeof teamConfigSchema>;

export const sessionSchema = z
  .object({
    pid: z.number(),
    sessionId: z.string(),
    cwd: z.string().optional(),
    version: z.string().optional(),
    status: z.string().optional(),
    waitingFor: z.string().optional(),
    tmux: z.string().optional(),
    procStart: z.string().optional(),
  })
  .passthrough();
export type ClaudeSession = z.infer<typeof sessionSchema>;

export const taskSchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    subject: z.string(),
    description: z.string().optional(),
    status: z.string(),
    owner: z.string().optional(),
    blocks: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
    blockedBy: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  })
  .passthrough();
export type ClaudeTask = z.infer<typeof taskSchema>;

export const inboxEntrySchema = z
  .object({ from: z.string(), text: z.string(), timestamp: z.string(), read: z.boolean().optional(), summary: z.string().optional(), color: z.string().optional() })
  .passthrough();
export const inboxSchema = z.array(inboxEntrySchema);
export type ClaudeInboxEntry = z.infer<typeof inboxEntrySchema>;

/** A Claude Code file thclaws cannot read: says which file, which version wrote it, and what failed. */
export class ClaudeCodeFormatError extends Error {
  constructor(
    readonly file: string,
    readonly version: string | undefined,
    readonly what: string,
  ) {
    super(`cannot read ${file} (Claude Code ${version ?? 'version unknown'}): ${what}`);
    this.name = 'ClaudeCodeFormatError';
  }
}

function describe(issues: z.ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`)
    .join('; ');
}

/** Parses already-read text; `version` names the writer in the error when the caller knows it. */
export function parseJsonText<T extends z.ZodTypeAny>(file: string, text: string, schema: T, version?: string): z.output<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ClaudeCodeFormatError(file, version, `not JSON (${(err as Error).message})`);
  }
  const found = version ?? (raw && typeof raw === 'object' && typeof (raw as { version?: unknown }).version === 'string' ? (raw as { version: string }).version : undefined);
  const r = schema.safeParse(raw);
  if (!r.success) throw new ClaudeCodeFormatError(file, found, describe(r.error.issues));
  return r.data;
}

/** Reads and parses one JSON file; undefined when it does not exist (a queue emptied, a team gone). */
export async function readJsonFile<T extends z.ZodTypeAny>(file: string, schema: T, version?: string): Promise<z.output<T> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return parseJsonText(file, text, schema, version);
}
