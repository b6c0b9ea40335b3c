import { terminals } from './context';
import { dashboard } from './store';
import { answer } from './components/Approvals';
import { cycleRegion } from './regions';

/** Global shortcuts (Alt-based so they never collide with what a terminal needs). */
export function installShortcuts(): () => void {
  const onKey = (e: KeyboardEvent) => {
    const s = dashboard.getState();
    // F6 / Shift+F6: the next / previous region of the page. Taken before a terminal sees it (this listener
    // runs in the capture phase), so it is the way out of a terminal; inside a dialog focus stays there.
    if (e.key === 'F6' && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      e.stopPropagation();
      if (!document.querySelector('[role="dialog"][aria-modal="true"]')) cycleRegion(e.shiftKey ? -1 : 1);
      return;
    }
    if (e.key === 'Escape') {
      s.setHelpOpen(false);
      s.setSettingsOpen(false);
      s.setEditingTask(null);
      s.setStopOpen(false);
      s.showSavedOutput(null);
      return;
    }
    const inField = e.target instanceof HTMLElement && (e.target.closest('input, textarea, select, .xterm') !== null);
    if (e.key === '?' && !inField && !e.altKey) {
      s.setHelpOpen(!s.helpOpen);
      e.preventDefault();
      return;
    }
    // The approval inbox: a / d answer the selected request, j / k move the selection (outside text fields and terminals).
    if (!inField && !e.altKey && !e.ctrlKey && !e.metaKey && s.approvals.length && ['a', 'd', 'j', 'k'].includes(e.key)) {
      const i = Math.max(0, s.approvals.findIndex((a) => a.request_id === s.selectedApproval));
      if (e.key === 'j' || e.key === 'k') s.selectApproval(s.approvals[Math.min(s.approvals.length - 1, Math.max(0, i + (e.key === 'j' ? 1 : -1)))]!.request_id);
      else void answer(s.approvals[i]!, e.key === 'a');
      e.preventDefault();
      return;
    }
    if (!e.altKey) return;
    const focusPane = () => {
      const f = dashboard.getState().focused;
      if (f) terminals.focus(f);
    };
    const key = e.key.toLowerCase();
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      s.cycleFocus(e.key === 'ArrowRight' ? 1 : -1);
      focusPane();
    } else if (/^[1-9]$/.test(e.key)) {
      const m = s.members[Number(e.key) - 1];
      if (!m) return;
      s.focus(m.name);
      focusPane();
    } else if (key === 'm' && s.focused) {
      s.toggleMaximise(s.focused);
    } else if (e.key === 'Enter' && s.focused) {
      window.dispatchEvent(new CustomEvent('thclaws:focus-message', { detail: s.focused }));
    } else if (e.code === 'KeyC') {
      s.openReview({ kind: 'changes', agent: 'all' });
    } else if (e.code === 'KeyG') {
      s.openReview({ kind: 'merge' });
    } else if (key === 't') {
      s.setTab('team');
    } else if (key === 'b') {
      s.setTab('board');
    } else if (key === 'n') {
      s.setTab('board');
      s.setEditingTask('new');
    } else {
      return;
    }
    e.preventDefault();
  };
  window.addEventListener('keydown', onKey, true);
  return () => window.removeEventListener('keydown', onKey, true);
}
