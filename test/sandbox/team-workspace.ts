/** A scratch team workspace for the sandbox tests: tracked sources, a build script, two teammate worktrees. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { git, teamRepo, type TeamRepo } from '../guard/git-repo.js';

export interface SandboxWorkspace extends TeamRepo {
  /** Every file under a directory with its content, to compare before and after. */
  snapshot(dir: string): Record<string, string>;
}

const PKG = {
  name: 'scratch',
  private: true,
  scripts: { build: 'node build.js', test: 'node build.js && node test.js', clean: 'rm -rf src build.js' },
};

export function sandboxWorkspace(): SandboxWorkspace {
  const repo = teamRepo();
  const files: Record<string, string> = {
    'package.json': JSON.stringify(PKG),
    'build.js': "require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/out.js', 'module.exports = 42;\\n');\n",
    'test.js': "const v = require('./dist/out.js'); if (v !== 42) process.exit(1); console.log('tests passed');\n",
    'src/index.ts': 'export const a = 1;\n',
    'src/lib/util.ts': 'export const b = 2;\n',
  };
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo.ws, f)), { recursive: true });
    writeFileSync(path.join(repo.ws, f), text);
  }
  git(repo.ws, 'add', '-A');
  git(repo.ws, 'commit', '-q', '-m', 'sources');
  for (const wt of [repo.alice, repo.bob]) git(wt, 'merge', '-q', 'main');
  mkdirSync(path.join(repo.ws, 'node_modules'), { recursive: true });
  mkdirSync(path.join(repo.ws, '.thclaws/state/team'), { recursive: true });
  writeFileSync(path.join(repo.ws, '.thclaws/state/team/config.json'), '{"name":"t"}\n');
  const snapshot = (dir: string): Record<string, string> => {
    const out: Record<string, string> = {};
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const p = path.join(d, e);
        if (e === '.git' || e === '.worktrees' || e === 'node_modules') continue;
        if (statSync(p).isDirectory()) walk(p);
        else out[path.relative(dir, p)] = readFileSync(p, 'utf8');
      }
    };
    walk(dir);
    return out;
  };
  return { ...repo, snapshot };
}
