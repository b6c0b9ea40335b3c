import { useEffect } from 'react';
import { act } from './context';
import { installShortcuts } from './keyboard';
import { useDashboard } from './store';
import { teamCounts } from './store/team-slice';
import { formatUsd } from './format';
import { HelpOverlay } from './components/Help';
import { SettingsDialog } from './components/Settings';
import { TaskBoard, TaskEditor } from './components/TaskBoard';
import { TeamTab } from './components/TeamTab';
import { ApprovalInbox } from './components/Approvals';
import { ReviewButtons, WarningsBar } from './components/review/Warnings';
import { ReviewLayer } from './components/review/ReviewLayer';

function ApprovalsBadge() {
  const pending = useDashboard((s) => s.approvalsPending);
  return (
    <span className={`approvals-badge${pending ? ' waiting' : ''}`} data-testid="approvals-badge" title="requests waiting for your approval">
      {pending}
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
  const connected = useDashboard((s) => s.connected);
  const tab = useDashboard((s) => s.tab);
  const setTab = useDashboard((s) => s.setTab);
  const setSettingsOpen = useDashboard((s) => s.setSettingsOpen);
  const setHelpOpen = useDashboard((s) => s.setHelpOpen);
  const workspace = useDashboard((s) => s.workspace);
  const c = teamCounts(members);
  return (
    <header className="topbar">
      <strong className="team-name">{team ?? 'no team'}</strong>
      <span className="counts" data-testid="counts">
        <span className="c-working">{c.working} working</span> · <span className="c-idle">{c.idle} idle</span> · <span className="c-dead">{c.dead} dead</span>
      </span>
      <span className="cost" data-testid="total-cost" title={c.costUnknown ? 'some model has no known price: the total is at least this' : 'estimated from the model price table'}>
        total {formatUsd(c.costUsd)}
        {c.costUnknown ? ' + ?' : ''}
      </span>
      <SandboxBadge />
      <ApprovalsBadge />
      <nav className="tabs">
        <button className={tab === 'team' ? 'active' : ''} onClick={() => setTab('team')}>
          Team
        </button>
        <button className={tab === 'board' ? 'active' : ''} onClick={() => setTab('board')}>
          Tasks
        </button>
      </nav>
      <ReviewButtons />
      <span className="spacer" />
      {workspace && (
        <select
          className="workspace"
          value={workspace.dir}
          title="recent workspaces"
          onChange={(e) => void act({ type: 'open_workspace', dir: e.target.value })}
        >
          {[workspace.dir, ...workspace.recent.filter((d) => d !== workspace.dir)].map((d) => (
            <option key={d}>{d}</option>
          ))}
        </select>
      )}
      <span className={`conn ${connected ? 'up' : 'down'}`}>{connected ? 'connected' : 'reconnecting…'}</span>
      <button title="keyboard shortcuts (?)" onClick={() => setHelpOpen(true)}>
        ?
      </button>
      <button className="gear" title="settings" aria-label="settings" onClick={() => setSettingsOpen(true)}>
        ⚙
      </button>
    </header>
  );
}

function Notices() {
  const notices = useDashboard((s) => s.notices);
  const dismiss = useDashboard((s) => s.dismiss);
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.level}`} onClick={() => dismiss(n.id)}>
          {n.text}
        </div>
      ))}
    </div>
  );
}

export function App() {
  const tab = useDashboard((s) => s.tab);
  const editing = useDashboard((s) => s.editingTask);
  useEffect(() => installShortcuts(), []);
  return (
    <div className="app">
      <HeaderBar />
      <ApprovalInbox />
      <WarningsBar />
      <main>{tab === 'team' ? <TeamTab /> : <TaskBoard />}</main>
      {editing && <TaskEditor key={editing} />}
      <ReviewLayer />
      <SettingsDialog />
      <HelpOverlay />
      <Notices />
    </div>
  );
}
