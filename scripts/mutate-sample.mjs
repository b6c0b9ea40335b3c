#!/usr/bin/env node
/**
 * `npm run mutate:sample`: a seeded random sample of Stryker's mutants (its own mutators, through
 * @stryker-mutator/instrumenter), each applied alone in one scratch git worktree, the bundle and the page rebuilt,
 * and judged by the tests that import the module plus its area's folders and Playwright specs
 * (stryker/areas.mjs). Stryker cannot do this here: processes run dist/cli.mjs, not its instrumented source.
 * Pure parts: stryker/sample-lib.mjs. Report: a table on stdout, JSON in reports/mutate-sample/.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { USAGE, applyExplicit, applyMutant, areaOf, buildsFor, changedLines, draw, isMutable, onChangedLine, parseArgs, reproduce } from '../stryker/sample-lib.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });

function fail(message) {
  process.stderr.write(`mutate:sample: ${message}\n`);
  process.exit(2);
}

const quiet = () => undefined;
const logger = { debug: quiet, info: quiet, warn: quiet, error: quiet, trace: quiet, fatal: quiet, isDebugEnabled: () => false, isTraceEnabled: () => false, isInfoEnabled: () => false, isWarnEnabled: () => false, isErrorEnabled: () => false, isFatalEnabled: () => false };

/** Every mutant Stryker would make of these files, minus the ones its own comments disable. */
async function mutantsOf(files) {
  const inputs = files.map((name) => ({ name, content: fs.readFileSync(path.join(ROOT, name), 'utf8'), mutate: true }));
  const { mutants } = await new Instrumenter(logger).instrument(inputs, { plugins: null, excludedMutations: [], ignorers: [], noHeader: true });
  return mutants.filter((m) => m.status !== 'Ignored');
}

/** The sample: explicit mutants as given, else n drawn from the files (changed lines only with --since). */
async function pick(o) {
  if (o.mutants.length > 0 || o.ids.length > 0) {
    const explicit = o.mutants.map((m) => ({ ...m, kind: 'explicit' }));
    for (const { file, id } of o.ids) {
      const found = (await mutantsOf([file])).find((m) => m.id === id);
      if (!found) fail(`${file} has no mutant ${id} (its text changed, or a wrong id)`);
      explicit.push({ kind: 'stryker', mutant: found });
    }
    return explicit;
  }
  // A folder stands for the sources git tracks under it (tests left out), so a sample can be drawn from a module.
  let files = o.files.flatMap((f) => (fs.statSync(path.join(ROOT, f), { throwIfNoEntry: false })?.isDirectory() ? git(ROOT, 'ls-files', '--', f).split('\n').filter(isMutable) : [f]));
  let lines = null;
  if (o.since) {
    const diff = git(ROOT, '-c', 'core.quotePath=false', 'diff', '-U0', `${o.since}...`, '--', 'src');
    lines = changedLines(diff);
    files = [...lines.keys()].filter(isMutable);
    if (files.length === 0) fail(`no TypeScript source under src/ changed since ${o.since}`);
  }
  for (const f of files) if (!fs.existsSync(path.join(ROOT, f)) || !isMutable(f)) fail(`${f}: not a TypeScript source file under src/ (tests are not mutated)`);
  let all = await mutantsOf(files);
  if (lines) all = all.filter((m) => onChangedLine(m, lines.get(m.fileName)));
  if (all.length === 0) fail('no mutant to draw from');
  all.sort((a, b) => a.fileName.localeCompare(b.fileName) || Number(a.id) - Number(b.id));
  return draw(all, o.n, o.seed).map((mutant) => ({ kind: 'stryker', mutant }));
}

/** One mutant as the text it changes and how to apply it again. */
function describe(entry) {
  if (entry.kind === 'explicit') {
    const text = fs.readFileSync(path.join(ROOT, entry.file), 'utf8');
    const { original, text: mutated } = applyExplicit(text, entry);
    return { file: entry.file, line: entry.line, mutator: 'explicit', original, replacement: entry.to, mutated, repro: `npm run mutate:sample -- --mutant '${entry.file}:${entry.line}:${entry.from}=>${entry.to}'` };
  }
  const m = entry.mutant;
  const text = fs.readFileSync(path.join(ROOT, m.fileName), 'utf8');
  const { original, text: mutated } = applyMutant(text, m);
  return { file: m.fileName, line: m.location.start.line + 1, mutator: m.mutatorName, original, replacement: m.replacement, mutated, repro: reproduce(text, m, original) };
}

/** Filters that match at least one tracked test file (a row may name a folder some checkout lacks). */
function liveFilters(filters, tracked) {
  return filters.filter((f) => tracked.some((t) => t.startsWith(f) && /\.test\.tsx?$/.test(t)));
}

let running = null;

/** Runs a command in its own process group; kills the group at the deadline. */
function run(cwd, cmd, args, deadline) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', NO_COLOR: '1' } });
    let out = '';
    // eslint-disable-next-line no-control-regex -- colour codes some tools print even under NO_COLOR
    const keep = (b) => { out = (out + b.toString().replace(/\x1b\[[0-9;]*m/g, '')).slice(-200_000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, Math.max(1, deadline - Date.now()));
    running = child;
    child.on('close', (code, signal) => {
      running = null;
      clearTimeout(timer);
      resolve({ code, signal, timedOut, out });
    });
  });
}

/** The first failing tests a run names (vitest's FAIL lines, Playwright's ✘ lines). */
function failures(out) {
  const lines = out.split('\n').map((l) => l.trim().replace(/\s+\d+(\.\d+)?m?s$/, ''));
  const named = lines.filter((l) => /^FAIL\s/.test(l));
  return [...new Set(named.length > 0 ? named : lines.filter((l) => /^(×|✘)\s/.test(l)))].slice(0, 3);
}

/**
 * Processes a test started detached (a `thclaws host` outlives its test by design) run the scratch worktree's
 * bundle: once a mutant is judged, or the run interrupted, every process whose command line names the
 * worktree is ended, so none lingers, and none keeps serving a mutant into the next one.
 */
function reapStrays(wt) {
  if (process.platform !== 'linux') return 0;
  let n = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    let cmd = '';
    try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmd.includes(`${wt}/`)) continue;
    try { process.kill(Number(pid), 'SIGKILL'); n++; } catch { /* gone */ }
  }
  return n;
}

function lastLines(out) {
  return out.trim().split('\n').slice(-3).join(' | ');
}

function scratchWorktree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-mutate-sample-'));
  // mkdtemp makes it 0700: the suites that run a teammate as another local user (test/remote/) would skip.
  fs.chmodSync(dir, 0o755);
  git(ROOT, 'worktree', 'add', '--detach', '-q', dir, 'HEAD');
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(dir, 'node_modules'));
  return dir;
}

function table(rows) {
  const cut = (s, n) => { const one = s.replace(/\s+/g, ' '); return one.length > n ? `${one.slice(0, n - 1)}…` : one; };
  const lines = rows.map((r, i) => `${String(i + 1).padStart(2)}  ${r.status.padEnd(11)} ${`${r.file}:${r.line}`.padEnd(44)} ${r.mutator.padEnd(22)} ${cut(r.original, 30)} → ${cut(r.replacement, 30)}  ${r.seconds}s${r.by ? `  (${cut(r.by, 60)})` : ''}`);
  return ['#   status      where                                        mutator                original → replacement', ...lines].join('\n');
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    fail(e.message);
  }
  if (o.help) return void console.log(USAGE);
  if (o.seed === null) o.seed = Math.floor(Math.random() * 1e9) + 1;
  const dirty = git(ROOT, 'status', '--porcelain', '--', 'src').trim();
  if (dirty && !o.dryRun) process.stderr.write('mutate:sample: note: src/ has uncommitted changes; the scratch worktree is at HEAD, mutants are drawn from the files as they are\n');
  const picked = (await pick(o)).map(describe);
  const intro = o.mutants.length + o.ids.length > 0 ? `${picked.length} explicit mutant(s)` : `${picked.length} mutant(s), seed ${o.seed}${o.since ? `, from the lines changed since ${o.since}` : ''}`;
  console.log(`mutate:sample: ${intro}`);
  const tracked = git(ROOT, 'ls-files', 'src', 'test', 'e2e').split('\n');
  for (const [i, p] of picked.entries()) {
    const area = areaOf(p.file);
    p.tests = liveFilters(area.tests, tracked);
    p.e2e = o.e2e ? (area.e2e ?? []).filter((s) => tracked.includes(s)) : [];
    p.builds = buildsFor(p.file, p.e2e.length > 0);
    if (p.e2e.length > 0 && !p.builds.includes('build:cli')) p.builds.unshift('build:cli');
    console.log(`${String(i + 1).padStart(2)}  ${p.file}:${p.line} ${p.mutator}: ${JSON.stringify(p.original).slice(0, 80)} → ${JSON.stringify(p.replacement).slice(0, 80)}\n    tests: ${p.tests.join(' ') || '-'} + related${p.e2e.length ? `; e2e: ${p.e2e.join(' ')}` : ''}\n    again: ${p.repro}`);
  }
  if (o.dryRun) return;

  git(ROOT, 'worktree', 'prune'); // registrations of scratch worktrees an earlier run could not remove
  const wt = scratchWorktree();
  // Interrupted: the running tests' group and the scratch worktree go too.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      try { if (running) process.kill(-running.pid, 'SIGKILL'); } catch { /* gone */ }
      reapStrays(wt);
      try { git(ROOT, 'worktree', 'remove', '--force', wt); } catch { /* already removed */ }
      process.exit(130);
    });
  }
  const results = [];
  let stale = new Set(picked.some((p) => p.e2e.length > 0) ? ['build:cli', 'build:renderer'] : ['build:cli']);
  try {
    for (const [i, p] of picked.entries()) {
      git(wt, 'reset', '--hard', '-q');
      git(wt, 'clean', '-fdq', '-e', 'node_modules'); // the symlink is untracked too
      const t0 = Date.now();
      const deadline = t0 + o.timeoutS * 1000;
      // Builds of the previous mutant are stale: rebuild them from the clean tree, then this mutant's.
      for (const b of stale) await run(wt, 'npm', ['run', '-s', b], deadline);
      fs.writeFileSync(path.join(wt, p.file), p.mutated);
      stale = new Set(p.builds);
      let status = 'survived';
      let by = '';
      const steps = [];
      for (const b of p.builds) steps.push({ what: b, cmd: ['npm', 'run', '-s', b], build: true });
      // The area's folders first (the judges chosen for it), then every test that imports the module.
      if (p.tests.length) steps.push({ what: 'area', cmd: ['npx', 'vitest', 'run', '--bail', '1', ...p.tests] });
      steps.push({ what: 'related', cmd: ['npx', 'vitest', 'related', p.file, '--run', '--passWithNoTests', '--bail', '1'] });
      for (const spec of p.e2e) steps.push({ what: spec, cmd: ['npx', 'playwright', 'test', '--max-failures', '1', spec] });
      process.stdout.write(`[${i + 1}/${picked.length}] ${p.file}:${p.line} ${p.mutator} …`);
      const ran = [];
      for (const s of steps) {
        ran.push(s.cmd.join(' '));
        const r = await run(wt, s.cmd[0], s.cmd.slice(1), deadline);
        if (r.timedOut) { status = 'timed out'; by = s.what; break; }
        if (r.code !== 0) {
          // Caught only when a test failed: a run that broke before any test (a missing tool) proves nothing.
          const failed = s.build ? [] : failures(r.out);
          status = s.build ? 'build error' : failed.length > 0 ? 'caught' : 'run error';
          by = `${s.what}: ${failed.join('; ') || lastLines(r.out)}`;
          break;
        }
      }
      const strays = reapStrays(wt);
      const row = { file: p.file, line: p.line, mutator: p.mutator, original: p.original, replacement: p.replacement, status, by, seconds: Math.round((Date.now() - t0) / 1000), repro: p.repro, ran, strays };
      results.push(row);
      console.log(` ${status} (${row.seconds}s)${by ? ` ${by}` : ''}`);
    }
  } finally {
    reapStrays(wt);
    git(ROOT, 'worktree', 'remove', '--force', wt);
  }
  const caught = results.filter((r) => r.status === 'caught' || r.status === 'timed out').length;
  console.log(`\n${table(results)}\n\n${caught} of ${results.length} caught (timed out counts as caught, as in Stryker); survivors:`);
  for (const r of results.filter((x) => x.status === 'survived')) console.log(`  ${r.repro}`);
  const outDir = path.join(ROOT, 'reports', 'mutate-sample');
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-seed${o.seed}.json`);
  fs.writeFileSync(file, `${JSON.stringify({ seed: o.seed, since: o.since, files: o.files, head: git(ROOT, 'rev-parse', 'HEAD').trim(), caught, total: results.length, mutants: results }, null, 2)}\n`);
  console.log(`report: ${path.relative(ROOT, file)}`);
}

await main();
