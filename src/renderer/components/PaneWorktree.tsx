/**
 * A card's machine and branch figures: CPU, memory (its whole process tree) and its worktree's disk use;
 * "N behind main" after a landing; Update (merge the lead's branch in, an idle teammate only) and Archive
 * (remove the worktree and branch of landed work; unlanded work only after the person confirms).
 */
import type { Member } from '../../contract/api';
import { act, client } from '../context';
import { dashboard } from '../store';
import { LEAD } from '../../contract/limits';

export function formatBytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.max(0, Math.round(n / 1024))} KB`;
  if (n < 1024 ** 3) return `${Math.round(n / 1024 ** 2)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

export function PaneCosts({ member }: { member: Member }) {
  const r = member.resources;
  const parts = [r?.cpu_percent != null ? `CPU ${Math.round(r.cpu_percent)}%` : null, r?.rss_bytes != null ? formatBytes(r.rss_bytes) : null, r?.disk_bytes != null ? `disk ${formatBytes(r.disk_bytes)}` : null].filter(Boolean);
  const into = member.behind_of ?? 'main';
  return (
    <>
      {parts.length > 0 && (
        <span className="pane-meta pane-costs" data-testid="pane-costs" title={`${parts.join(' · ')}: CPU and memory of the agent with every process it started; disk used by its worktree`}>
          {parts.join(' · ')}
        </span>
      )}
      {!!member.behind && (
        <span className="badge pane-behind" data-testid="pane-behind" title={`${into} has ${member.behind} commit(s) this teammate's branch lacks: Update merges them in`}>
          {member.behind} behind <code>{into}</code>
        </span>
      )}
    </>
  );
}

async function archive(name: string): Promise<void> {
  if (!window.confirm(`Archive ${name}: remove its worktree .worktrees/${name} and branch team/${name}?`)) return;
  try {
    await client.request({ type: 'member_archive', name, force: false });
  } catch (err) {
    const why = (err as Error).message;
    // Refused (unlanded work, or live): the person may still throw it away, by this name, after reading why.
    if (/has not landed|stop it first/.test(why) && window.confirm(`${why}\n\nArchive ${name} anyway? Its unlanded work goes (its last commit is kept in the team log).`)) {
      await act({ type: 'member_archive', name, force: true });
    } else dashboard.getState().notify('error', why);
  }
}

export function WorktreeActions({ member }: { member: Member }) {
  if (member.name === LEAD || member.behind == null) return null;
  const busy = member.state === 'working' || member.state === 'spawning';
  return (
    <>
      {member.behind > 0 && (
        <button className="update" disabled={busy} title={busy ? 'once it is idle' : `merge ${member.behind_of ?? 'main'} into its worktree`} onClick={() => void act({ type: 'member_update', name: member.name })}>
          Update
        </button>
      )}
      {!member.alive && (
        <button className="archive" title="remove its worktree and branch (its work landed)" onClick={() => void archive(member.name)}>
          Archive
        </button>
      )}
    </>
  );
}
