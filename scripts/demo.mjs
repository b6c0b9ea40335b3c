// `npm run demo`: a whole Agent Team on the embedded scripted provider, in a throw-away git workspace.
// The lead (`thclaws -p`) creates backend + frontend (each in its own git worktree) and qa, posts tasks with
// dependencies, spawns the three teammates as real processes; they claim, write files, commit and complete;
// the lead dry-runs and merges. Prints a timeline and the merged tree. `--live` runs the same team prompt on
// a real model (needs ANTHROPIC_API_KEY); `--keep` keeps the workspace. `--dashboard` runs the same team live
// *in* `thclaws dashboard` (scripts/demo-dashboard.mjs): the lead in its pane, the teammates in theirs, one
// permission request and one plan for the person to click, until Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

if (process.argv.includes('--dashboard')) {
  await import('./demo-dashboard.mjs');
  await new Promise(() => {}); // the dashboard runs until Ctrl-C; demo-dashboard.mjs exits with it
}
// The demo team (prompt and scripted turns) is one TypeScript module, shared with the dashboard's live demo.
const { PROMPT, teamScript } = await tsImport('../src/main/host/demo-team.ts', import.meta.url);

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = path.join(root, 'bin', 'thclaws');
const live = process.argv.includes('--live');
const keep = process.argv.includes('--keep');
const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-demo-')));
const started = Date.now();
const t = (ms = Date.now()) => `+${((ms - started) / 1000).toFixed(2).padStart(5)}s`;

const SCRIPT = teamScript(false);

function git(...args) {
  return execFileSync('git', args, { cwd: ws, encoding: 'utf8' });
}

function line(who, text) {
  console.log(`${t()}  ${who.padEnd(9)} ${text}`);
}

async function main() {
  if (live && !process.env.ANTHROPIC_API_KEY) {
    console.error('thclaws: --live needs ANTHROPIC_API_KEY');
    return 2;
  }
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'demo@thclaws.local');
  git('config', 'user.name', 'thclaws demo');
  fs.writeFileSync(path.join(ws, 'README.md'), '# demo project\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  fs.mkdirSync(path.join(ws, '.thclaws'));
  // Teammates ask before every Bash command by default; this unattended demo opts in to its teammates'
  // commands here, in the workspace's own settings, and trusts the workspace in a demo-only config dir.
  const teamSettings = { teamEnabled: true, teammateMode: 'background', teammateAllow: ['Bash'] };
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify(teamSettings, null, 2));
  const configHome = `${ws}-config`;
  fs.mkdirSync(path.join(configHome, 'thclaws'), { recursive: true });
  fs.writeFileSync(path.join(configHome, 'thclaws', 'trusted-folders.json'), JSON.stringify({ folders: [ws] }));
  console.log(`settings: ${JSON.stringify(teamSettings)}  (teammates' Bash allowed without asking: the demo runs unattended)`);
  const scriptFile = path.join(os.tmpdir(), `thclaws-demo-script-${process.pid}.json`);
  fs.writeFileSync(scriptFile, JSON.stringify(SCRIPT));
  console.log(`workspace: ${ws}  (${live ? 'live model' : 'scripted provider, no API key needed'})\n`);
  console.log(`$ thclaws -p "${PROMPT.slice(0, 70)}…" --accept-all --timeout 60\n`);

  const args = ['-p', PROMPT, '--accept-all', '--timeout', live ? '600' : '60', '--output-format', 'stream-json', ...(live ? [] : ['--script', scriptFile])];
  const env = { ...process.env, XDG_CONFIG_HOME: configHome, ...(live ? {} : { ANTHROPIC_API_KEY: '' }) };
  const child = spawn(process.execPath, [bin, ...args], { cwd: ws, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let result;
  const names = new Map();
  for await (const l of readline.createInterface({ input: child.stdout })) {
    let e;
    try {
      e = JSON.parse(l);
    } catch {
      continue;
    }
    if (e.type === 'assistant') {
      for (const b of e.message.content) {
        if (b.type === 'tool_use') {
          names.set(b.id, b.name);
          line('lead', `${b.name} ${describeInput(b.name, b.input)}`);
        }
      }
    } else if (e.type === 'user') {
      for (const b of e.message.content) {
        if (b.type !== 'tool_result') continue;
        const name = names.get(b.tool_use_id);
        const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
        if (b.is_error || ['SpawnTeammate', 'TeamMerge'].includes(name)) for (const r of text.split('\n').slice(0, 12)) line('', `  ${b.is_error ? '✗ ' : ''}${r}`);
      }
    } else if (e.type === 'system' && e.subtype === 'team') {
      const t = e.event;
      if (t.kind === 'idle') line(t.from, `${t.task ? `completed task #${t.task}: ` : 'idle: '}${t.summary ?? t.reason}`);
      else if (t.kind === 'message') line(t.from, `→ lead: ${t.text.slice(0, 100)}`);
      else if (t.kind === 'shutdown_reply') line(t.from, t.approved ? 'shutdown approved, exited' : `shutdown rejected: ${t.reason}`);
      else if (t.kind === 'dead') line('watchdog', `${t.agent} is not running`);
      else if (t.kind === 'status' && t.state === 'working') line(t.agent, `working${t.task ? ` on task #${t.task}` : ''}`);
    } else if (e.type === 'result') result = e;
  }
  const code = await new Promise((r) => child.on('close', r));
  fs.rmSync(scriptFile, { force: true });

  console.log('\nwhat each teammate did (from its output.log):');
  for (const name of ['backend', 'frontend', 'qa']) {
    const log = path.join(ws, '.thclaws/state/team/agents', name, 'output.log');
    const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((x) => /^\[|● /.test(x)) : [];
    for (const x of lines.slice(0, 8)) console.log(`  ${name.padEnd(9)} ${x.slice(0, 110)}`);
  }
  console.log('\ntasks:');
  console.log(execFileSync(process.execPath, [bin, 'team', 'tasks'], { cwd: ws, encoding: 'utf8' }).replace(/^/gm, '  '));
  console.log('history of main:');
  console.log(git('log', '--graph', '--format=%s', 'main').replace(/^/gm, '  '));
  console.log('merged tree:');
  console.log(git('ls-tree', '-r', '--name-only', 'HEAD').replace(/^/gm, '  '));
  const ok = code === 0 && result && !result.is_error;
  console.log(ok ? `demo finished in ${((Date.now() - started) / 1000).toFixed(1)} s: every step ran real thclaws processes on real files and git.` : `demo FAILED (exit ${code}): ${result?.errors?.[0] ?? 'no result'}`);
  return ok ? 0 : 1;
}

function describeInput(name, input) {
  if (name === 'TeamCreate') return `"${input.name}": ${input.agents.map((a) => `${a.name}${a.isolation === 'worktree' ? ' (worktree)' : ''}`).join(', ')}`;
  if (name === 'TeamTaskCreate') return `"${input.subject}" for ${input.owner ?? 'anyone'}${input.blocked_by?.length ? `, after #${input.blocked_by.join(', #')}` : ''}`;
  if (name === 'SpawnTeammate') return input.name;
  if (name === 'TeamMerge') return input.dry_run ? '(dry run)' : '';
  return JSON.stringify(input).slice(0, 100);
}

let code = 1;
try {
  code = await main();
} finally {
  if (keep) console.log(`(kept ${ws})`);
  else fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(`${ws}-config`, { recursive: true, force: true });
}
process.exit(code);
