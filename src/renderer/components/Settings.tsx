import { useState } from 'react';
import { act } from '../context';
import { useDashboard } from '../store';
import { Dialog } from './Dialog';
import { KeySetting } from './Welcome';

export function SettingsDialog() {
  const open = useDashboard((s) => s.settingsOpen);
  const settings = useDashboard((s) => s.settings);
  const restartNeeded = useDashboard((s) => s.restartNeeded);
  const effective = useDashboard((s) => s.effectiveMode);
  const setOpen = useDashboard((s) => s.setSettingsOpen);
  const [role, setRole] = useState('');
  const [roleModel, setRoleModel] = useState('');
  if (!open || !settings) return null;
  const patch = (p: Record<string, unknown>) => void act({ type: 'settings_set', patch: p });
  return (
    <Dialog label="settings" onClose={() => setOpen(false)} className="settings">
      <h3>Settings</h3>
      <h4>Model</h4>
      <KeySetting />
      <h4>Workspace</h4>
      <div className="setting">
        <span>Agent Teams</span>
        <button
          className={`pill ${settings.teamEnabled ? 'on' : 'off'}`}
          aria-pressed={settings.teamEnabled}
          aria-label={`Agent Teams ${settings.teamEnabled ? 'On' : 'Off'}`}
          onClick={() => patch({ teamEnabled: !settings.teamEnabled })}
        >
          {settings.teamEnabled ? 'On' : 'Off'}
        </button>
      </div>
      {restartNeeded && (
        <div className="restart-notice">
          Restart the lead for this to take effect. <button onClick={() => void act({ type: 'restart_lead' })}>Restart lead</button>
        </div>
      )}
      <label className="setting">
        Teammate mode
        <select value={settings.teammateMode} onChange={(e) => patch({ teammateMode: e.target.value })}>
          {['auto', 'host', 'tmux', 'background'].map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </label>
      {effective && (
        <p className="effective-mode" data-testid="effective-mode">
          In effect: <strong>{effective.mode}</strong> — {effective.reason}
        </p>
      )}
      <label className="setting">
        Live teammates (cap)
        <input type="number" min={1} max={64} value={settings.maxLiveTeammates} onChange={(e) => patch({ maxLiveTeammates: Number(e.target.value) })} />
      </label>
      <label className="setting">
        Default model <input defaultValue={settings.model} onBlur={(e) => e.target.value && patch({ model: e.target.value })} />
      </label>
      <div className="setting">
        Model per role
        <ul>
          {Object.entries(settings.roleModels).map(([r, m]) => (
            <li key={r}>
              {r}: {m}
            </li>
          ))}
        </ul>
        <input placeholder="role" value={role} onChange={(e) => setRole(e.target.value)} />
        <input placeholder="model" value={roleModel} onChange={(e) => setRoleModel(e.target.value)} />
        <button onClick={() => role && roleModel && patch({ roleModels: { ...settings.roleModels, [role]: roleModel } })}>Set</button>
      </div>
      <div className="setting">
        <span title="Bash commands that would ask the person run without asking, but only while the OS sandbox is actually on for that teammate; ask and deny rules still hold. Needs a trusted folder.">
          Auto-allow sandboxed Bash
        </span>
        <button
          className={`pill ${settings.autoAllowSandboxedBash ? 'on' : 'off'}`}
          aria-pressed={!!settings.autoAllowSandboxedBash}
          aria-label={`Auto-allow sandboxed Bash ${settings.autoAllowSandboxedBash ? 'On' : 'Off'}`}
          onClick={() => patch({ autoAllowSandboxedBash: !settings.autoAllowSandboxedBash })}
        >
          {settings.autoAllowSandboxedBash ? 'On' : 'Off'}
        </button>
      </div>
      <label className="setting setting-checks">
        <span title="Run in an integration worktree, in the OS sandbox, before the merge panel lands anything; a failing check lands nothing.">Checks before landing (one command a line)</span>
        <textarea
          key={(settings.checks ?? []).join('\n')}
          rows={3}
          aria-label="checks before landing"
          placeholder="npm test"
          defaultValue={(settings.checks ?? []).join('\n')}
          onBlur={(e) => {
            const checks = e.target.value.split('\n').map((l) => l.trim()).filter(Boolean);
            if (checks.join('\n') !== (settings.checks ?? []).join('\n')) patch({ checks });
          }}
        />
      </label>
      <h4>New worktrees</h4>
      <label className="setting setting-wt-setup">
        <span title="Run once in each new teammate worktree, in its OS sandbox, after the files of .worktreeinclude and the reused folders are copied; a failure fails the spawn. Needs a trusted folder.">
          Setup command
        </span>
        <input
          key={settings.worktree.setup ?? ''}
          aria-label="worktree setup command"
          placeholder="npm ci --prefer-offline"
          defaultValue={settings.worktree.setup ?? ''}
          onBlur={(e) => {
            const setup = e.target.value.trim();
            if (setup !== (settings.worktree.setup ?? '')) patch({ worktree: { ...settings.worktree, setup: setup || undefined } });
          }}
        />
      </label>
      <label className="setting setting-wt-reuse">
        <span title="Cloned from the lead's checkout (copy-on-write, else hard links) when the lockfile matches the lead's.">Reused folders (comma-separated)</span>
        <input
          key={settings.worktree.reuse.join(', ')}
          aria-label="reused dependency folders"
          defaultValue={settings.worktree.reuse.join(', ')}
          onBlur={(e) => {
            const reuse = e.target.value.split(',').map((d) => d.trim()).filter(Boolean);
            if (reuse.join(',') !== settings.worktree.reuse.join(',')) patch({ worktree: { ...settings.worktree, reuse } });
          }}
        />
      </label>
      <label className="setting">
        <span title="The lead gets ports base…base+9 ($PORT, $THCLAWS_PORT_BASE); each teammate the next free block of 10.">First port</span>
        <input type="number" min={1024} max={64895} aria-label="first port" value={settings.worktree.portBase} onChange={(e) => patch({ worktree: { ...settings.worktree, portBase: Number(e.target.value) } })} />
      </label>
      <div className="modal-actions">
        <button onClick={() => setOpen(false)}>Close</button>
      </div>
    </Dialog>
  );
}
