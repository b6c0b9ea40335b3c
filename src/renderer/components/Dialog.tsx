import { useEffect, useRef, type ReactNode } from 'react';
import { focusables } from '../regions';

/**
 * A modal dialog that takes focus when it opens (its first control, or itself), keeps Tab and Shift+Tab
 * inside it, and gives focus back to where it was (a terminal, a button) when it closes. Escape closes it
 * through the global shortcuts; a click on the backdrop through `onClose`.
 */
export function Dialog({ label, onClose, children, className }: { label: string; onClose?: () => void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const el = ref.current;
    if (el && !el.contains(document.activeElement)) (focusables(el)[0] ?? el).focus();
    return () => {
      if (before && before.isConnected) before.focus();
    };
  }, []);
  return (
    <div
      className="modal"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose?.();
      }}
    >
      <div
        ref={ref}
        className={className}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={(e) => {
          if (e.key !== 'Tab' || !ref.current) return;
          const f = focusables(ref.current);
          if (!f.length) {
            e.preventDefault();
            return;
          }
          const first = f[0]!;
          const last = f[f.length - 1]!;
          const at = document.activeElement;
          if (e.shiftKey && (at === first || at === ref.current)) {
            e.preventDefault();
            last.focus();
          } else if (!e.shiftKey && at === last) {
            e.preventDefault();
            first.focus();
          }
        }}
      >
        {children}
      </div>
    </div>
  );
}
