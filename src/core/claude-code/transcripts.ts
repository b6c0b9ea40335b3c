/**
 * Claude Code's transcripts (JSONL, one record a line): the lead's `<session>.jsonl` and each in-process
 * teammate's `<session>/subagents/agent-<id>.jsonl` with a `.meta.json` naming it. Inboxes are queues; the
 * messages a member saw and said are here.
 */
import { open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { projectDir, subagentsDir } from './paths.js';
import { ClaudeCodeFormatError, readJsonFile } from './schemas.js';

export interface TranscriptRecord {
  type: string;
  timestamp?: string;
  version?: string;
  message?: { role?: string; content?: unknown; stop_reason?: string | null };
}

const recordSchema = z
  .object({
    type: z.string(),
    timestamp: z.string().optional(),
    version: z.string().optional(),
    message: z.object({ role: z.string().optional(), content: z.unknown(), stop_reason: z.string().nullish() }).passthrough().optional(),
  })
  .passthrough();

/** Every record of a transcript; [] when it does not exist. A torn last line (being appended) is skipped. */
export async function readTranscript(file: string): Promise<TranscriptRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n');
  const records: TranscriptRecord[] = [];
  let version: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim()) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]!);
    } catch {
      if (i >= lines.length - 2) break; // the line being written
      throw new ClaudeCodeFormatError(file, version, `line ${i + 1} is not JSON`);
    }
    const r = recordSchema.safeParse(raw);
    if (!r.success) throw new ClaudeCodeFormatError(file, version, `line ${i + 1}: ${r.error.issues[0]?.path.join('.') || '(top)'}: ${r.error.issues[0]?.message}`);
    version = r.data.version ?? version;
    records.push(r.data);
  }
  return records;
}

const metaSchema = z.object({ name: z.string().optional(), agentType: z.string().optional(), teamName: z.string().optional() }).passthrough();

/** The in-process teammates' transcripts of a lead session, by member name. */
export async function subagentTranscripts(cwd: string, sessionId: string, root?: string): Promise<Map<string, string>> {
  const dir = subagentsDir(cwd, sessionId, root);
  const found = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return found;
    throw err;
  }
  for (const name of names.filter((n) => n.endsWith('.meta.json')).sort()) {
    const meta = await readJsonFile(path.join(dir, name), metaSchema);
    const member = meta?.name ?? meta?.agentType;
    if (member) found.set(member, path.join(dir, name.replace(/\.meta\.json$/, '.jsonl')));
  }
  return found;
}


/** How much of a transcript's head is read to find whose it is (its first turn names the team and member). */
const HEAD_BYTES = 64 * 1024;

/**
 * The pane teammates' transcripts: each is its own session in the same project folder, its records tagged
 * `"teamName":…,"agentName":…`. Only transcripts written since the team was made are looked at.
 */
export async function paneTranscripts(cwd: string, team: string, since: number, root?: string): Promise<Map<string, string>> {
  const dir = projectDir(cwd, root);
  const found = new Map<string, string>();
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const tag = `"teamName":${JSON.stringify(team)},"agentName":"`;
  for (const e of entries.filter((x) => x.isFile() && x.name.endsWith('.jsonl'))) {
    const file = path.join(dir, e.name);
    const fh = await open(file, 'r').catch(() => undefined);
    if (!fh) continue;
    try {
      if ((await fh.stat()).mtimeMs < since) continue;
      const buf = Buffer.alloc(HEAD_BYTES);
      const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
      const head = buf.subarray(0, bytesRead).toString('utf8');
      const at = head.indexOf(tag);
      if (at >= 0) found.set(head.slice(at + tag.length, head.indexOf('"', at + tag.length)), file);
    } finally {
      await fh.close();
    }
  }
  return found;
}

/** The Claude Code version that wrote the transcript (its last record naming one). */
export function transcriptVersion(records: TranscriptRecord[]): string | undefined {
  for (let i = records.length - 1; i >= 0; i--) if (records[i]!.version) return records[i]!.version;
  return undefined;
}

export type TurnState = 'busy' | 'idle' | 'starting';

/** Where a member's conversation stands: its last assistant turn ended (idle), or a turn is under way. */
export function turnState(records: TranscriptRecord[]): TurnState {
  const turns = records.filter((r) => r.type === 'user' || r.type === 'assistant');
  const last = turns.at(-1);
  if (!last) return 'starting';
  return last.type === 'assistant' && last.message?.stop_reason === 'end_turn' ? 'idle' : 'busy';
}
