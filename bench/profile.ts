/**
 * Where the renderer's main thread spends its time during a bench phase (set BENCH_PROFILE=cpu or =trace):
 * `cpu` samples JavaScript with the V8 profiler (self time per function), `trace` records Chromium's
 * timeline (self time per event: script, style, layout, paint, WebSocket message, GC).
 */
import fs from 'node:fs';
import type { CDPSession } from 'playwright-core';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface CpuProfile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }
interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, unknown> }

export type ProfileKind = 'cpu' | 'trace';

export async function startProfile(cdp: CDPSession, kind: ProfileKind): Promise<void> {
  if (kind === 'cpu') {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
    await cdp.send('Profiler.start');
  } else {
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute', transferMode: 'ReturnAsStream' });
  }
}

/** Stops and returns the top entries by self time (ms), and writes the raw profile to `file` when given. */
export async function stopProfile(cdp: CDPSession, kind: ProfileKind, file?: string): Promise<Array<[string, number]>> {
  if (kind === 'cpu') {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
    if (file) fs.writeFileSync(file, JSON.stringify(profile));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
  }
  const done = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream!)));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const r = (await cdp.send('IO.read', { handle: stream, size: 1 << 20 })) as { data: string; eof: boolean; base64Encoded?: boolean };
    text += r.base64Encoded ? Buffer.from(r.data, 'base64').toString() : r.data;
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  if (file) fs.writeFileSync(file, text);
  const events = (JSON.parse(text) as { traceEvents: TraceEvent[] }).traceEvents;
  // The renderer main thread: the thread that ran the most RunTask time in the page's process.
  const main = new Map<string, number>();
  for (const e of events) if (e.name === 'RunTask' && e.dur) main.set(`${e.pid}:${e.tid}`, (main.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
  const mainKey = [...main.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === mainKey && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Self time: duration minus that of nested children (complete events nest properly on one thread).
  const self = new Map<string, number>();
  const stack: Array<{ e: TraceEvent; end: number; child: number }> = [];
  const close = (upTo: number) => {
    while (stack.length && stack[stack.length - 1]!.end <= upTo) {
      const top = stack.pop()!;
      self.set(top.e.name, (self.get(top.e.name) ?? 0) + (top.e.dur! - top.child) / 1000);
    }
  };
  for (const e of mine) {
    close(e.ts);
    if (stack.length) stack[stack.length - 1]!.child += e.dur!;
    stack.push({ e, end: e.ts + e.dur!, child: 0 });
  }
  close(Infinity);
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30);
}
