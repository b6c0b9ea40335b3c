import { useDashboard } from '../store';

export const SHORTCUTS: [string, string][] = [
  ['Alt+→ / Alt+←', 'next / previous pane'],
  ['Alt+1 … Alt+9', 'go to pane n'],
  ['Alt+M', 'maximise / restore the focused pane'],
  ['Alt+Enter', 'focus the message box of the focused pane'],
  ['Alt+T / Alt+B', 'Team tab / task board'],
  ['Alt+N', 'new task'],
  ['?', 'this help (outside a terminal)'],
  ['Esc', 'close dialogs'],
];

export function HelpOverlay() {
  const open = useDashboard((s) => s.helpOpen);
  const setOpen = useDashboard((s) => s.setHelpOpen);
  if (!open) return null;
  return (
    <div className="modal" role="dialog" aria-label="keyboard shortcuts" onClick={() => setOpen(false)}>
      <div>
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
      </div>
    </div>
  );
}
