import { useDashboard } from '../store';
import { Dialog } from './Dialog';

export const SHORTCUTS: [string, string][] = [
  ['F6 / Shift+F6', 'next / previous region (header, approvals, team bar, budgets, each pane): the way out of a terminal'],
  ['Tab, Shift+Tab, Esc in a terminal', "go to the agent's terminal, as typed"],
  ['Alt+→ / Alt+←', 'next / previous pane'],
  ['Alt+1 … Alt+9', 'go to pane n'],
  ['Alt+M', 'maximise / restore the focused pane'],
  ['Alt+Enter', 'focus the message box of the focused pane'],
  ['Alt+T / Alt+B', 'Team tab / task board'],
  ['Alt+N', 'new task'],
  ['Alt+C / Alt+G', "Changes (every teammate's) / Merge"],
  ['a / d', 'approve / deny the selected request (outside a terminal or text field)'],
  ['j / k', 'select the next / previous request'],
  ['?', 'this help (outside a terminal)'],
  ['Esc', 'close dialogs (focus returns where it was)'],
];

export function HelpOverlay() {
  const open = useDashboard((s) => s.helpOpen);
  const setOpen = useDashboard((s) => s.setHelpOpen);
  if (!open) return null;
  return (
    <Dialog label="keyboard shortcuts" onClose={() => setOpen(false)} className="help">
      <h3>Keyboard shortcuts</h3>
      <table>
        <tbody>
          {SHORTCUTS.map(([k, v]) => (
            <tr key={k}>
              <td>
                <kbd>{k}</kbd>
              </td>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="modal-actions">
        <button onClick={() => setOpen(false)}>Close</button>
      </div>
    </Dialog>
  );
}
