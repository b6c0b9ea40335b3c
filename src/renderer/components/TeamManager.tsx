import { useState } from 'react';
import type { Member, MemberSpec } from '../../contract/api';
import { act } from '../context';
import { canResumeTeam, resumeSummary, type ResumeResult } from '../resume-team';
import { useDashboard } from '../store';
import { modelPrice, scriptedLabel } from '../models-shown';
import { LEAD } from '../../contract/limits';

const EMPTY: MemberSpec = { role: '', prompt: '', model: null, isolation: 'worktree', plan_mode: false, permission_mode: 'ask', host: null };

/** Roles that read rather than build: they share the project folder; every other member gets its own worktree. */
const READER = /review|qa|audit/i;

/** Create a team (name, description). */
function CreateTeamDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  return (
    <div className="modal" role="dialog" aria-modal="true" aria-label="create a team">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act({ type: 'team_create', name, description }).then((r) => r !== undefined && onClose());
        }}
      >
        <h3>Create a team</h3>
        <label>
          Name <input name="team-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus required />
        </label>
        <label>
          Description <textarea name="team-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit">Create</button>
        </div>
      </form>
    </div>
  );
}

/** Add a member, or edit one (its name is fixed once added). */
export function MemberDialog({ name: editing, onClose }: { name: string | null; onClose: () => void }) {
  const current = useDashboard((s) => (editing ? s.memberSpecs[editing] : undefined));
  const models = useDashboard((s) => s.models);
  const teamModel = useDashboard((s) => s.settings?.model ?? null);
  const scripted = useDashboard((s) => !!s.setup?.scripted);
  const demo = useDashboard((s) => !!s.workspace?.demo);
  const hosts = useDashboard((s) => s.hosts);
  const [name, setName] = useState(editing ?? '');
  const [spec, setSpec] = useState<MemberSpec>(current ?? EMPTY);
  // A new member's isolation follows its role (builders: a worktree) until the person picks one.
  const [isolationPicked, setIsolationPicked] = useState(!!editing);
  const set = <K extends keyof MemberSpec>(k: K, v: MemberSpec[K]) => setSpec((s) => ({ ...s, [k]: v }));
  const setRole = (role: string) => setSpec((s) => ({ ...s, role, ...(isolationPicked ? {} : { isolation: READER.test(role) ? 'shared' : 'worktree' }) }));
  const price = modelPrice(spec.model?.trim() || teamModel);
  const submit = async () => {
    const body = { ...spec, model: spec.model?.trim() || null };
    const r = editing ? await act({ type: 'member_edit', name: editing, spec: body }) : await act({ type: 'member_add', name, spec: body });
    if (r !== undefined) onClose();
  };
  return (
    <div className="modal" role="dialog" aria-modal="true" aria-label={editing ? `edit ${editing}` : 'add a member'}>
      <form
        className="member-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h3>{editing ? `Edit ${editing}` : 'Add a member'}</h3>
        {!editing && (
          <label>
            Name <input name="member-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus required pattern="[A-Za-z0-9_][A-Za-z0-9_\-]{0,63}" title="letters, digits, _ and -" />
          </label>
        )}
        <label>
          Role <input name="member-role" value={spec.role} onChange={(e) => setRole(e.target.value)} autoFocus={!!editing} />
        </label>
        <label>
          Model <input name="member-model" list="member-models" value={spec.model ?? ''} placeholder="the team's default" onChange={(e) => set('model', e.target.value)} />
          {/* The Anthropic aliases and each provider profile's `<profile>/<model>`, with prices; any other id may be typed. */}
          <datalist id="member-models">
            {models.map((m) => (
              <option key={m} value={m} label={modelPrice(m)} />
            ))}
          </datalist>
          <span className="member-model-price" data-testid="member-model-price">
            {scripted && !spec.model?.includes('/') ? `${scriptedLabel(demo)} runs here: no model calls, no cost (with a key: ${price})` : price}
          </span>
        </label>
        {(hosts.length > 0 || spec.host) && (
          <label>
            Where
            <select name="member-host" value={spec.host ?? ''} onChange={(e) => set('host', e.target.value || null)}>
              <option value="">this machine</option>
              {[...new Set([...hosts, ...(spec.host ? [spec.host] : [])])].map((h) => (
                <option key={h} value={h}>
                  {hosts.includes(h) ? `on ${h}: its own clone there (settings hosts)` : `on ${h}: no longer in your settings`}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Isolation
          <select
            name="member-isolation"
            value={spec.isolation}
            disabled={!!spec.host}
            title={spec.host ? `on ${spec.host} it works in its own clone there` : undefined}
            onChange={(e) => {
              setIsolationPicked(true);
              set('isolation', e.target.value as MemberSpec['isolation']);
            }}
          >
            <option value="shared">shared: works in the project folder</option>
            <option value="worktree">worktree: its own git worktree and branch</option>
          </select>
        </label>
        <label>
          Permission mode
          <select name="member-permission" value={spec.permission_mode} onChange={(e) => set('permission_mode', e.target.value as MemberSpec['permission_mode'])}>
            <option value="ask">ask: Write/Edit/Bash wait for your approval</option>
            <option value="auto">auto: no prompts (trusted folders only)</option>
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" name="member-plan" checked={spec.plan_mode} onChange={(e) => set('plan_mode', e.target.checked)} /> Plan first (only reads until you approve its plan)
        </label>
        <label>
          Instructions <textarea name="member-prompt" value={spec.prompt} onChange={(e) => set('prompt', e.target.value)} rows={3} />
        </label>
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit">{editing ? 'Save' : 'Add'}</button>
        </div>
      </form>
    </div>
  );
}

/** Starts a teammate never run yet (its pane says "not started — Start"). */
export function StartButton({ name }: { name: string }) {
  return (
    <button onClick={() => void act({ type: 'member_start', name })} title="start this teammate (the team's cap and rules apply)">
      Start
    </button>
  );
}

/** Edit and Remove for one teammate, offered only when they apply (a live member is stopped first). */
export function MemberActions({ member, onEdit }: { member: Member; onEdit: (name: string) => void }) {
  const team = useDashboard((s) => s.team);
  if (!team || member.name === LEAD) return null;
  return (
    <>
      {!member.alive && <button onClick={() => onEdit(member.name)}>Edit</button>}
      <button
        className="remove"
        title={member.alive ? 'stop it first' : 'remove from the team (its inbox and history are kept)'}
        onClick={() => void act({ type: 'member_remove', name: member.name })}
      >
        Remove
      </button>
    </>
  );
}

/**
 * "Resume team": offered when the team's teammates ran and none is live any more (the processes that ran them
 * are gone, e.g. the host was killed): each starts again in its own folder, on its saved conversation.
 */
function ResumeTeam() {
  const members = useDashboard((s) => s.members);
  const notify = useDashboard((s) => s.notify);
  const [busy, setBusy] = useState(false);
  if (!canResumeTeam(members)) return null;
  return (
    <button
      className="resume-team"
      disabled={busy}
      title="start every teammate again in its own folder, continuing its saved conversation"
      onClick={() => {
        setBusy(true);
        void act({ type: 'team_resume' })
          .then((r) => r && notify((r as ResumeResult).failed.length ? 'warn' : 'info', resumeSummary(r as ResumeResult)))
          .finally(() => setBusy(false));
      }}
    >
      {busy ? 'Resuming…' : 'Resume team'}
    </button>
  );
}

/**
 * Whether the lead is building the team right now (its TeamCreate runs or waits for approval, or the demo's lead
 * was given the team prompt): the page says so instead of offering "Create a team", which would race it.
 */
export function useSettingUp(): boolean {
  return useDashboard(
    (s) =>
      !s.team &&
      (!!s.workspace?.demo || s.members.some((m) => m.name === LEAD && m.activity === 'TeamCreate') || s.approvals.some((a) => a.agent === LEAD && a.tool === 'TeamCreate')),
  );
}

/** The team bar: create a team, add a member, resume the team after its processes died, message everyone. */
export function TeamManager() {
  const team = useDashboard((s) => s.team);
  const editing = useDashboard((s) => s.editingMember);
  const setEditing = useDashboard((s) => s.setEditingMember);
  const settingUp = useSettingUp();
  // Until the host has said which workspace this is (the demo's lead builds its own team), nothing to offer yet.
  const known = useDashboard((s) => s.workspace !== null);
  const [creating, setCreating] = useState(false);
  const [text, setText] = useState('');
  return (
    <div className="team-manager" role="toolbar" aria-label="team" data-region>
      {settingUp ? (
        <span className="setting-up" role="status" data-testid="setting-up">
          the lead is setting up the team…
        </span>
      ) : !team ? (
        known && <button onClick={() => setCreating(true)}>Create a team</button>
      ) : (
        <>
          <ResumeTeam />
          <button onClick={() => setEditing('new')}>Add member</button>
          <form
            className="message-all"
            onSubmit={(e) => {
              e.preventDefault();
              if (text.trim()) void act({ type: 'send_message', to: '*', text }).then((r) => r !== undefined && setText(''));
            }}
          >
            <input value={text} onChange={(e) => setText(e.target.value)} placeholder="message all (the lead and every teammate)" aria-label="message all" />
            <button type="submit">Send to all</button>
          </form>
        </>
      )}
      {creating && <CreateTeamDialog onClose={() => setCreating(false)} />}
      {editing && <MemberDialog key={editing} name={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
