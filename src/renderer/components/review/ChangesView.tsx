import { useState } from 'react';
import type { ChangesView as Changes } from '../../../contract/api';
import { act } from '../../context';
import { useDashboard } from '../../store';
import { warningsOf } from '../../store/review-slice';
import { EarlierComments, FileDiff, LARGE_FILE_LINES, ROW_PX, unsent } from './FileDiff';
import { NearScreen } from './near-screen';

/** Files built at once; the rest when they come near the screen (a 2,000-file view is not built in one go). */
const FIRST_FILES = 25;
const HEAD_PX = 34;

/** A file's height before it is built: its header, and its open diff when it opens by itself. */
function estimate(f: Changes['files'][number]): number {
  const changed = (f.added ?? 0) + (f.deleted ?? 0);
  return HEAD_PX + (f.binary || f.huge || changed > LARGE_FILE_LINES ? 24 : Math.min(changed + 4, 400) * ROW_PX);
}

function AgentChanges({ ch, split, wrap }: { ch: Changes; split: boolean; wrap: boolean }) {
  const comments = useDashboard((s) => s.comments[ch.agent]) ?? [];
  const warnings = warningsOf(useDashboard((s) => s.warnings), ch.agent);
  const pending = comments.filter(unsent).length;
  // Comments whose file left the diff (deleted, reverted): listed, since no file section draws them.
  const gone = comments.filter((c) => c.state !== 'resolved' && (c.gone || !ch.files.some((f) => f.path === c.path)));
  const [sending, setSending] = useState(false);
  const send = async (requestChanges: boolean) => {
    setSending(true);
    await act({ type: 'review_send', agent: ch.agent, request_changes: requestChanges });
    setSending(false);
  };
  return (
    <section className="review-agent" data-agent={ch.agent}>
      <header className="review-agent-head">
        <strong>{ch.agent}</strong>
        <span className="review-branch">
          {ch.branch}: {ch.ahead} ahead, {ch.behind} behind {ch.into}
        </span>
        {ch.last_commit && <span className="review-last" title={ch.last_commit.sha}>last: {ch.last_commit.subject}</span>}
        {warnings.map((w) => (
          <span key={w.id} className={`pane-warning ${w.kind}`}>
            {w.kind} with {w.agents.find((a) => a !== ch.agent)}: {w.files.filter((f) => f.conflict || w.kind === 'overlap').map((f) => f.path).join(', ')}
          </span>
        ))}
        <span className="spacer" />
        <span className="review-pending" data-testid="pending-count">
          {pending} pending
        </span>
        {/* Why the buttons are off, said next to them (a tooltip alone is not seen on a phone or by a screen reader). */}
        {!pending && (
          <span className="review-send-why" id={`why-${ch.agent}`}>
            add a comment first
          </span>
        )}
        <button className="primary review-send" disabled={!pending || sending} aria-describedby={pending ? undefined : `why-${ch.agent}`} onClick={() => void send(false)}>
          Send review
        </button>
        <button className="review-request-changes" disabled={!pending || sending} aria-describedby={pending ? undefined : `why-${ch.agent}`} onClick={() => void send(true)} title="send the review and reopen the teammate's last completed task with it as the description">
          Request changes
        </button>
      </header>
      <EarlierComments agent={ch.agent} comments={gone} title="Comments on files no longer in the changes" />
      {ch.files.length === 0 && <div className="review-empty">no changes</div>}
      {ch.files.map((f, i) => {
        const diff = <FileDiff agent={ch.agent} file={f} split={split} wrap={wrap} />;
        const key = `${f.source}\0${f.path}`;
        return i < FIRST_FILES ? <div key={key}>{diff}</div> : <NearScreen key={key} estimate={estimate(f)} label={f.path}>{diff}</NearScreen>;
      })}
    </section>
  );
}

const WRAP_KEY = 'thclaws.review.wrap';

/** The person's wrap choice, if they made one (else a phone wraps and a wide window does not). */
function wrapChoice(): boolean | null {
  try {
    const v = globalThis.localStorage?.getItem(WRAP_KEY);
    return v === 'on' ? true : v === 'off' ? false : null;
  } catch {
    return null; // storage denied: the default for the screen
  }
}

function saveWrap(on: boolean): void {
  try {
    globalThis.localStorage?.setItem(WRAP_KEY, on ? 'on' : 'off');
  } catch {
    // storage denied: the choice lasts for this page
  }
}

/** Changes of one teammate or of everyone: the file list, each file's diff, comments, the pending review. */
export function ChangesView({ agent }: { agent: string }) {
  const changes = useDashboard((s) => s.changes);
  const openReview = useDashboard((s) => s.openReview);
  const narrow = typeof window !== 'undefined' && window.innerWidth < 800;
  const [split, setSplit] = useState(!narrow);
  const [wrap, setWrap] = useState(() => wrapChoice() ?? narrow);
  const toggleWrap = () => {
    setWrap(!wrap);
    saveWrap(!wrap);
  };
  const agents = Object.keys(changes).sort();
  const shown = agent === 'all' ? agents.filter((a) => changes[a]!.files.length) : [agent];
  return (
    <div className="review-view" data-testid="changes-view" data-agent={agent}>
      <div className="review-bar">
        <strong>Changes</strong>
        <select value={agent} onChange={(e) => openReview({ kind: 'changes', agent: e.target.value })} aria-label="teammate">
          <option value="all">all teammates</option>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a} ({changes[a]!.files.length})
            </option>
          ))}
        </select>
        <span className="review-mode">
          <button className={!split ? 'active' : ''} onClick={() => setSplit(false)}>
            Unified
          </button>
          <button className={split ? 'active' : ''} onClick={() => setSplit(true)}>
            Side by side
          </button>
        </span>
        <button className={wrap ? 'active' : ''} aria-pressed={wrap} onClick={toggleWrap} title="wrap long lines (this choice is remembered)">
          Wrap lines
        </button>
        <span className="spacer" />
        <button onClick={() => openReview({ kind: 'merge' })}>Merge…</button>
        <button onClick={() => openReview(null)} aria-label="close">
          ✕
        </button>
      </div>
      <div className="review-scroll">
        {shown.length === 0 && <div className="review-empty">no teammate has changes yet</div>}
        {shown.map((a) => (changes[a] ? <AgentChanges key={a} ch={changes[a]} split={split} wrap={wrap} /> : <div key={a} className="review-empty">{a}: no branch yet</div>))}
      </div>
    </div>
  );
}
