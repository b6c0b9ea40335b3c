import { memo, useEffect, useRef, useState } from 'react';
import type { Member } from '../../contract/api';
import { act, terminals } from '../context';
import { terminalHint } from '../pane';
import { dashboard, useDashboard } from '../store';
import { StatusBadge } from './StatusBadge';
import { MemberActions, StartButton } from './TeamManager';
import { PaneReview } from './review/Warnings';
import { formatCost, formatTokens, usageTitle } from '../format';
import { PaneCosts, WorktreeActions } from './PaneWorktree';
import { shownModel } from '../models-shown';
import { LEAD } from '../../contract/limits';
import { PaneClaudeCode, useClaudeCode } from './ClaudeCode';

/** How long sizes must disagree before the pane says so (a resize of this view settles well within it), ms. */
const SETTLE_MS = 400;

/**
 * The pty sized by another view (the one used last): this pane shows it at that width — cut at the edge or
 * narrower than its box — and says so, with the way to make this screen's size win.
 */
function SizedElsewhere({ agent }: { agent: string }) {
  const [cols, setCols] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setCols(terminals.sizedElsewhere(agent)), SETTLE_MS);
    };
    const stop = terminals.watchSize(agent, check);
    check();
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [agent]);
  if (cols === null) return null;
  return (
    <div className="pane-sized" role="status" data-testid="pane-sized">
      shown at {cols} columns (sized by another window) —{' '}
      <button type="button" onClick={() => terminals.fitHere(agent)}>
        fit to this screen
      </button>
    </div>
  );
}

/**
 * One member's pane. Memoized: a member event replaces only that member's object, so in a team of hundreds a
 * teammate's heartbeat or CPU sample re-renders its own pane, not every pane (measured: 200 panes re-rendered
 * ~50 times a second kept the page's main thread saturated and a click on the 200th approval card waiting).
 */
export const Pane = memo(function Pane({ member, visible }: { member: Member; visible: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [inTerm, setInTerm] = useState(false);
  const focused = useDashboard((s) => s.focused === member.name);
  const maximised = useDashboard((s) => s.maximised === member.name);
  const toggleMaximise = useDashboard((s) => s.toggleMaximise);
  const focus = useDashboard((s) => s.focus);
  const scripted = useDashboard((s) => !!s.setup?.scripted);
  const demo = useDashboard((s) => !!s.workspace?.demo);
  // A Claude Code team's member: Claude Code starts, stops and aborts it; the pane keeps what still works here.
  const cc = useClaudeCode();
  // A completion refused for this agent (nothing committed): the header says so, not just "idle".
  const notDone = useDashboard((s) => Object.values(s.tasks).find((t) => t.not_done_by === member.name && t.status !== 'completed' && t.not_done));

  useEffect(() => {
    if (!visible || !host.current) return;
    terminals.mount(member.name, host.current);
    return () => terminals.unmount(member.name);
  }, [visible, member.name]);

  useEffect(() => {
    const onFocusMessage = (e: Event) => {
      if ((e as CustomEvent<string>).detail === member.name) input.current?.focus();
    };
    window.addEventListener('thclaws:focus-message', onFocusMessage);
    return () => window.removeEventListener('thclaws:focus-message', onFocusMessage);
  }, [member.name]);

  if (!visible) return null;
  const send = async () => {
    if (!text.trim()) return;
    await act({ type: 'send_message', to: member.name, text });
    setText('');
  };
  const isLead = member.name === LEAD;
  const showRequest = () => dashboard.getState().selectApproval(member.waiting_for);
  // The host turns an idle agent with such a task to `error` with it as the reason: the chip says it shorter.
  const notDoneShown = !!notDone && !!member.error?.startsWith(`task #${notDone.id} not done`);
  return (
    <section
      className={`pane${focused ? ' focused' : ''}${maximised ? ' maximised' : ''}`}
      data-agent={member.name}
      data-region
      aria-label={`${member.name} pane`}
      onMouseDown={() => focus(member.name)}
    >
      <header className="pane-head">
        <span className="pane-name">{member.name}</span>
        <span className="pane-role" title={member.role || 'teammate'}>
          {member.role || 'teammate'}
        </span>
        {member.model && (
          <span className="pane-model" title={`model setting: ${member.model}`}>
            {shownModel(member.model, { scripted, demo })}
          </span>
        )}
        {member.host && (
          <span className="pane-meta pane-host" data-testid="pane-host" title={`runs on host ${member.host} of your settings, over ssh`}>
            on {member.host}
          </span>
        )}
        <StatusBadge state={member.state} waiting={!!member.waiting_for} reason={member.error} onOpen={showRequest} />
        {member.error && !notDoneShown && (
          <span className="pane-error" data-testid="pane-error" title={member.error}>
            {member.error}
          </span>
        )}
        {member.retry && !member.error && (
          <span className="pane-retry" data-testid="pane-retry" title={member.retry}>
            {member.retry}
          </span>
        )}
        {member.current_task && <span className="pane-task">task #{member.current_task}</span>}
        {notDone && (
          <span className="badge pane-not-done" data-testid="pane-not-done" title={notDone.not_done ?? undefined}>
            task #{notDone.id} not done{/no identity/.test(notDone.not_done ?? '') ? ': git has no identity' : ': uncommitted'}
          </span>
        )}
        {/* The badge is the waiting control; an agent in error keeps its badge, so the request gets its own. */}
        {member.waiting_for && member.state === 'error' && (
          <button className="pane-waiting" title="show the request in the approval inbox" onClick={showRequest}>
            waiting for approval
          </button>
        )}
        {member.budget_reached && (
          <span className="pane-budget" title={`${member.budget_reached}; raise it with thclaws team budget ${member.name} --usd N | --tokens N`}>
            budget reached
          </span>
        )}
        <span className="pane-meta" data-testid="pane-usage" title={usageTitle(member)}>
          {formatTokens(member.tokens)} · {formatCost(member)}
        </span>
        <PaneCosts member={member} />
        {member.ports && (
          <span className="pane-meta pane-ports" data-testid="pane-ports" title={`its servers listen here: $PORT=${member.ports.base}, $THCLAWS_PORT_BASE=${member.ports.base}`}>
            ports {member.ports.base}–{member.ports.base + member.ports.count - 1}
          </span>
        )}
        {!isLead && <PaneReview agent={member.name} />}
        {member.queued > 0 && <span className="pane-queued" title="unread messages">✉ {member.queued}</span>}
        <PaneClaudeCode member={member} />
        <span className="pane-actions">
          {!cc && (
            <>
          {/* Only what applies now: Abort while a turn runs, Stop while live, Respawn when dead or stopped. */}
          {member.state === 'working' && (
            <button onClick={() => void act({ type: 'abort_turn', agent: member.name })} title="abort the current turn">
              Abort
            </button>
          )}
          {!isLead && member.alive && <button onClick={() => void act({ type: 'stop', agent: member.name })}>Stop</button>}
          {member.can_respawn && (member.state === 'dead' || member.state === 'stopped' || (isLead && member.state !== 'not_configured')) && (
            <button className="respawn" onClick={() => void act({ type: 'respawn', agent: member.name })}>
              Respawn
            </button>
          )}
          <WorktreeActions member={member} />
          <MemberActions member={member} onEdit={(n) => dashboard.getState().setEditingMember(n)} />
            </>
          )}
          <button onClick={() => toggleMaximise(member.name)} title="maximise (m)">{maximised ? 'Restore' : 'Max'}</button>
        </span>
      </header>
      {member.state === 'defined' && !isLead ? (
        // Added and never run: what to do about it, not a terminal it cannot type into.
        <div className="pane-readonly pane-not-started" data-testid="pane-not-started">
          not started — <StartButton name={member.name} />
        </div>
      ) : (
        // A Claude Code tmux pane's own button says whether keys go to it (Type here / Stop typing).
        member.terminal.kind === 'readonly' && !cc?.members[member.name]?.pane && <div className="pane-readonly">read-only: {member.terminal.reason}</div>
      )}
      <div className="pane-term-box" onFocus={() => setInTerm(true)} onBlur={() => setInTerm(false)}>
        <div className="pane-term" ref={host} />
        {/* Over the terminal, never above it: taking its rows would resize the pty it is about. */}
        {/* A Claude Code pane keeps its tmux window's size: there is no "fit here" to offer. */}
        {!cc && <SizedElsewhere agent={member.name} />}
        {/* Said by the terminal's accessible name on focus (terminals.ts); shown here for the eye. */}
        {inTerm && (
          <div className="pane-keys" aria-hidden="true" data-testid="pane-keys">
            {terminalHint(member.name)}
          </div>
        )}
      </div>
      <form
        className="pane-msg"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <input ref={input} value={text} onChange={(e) => setText(e.target.value)} placeholder={`message ${member.name} (as ${cc ? 'dashboard' : 'user'})`} aria-label={`message ${member.name}`} />
        <button type="submit">Send</button>
      </form>
    </section>
  );
});
