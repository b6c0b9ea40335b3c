import { useEffect, useRef, useState, type MouseEvent } from 'react';
import type { ApprovalView } from '../../contract/api';
import { act } from '../context';
import { useDashboard } from '../store';
import { Markdown } from './Markdown';
import { alwaysSentence, cardWords } from '../card-words';

function age(since: number, now: number): string {
  const s = Math.max(0, Math.round((now - since) / 1000));
  return s < 120 ? `${s}s` : `${Math.round(s / 60)}m`;
}

export function answer(a: ApprovalView, allow: boolean, opts: { always?: boolean; feedback?: string } = {}): Promise<unknown> {
  return act({ type: 'approval_answer', request_id: a.request_id, allow, always: !!opts.always, team: false, ...(opts.feedback ? { feedback: opts.feedback } : {}) });
}

/**
 * A click that answers. The second click of a double click is none: by then the card the first one answered may
 * be gone and the next request moved up under the pointer, unread.
 */
function onFirstClick(then: () => void): (e: MouseEvent) => void {
  return (e) => {
    if (e.detail <= 1) then();
  };
}

function Card({ a, selected, now }: { a: ApprovalView; selected: boolean; now: number }) {
  const select = useDashboard((s) => s.selectApproval);
  const [feedback, setFeedback] = useState('');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  const plan = a.kind === 'plan';
  return (
    <div ref={ref} className={`approval${selected ? ' selected' : ''}`} data-request={a.request_id} data-kind={a.kind} onClick={() => select(a.request_id)}>
      <div className="approval-head">
        <strong className="approval-agent">{a.agent}</strong>
        <span className="approval-tool">{plan ? `plan · attempt ${a.attempt ?? 1}` : a.tool}</span>
        <span className="approval-age" title={new Date(a.since).toLocaleString()}>
          {age(a.since, now)}
        </span>
      </div>
      {plan ? (
        <Markdown text={a.plan ?? ''} />
      ) : (
        <>
          <p className="approval-words" data-testid="approval-words">
            {cardWords(a).map((r, i) => (r.strong ? <strong key={i}>{r.text}</strong> : <span key={i}>{r.text}</span>))}
          </p>
          {a.input && (
            <details className="approval-raw">
              <summary>details</summary>
              <code className="approval-detail">{a.input}</code>
            </details>
          )}
          <div className="approval-cwd">in {a.cwd}</div>
        </>
      )}
      <textarea className="approval-feedback" placeholder={plan ? 'feedback for a rejection' : 'reason (optional)'} value={feedback} onChange={(e) => setFeedback(e.target.value)} rows={plan ? 2 : 1} />
      <div className="approval-actions">
        <button className="approve" onClick={onFirstClick(() => void answer(a, true, { feedback }))}>
          Approve
        </button>
        {!plan && a.rule && (
          <button className="always" title={alwaysSentence(a)} aria-label={alwaysSentence(a)} onClick={onFirstClick(() => void answer(a, true, { always: true }))}>
            Always
          </button>
        )}
        <button className="deny" onClick={onFirstClick(() => void answer(a, false, { feedback }))}>
          {plan ? 'Reject' : 'Deny'}
        </button>
      </div>
      {!plan && a.rule && <div className="approval-always">Always: {alwaysSentence(a).replace(/^Always a/, 'a')}</div>}
    </div>
  );
}

export function ApprovalInbox() {
  const items = useDashboard((s) => s.approvals);
  const selected = useDashboard((s) => s.selectedApproval);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    // Desktop notifications of new requests: the "needs you" queue's (NeedsYou.tsx).
    <aside className="approvals" aria-label="approvals" data-region>
      <div className="approvals-title">
        Approvals <span className="approvals-count">{items.length === 0 ? 'none waiting' : `${items.length} waiting`}</span>
        {items.length > 0 && <span className="approvals-keys">a approve · d deny · j/k select</span>}
      </div>
      {items.map((a) => (
        <Card key={a.request_id} a={a} selected={a.request_id === selected} now={now} />
      ))}
    </aside>
  );
}
