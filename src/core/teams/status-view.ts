import { deriveState, modelTrouble, usageOf, withNotDone, type TeamStore } from '../store/index.js';
import { taskLine } from './tools/task-tools.js';
import { printable } from '../../contract/model-name.js';

/** Roster with live state, task, model and queued messages; then the task board. Sorted, never stale-as-live. */
export async function teamStatusText(store: TeamStore): Promise<string> {
  const cfg = await store.config.require();
  const now = Date.now();
  const lines = [`## Team ${cfg.name}`, '## Agents'];
  const tasks = (await store.tasks.list()).sort((a, b) => Number(a.id) - Number(b.id));
  for (const m of [...cfg.members].sort((a, b) => a.name.localeCompare(b.name))) {
    const st = await store.statuses.read(m.name);
    const derived = deriveState(st, now);
    const trouble = modelTrouble(st, derived);
    const { state, error } = withNotDone({ state: derived, error: trouble.error }, tasks, m.name);
    const model = st?.model ?? m.model;
    const queued = store.inboxes.unread(m.name).length;
    const w = st?.waiting;
    const waiting = w?.request_id && (state === 'working' || state === 'idle') ? `, waiting for ${w.kind} approval ${w.request_id}` : '';
    const failing = error ? `: ${error}` : trouble.retry ? `, ${trouble.retry}` : '';
    const u = usageOf(st);
    const spent = u.tokens === null ? '' : `; ${u.tokens.toLocaleString('en-US')} tokens, ${u.cost_usd === null ? 'cost unknown' : `$${u.cost_usd.toFixed(4)}`}`;
    lines.push(`  ${m.name} — ${state}${failing}${waiting} (task: ${st?.current_task ? `#${st.current_task}` : '-'}${model ? `; model: ${model}` : ''}${queued ? `; ${queued} queued` : ''}${m.role ? `; role: ${printable(m.role)}` : ''}${spent})`);
  }
  if (tasks.length) {
    const c = { pending: 0, in_progress: 0, completed: 0 };
    for (const t of tasks) c[t.status]++;
    lines.push('', `## Tasks (${tasks.length} total: ${c.pending} pending, ${c.in_progress} in progress, ${c.completed} completed)`);
    for (const t of tasks) lines.push(`  ${taskLine(t)}`);
  }
  return lines.join('\n');
}
