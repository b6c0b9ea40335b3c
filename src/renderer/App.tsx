import { useEffect, type ReactNode } from 'react';
import { installShortcuts } from './keyboard';
import { useDashboard } from './store';
import { modelAlert, teamCounts } from './store/counts';
import { formatUsd } from './format';
import { HelpOverlay } from './components/Help';
import { SavedOutputDialog } from './components/SavedOutput';
import { SettingsDialog } from './components/Settings';
import { TaskBoard, TaskEditor } from './components/TaskBoard';
import { TeamTab } from './components/TeamTab';
import { ApprovalInbox } from './components/Approvals';
import { Announcer } from './components/Announcer';
import { HeaderMenu } from './components/HeaderMenu';
import { StateCounts } from './components/StateCounts';
import { Welcome } from './components/Welcome';
import { TeamManager, useSettingUp } from './components/TeamManager';
import { BudgetCard } from './components/BudgetCard';
import { ReviewButtons, WarningsBar } from './components/review/Warnings';
import { ReviewHash, ReviewLayer } from './components/review/ReviewLayer';
import { DemoGuide } from './components/DemoGuide';
import { StopTeamDialog, TeamStopped } from './components/StopTeam';
import { RemoteDialog } from './components/RemoteDialog';
import { ServerLost } from './components/ServerLost';
import { NeedsYou } from './components/NeedsYou';
import { KeyCheckLine } from './components/KeyCheck';
import { ClaudeCodeBar, MessageLog, useClaudeCode } from './components/ClaudeCode';

function ApprovalsBadge() {
  const pending = useDashboard((s) => s.approvalsPending);
  return (
    <span className={`approvals-badge${pending ? ' waiting' : ''}`} data-testid="approvals-badge" title="requests waiting for your approval" aria-label={`${pending} requests waiting for your approval`}>
      approvals: {pending}
    </span>
  );
}

/** Whether the agents' Bash runs in the OS sandbox, with the reason when it does not; the fix on hover. */
function SandboxBadge() {
  const sb = useDashboard((s) => s.sandbox);
  if (!sb) return null;
  return (
    <span className={`sandbox-badge sb-${sb.state}`} data-testid="sandbox" data-state={sb.state} title={sb.fix ? `Fix: ${sb.fix}` : sb.text}>
      {sb.text}
    </span>
  );
}

function HeaderBar() {
  const team = useDashboard((s) => s.team);
  const members = useDashboard((s) => s.members);
  const setTab = useDashboard((s) => s.setTab);
  // Changes and Merge are views of the page too: while one is open neither tab is the current one.
  const tab = useDashboard((s) => (s.reviewView ? null : s.tab));
  const settingUp = useSettingUp();
  const cc = useClaudeCode();
  const c = teamCounts(members);
  return (
    <header className="topbar" data-region aria-label="team header">
      <strong className="team-name">{team ?? (settingUp ? 'setting up…' : 'no team')}</strong>
      <span className="counts" data-testid="counts">
        <StateCounts counts={c} />
      </span>
      <span className="cost" data-testid="total-cost" title={c.costUnknown ? 'some model has no known price: the total is at least this' : 'estimated from the model price table'}>
        total {formatUsd(c.costUsd)}
        {c.costUnknown ? ' + ?' : ''}
      </span>
      {/* Claude Code's sandbox is its own: the badge would describe thclaws' agents. */}
      {!cc && <SandboxBadge />}
      <ApprovalsBadge />
      <NeedsYou />
      <nav className="tabs" aria-label="views">
        <button className={tab === 'team' ? 'active' : ''} aria-current={tab === 'team' ? 'page' : undefined} onClick={() => setTab('team')}>
          Team
        </button>
        <button className={tab === 'board' ? 'active' : ''} aria-current={tab === 'board' ? 'page' : undefined} onClick={() => setTab('board')}>
          Tasks
        </button>
        {cc && (
          <button className={tab === 'messages' ? 'active' : ''} aria-current={tab === 'messages' ? 'page' : undefined} onClick={() => setTab('messages')}>
            Messages
          </button>
        )}
      </nav>
      {!cc && <ReviewButtons />}
      <span className="spacer" />
      <HeaderMenu />
    </header>
  );
}

/** A key or endpoint every live agent fails on, said once above the panes, with the way to fix it. */
function ModelAlert() {
  const members = useDashboard((s) => s.members);
  const setSettingsOpen = useDashboard((s) => s.setSettingsOpen);
  const alert = modelAlert(members);
  if (!alert) return null;
  return (
    <div className="model-alert" role="alert" data-testid="model-alert">
      <span>{alert}</span>
      <button onClick={() => setSettingsOpen(true)}>Settings</button>
    </div>
  );
}

function Notices() {
  const notices = useDashboard((s) => s.notices);
  const dismiss = useDashboard((s) => s.dismiss);
  return (
    // Announced by the Announcer's live regions; shown here with a close button each.
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.level}`}>
          <span className="notice-text">{n.text}</span>
          <button className="notice-close" aria-label="close this notice" title="close" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * The approvals and the panes: with requests waiting, the approvals are a side column on a wide window (the
 * panes keep the height) and a capped strip that scrolls on a narrow one (styles.css); none waiting, one line.
 */
function Work({ children }: { children: ReactNode }) {
  const waiting = useDashboard((s) => s.approvals.length > 0);
  return <div className={`work${waiting ? ' waiting' : ''}`}>{children}</div>;
}

export function App() {
  const tab = useDashboard((s) => s.tab);
  const reviewing = useDashboard((s) => s.reviewView !== null);
  const editing = useDashboard((s) => s.editingTask);
  const stopped = useDashboard((s) => s.hostClosed !== null);
  const lost = useDashboard((s) => s.serverLost || s.linkLost !== null);
  const cc = useClaudeCode();
  useEffect(() => installShortcuts(), []);
  // The host exited on purpose: its agents and panes are gone, so the page says so instead of showing them frozen.
  if (stopped) {
    return (
      <div className="app">
        <main>
          <TeamStopped />
        </main>
        <Notices />
        <Announcer />
      </div>
    );
  }
  return (
    <div className="app">
      <ServerLost />
      {/* The server gone: every control off (a disabled fieldset), so nothing seems to act while nothing can. */}
      <fieldset className="controls" disabled={lost}>
        <HeaderBar />
        <ModelAlert />
        <KeyCheckLine />
        <WarningsBar />
        <DemoGuide />
        <ClaudeCodeBar />
        <Work>
          <ApprovalInbox />
          <main>
            <Welcome />
            {/* Changes and Merge take the tab's place under the header (not over it). */}
            {reviewing ? (
              <ReviewLayer />
            ) : tab === 'team' ? (
              <>
                {/* Claude Code builds and budgets its own team: neither bar applies. */}
                {!cc && <TeamManager />}
                {!cc && <BudgetCard />}
                <TeamTab />
              </>
            ) : tab === 'messages' && cc ? (
              <MessageLog />
            ) : (
              <TaskBoard />
            )}
          </main>
        </Work>
        {editing && <TaskEditor key={editing} />}
        <ReviewHash />
        <SettingsDialog />
        <StopTeamDialog />
        <RemoteDialog />
        <HelpOverlay />
        <SavedOutputDialog />
      </fieldset>
      <Notices />
      <Announcer />
    </div>
  );
}
