import { useEffect, useState } from 'react';
import type { BranchOverviewView } from '../../../contract/api';
import { act } from '../../context';
import { useDashboard } from '../../store';
import { warningsOf } from '../../store/review-slice';
import { ConflictView, type LeftConflicted } from './ConflictView';
import { teammateBranch } from '../../../contract/branch';

interface Overview {
  into: string;
  branches: BranchOverviewView[];
}
interface Predicted {
  results: Array<{ agent: string; result: string; ahead: number; conflicts: string[] }>;
  refusals: Array<{ reason: string }>;
  warnings: Array<{ reason: string }>;
}
interface RunResult {
  landed: boolean;
  merged: string[];
  nothing?: string[];
  landings?: Array<{ agent: string; count: number; tasks: string[] }>;
  conflicted: Array<{ agent: string; files: string[] }>;
  refusals: Array<{ reason: string }>;
  warnings: Array<{ reason: string }>;
  failed: { command: string; code: number | null; dir: string } | null;
  head: string | null;
  into: string;
}

function summary(r: RunResult): string {
  if (r.failed) return `check failed: "${r.failed.command}" exited ${r.failed.code ?? 'killed'} in ${r.failed.dir}; nothing landed`;
  if (r.landed) return `landed on ${r.into}: ${r.landings?.length ? r.landings.map((l) => `${l.agent} (${l.count} commit(s))`).join(', ') : r.merged.join(', ')}; told the lead${r.landings?.length ? ` and ${r.landings.map((l) => l.agent).join(', ')}` : ''}${r.conflicted.length ? `; conflicted (skipped): ${r.conflicted.map((c) => `${c.agent} (${c.files.join(', ')})`).join(', ')}` : ''}`;
  if (!r.refusals.length && !r.conflicted.length && r.nothing?.length) return `nothing to merge into ${r.into}: ${r.nothing.join(', ')} already on it`;
  return `nothing landed${r.refusals.length ? `: ${r.refusals.map((x) => x.reason).join('; ')}` : r.conflicted.length ? `: conflicts in ${r.conflicted.map((c) => c.agent).join(', ')}` : ''}`;
}

/** The merge panel: branches, dry run in order, integration with the checks streamed, then landing. */
export function MergePanel() {
  const openReview = useDashboard((s) => s.openReview);
  const warnings = useDashboard((s) => s.warnings);
  const output = useDashboard((s) => s.mergeOutput);
  const clearOutput = useDashboard((s) => s.clearMergeOutput);
  const checks = useDashboard((s) => s.settings?.checks);
  const [overview, setOverview] = useState<Overview | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [dry, setDry] = useState<Predicted | null>(null);
  const [result, setResult] = useState<RunResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [runChecks, setRunChecks] = useState(true);
  const [allowLive, setAllowLive] = useState(false);
  const [allowUncommitted, setAllowUncommitted] = useState(false);
  const [left, setLeft] = useState<LeftConflicted | null>(null);
  // A landing from elsewhere (`thclaws team merge`) marks tasks landed: the rows are read again.
  const landedMarks = useDashboard((s) => Object.values(s.tasks).filter((t) => t.landed).length);
  const load = async () => {
    setLeft(((await act({ type: 'merge_conflicts' })) as LeftConflicted | null | undefined) ?? null);
    const o = (await act({ type: 'merge_overview' })) as Overview | undefined;
    if (!o) return;
    setOverview(o);
    // A branch with nothing ahead has nothing to merge (after a landing, every landed one): it is unticked.
    const ahead = o.branches.filter((b) => b.ahead > 0).map((b) => b.agent);
    setSelected((s) => (s.length ? s.filter((a) => ahead.includes(a)) : ahead));
  };
  useEffect(() => {
    void load();
  }, [landedMarks]);
  // While a merge is left in progress the person resolves it elsewhere (editor, terminal): read it again now
  // and then, so the panel follows them down to "commit it".
  const leftOpen = left !== null;
  useEffect(() => {
    if (!leftOpen) return;
    const t = setInterval(() => void act({ type: 'merge_conflicts' }).then((l) => l !== undefined && setLeft((l as LeftConflicted | null) ?? null)), 2000);
    return () => clearInterval(t);
  }, [leftOpen]);
  /** The refusal's second offer for a working teammate: ask it (a message from the person) to commit and pause. */
  const askToPause = (agent: string) =>
    act({ type: 'send_message', to: agent, text: `Please commit your work on ${teammateBranch(agent)} now (git add -A && git commit) with a message saying where you are, then pause: take no new task until the person has merged your branch. Reply when committed.` });
  /** leave_conflicted: that branch merged into the lead's checkout and left there, both sides shown. */
  const leaveConflicted = async (agent: string) => {
    // A refusal (dirty checkout, merges cleanly, …) is shown by `act` as an error notice.
    setLeft(((await act({ type: 'merge_leave_conflicted', agent })) as LeftConflicted | undefined) ?? null);
  };
  const notify = useDashboard((s) => s.notify);
  const abort = async (confirm: boolean) => {
    const r = (await act({ type: 'merge_abort', confirm })) as { saved: string | null } | undefined;
    if (r?.saved) notify('info', `Merge aborted; your work is saved in ${r.saved} (git apply ${r.saved} puts it back).`);
    void load();
  };
  /** Selected branches with commits to merge: without one, Merge has nothing to do. */
  const mergeable = selected.filter((a) => (overview?.branches.find((b) => b.agent === a)?.ahead ?? 0) > 0);
  const toggle = (a: string) => setSelected((s) => (s.includes(a) ? s.filter((x) => x !== a) : [...s, a]));
  const dryRun = async () => {
    setDry(((await act({ type: 'merge_dry_run', agents: selected })) as Predicted | undefined) ?? null);
  };
  const merge = async () => {
    // Open review comments ask for changes the landing would go without: the person confirms first.
    const open = (overview?.branches ?? []).filter((b) => mergeable.includes(b.agent) && b.open_comments > 0);
    const despite = open.length > 0;
    if (despite && !window.confirm(`${open.map((b) => `${b.agent}: ${b.open_comments} open review comment(s)`).join('\n')}\n\nLand anyway?`)) return;
    setBusy(true);
    clearOutput();
    setResult(null);
    setDry(null); // a prediction of the branches before this merge: stale once it runs
    const r = (await act({ type: 'merge_run', agents: selected, checks: runChecks, allow_live: allowLive, allow_uncommitted: allowUncommitted, allow_open_comments: despite })) as RunResult | undefined;
    setResult(r ?? null);
    setBusy(false);
    void load();
  };
  return (
    <div className="review-view merge-panel" data-testid="merge-panel">
      <div className="review-bar">
        <strong>Merge into {overview?.into ?? '…'}</strong>
        <span className="spacer" />
        <button onClick={() => openReview({ kind: 'changes', agent: 'all' })}>Changes…</button>
        <button onClick={() => openReview(null)} aria-label="close">
          ✕
        </button>
      </div>
      <div className="review-scroll">
        <table className="merge-table" aria-label="teammate branches">
          <thead>
            <tr>
              <th aria-label="select">
                <span className="sr-only">select</span>
              </th>
              <th>teammate</th>
              <th>ahead / behind</th>
              <th>last commit</th>
              <th>completed tasks</th>
              <th>open comments</th>
              <th>uncommitted</th>
              <th>warnings</th>
            </tr>
          </thead>
          <tbody>
            {overview?.branches.map((b) => (
              <tr key={b.agent} data-agent={b.agent}>
                <td>
                  <input type="checkbox" checked={selected.includes(b.agent)} onChange={() => toggle(b.agent)} aria-label={`merge ${b.agent}`} />
                </td>
                <td data-label="teammate">
                  <button className="linkish" onClick={() => openReview({ kind: 'changes', agent: b.agent })}>
                    {b.agent}
                  </button>{' '}
                  <span className="muted">{b.state}</span>
                  {b.state === 'working' && (
                    <button className="merge-ask-pause" onClick={() => void askToPause(b.agent)} title="a message to it: commit what it has and pause until the merge is done">
                      Ask to commit &amp; pause
                    </button>
                  )}
                </td>
                <td data-label="ahead / behind" className={b.landed ? 'merge-landed' : undefined} title={b.landed ? `${b.ahead} ahead / ${b.behind} behind ${overview.into}` : undefined}>
                  {b.landed
                    ? `landed on ${b.landed.into} · ${b.landed.commit.slice(0, 7)}`
                    : b.ahead === 0 && b.uncommitted.length
                      ? `nothing committed (${b.ahead} / ${b.behind})` // why the row is unticked: its work is not on the branch
                      : `${b.ahead} / ${b.behind}`}
                </td>
                <td data-label="last commit" className="merge-last">{b.last_commit?.subject ?? '—'}</td>
                <td data-label="completed tasks">{b.completed_tasks.map((t) => `#${t.id} ${t.subject}`).join(', ') || '—'}</td>
                <td data-label="open comments">{b.open_comments}</td>
                <td data-label="uncommitted" title={b.uncommitted.join('\n')}>{b.uncommitted.length || '—'}</td>
                <td data-label="warnings">{warningsOf(warnings, b.agent).map((w) => `${w.kind} with ${w.agents.find((a) => a !== b.agent)}`).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="merge-actions">
          <button onClick={() => void dryRun()} disabled={!selected.length}>
            Dry run
          </button>
          {/* The commands themselves in the tooltip: a long chain would push the other actions onto lines of their own. */}
          <label title={checks?.length ? checks.join('\n') : undefined}>
            <input type="checkbox" checked={runChecks} onChange={(e) => setRunChecks(e.target.checked)} /> run checks{checks?.length ? ` (${checks.length})` : ''}
          </label>
          <label title="merge a working teammate's last commit anyway">
            <input type="checkbox" checked={allowLive} onChange={(e) => setAllowLive(e.target.checked)} /> even if working
          </label>
          <label title="uncommitted files are left out (listed)">
            <input type="checkbox" checked={allowUncommitted} onChange={(e) => setAllowUncommitted(e.target.checked)} /> leave uncommitted out
          </label>
          <button className="primary merge-run" onClick={() => void merge()} disabled={!mergeable.length || busy || !!left}>
            {busy ? 'Merging…' : mergeable.length ? `Merge ${mergeable.length}` : 'Nothing to merge'}
          </button>
        </div>
        {dry && (
          <div className="merge-dry" data-testid="dry-run">
            {dry.results.map((r) => (
              <div key={r.agent} className={`dry-${r.result}`} data-agent={r.agent} data-result={r.result}>
                {r.agent}: {r.result === 'conflict' ? `would CONFLICT in ${r.conflicts.join(', ')}` : r.result === 'clean' ? `${r.ahead} commit(s), merges cleanly` : r.result}
              </div>
            ))}
            {[...dry.refusals, ...dry.warnings].map((r, i) => (
              <div key={i} className="merge-note">
                {r.reason}
              </div>
            ))}
          </div>
        )}
        {(output || busy) && (
          <pre className="merge-output" data-testid="checks-output">
            {output || 'integrating…'}
          </pre>
        )}
        {result && (
          <div className={`merge-result ${result.landed ? 'ok' : 'bad'}`} data-testid="merge-result">
            {summary(result)}
            {!left &&
              result.conflicted.map((c) => (
                <button key={c.agent} className="merge-leave" onClick={() => void leaveConflicted(c.agent)} title="merge it into the lead's checkout and leave the conflict there, to see both sides">
                  Leave {c.agent} conflicted
                </button>
              ))}
            {result.warnings.map((w, i) => (
              <div key={i} className="merge-note">
                {w.reason}
              </div>
            ))}
          </div>
        )}
        {left && <ConflictView left={left} onAbort={(c) => void abort(c)} />}
      </div>
    </div>
  );
}
