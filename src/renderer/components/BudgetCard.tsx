import { useState } from 'react';
import type { BudgetsView, Member, SpendPoint } from '../../contract/api';
import { applicableLimits, evaluateBudget, teamSpend as sumTeamSpend, type Spend } from '../../contract/budget';
import { act } from '../context';
import { formatCost, formatTokens, formatUsd } from '../format';
import { useRemembered } from '../layout';
import { useDashboard } from '../store';
import { LEAD } from '../../contract/limits';

type Limit = NonNullable<BudgetsView['team']>;

function limitText(l: Limit | null | undefined): string {
  if (!l) return 'no limit';
  return [l.usd !== undefined ? formatUsd(l.usd) : null, l.tokens !== undefined ? formatTokens(l.tokens) : null].filter(Boolean).join(' / ');
}

/** Tokens (bars) and USD (line) of each model call, oldest first: who is burning money, at a glance. */
export function SpendChart({ calls, label }: { calls: SpendPoint[]; label: string }) {
  if (!calls.length) return <span className="spend-chart empty">no calls yet</span>;
  const w = 120;
  const h = 28;
  const shown = calls.slice(-40);
  const maxTok = Math.max(...shown.map((c) => c.tokens), 1);
  const maxUsd = Math.max(...shown.map((c) => c.usd ?? 0), 1e-9);
  // A slot per call, at most 12 px: a lone call reads as one bar, not a full block.
  const step = Math.min(w / shown.length, 12);
  const line = shown.map((c, i) => `${(i + 0.5) * step},${h - ((c.usd ?? 0) / maxUsd) * (h - 2) - 1}`).join(' ');
  const unknown = shown.some((c) => c.usd === null);
  return (
    <svg className="spend-chart" role="img" aria-label={`${label}: ${shown.length} model calls${unknown ? ', some at an unknown price' : ''}`} width={w} height={h} viewBox={`0 0 ${w} ${h}`}>
      {shown.map((c, i) => (
        <rect key={i} x={i * step + 0.5} width={Math.max(step - 1, 1)} y={h - (c.tokens / maxTok) * h} height={(c.tokens / maxTok) * h} className="tok">
          <title>{`${formatTokens(c.tokens)}, ${c.usd === null ? '$?' : formatUsd(c.usd)} at ${new Date(c.at).toLocaleTimeString()}`}</title>
        </rect>
      ))}
      {!unknown && shown.length > 1 && <polyline points={line} className="usd" fill="none" />}
    </svg>
  );
}

/** Whose limit a form sets: one teammate's, one role's (each teammate of it), or the team's. */
type Target = { agent: string } | { role: string } | null;

/** Set, raise or clear one limit (budgets.json, as `thclaws team budget`). */
function BudgetForm({ target, current, onClose }: { target: Target; current: Limit | null | undefined; onClose: () => void }) {
  const [usd, setUsd] = useState(current?.usd?.toString() ?? '');
  const [tokens, setTokens] = useState(current?.tokens?.toString() ?? '');
  const who = !target ? 'the team' : 'agent' in target ? target.agent : `role ${target.role}`;
  const send = async (clear: boolean) => {
    const limit = clear ? null : { ...(usd.trim() ? { usd: Number(usd) } : {}), ...(tokens.trim() ? { tokens: Number(tokens) } : {}) };
    const r = await act({ type: 'budget_set', ...target, limit });
    if (r !== undefined) onClose();
  };
  return (
    <form
      className="budget-form"
      aria-label={`budget of ${who}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send(false);
      }}
    >
      <label>
        USD <input name="budget-usd" type="number" min="0" step="any" inputMode="decimal" value={usd} onChange={(e) => setUsd(e.target.value)} autoFocus />
      </label>
      <label>
        Tokens <input name="budget-tokens" type="number" min="1" step="1" inputMode="numeric" value={tokens} onChange={(e) => setTokens(e.target.value)} />
      </label>
      <button type="submit" disabled={!usd.trim() && !tokens.trim()}>
        Save
      </button>
      {current && (
        <button type="button" onClick={() => void send(true)}>
          Clear
        </button>
      )}
      <button type="button" onClick={onClose}>
        Cancel
      </button>
    </form>
  );
}

function Row({ name, spend, calls, limit, source, state, editable, editing, setEditing }: {
  name: string;
  spend: Pick<Member, 'tokens' | 'cost_usd'>;
  calls: SpendPoint[] | null;
  limit: Limit | null | undefined;
  source: string;
  state: ReturnType<typeof evaluateBudget>;
  editable: boolean;
  editing: boolean;
  setEditing: (v: boolean) => void;
}) {
  const pct = state && state.level !== 'ok' ? state.level : state && state.fraction > 0 ? 'ok' : '';
  return (
    <li className={`budget-row ${pct}`} data-agent={name}>
      <span className="budget-name">{name}</span>
      <span className="budget-spend" data-testid={`spend-${name}`}>
        {formatTokens(spend.tokens)} · {formatCost(spend)}
      </span>
      <span className="budget-limit" data-testid={`limit-${name}`} title={state?.text ?? ''}>
        {limitText(limit)}
        {limit && source !== 'own' ? ` (${source})` : ''}
        {state && limit ? (state.unknown ? ' · $? (unknown price)' : ` · ${Math.floor(state.fraction * 100)} %`) : ''}
      </span>
      {calls ? <SpendChart calls={calls} label={`${name}'s spend per model call`} /> : <span />}
      {editable && !editing && (
        <button
          className="budget-edit"
          onClick={() => setEditing(true)} aria-label={`set the budget of ${name}`}>
          {limit && source === 'own' ? 'Change' : 'Set'}
        </button>
      )}
      {editing && <BudgetForm target={name === 'team' ? null : { agent: name }} current={source === 'own' ? limit : null} onClose={() => setEditing(false)} />}
    </li>
  );
}

/** A role's limit applies to each teammate of that role on its own spend: the row names them, no sum. */
function RoleRow({ role, limit, fromSettings, who, editing, setEditing }: {
  role: string;
  limit: Limit | undefined;
  fromSettings: boolean;
  who: string[];
  editing: boolean;
  setEditing: (v: boolean) => void;
}) {
  return (
    <li className="budget-row role" data-role={role}>
      <span className="budget-name">role {role}</span>
      <span className="budget-spend">{who.length ? `each of ${who.join(', ')}` : 'no member yet'}</span>
      <span className="budget-limit" data-testid={`limit-role-${role}`}>
        {limitText(limit)}
        {limit && fromSettings ? ' (settings)' : ''}
      </span>
      <span />
      {!editing && (
        <button className="budget-edit" onClick={() => setEditing(true)} aria-label={`set the budget of role ${role}`}>
          {limit && !fromSettings ? 'Change' : 'Set'}
        </button>
      )}
      {editing && <BudgetForm target={{ role }} current={fromSettings ? null : limit} onClose={() => setEditing(false)} />}
    </li>
  );
}

/** Roles of the members and of the stored and settings limits, matched ignoring case and spaces like the runtime. */
function rolesOf(members: { name: string; role: string }[], budgets: { stored: BudgetsView; settings: BudgetsView }) {
  const out = new Map<string, { role: string; who: string[] }>();
  const add = (role: string, who?: string) => {
    const key = role.trim().toLowerCase();
    if (!key) return;
    const e = out.get(key) ?? { role: role.trim(), who: [] };
    if (who) e.who.push(who);
    out.set(key, e);
  };
  for (const r of [...Object.keys(budgets.stored.roles), ...Object.keys(budgets.settings.roles)]) add(r);
  for (const m of members) if (m.name !== LEAD) add(m.role, m.name);
  return [...out.values()];
}

const findRole = (table: Record<string, Limit>, role: string) => Object.entries(table).find(([r]) => r.trim().toLowerCase() === role.toLowerCase())?.[1];

/** Per member, per role and for the team: spend, the limit that applies and how far it has gone; set it from here. */
export function BudgetCard() {
  const members = useDashboard((s) => s.members);
  const specs = useDashboard((s) => s.memberSpecs);
  const budgets = useDashboard((s) => s.budgets);
  const spend = useDashboard((s) => s.spend);
  const team = useDashboard((s) => s.team);
  const [editing, setEditing] = useState<string | null>(null);
  // Folded until asked for (the panes come first), then as the person left it in this workspace.
  const dir = useDashboard((s) => s.workspace?.dir ?? '');
  const [open, setOpen] = useRemembered(`thclaws:budgets-open:${dir}`, false);
  if (!team) return null;
  // Its room is kept from the first frame (the panes are sized once): folded and still until the budgets and the
  // workspace are known (a choice made before that would be kept under no workspace's name).
  if (!budgets || !dir) {
    return (
      <section className="budget-card" aria-label="budgets" data-region>
        <h3>
          <button className="budget-toggle" aria-expanded={false} disabled>
            Budgets and spend
          </button>
        </h3>
      </section>
    );
  }
  const called = members.filter((m) => m.tokens !== null);
  const anyCall = called.length > 0;
  // The known costs are a lower bound of the team's: its USD limit still stops the team once they reach it.
  const teamSpend: Spend = sumTeamSpend(called.map((m) => ({ tokens: m.tokens ?? 0, usd: m.cost_usd })));
  const teamLimit = budgets.stored.team ?? budgets.settings.team;
  const teamState = teamLimit ? evaluateBudget([{ scope: 'team', limit: teamLimit }], teamSpend, teamSpend, 'team') : null;
  return (
    <section className="budget-card" aria-label="budgets" data-region>
      <h3>
        <button className="budget-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          Budgets and spend
        </button>
      </h3>
      {open && (
        <ul>
          <Row
            name="team"
            spend={{ tokens: anyCall ? teamSpend.tokens : null, cost_usd: teamSpend.partial ? null : teamSpend.usd }}
            calls={null}
            limit={teamLimit}
            source={budgets.stored.team ? 'own' : 'settings'}
            state={teamState}
            editable
            editing={editing === 'team'}
            setEditing={(v) => setEditing(v ? 'team' : null)}
          />
          {rolesOf(members.map((m) => ({ name: m.name, role: specs[m.name]?.role ?? m.role })), budgets).map(({ role, who }) => {
            const own = findRole(budgets.stored.roles, role);
            const limit = own ?? findRole(budgets.settings.roles, role);
            return (
              <RoleRow
                key={`role:${role}`}
                role={role}
                limit={limit}
                fromSettings={!own && !!limit}
                who={who}
                editing={editing === `role:${role}`}
                setEditing={(v) => setEditing(v ? `role:${role}` : null)}
              />
            );
          })}
          {members.map((m) => {
            const role = specs[m.name]?.role ?? m.role;
            const limits = applicableLimits(budgets.stored, budgets.settings, m.name, m.name === LEAD ? null : role);
            const own = budgets.stored.teammates[m.name];
            const state = limits.length ? evaluateBudget(limits, { tokens: m.tokens ?? 0, usd: m.tokens === null ? 0 : m.cost_usd }, teamSpend, m.name) : null;
            // The limit shown is the one its percentage is of: the furthest gone (the one that stops it first).
            const first = limits.find((l) => l.scope === state?.scope) ?? limits[0];
            const source = !first ? 'own' : first.scope === 'teammate' ? (own ? 'own' : 'settings') : first.scope;
            return (
              <Row
                key={m.name}
                name={m.name}
                spend={m}
                calls={spend[m.name] ?? []}
                limit={first?.limit}
                source={source}
                state={state}
                editable
                editing={editing === m.name}
                setEditing={(v) => setEditing(v ? m.name : null)}
              />
            );
          })}
        </ul>
      )}
    </section>
  );
}
