// `npm run demo`: the foundation end to end on the embedded scripted provider, in a throw-away workspace.
// Real processes throughout: every step below is the `thclaws` command a person or script would type.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(root, 'bin', 'thclaws');
const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demo-'));
const keep = process.argv.includes('--keep');

function run(args, { expectFail = false } = {}) {
  console.log(`\n$ thclaws ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: ws, encoding: 'utf8', env: { ...process.env, ANTHROPIC_API_KEY: '' } });
  process.stdout.write(r.stdout);
  if (r.stderr) process.stdout.write(r.stderr);
  if ((r.status !== 0) !== expectFail) throw new Error(`thclaws ${args.join(' ')} exited ${r.status}`);
  if (expectFail) console.log(`(refused as expected, exit ${r.status})`);
  return r;
}

try {
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: ws });
  fs.writeFileSync(path.join(ws, 'README.md'), '# demo project\n');
  console.log(`workspace: ${ws}`);

  run(['-p', 'hello', '--provider', 'scripted']);
  run(['-p', 'list files', '--provider', 'scripted', '--accept-all']);

  run(['team', 'create', 'demo', '--members', 'alice,bob', '--description', 'build a parser']);
  run(['team', 'task', 'add', '--subject', 'Write the tokenizer', '--owner', 'alice']);
  run(['team', 'task', 'add', '--subject', 'Write the parser', '--blocked-by', '1']);
  run(['team', 'task', 'add', '--subject', 'Review', '--blocked-by', '1,2', '--owner', 'bob']);
  run(['team', 'send', 'alice', 'Please start with the tokenizer', '--from', 'lead']);
  run(['team', 'inbox', 'alice', '--mark-read']);
  run(['team', 'task', 'claim', '2', '--as', 'bob'], { expectFail: true });
  run(['team', 'task', 'claim', '1', '--as', 'alice']);
  run(['team', 'task', 'complete', '1', '--as', 'alice', '--summary', 'tokenizer done']);
  run(['team', 'task', 'claim', '2', '--as', 'bob']);
  run(['team', 'send', '*', 'Tokenizer merged; parser in progress', '--from', 'alice']);
  run(['team', 'tasks']);
  run(['team', 'status']);
  run(['guard', '--role', 'lead', '--', 'git push origin main --force'], { expectFail: true });
  run(['guard', '--role', 'lead', '--', 'git log --oneline -5']);
  console.log('\ndemo finished: every step above ran the real thclaws process against real files.');
  if (process.argv.includes('--dashboard')) openDashboard();
} finally {
  if (keep) console.log(`(kept ${ws})`);
  else fs.rmSync(ws, { recursive: true, force: true });
}

/** `npm run demo -- --dashboard`: the demo team in the dashboard (lead on the scripted provider) until Ctrl-C. */
function openDashboard() {
  if (!fs.existsSync(path.join(root, 'out', 'renderer', 'index.html'))) execFileSync('npm', ['run', 'build:renderer'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted' }, null, 2));
  process.on('SIGINT', () => {}); // Ctrl-C stops the dashboard; this process then cleans up
  console.log('\n$ thclaws dashboard --dir <workspace>   (Ctrl-C to stop)');
  spawnSync(process.execPath, [bin, 'dashboard', '--dir', ws], { stdio: 'inherit', env: { ...process.env, ANTHROPIC_API_KEY: '' } });
}
