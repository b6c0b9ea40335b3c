/**
 * Every relative link in README.md and docs/*.md points at a file or folder that exists in the repository, so a
 * newcomer following the map never lands on a 404 after a file moves.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** `[text](target)` and `![alt](target)` outside code (fences and spans); the target without a title or an #anchor. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const links: string[] = [];
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // a URL or an anchor in the same file
    links.push(decodeURIComponent(target.split('#')[0]!));
  }
  return links;
}

it('finds links and images, and leaves out URLs, anchors and code blocks', () => {
  const md = '[`a`](docs/a.md) ![s](shots/x.png "title") [u](https://x.org/y) [h](#map) [b](b.md#part) `fs[f](…)`\n```\n[c](in-code.md)\n```\n';
  expect(relativeLinks(md)).toEqual(['docs/a.md', 'shots/x.png', 'b.md']);
});

it('every relative link in README.md and docs/*.md resolves to a file in the repository', () => {
  const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f));
  const broken: string[] = [];
  let checked = 0;
  for (const file of ['README.md', ...docs]) {
    for (const link of relativeLinks(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
      checked++;
      if (!fs.existsSync(path.resolve(ROOT, path.dirname(file), link))) broken.push(`${file}: ${link}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(10); // the README's map and pictures are links: a regex gone wrong finds none
});
