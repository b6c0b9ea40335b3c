import { useEffect, useRef, useState } from 'react';
import type { ApprovalView } from '../../contract/api';
import { useDashboard } from '../store';
import { cardWords, wordsText } from '../card-words';

/** What a screen reader hears when a request arrives. */
export function approvalSentence(a: ApprovalView): string {
  if (a.kind === 'plan') return `${a.agent} submitted a plan for approval (attempt ${a.attempt ?? 1}).`;
  return `${a.agent} asks to use ${a.tool}: ${wordsText(cardWords(a)).slice(0, 200)}.`;
}

/**
 * Live regions (visually hidden) that announce new notices and new approval requests: polite for
 * information, assertive for errors. Each message is announced once.
 */
export function Announcer() {
  const notices = useDashboard((s) => s.notices);
  const approvals = useDashboard((s) => s.approvals);
  const [polite, setPolite] = useState('');
  const [urgent, setUrgent] = useState('');
  const seenNotice = useRef(0);
  const seenApprovals = useRef(new Set<string>());
  useEffect(() => {
    const fresh = notices.filter((n) => n.id > seenNotice.current);
    if (!fresh.length) return;
    seenNotice.current = Math.max(...fresh.map((n) => n.id));
    const errors = fresh.filter((n) => n.level === 'error').map((n) => n.text);
    const others = fresh.filter((n) => n.level !== 'error').map((n) => n.text);
    if (errors.length) setUrgent(errors.join(' '));
    if (others.length) setPolite(others.join(' '));
  }, [notices]);
  useEffect(() => {
    const fresh = approvals.filter((a) => !seenApprovals.current.has(a.request_id));
    for (const a of fresh) seenApprovals.current.add(a.request_id);
    if (fresh.length) setPolite(fresh.map(approvalSentence).join(' '));
  }, [approvals]);
  return (
    <>
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announce-polite">
        {polite}
      </div>
      <div className="sr-only" role="alert" aria-live="assertive" aria-atomic="true" data-testid="announce-urgent">
        {urgent}
      </div>
    </>
  );
}
