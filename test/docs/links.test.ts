/**
 * Every relative link in README.md and docs/*.md points at a file or folder that exists in the repository, and
 * a link to a heading (`docs/teams.md#files`) at a heading that exists, so a newcomer following the map never
 * lands on a 404 or the top of the wrong page after a file or a section moves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const withoutCode = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** `[text](target)` and `![alt](target)` outside code (fences and spans), as [path, anchor]; URLs left out. */
function relativeLinks(markdown: string): Array<[string, string]> {
  const prose = withoutCode(markdown).replace(/`[^`\n]*`/g, '');
  const links: Array<[string, string]> = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [file = '', anchor = ''] = target.split('#');
    links.push([decodeURIComponent(file), anchor]);
  }
  return links;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to `-`, repeats `-1`, `-2`. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  return anchors;
}

it('finds links, images and anchors, and leaves out URLs and code', () => {
  const md = '[`a`](docs/a.md) ![s](shots/x.png "title") [u](https://x.org/y) [h](#map) [b](b.md#part) `fs[f](…)`\n```\n[c](in-code.md)\n```\n';
  expect(relativeLinks(md)).toEqual([['docs/a.md', ''], ['shots/x.png', ''], ['', 'map'], ['b.md', 'part']]);
  expect([...headingAnchors('# The demo (`npm run demo`)\n## Files\n## Files\n```\n# not a heading\n```\n### Installing, running\n')])
    .toEqual(['the-demo-npm-run-demo', 'files', 'files-1', 'installing-running']);
});

it('every relative link in README.md and docs/*.md resolves to a file, and its #anchor to a heading there', () => {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  const broken: string[] = [];
  let checked = 0;
  for (const file of ['README.md', ...docs]) {
    for (const [link, anchor] of relativeLinks(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      checked++;
      const target = link ? path.resolve(ROOT, path.dirname(file), link) : path.join(ROOT, file);
      if (!fs.existsSync(target)) broken.push(`${file}: ${link}`);
      else if (anchor && target.endsWith('.md') && !headingAnchors(fs.readFileSync(target, 'utf8')).has(anchor)) broken.push(`${file}: ${link}#${anchor}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(10); // the README's map and pictures are links: a regex gone wrong finds none
});
