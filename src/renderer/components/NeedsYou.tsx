/**
 * The header's "needs you" count and its list: approvals, agents in error, budgets reached, a merge whose checks
 * failed, conflicts — newest first, each with the action that deals with it; and the desktop notifications for
 * new ones while the person looks elsewhere.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { terminals } from '../context';
import { desktopNotify, turnNotificationsOff, turnNotificationsOn, useNotifyState } from '../desktop-notify';
import { fixedInSettings, needsYou, type NeedItem } from '../needs-you';
import { dashboard, useDashboard } from '../store';
import './needs-you.css';

/** Runs `fn` on the element once React has drawn it (a view just opened), for up to ~1 s. */
function whenDrawn(selector: string, fn: (el: HTMLElement) => void, frames = 60): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) fn(el);
  else if (frames > 0) requestAnimationFrame(() => whenDrawn(selector, fn, frames - 1));
}

/** The Team view, no review layer over it. */
function toTeamView(): void {
  const s = dashboard.getState();
  s.setTab('team');
  s.openReview(null);
}

export function openPane(agent: string): void {
  toTeamView();
  dashboard.getState().focus(agent);
  whenDrawn(`.pane[data-agent="${CSS.escape(agent)}"]`, (el) => {
    el.scrollIntoView({ block: 'nearest' });
    terminals.focus(agent);
  });
}

/** The budget card opened at this agent's form (the card may be folded). */
function openBudget(agent: string): void {
  toTeamView();
  whenDrawn('.budget-card', (card) => {
    const toggle = card.querySelector<HTMLButtonElement>('.budget-toggle[aria-expanded="false"]');
    toggle?.click();
    whenDrawn(`.budget-card [aria-label="set the budget of ${CSS.escape(agent)}"]`, (set) => {
      set.scrollIntoView({ block: 'nearest' });
      set.click();
    });
  });
}

/** The item's main action: the place where the person deals with it. */
export function openNeed(item: NeedItem): void {
  const s = dashboard.getState();
  switch (item.kind) {
    case 'approval': {
      const id = item.key.slice('approval:'.length);
      toTeamView();
      s.selectApproval(id);
      whenDrawn(`.approval[data-request="${CSS.escape(id)}"] .approve`, (b) => {
        b.scrollIntoView({ block: 'nearest' });
        b.focus();
      });
      return;
    }
    case 'error':
      if (fixedInSettings(item.detail)) s.setSettingsOpen(true);
      else openPane(item.agent!);
      return;
    case 'budget':
      return openBudget(item.agent!);
    case 'merge':
      return s.openReview({ kind: 'merge' });
    case 'conflict':
      return s.openReview({ kind: 'changes', agent: item.agent! });
  }
}

const ACTION: Record<NeedItem['kind'], string> = { approval: 'Open the request', error: 'Open its pane', budget: 'Raise the budget', merge: 'Open the merge panel', conflict: 'Open the conflict' };

function actionOf(item: NeedItem): string {
  return item.kind === 'error' && fixedInSettings(item.detail) ? 'Open Settings' : ACTION[item.kind];
}

function ago(since: number, now: number): string {
  const s = Math.max(0, Math.round((now - since) / 1000));
  return s < 60 ? `${s} s ago` : s < 7200 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

/** The queue, kept current; new items are announced on the desktop while the person looks elsewhere. */
function useNeedsYou(): NeedItem[] {
  const approvals = useDashboard((s) => s.approvals);
  const members = useDashboard((s) => s.members);
  const warnings = useDashboard((s) => s.warnings);
  const mergeResult = useDashboard((s) => s.mergeResult);
  const seen = useRef(new Map<string, number>());
  const items = useMemo(() => needsYou({ approvals, members, warnings, mergeResult }, seen.current, Date.now()), [approvals, members, warnings, mergeResult]);
  const told = useRef(new Set<string>());
  useEffect(() => {
    for (const item of items) {
      if (told.current.has(item.key)) continue;
      told.current.add(item.key);
      desktopNotify({
        title: item.title,
        body: item.detail,
        tag: item.key,
        open: () => openNeed(item),
        // The request ids the browser showed a notification for (read by the approvals e2e test; no stub).
        ...(item.kind === 'approval' ? { onShow: () => {
          const w = window as unknown as { __approvalNotifications?: string[] };
          w.__approvalNotifications = [...(w.__approvalNotifications ?? []), item.key.slice('approval:'.length)];
        } } : {}),
      });
    }
    // A cause that went away and comes back is news again.
    const live = new Set(items.map((i) => i.key));
    for (const k of told.current) if (!live.has(k)) told.current.delete(k);
  }, [items]);
  return items;
}

function NotifySwitch() {
  const state = useNotifyState();
  if (state === 'unsupported') return null;
  if (state === 'blocked') return <p className="needs-notify muted">Desktop notifications are blocked in this browser's site settings.</p>;
  return (
    <p className="needs-notify">
      <span>Desktop notifications {state === 'on' ? 'on' : 'off'} (shown only while you look elsewhere)</span>
      {state === 'on' ? (
        <button onClick={turnNotificationsOff}>Turn off</button>
      ) : (
        <button onClick={() => void turnNotificationsOn()}>Turn on</button>
      )}
    </p>
  );
}

export function NeedsYou() {
  const items = useNeedsYou();
  const [open, setOpen] = useState(false);
  const [now, setNow] = useState(Date.now());
  const root = useRef<HTMLDivElement>(null);
  // On a phone the list spans the screen just below the count, wherever the wrapped header put it.
  const [top, setTop] = useState(0);
  useEffect(() => {
    if (!open) return;
    setNow(Date.now());
    const place = () => setTop(Math.round(root.current?.getBoundingClientRect().bottom ?? 0) + 4);
    place();
    window.addEventListener('resize', place);
    const t = setInterval(() => setNow(Date.now()), 5000);
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      window.removeEventListener('resize', place);
      clearInterval(t);
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);
  const act = (fn: () => void) => {
    setOpen(false);
    fn();
  };
  return (
    <div className="needs-you" ref={root}>
      <button
        className={`needs-you-count${items.length ? ' waiting' : ''}`}
        data-testid="needs-you-count"
        aria-expanded={open}
        aria-controls="needs-you-list"
        aria-label={`needs you: ${items.length}`}
        onClick={() => setOpen(!open)}
      >
        needs you: {items.length}
      </button>
      {open && (
        <section id="needs-you-list" className="needs-you-list" aria-label="needs you" data-testid="needs-you" style={{ '--needs-top': `${top}px` } as React.CSSProperties}>
          {items.length === 0 ? <p className="empty">Nothing needs you now.</p> : null}
          <ol>
            {items.map((item) => (
              <li key={item.key} className={`need need-${item.kind}`} data-kind={item.kind} data-agent={item.agent ?? undefined}>
                <div className="need-text">
                  <strong>{item.title}</strong>
                  {item.detail && <span className="need-detail">{item.detail}</span>}
                </div>
                <span className="need-age">{ago(item.since, now)}</span>
                <span className="need-actions">
                  <button onClick={() => act(() => openNeed(item))}>{actionOf(item)}</button>
                  {item.kind === 'error' && fixedInSettings(item.detail) && item.agent && <button onClick={() => act(() => openPane(item.agent!))}>Its pane</button>}
                </span>
              </li>
            ))}
          </ol>
          <NotifySwitch />
        </section>
      )}
    </div>
  );
}
