import type { Member } from '../contract/api';
import { LEAD } from '../contract/limits';

export interface ResumeResult {
  resumed: { name: string }[];
  fresh: string[];
  failed: { name: string; error: string }[];
}

/** "Resume team" applies when teammates ran (dead or stopped) and none is live: nothing would run twice. */
export function canResumeTeam(members: Member[]): boolean {
  const mates = members.filter((m) => m.name !== LEAD);
  return mates.length > 0 && !mates.some((m) => m.alive) && mates.some((m) => m.state === 'dead' || m.state === 'stopped');
}

/** What "Resume team" did, one sentence per kind of outcome. */
export function resumeSummary(r: ResumeResult): string {
  return [
    r.resumed.length ? `Resumed ${r.resumed.map((m) => m.name).join(', ')} where ${r.resumed.length > 1 ? 'their conversations' : 'its conversation'} left off.` : '',
    r.fresh.length ? `Started ${r.fresh.join(', ')} fresh (no saved conversation).` : '',
    ...r.failed.map((f) => `${f.name} could not start: ${f.error}`),
  ]
    .filter(Boolean)
    .join(' ');
}
