/**
 * A completion refused because nothing was committed (done-check.ts) is a failure the agent cannot leave by
 * waiting: an idle agent with such a task reads `error` with the refusal, in every view (team status, the
 * dashboard's badge, the lead's TeamStatus), never a green idle. Derived from the task, so it ends when the
 * task completes or is cancelled (both clear or close it) or another agent takes it, with nothing to reset.
 */
/** The task fields this reads: a store task and the dashboard's task view both have them. */
interface TaskLike {
  id: string;
  status: string;
  owner?: string | null;
  not_done?: string | null;
  not_done_by?: string | null;
}

/** Its task's refusal, first line, clipped: a status reason is one short line. */
export function notDoneReason(tasks: Iterable<TaskLike>, agent: string): string | null {
  for (const t of tasks) {
    if (t.status === 'completed' || !t.not_done || t.not_done_by !== agent || (t.owner && t.owner !== agent)) continue;
    const line = `task #${t.id} not done: ${t.not_done.split('\n')[0]!.trim()}`;
    return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
  }
  return null;
}

/**
 * An idle agent with a refused completion reads `error` with why; a working one is still at it (its pane says
 * which task is not done), and a model failure already in `error` keeps its own reason.
 */
export function withNotDone<T extends { state: string; error: string | null }>(view: T, tasks: Iterable<TaskLike>, agent: string): T {
  if (view.state !== 'idle') return view;
  const reason = notDoneReason(tasks, agent);
  return reason ? { ...view, state: 'error', error: reason } : view; // `error` is a state of every view that has `idle`
}
