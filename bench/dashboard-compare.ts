/**
 * `npm run bench -- dashboard --baseline <ref or dir>`: the dashboard's figures of issue 31 for two checkouts in
 * one run, on the same machine and load: the baseline (a git ref, e.g. `main`, checked out in a temporary
 * worktree removed after the run; or the directory of a checkout, its node_modules in place) and this one.
 * Both renderers are built first. Each phase runs the two back to back (before, then after), so a change in
 * the machine's load falls on both:
 * - 8 panes × N MiB: aggregate MB/s and the renderer's main-thread CPU per MB, in-process and as the host's
 *   client (and the client's share of the in-process figure);
 * - keystroke echo in one pane while the other seven flood, as the host's client (p50 / p90).
 * The loss and idle phases of the full bench are not repeated here.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { measureThroughput } from './dashboard.js';
import { measureEcho } from './dashboard-echo.js';
import { openDashboard, openPage, type Dash, type Mode } from './dashboard-rig.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The baseline's checkout: a directory as given, or a git ref in a temporary worktree sharing this node_modules. */
function baselineCheckout(arg: string): { root: string; remove(): void } {
  if (fs.existsSync(path.resolve(arg, 'package.json'))) return { root: path.resolve(arg), remove: () => {} };
  const root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-baseline-')), 'checkout');
  execFileSync('git', ['worktree', 'add', '--detach', root, arg], { cwd: REPO, stdio: 'ignore' });
  fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(root, 'node_modules'));
  return { root, remove: () => execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: REPO, stdio: 'ignore' }) };
}

export async function compareDashboards(baselineArg: string): Promise<BenchSection> {
  const checkout = baselineCheckout(baselineArg);
  try {
    return await compare(checkout.root, baselineArg);
  } finally {
    checkout.remove();
  }
}

async function compare(baseline: string, name: string): Promise<BenchSection> {
  const builds = [{ label: 'before', root: baseline }, { label: 'after', root: REPO }];
  // Built now, so neither side is measured on a stale build.
  for (const b of builds) execFileSync('npm', ['run', 'build:renderer'], { cwd: b.root, stdio: 'inherit' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'] });
  const rows: Array<Record<string, string | number>> = [];
  const details: Record<string, unknown> = { baseline, loadAtStart: os.loadavg()[0] };
  const open: Dash[] = [];
  const fig: Record<string, { mbs: number; cpuMsPerMb: number }> = {};
  try {
    for (const mode of ['in-process', 'host'] as Mode[]) {
      for (const b of builds) {
        const dash = await openDashboard(mode, path.join(b.root, 'out/renderer'), b.root);
        open.push(dash);
        const p = await openPage(browser, dash.url);
        const label = `${b.label}, ${mode === 'host' ? 'host client' : 'in-process'}`;
        fig[label] = await measureThroughput(dash, p, label, rows);
        await p.page.close();
        await dash.close();
      }
    }
    for (const b of builds) {
      const client = fig[`${b.label}, host client`]!;
      const inProcess = fig[`${b.label}, in-process`]!;
      rows.push({
        metric: `${b.label}: host client ÷ in-process, MB/s and renderer MB per CPU-second`,
        value: `${(client.mbs / inProcess.mbs).toFixed(2)}× / ${(inProcess.cpuMsPerMb / client.cpuMsPerMb).toFixed(2)}×`,
        target: '>= 0.9×',
      });
    }
    for (const b of builds) {
      const dash = await openDashboard('host', path.join(b.root, 'out/renderer'), b.root);
      open.push(dash);
      const { page, written, task, cpu } = await openPage(browser, dash.url);
      const echo = await measureEcho(page, dash.spawnIn, written, async () => ({ task: await task(), cpu: await cpu() }));
      rows.push({ metric: `${b.label}: keystroke echo while seven panes flood (host client), p50 / p90`, value: `${echo.p50.toFixed(1)} / ${echo.p90.toFixed(1)} ms (${echo.n} keys; load ${echo.load.toFixed(1)})`, target: '<= 10 / <= 30 ms' });
      details[`echo ${b.label}`] = echo;
      await page.close();
      await dash.close();
    }
    details.throughput = fig;
    rows.push({ metric: 'machine load average (1 min) at the start / at the end', value: `${(details.loadAtStart as number).toFixed(1)} / ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`, target: '-' });
  } finally {
    await browser.close();
    for (const d of open) await d.close();
  }
  return { title: `Dashboard before (${name}) and after, in one run`, file: 'dashboard-compare', rows, details };
}
