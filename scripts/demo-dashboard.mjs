// `npm run demo -- --dashboard`: the demo team live in the dashboard (`thclaws dashboard --demo`). The
// dashboard starts first on a throw-away git workspace; its lead is given the demo prompt as a person would
// type it, and the person watches it create the team and spawn the teammates into their panes; backend's
// permission request and frontend's plan wait for the person's click. Prints the URL; runs until Ctrl-C.
// Options: --port <n>, --keep (keep the workspace).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (!fs.existsSync(path.join(root, 'out', 'renderer', 'index.html'))) execFileSync('npm', ['run', 'build:renderer'], { cwd: root, stdio: 'inherit' });
const i = process.argv.indexOf('--port');
const args = ['dashboard', '--demo', ...(i >= 0 ? ['--port', process.argv[i + 1]] : []), ...(process.argv.includes('--keep') ? ['--keep'] : [])];
const child = spawn(process.execPath, [path.join(root, 'bin', 'thclaws'), ...args], { stdio: 'inherit' });
// Ctrl-C reaches the dashboard through the terminal's process group; it stops its agents and cleans up.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('close', (code) => process.exit(code ?? 0));
