import type { Task, TeamStore } from '../../core/store/index.js';
import type { HostEvent, TaskView } from '../../contract/api.js';
import { taskView } from './views.js';

/** The task board as views see it: re-read on a task event, only changed or removed tasks broadcast. */
export class TaskFeed {
  private sent = new Map<string, string>();
  private views: TaskView[] = [];

  constructor(
    private readonly store: TeamStore,
    private readonly broadcast: (ev: HostEvent) => void,
  ) {}

  /** What a view that attaches now is shown. */
  current(): TaskView[] {
    return this.views;
  }

  async refresh(): Promise<void> {
    const tasks = await this.store.tasks.list();
    const byId = new Map<string, Task>(tasks.map((t) => [t.id, t]));
    const next = new Map<string, string>();
    const views: TaskView[] = [];
    for (const t of tasks) {
      const v = taskView(t, byId);
      views.push(v);
      const json = JSON.stringify(v);
      next.set(t.id, json);
      if (this.sent.get(t.id) !== json) this.broadcast({ type: 'task', task: v });
    }
    for (const id of this.sent.keys()) if (!next.has(id)) this.broadcast({ type: 'task_removed', id });
    this.sent = next;
    this.views = views;
  }
}
