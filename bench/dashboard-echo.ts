/**
 * The dashboard bench's keystroke echo: one pane runs `cat` while the other seven flood (see measureEcho).
 */
import os from 'node:os';
import { stopProfile } from './profile.js';
import { AGENTS } from './dashboard-rig.js';

const ECHO_KEYS = Number(process.env.BENCH_ECHO_KEYS ?? 40);

interface EchoSide {
  p50: number; p90: number; max: number; n: number;
  split: Record<'inputWait' | 'roundTrip' | 'page', { p50: number; p90: number }>;
}

export interface EchoFigures extends EchoSide {
  load: number;
  /** Share of the typing's wall time the page's main thread spent in tasks, and on a CPU (%). */
  mainThread: { taskPct: number; cpuPct: number };
  /** BENCH_ECHO_AB: the keys typed with the switch off (idle-while-yielding, or echo-first), alternating with the others. */
  off?: EchoSide;
}

/**
 * Keystroke echo: from the key event's creation (its timeStamp, so the wait for a busy main thread counts) to the
 * end of the main thread's frame that draws the echo (a message posted from that frame's animation callback runs
 * after its style, layout, paint and commit). Split per key: the key's wait for the main thread, the round trip
 * (page → host → pty echo → host → WebSocket → the page's message task), and the page's own part (write, frame).
 * The probe asks for that one frame when the echo has been parsed (xterm's write callback), not for a frame every
 * frame until then, and the throughput run's frame-gap probe is stopped first: a page asking for frames
 * continuously keeps the compositor ticking, and that alone delays the echo's frame to the next vsync, where
 * a page that asked for none gets its frame at once (BENCH_ECHO_SPIN=1 keeps both probes spinning, as before).
 * BENCH_ECHO_AB=1 alternates the keys between the pump as built and the pump with idle-while-yielding off (the
 * other panes' turns then tick a frame every frame), so both sides see the same load; BENCH_ECHO_AB=echo-first
 * alternates them with the other panes' turn not waiting for the echo (it may then share the echo's frame); BENCH_ECHO_TRACE=FILE
 * records a Chromium trace of the typing (marks echo-key / echo-arrived / echo-shown; BENCH_TRACE_EXTRA adds categories,
 * e.g. `disabled-by-default-devtools.timeline.invalidationTracking,` for what dirtied style and layout).
 */
export async function measureEcho(
  page: import('playwright-core').Page,
  spawnIn: (agent: string, argv: string[]) => Promise<void>,
  written: (agents: string[]) => Promise<number[]>,
  mainThread: () => Promise<{ task: number; cpu: number }>,
): Promise<EchoFigures> {
  const endless = `const b=('y'.repeat(1023)+'\\n').repeat(64);(function w(){while(process.stdout.write(b));process.stdout.once('drain',w)})()`;
  await spawnIn('a1', ['/bin/cat']);
  await Promise.all(AGENTS.slice(1).map((a) => spawnIn(a, [process.execPath, '-e', endless])));
  // The floods are running when their panes have rendered something new.
  const w0 = await written(AGENTS.slice(1));
  const until = Date.now() + 30_000;
  while ((await written(AGENTS.slice(1))).some((n, i) => n - w0[i]! < 256 * 1024) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  await page.locator('.pane[data-agent="a1"] .xterm').click();
  // The frame-gap probe of the throughput run asks for a frame every frame: stopped here (see the probe below).
  if (!process.env.BENCH_ECHO_SPIN) await page.evaluate('window.__gap.on = false');
  // Each key arms a promise the page resolves itself once the echo's frame is done: waiting on it is one CDP
  // call per key, not a poll on the very main thread being measured.
  await page.evaluate(`((spin) => {
    const t = window.__thclaws.terminals;
    const mark = (n) => window.__echoTrace && performance.mark(n);
    const e = (window.__echo = { keys: [], key: null, done: null, arm() { e.done = new Promise((r) => (e.resolve = r)); } });
    const output = t.output.bind(t);
    t.output = (agent, data, reset) => {
      if (agent === 'a1' && e.key && !e.key.arrived) { e.key.arrived = performance.now(); mark('echo-arrived'); }
      output(agent, data, reset);
    };
    // The echo's frame: the one after xterm parsed it (its render is requested while parsing, in that frame).
    const drawn = (k) => requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { mark('echo-shown'); k.shown = performance.now(); e.keys.push(k); e.resolve(); };
      ch.port2.postMessage(0);
    });
    const count = t.count.bind(t);
    t.count = (agent, n) => {
      count(agent, n);
      const k = e.key;
      if (!spin && agent === 'a1' && k && !k.parsed) { k.parsed = performance.now(); drawn(k); }
    };
    window.addEventListener('keydown', (ev) => {
      if (ev.key !== 'x') return;
      mark('echo-key');
      const k = (e.key = { t0: ev.timeStamp, handled: performance.now(), arrived: 0, parsed: 0, shown: 0, off: !window.__ab.on[window.__ab.prop] });
      if (!spin) return;
      const base = t.written('a1');
      const tick = () => (t.written('a1') <= base ? requestAnimationFrame(tick) : drawn(k));
      requestAnimationFrame(tick);
    }, true);
  })(${JSON.stringify(!!process.env.BENCH_ECHO_SPIN)})`);
  const ab = !!process.env.BENCH_ECHO_AB;
  const traceFile = process.env.BENCH_ECHO_TRACE;
  const tracing = traceFile ? await page.context().newCDPSession(page) : null;
  if (tracing) {
    await page.evaluate('window.__echoTrace = true');
    await tracing.send('Tracing.start', { categories: (process.env.BENCH_TRACE_EXTRA ?? '') + 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,toplevel,blink.user_timing,cc,viz', transferMode: 'ReturnAsStream' });
  }
  const m0 = await mainThread();
  const w0Ms = Date.now();
  // The pump's mode for key i is set before the pause that leads to it: what the page does while waiting for a
  // key (ticking or not) is what the key's echo meets.
  // The switch the A/B alternates: the pump's idle-while-yielding (1), or the others' turn waiting for the echo (echo-first).
  const [abOn, abProp] = process.env.BENCH_ECHO_AB === 'echo-first' ? ['t.planner', 'echoFirst'] : ['t', 'idleWhileYielding'];
  await page.evaluate(`(() => { const t = window.__thclaws.terminals; window.__ab = { on: ${abOn}, prop: '${abProp}' }; })()`);
  const mode = (i: number) => page.evaluate(`window.__ab.on[window.__ab.prop] = ${!(ab && i % 2 === 1)}`);
  await mode(0);
  for (let i = 0; i < ECHO_KEYS; i++) {
    await page.evaluate('window.__echo.arm()');
    await page.keyboard.press('x');
    await page.evaluate('window.__echo.done');
    await mode(i + 1);
    // Spread the keys over the frames (a typist's 5–10 keys a second).
    await new Promise((r) => setTimeout(r, 80 + Math.random() * 60));
  }
  const m1 = await mainThread();
  const wallSecs = (Date.now() - w0Ms) / 1000;
  if (tracing) await stopProfile(tracing, 'trace', traceFile);
  await page.evaluate('window.__ab.on[window.__ab.prop] = true');
  const keys = (await page.evaluate('window.__echo.keys')) as Array<{ t0: number; handled: number; arrived: number; shown: number; off: boolean }>;
  // Stop the floods before the idle phase (a sleeping child takes each pane's place).
  await Promise.all(AGENTS.map((a) => spawnIn(a, [process.execPath, '-e', 'setTimeout(()=>{},1e9)'])));
  const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))] ?? NaN;
  const both = (xs: number[]) => ({ p50: q(xs, 0.5), p90: q(xs, 0.9) });
  const side = (ks: typeof keys): EchoSide => {
    const total = ks.map((k) => k.shown - k.t0);
    return {
      ...both(total), max: q(total, 1), n: ks.length,
      split: { inputWait: both(ks.map((k) => k.handled - k.t0)), roundTrip: both(ks.map((k) => k.arrived - k.handled)), page: both(ks.map((k) => k.shown - k.arrived)) },
    };
  };
  return {
    ...side(keys.filter((k) => !k.off)), load: os.loadavg()[0]!,
    mainThread: { taskPct: ((m1.task - m0.task) / wallSecs) * 100, cpuPct: ((m1.cpu - m0.cpu) / wallSecs) * 100 },
    ...(ab ? { off: side(keys.filter((k) => k.off)) } : {}),
  };
}
