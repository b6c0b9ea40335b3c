import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown.js';

describe('plan Markdown', () => {
  it('headings, lists, code and emphasis become nodes', () => {
    const b = parseMarkdown('# Plan\n\nFirst **do** this, then `npm test`.\n\n- one\n- *two*\n\n3. three\n4. four\n\n```sh\nrm -rf x\n```\n');
    expect(b.map((x) => x.t)).toEqual(['h', 'p', 'ul', 'ol', 'pre']);
    expect(b[0]).toEqual({ t: 'h', level: 1, c: [{ t: 'text', v: 'Plan' }] });
    expect(b[1]).toEqual({ t: 'p', c: [{ t: 'text', v: 'First ' }, { t: 'b', c: [{ t: 'text', v: 'do' }] }, { t: 'text', v: ' this, then ' }, { t: 'code', v: 'npm test' }, { t: 'text', v: '.' }] });
    expect(b[3]).toMatchObject({ t: 'ol', start: 3 });
    expect(b[4]).toEqual({ t: 'pre', lang: 'sh', v: 'rm -rf x' });
  });

  it('HTML stays text and only http(s) links are links', () => {
    const b = parseMarkdown('<script>alert(1)</script> <img src=x onerror=alert(1)>');
    expect(b).toEqual([{ t: 'p', c: [{ t: 'text', v: '<script>alert(1)</script> <img src=x onerror=alert(1)>' }] }]);
    expect(parseInline('[x](javascript:alert(1))')[0]).toEqual({ t: 'text', v: '[x](javascript:alert(1)' });
    expect(parseInline('[docs](https://example.com/a)')).toEqual([{ t: 'a', href: 'https://example.com/a', c: [{ t: 'text', v: 'docs' }] }]);
  });
});

describe('unclosed markers', () => {
  type Node = { t: string; v?: string; href?: string; c?: Node[] };
  const flat = (ns: Node[]): string => ns.map((n) => n.v ?? (n.c ? flat(n.c) : '')).join('');
  it('keep every character as text, and a link after them still becomes a link', () => {
    const junk = '['.repeat(5000) + '*'.repeat(3) + '_`';
    const [p] = parseMarkdown(`${junk}[docs](https://example.com/x) end`) as Array<{ t: string; c: Node[] }>;
    expect(p!.t).toBe('p');
    // One '[' opens the link (the farthest within the span bound); every other character stays text.
    expect(flat(p!.c)).toBe(`${junk.slice(1)}[docs end`);
    const links = JSON.stringify(p!.c).match(/"href":"([^"]+)"/g);
    expect(links).toEqual(['"href":"https://example.com/x"']);
  });
});
