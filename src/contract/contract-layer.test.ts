/**
 * The contract is a layer the build guards: its files (tests aside) import only `zod` and each other, and they
 * compile with no Node and no DOM types. A file here that reaches for `node:fs`, a core module or the renderer
 * fails this test and `tsc -p src/contract` (part of `npm run typecheck`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = import.meta.dirname;
const ROOT = path.resolve(DIR, '../..');
const sources = () => fs.readdirSync(DIR, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

/** Every module specifier a file names: static and type imports, re-exports, side-effect and dynamic imports, require. */
function specifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g, /\bimport\s*(['"])([^'"]+)\1/g, /\b(?:import|require)\s*\(\s*(['"`])([^'"`]+)\1/g];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[2]!);
  return found;
}

/** Why a specifier may not appear in a contract file, or null when it may (`zod`, or a path inside the folder). */
function refusal(file: string, spec: string): string | null {
  if (spec === 'zod') return null;
  if (!spec.startsWith('.')) return `${file} imports '${spec}': the contract imports only zod and itself`;
  const target = path.resolve(DIR, path.dirname(file), spec);
  return target.startsWith(DIR + path.sep) ? null : `${file} imports '${spec}', outside src/contract`;
}

describe('src/contract', () => {
  it('finds every kind of import', () => {
    const code = "import a from 'a';\nimport type { B } from\n  'b';\nexport * from './c.js';\nimport 'd';\nconst e = await import('e');\nrequire('f');\nexport { g } from \"g\";";
    expect(specifiers(code).sort()).toEqual(['./c.js', 'a', 'b', 'd', 'e', 'f', 'g']);
  });

  it('imports only zod and its own files', () => {
    const files = sources();
    expect(files).toContain('api.ts');
    const problems = files.flatMap((f) => specifiers(fs.readFileSync(path.join(DIR, f), 'utf8')).map((s) => refusal(f, s))).filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it('compiles with no Node and no DOM types', () => {
    const tsc = spawnSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', path.join(DIR, 'tsconfig.json'), '--noEmit'], { cwd: ROOT, encoding: 'utf8', timeout: 50_000 });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
