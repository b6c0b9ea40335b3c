/**
 * Writing to a Claude Code inbox as Claude Code does: `inboxes/<member>.json` is a JSON array rewritten whole
 * under a `mkdir` lock `<file>.lock/` (proper-lockfile: a lock whose mtime is older than 10 s is stale and
 * taken over), written to a temp file and renamed. thclaws writes prose only, as sender `dashboard`: text that
 * parses as a control frame (a JSON object with a `type`) is refused, so nothing can pass for a
 * permission answer or a shutdown.
 */
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { claudeDir, inboxFile, teamConfigFile } from './paths.js';
import { inboxSchema, parseJsonText, readJsonFile, teamConfigSchema, type ClaudeInboxEntry } from './schemas.js';

export const SENDER = 'dashboard';
/** proper-lockfile's default, which Claude Code's inbox lock uses. */
export const STALE_LOCK_MS = 10_000;
const RETRIES = 10;

const sleep = (ms: number) => new Promise((f) => setTimeout(f, ms));

/** Why a text may not be sent, or undefined when it is plain prose. */
export function controlFrameReason(text: string): string | undefined {
  if (!text.trim()) return 'the message is empty';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed && typeof parsed === 'object') return 'the message parses as JSON, which Claude Code reads as a control frame; send prose';
  return undefined;
}

/** Takes `<file>.lock/` as Claude Code does; a lock older than STALE_LOCK_MS (its holder died) is taken over. */
export async function acquireLock(file: string, staleMs = STALE_LOCK_MS): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(lock);
      return () => rm(lock, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = await stat(lock).catch(() => undefined);
    if (held && Date.now() - held.mtimeMs > staleMs) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (attempt >= RETRIES) throw new Error(`${file} is locked by Claude Code (${lock} held); try again`);
    await sleep(Math.min(100, 5 * 2 ** attempt));
  }
}

/** Appends `text` to the member's inbox as `dashboard`; the team and member must be on the roster. */
export async function sendToMember(team: string, member: string, text: string, root = claudeDir()): Promise<ClaudeInboxEntry> {
  const refusal = controlFrameReason(text);
  if (refusal) throw new Error(refusal);
  const config = await readJsonFile(teamConfigFile(team, root), teamConfigSchema);
  if (!config) throw new Error(`unknown Claude Code team "${team}" (no ${teamConfigFile(team, root)}), or it has ended`);
  if (!config.members.some((m) => m.name === member)) throw new Error(`unknown member "${member}" of team "${team}"; members: ${config.members.map((m) => m.name).join(', ')}`);
  const file = inboxFile(team, member, root);
  await mkdir(path.dirname(file), { recursive: true });
  const release = await acquireLock(file);
  try {
    let current: ClaudeInboxEntry[] = [];
    const raw = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    // A torn or drifted inbox is not overwritten: the entries in it would be lost.
    if (raw !== undefined && raw.trim()) current = parseJsonText(file, raw, inboxSchema);
    const entry: ClaudeInboxEntry = { from: SENDER, text, timestamp: new Date().toISOString(), read: false, summary: text.split('\n')[0]!.slice(0, 80) };
    const tmp = `${file}.thclaws-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(tmp, JSON.stringify([...current, entry], null, 2));
    await rename(tmp, file);
    return entry;
  } finally {
    await release();
  }
}
