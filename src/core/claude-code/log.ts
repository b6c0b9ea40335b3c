/** A team's message log, read from the transcripts (the inboxes are queues, emptied on delivery). */
import type { TeamView } from './teams.js';
import { readTranscript, type TranscriptRecord } from './transcripts.js';

export interface LogEntry {
  at?: string;
  member: string;
  /** `in`: what the member was told (a prompt, a teammate's or the dashboard's message); `out`: what it said. */
  direction: 'in' | 'out';
  text: string;
}

function blocksText(content: unknown, direction: 'in' | 'out'): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: string; name?: string; input?: unknown }) => {
      if (b.type === 'text') return b.text ?? '';
      if (b.type === 'tool_use' && direction === 'out') return `[${b.name ?? 'tool'}] ${JSON.stringify(b.input ?? {}).slice(0, 200)}`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

/** The conversation turns of one transcript (tool results and Claude Code's own bookkeeping left out). */
export function logOf(member: string, records: TranscriptRecord[]): LogEntry[] {
  const out: LogEntry[] = [];
  for (const r of records) {
    if (r.type !== 'user' && r.type !== 'assistant') continue;
    const direction = r.type === 'user' ? 'in' : 'out';
    const text = blocksText(r.message?.content, direction).trim();
    if (text) out.push({ ...(r.timestamp ? { at: r.timestamp } : {}), member, direction, text });
  }
  return out;
}

/** The team's log in time order; `member` narrows it to one member (an unknown one is an error naming the members). */
export async function teamLog(team: TeamView, member?: string): Promise<LogEntry[]> {
  if (member !== undefined && !team.members.some((m) => m.name === member)) {
    throw new Error(`unknown member "${member}" of team "${team.name}"; members: ${team.members.map((m) => m.name).join(', ') || '(none)'}`);
  }
  const entries: LogEntry[] = [];
  for (const m of team.members) {
    if (member !== undefined && m.name !== member) continue;
    if (m.transcript) entries.push(...logOf(m.name, await readTranscript(m.transcript)));
  }
  return entries.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
}
