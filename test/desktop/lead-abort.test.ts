/**
 * The dashboard's Abort of the lead's turn: the lead is a real `thclaws` REPL in the host's pty (scripted
 * provider) streaming a long answer; Abort must end that turn — the lead is back at its prompt well before the answer
 * could have finished, its last word never comes, and it takes the next prompt — not only reply ok.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openHostView, type HostView } from '../host-view.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

const views: HostView[] = [];
afterEach(async () => {
  for (const v of views.splice(0)) await v.close();
});

// ~20 s of streaming: 400 words, 50 ms before each.
const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');

describe("the dashboard's Abort of the lead", () => {
  it('ends the turn the lead is streaming: back at its prompt at once, the answer cut short, the next prompt answered', async () => {
    const ws = makeTeamWorkspace(['alice']);
    const script = path.join(ws, '.thclaws', 'lead-script.json');
    fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'talk slowly', turns: [{ text: words, delay_ms: 50 }] }, { match: 'again', turns: [{ text: 'back at the prompt' }] }] }));
    const v = await openHostView(ws, { ack: true, host: { startLead: true, leadArgv: [THCLAWS, '--provider', 'scripted', '--script', script, '--cwd', ws, '--accept-all'] } });
    views.push(v);
    await v.call({ type: 'attach', agent: 'lead', cols: 120, rows: 30 });
    await waitFor(() => v.output('lead').length > 0, 'the lead prompt');
    await v.call({ type: 'input', agent: 'lead', data: 'talk slowly\r' });
    await waitFor(() => v.output('lead').includes('w5 '), 'the lead streaming its answer');

    expect(await v.call({ type: 'abort_turn', agent: 'lead' })).toMatchObject({ ok: true });
    const at = v.output('lead').length;
    // What was left of the answer takes ~19 s more: an aborted turn is back at the prompt within a few.
    await waitFor(() => v.output('lead').slice(at).includes('thclaws>'), 'the lead back at its prompt after Abort', 8_000);
    expect(v.output('lead')).not.toContain('w399');
    await v.call({ type: 'input', agent: 'lead', data: 'again\r' });
    await waitFor(() => v.output('lead').includes('back at the prompt'), 'the next prompt answered', 15_000);
    expect(v.output('lead')).not.toContain('w399');
  }, 60_000);
});
