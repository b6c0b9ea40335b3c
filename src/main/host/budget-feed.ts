/**
 * The dashboard's budgets and spend: the limits (budgets.json and the settings'), each agent's model calls
 * (the store's spend history, re-read when its totals change, so the chart survives a restart of the host), a
 * notice when an agent crosses 80 % of a limit, and `budget_set` through the store's budgets API (the same as
 * `thclaws team budget`, so raising a reached budget resumes the teammate).
 */
import { BudgetsSchema, type Budgets } from '../../contract/settings-schema.js';
import { loadSettings } from '../../core/agent/settings.js';
import { MODEL_ALIASES } from '../../contract/models.js';
import { LEAD, type BudgetTarget, type TeamStore } from '../../core/store/index.js';
import { applicableLimits, evaluateBudget, teamSpend } from '../../contract/budget.js';
import type { HostEvent, Member, SpendPoint } from '../../contract/api.js';

/** The layered settings as the agents read them; a broken file reads as none (the runtime reports it). */
function loadSafe(workspace: string, env: NodeJS.ProcessEnv): ReturnType<typeof loadSettings>['settings'] | null {
  try {
    return loadSettings(workspace, env).settings;
  } catch {
    return null;
  }
}

/** What a model field offers: the Anthropic aliases, then each provider profile's `<profile>/<model>`. */
export function modelChoices(workspace: string, env: NodeJS.ProcessEnv): string[] {
  const s = loadSafe(workspace, env);
  const out = Object.keys(MODEL_ALIASES);
  for (const [profile, p] of Object.entries(s?.providers ?? {})) for (const model of Object.keys(p.models ?? {})) out.push(`${profile}/${model}`);
  return out.slice(0, 1000);
}

/** Calls sent per agent for the chart (the store keeps more): a view is sent them again on every call. */
const CHART_CALLS = 200;

export class BudgetFeed {
  private stored: Budgets = BudgetsSchema.parse({});
  private settings: Budgets = BudgetsSchema.parse({});
  private readonly last = new Map<string, { tokens: number; usd: number | null }>();
  private readonly calls = new Map<string, SpendPoint[]>();
  private readonly reading = new Map<string, Promise<void>>();
  private readonly told = new Set<string>();

  constructor(
    private readonly store: TeamStore,
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly broadcast: (ev: HostEvent) => void,
    private readonly members: () => Member[],
  ) {}

  event(): HostEvent {
    return { type: 'budgets', stored: this.stored, settings: this.settings };
  }

  snapshotEvents(): HostEvent[] {
    return [this.event(), ...[...this.calls].map(([agent, calls]): HostEvent => ({ type: 'spend', agent, calls }))];
  }

  /** The roster was re-read (a config change: membership, or budgets.json). */
  async onRoster(members: Member[]): Promise<void> {
    for (const m of members) this.observe(m);
    await this.refresh();
  }

  /** Re-reads both sources; broadcasts when either changed. */
  async refresh(): Promise<void> {
    const stored = await this.store.budgets.read();
    const settings = loadSafe(this.workspace, this.env)?.budgets ?? BudgetsSchema.parse({});
    if (JSON.stringify([stored, settings]) === JSON.stringify([this.stored, this.settings])) return;
    this.stored = stored;
    this.settings = settings;
    this.broadcast(this.event());
    this.checkAll();
  }

  async set(req: { agent?: string; role?: string; limit: Budgets['team'] }): Promise<Budgets> {
    if (req.agent !== undefined && req.role !== undefined) throw new Error('a budget is for one teammate, one role or the team, not two');
    const target: BudgetTarget = req.agent !== undefined ? { agent: req.agent } : req.role !== undefined ? { role: req.role } : { team: true };
    const next = await this.store.budgets.set(target, req.limit ?? null);
    // A changed limit is a new key: crossing it is told again; an unchanged one is not repeated.
    await this.refresh();
    return next;
  }

  /** A member's totals as the host sees them: when they change, its calls are re-read for the chart. */
  observe(m: Member): void {
    const prev = this.last.get(m.name);
    this.last.set(m.name, { tokens: m.tokens ?? 0, usd: m.cost_usd });
    if (prev && prev.tokens === (m.tokens ?? 0)) return;
    // First sight of an agent (a restart included) or a growth: the history file holds every call.
    if (m.tokens !== null) this.reload(m.name);
    this.checkAll();
  }

  /** Re-reads one agent's calls; reads of one agent are chained so an older read never lands last. */
  private reload(agent: string): void {
    const prior = this.reading.get(agent) ?? Promise.resolve();
    const next = prior.then(async () => {
      const calls = (await this.store.spend.read(agent)).slice(-CHART_CALLS);
      const had = this.calls.get(agent);
      if (had && JSON.stringify(had) === JSON.stringify(calls)) return;
      this.calls.set(agent, calls);
      this.broadcast({ type: 'spend', agent, calls });
    }).catch(() => undefined);
    this.reading.set(agent, next);
  }

  /** Resolves once every re-read asked for so far has been broadcast (tests). */
  async settled(): Promise<void> {
    await Promise.all(this.reading.values());
  }

  /** A notice the first time an agent's spend passes 80 % of a limit that applies to it. */
  private checkAll(): void {
    const members = this.members();
    const team = teamSpend(members.filter((m) => m.tokens !== null).map((m) => ({ tokens: m.tokens ?? 0, usd: m.cost_usd })));
    for (const m of members) {
      if (m.name === LEAD || m.tokens === null) continue;
      const limits = applicableLimits(this.stored, this.settings, m.name, m.role);
      const st = evaluateBudget(limits, { tokens: m.tokens, usd: m.cost_usd }, team, m.name);
      if (!st || st.level === 'ok') continue;
      const key = `${st.scope === 'team' ? '' : m.name}:${st.level}:${st.scope}:${st.unit}:${st.limit}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      this.broadcast({ type: 'notice', level: 'warn', text: st.level === 'stop' ? `budget reached: ${st.text}` : `budget at 80 %: ${st.text}` });
    }
  }
}
