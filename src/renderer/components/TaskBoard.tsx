import { useState } from 'react';
import type { TaskView } from '../../contract/api';
import { act } from '../context';
import { useDashboard } from '../store';
import { BOARD_COLUMNS, boardColumns } from '../store/tasks-slice';
import { Dialog } from './Dialog';
import { useNarrow } from '../layout';

function TaskCard({ task }: { task: TaskView }) {
  const setEditing = useDashboard((s) => s.setEditingTask);
  const readOnly = useDashboard((s) => !!s.workspace?.claudeCode);
  const blocked = task.open_blockers.length > 0 && task.status === 'pending';
  const cancelled = task.column === 'cancelled';
  return (
    <article className={`task${blocked ? ' blocked' : ''}${cancelled ? ' cancelled' : ''}`} id={`task-${task.id}`} data-task={task.id}>
      <div className="task-title">
        <span className="task-id">#{task.id}</span> {task.subject}
      </div>
      {task.description && <p className="task-desc">{task.description}</p>}
      {task.status === 'completed' && task.result && (
        <p className="task-result" title="completion summary">
          <span className="task-result-label">done:</span> {task.result}
        </p>
      )}
      {task.status !== 'completed' && task.not_done && (
        <p className="task-not-done" role="status" title="why TeamTaskComplete was refused">
          <span className="task-result-label">not done:</span> {task.not_done}
        </p>
      )}
      {task.status === 'completed' && (task.landed || task.commit) && (
        <p className={`task-commit${task.landed ? ' landed' : ''}`} title={task.landed ? `landed ${new Date(task.landed.at).toLocaleString()}` : 'the branch commit it completed at'}>
          {task.landed ? `landed on ${task.landed.into} · ${task.landed.commit.slice(0, 7)}` : `commit ${task.commit!.slice(0, 7)} · not landed yet`}
        </p>
      )}
      <div className="task-meta">
        {task.owner && <span>owner: {task.owner}</span>}
        {task.reserved_for && <span>reserved: {task.reserved_for}</span>}
        {blocked && <span className="task-blocked">blocked</span>}
        {cancelled && <span>cancelled</span>}
      </div>
      {/* Dependencies matter while a task waits on them: a done or cancelled one is past them. */}
      {task.blocked_by.length > 0 && task.status !== 'completed' && !cancelled && (
        <div className="task-deps">
          blocked by{' '}
          {task.blocked_by.map((d) => (
            <a key={d} href={`#task-${d}`} className={task.open_blockers.includes(d) ? 'open' : 'done'}>
              #{d}
            </a>
          ))}
        </div>
      )}
      {task.status !== 'completed' && !readOnly && (
        <div className="task-actions">
          <button onClick={() => setEditing(task.id)}>Edit</button>
          <button onClick={() => void act({ type: 'task_cancel', task: task.id })}>Cancel</button>
        </div>
      )}
    </article>
  );
}

export function TaskEditor() {
  const editing = useDashboard((s) => s.editingTask);
  const task = useDashboard((s) => (s.editingTask && s.editingTask !== 'new' ? s.tasks[s.editingTask] : undefined));
  const members = useDashboard((s) => s.members);
  const setEditing = useDashboard((s) => s.setEditingTask);
  const [subject, setSubject] = useState(task?.subject ?? '');
  const [description, setDescription] = useState(task?.description ?? '');
  const [reserved, setReserved] = useState(task?.reserved_for ?? '');
  const [blockedBy, setBlockedBy] = useState('');
  if (!editing) return null;
  const save = async () => {
    if (editing === 'new') {
      const deps = blockedBy.split(/[\s,]+/).filter(Boolean);
      const r = await act({ type: 'task_create', subject, description, reserved_for: reserved || null, blocked_by: deps });
      if (r !== undefined) setEditing(null);
      return;
    }
    const ok = await act({ type: 'task_edit', task: editing, subject, description });
    if (ok === undefined) return;
    if ((task?.reserved_for ?? '') !== reserved && task?.status === 'pending') await act({ type: 'task_reassign', task: editing, reserved_for: reserved || null });
    setEditing(null);
  };
  return (
    <Dialog label="task editor" onClose={() => setEditing(null)}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h3>{editing === 'new' ? 'New task' : `Edit task #${editing}`}</h3>
        <label>
          Subject <input name="subject" value={subject} onChange={(e) => setSubject(e.target.value)} autoFocus />
        </label>
        <label>
          Description <textarea name="description" value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <label>
          Reserved for
          <select name="reserved" value={reserved} onChange={(e) => setReserved(e.target.value)}>
            <option value="">anyone</option>
            {members.map((m) => (
              <option key={m.name} value={m.name}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        {editing === 'new' && (
          <label>
            Blocked by (ids) <input name="blocked_by" value={blockedBy} onChange={(e) => setBlockedBy(e.target.value)} />
          </label>
        )}
        <div className="modal-actions">
          <button type="button" onClick={() => setEditing(null)}>
            Close
          </button>
          <button type="submit">Save</button>
        </div>
      </form>
    </Dialog>
  );
}

export function TaskBoard() {
  const tasks = useDashboard((s) => s.tasks);
  const setEditing = useDashboard((s) => s.setEditingTask);
  const cols = boardColumns(tasks);
  const narrow = useNarrow();
  const readOnly = useDashboard((s) => !!s.workspace?.claudeCode);
  const [shown, setShown] = useState<string | null>(null);
  const columns = BOARD_COLUMNS.filter((c) => c.key === 'pending' || c.key === 'in_progress' || c.key === 'completed' || cols[c.key].length > 0);
  // On a phone the columns are tabs: one column at a time, full width.
  // Until the person picks one, the first column that has tasks (an empty "Pending" tab shows nothing).
  const current = shown && columns.some((c) => c.key === shown) ? shown : (columns.find((c) => cols[c.key].length > 0) ?? columns[0]!).key;
  return (
    <div className="board" data-region aria-label="task board">
      {/* A Claude Code team's tasks are its lead's to make (the board shows them read-only). */}
      {!readOnly && (
        <div className="board-bar">
          <button onClick={() => setEditing('new')}>New task</button>
        </div>
      )}
      {narrow && (
        <div className="board-tabs" role="tablist" aria-label="task columns">
          {columns.map((c) => (
            <button key={c.key} role="tab" id={`board-tab-${c.key}`} aria-selected={c.key === current} aria-controls={`board-col-${c.key}`} onClick={() => setShown(c.key)}>
              {c.title} <span className="count">{cols[c.key].length}</span>
            </button>
          ))}
        </div>
      )}
      <div className="board-cols">
        {columns.filter((c) => !narrow || c.key === current).map((c) => (
          <div
            key={c.key}
            className="board-col"
            data-column={c.key}
            id={`board-col-${c.key}`}
            {...(narrow ? { role: 'tabpanel', 'aria-labelledby': `board-tab-${c.key}` } : {})}
          >
            <h3>
              {c.title} <span className="count">{cols[c.key].length}</span>
            </h3>
            {cols[c.key].map((t) => (
              <TaskCard key={t.id} task={t} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
