import type { StateCreator } from 'zustand';
import type { HostEvent, TaskColumn, TaskView } from '../../contract/api';
import type { DashboardState } from './index';

export interface TasksSlice {
  tasks: Record<string, TaskView>;
  editingTask: string | 'new' | null;
  setEditingTask(id: string | 'new' | null): void;
}

export const createTasksSlice: StateCreator<DashboardState, [], [], TasksSlice> = (set) => ({
  tasks: {},
  editingTask: null,
  setEditingTask: (editingTask) => set({ editingTask }),
});

export function reduceTasks(state: DashboardState, ev: HostEvent): Partial<DashboardState> | null {
  switch (ev.type) {
    case 'tasks':
      return { tasks: Object.fromEntries(ev.tasks.map((t) => [t.id, t])) };
    case 'task':
      return { tasks: { ...state.tasks, [ev.task.id]: ev.task } };
    case 'task_removed': {
      const { [ev.id]: _gone, ...rest } = state.tasks;
      return { tasks: rest };
    }
    default:
      return null;
  }
}

export const BOARD_COLUMNS: { key: TaskColumn; title: string }[] = [
  { key: 'pending', title: 'Pending' },
  { key: 'in_progress', title: 'In progress' },
  { key: 'completed', title: 'Completed' },
  { key: 'parked', title: 'Parked' },
  { key: 'failed', title: 'Failed' },
];

/** Tasks per board column, by id; cancelled tasks sit under Completed (marked). */
export function boardColumns(tasks: Record<string, TaskView>): Record<TaskColumn, TaskView[]> {
  const out: Record<TaskColumn, TaskView[]> = { pending: [], in_progress: [], completed: [], parked: [], failed: [], cancelled: [] };
  for (const t of Object.values(tasks)) out[t.column === 'cancelled' ? 'completed' : t.column].push(t);
  for (const k of Object.keys(out) as TaskColumn[]) out[k].sort((a, b) => Number(a.id) - Number(b.id));
  return out;
}
