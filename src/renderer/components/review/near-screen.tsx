import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * One IntersectionObserver for every placeholder (a Changes view of 2,000 files would otherwise make 2,000):
 * each element's callback runs once it comes within a screen of the viewport.
 */
let shared: { io: IntersectionObserver; near: Map<Element, () => void> } | null = null;

function watch(el: Element, onNear: () => void): () => void {
  if (!shared) {
    const near = new Map<Element, () => void>();
    const io = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          const cb = near.get(e.target);
          near.delete(e.target);
          io.unobserve(e.target);
          cb?.();
        }
      },
      { rootMargin: '100% 0px' },
    );
    shared = { io, near };
  }
  const s = shared;
  s.near.set(el, onNear);
  s.io.observe(el);
  return () => {
    s.near.delete(el);
    s.io.unobserve(el);
  };
}

/** Renders its children once it is within a screen of the viewport; until then a box of the estimated height. */
export function NearScreen({ estimate, children, label }: { estimate: number; children: ReactNode; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    return watch(el, () => setNear(true));
  }, [near]);
  return near ? <>{children}</> : <div ref={ref} className="review-page-placeholder" style={{ height: estimate }} data-placeholder={label} />;
}
