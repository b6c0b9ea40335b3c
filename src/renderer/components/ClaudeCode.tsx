import { useState } from 'react';
import type { ClaudeCodeView, Member } from '../../contract/api';
import { terminals, typingInto } from '../context';
import { useDashboard } from '../store';

/** The pseudo-folder the picker opens for Claude Code's teams (src/main/claude-code/to-api.ts). */
export const CLAUDE_CODE_DIR = 'claude-code:';

/** The Claude Code team shown, when the view shows one: Claude Code owns its actions, so those controls hide. */
export const useClaudeCode = (): ClaudeCodeView | null => useDashboard((s) => s.workspace?.claudeCode ?? null);

/** What the team is, and what the dashboard cannot do for it; a file that did not parse, named. */
export function ClaudeCodeBar() {
  const cc = useClaudeCode();
  const team = useDashboard((s) => s.team);
  if (!cc) return null;
  return (
    <div className="cc-bar" role="status" data-testid="cc-bar">
      <span>
        Claude Code team <strong>{team ?? '—'}</strong>
        {cc.version && ` · Claude Code ${cc.version}`}
        {cc.ended && (
          <span className="badge badge-stopped" data-testid="cc-ended">
            ended
          </span>
        )}
      </span>
      <span className="muted">read-only: Claude Code runs this team (spawning, stopping, tasks). Messages, approvals and typing into its tmux panes work here.</span>
      {cc.error && (
        <div className="cc-error" role="alert" data-testid="cc-error">
          {cc.error}
        </div>
      )}
    </div>
  );
}

/** The team's messages, from Claude Code's transcripts (its inboxes are queues, emptied on delivery). */
export function MessageLog() {
  const entries = useDashboard((s) => s.messageLog);
  return (
    <div className="message-log" data-region aria-label="messages" data-testid="message-log">
      {entries.length === 0 && <div className="empty">No messages yet.</div>}
      {entries.map((e, i) => (
        <div key={i} className={`log-entry log-${e.direction}`}>
          <div className="log-head">
            <strong>{e.member}</strong> {e.direction === 'in' ? 'was told' : 'said'} <span className="muted">{e.at ? new Date(e.at).toLocaleTimeString() : ''}</span>
          </div>
          <pre className="log-text">{e.text}</pre>
        </div>
      ))}
    </div>
  );
}

/** A Claude Code member's extras on its pane: what it waits for, and "Type here" on a tmux pane. */
export function PaneClaudeCode({ member }: { member: Member }) {
  const cc = useClaudeCode();
  const [typing, setTyping] = useState(typingInto.has(member.name));
  const info = cc?.members[member.name];
  if (!cc || !info) return null;
  const toggle = () => {
    const on = !typing;
    if (on) typingInto.add(member.name);
    else typingInto.delete(member.name);
    terminals.setReadonly(member.name, !on);
    setTyping(on);
    if (on) terminals.focus(member.name);
  };
  return (
    <>
      {info.waiting && (
        <span className="pane-error cc-waiting" data-testid="cc-waiting" title="answer it in the approvals inbox, or in its tmux pane">
          waiting for you: {info.waiting.replace(/ prompt$/, '')}
        </span>
      )}
      {info.backend && <span className="pane-meta">{info.pane ? `tmux ${info.pane}` : info.backend}</span>}
      {info.pane && (
        <button type="button" aria-pressed={typing} data-testid="cc-type-here" title="keys typed in this pane go to Claude Code's tmux pane" onClick={toggle}>
          {typing ? 'Stop typing' : 'Type here'}
        </button>
      )}
    </>
  );
}
