import { useMemo, type ReactNode } from 'react';
import { parseMarkdown, type Inline } from '../markdown';

/** A plan as React elements built from the safe Markdown subset: no HTML string ever reaches the DOM. */
function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.t) {
      case 'text':
        return n.v;
      case 'code':
        return <code key={i}>{n.v}</code>;
      case 'b':
        return <strong key={i}>{inline(n.c)}</strong>;
      case 'i':
        return <em key={i}>{inline(n.c)}</em>;
      case 'a':
        return (
          <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">
            {inline(n.c)}
          </a>
        );
    }
  });
}

export function Markdown({ text }: { text: string }) {
  // Cards re-render every second (their age): parse a plan once per text, not once per tick.
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <div className="markdown">
      {blocks.map((b, i) => {
        switch (b.t) {
          case 'h': {
            const H = `h${Math.min(6, b.level + 2)}` as 'h3';
            return <H key={i}>{inline(b.c)}</H>;
          }
          case 'p':
            return <p key={i}>{inline(b.c)}</p>;
          case 'ul':
            return (
              <ul key={i}>
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it)}</li>
                ))}
              </ul>
            );
          case 'ol':
            return (
              <ol key={i} start={b.start}>
                {b.items.map((it, j) => (
                  <li key={j}>{inline(it)}</li>
                ))}
              </ol>
            );
          case 'pre':
            return (
              <pre key={i}>
                <code>{b.v}</code>
              </pre>
            );
        }
      })}
    </div>
  );
}
