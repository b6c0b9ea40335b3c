/**
 * `thclaws dashboard --claude-code`: a read-only page of Claude Code's own teams — roster with states, the
 * task board, the message log — fed by the claude-code reader and refreshed every second. Loopback, and every
 * request carries the random token the printed URL holds (transcripts are private; a page from another site
 * must not read them). A reader error (a file that does not parse) is shown as it is, never an empty page.
 */
import http from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { teamLog } from '../core/claude-code/log.js';
import { listTeams } from '../core/claude-code/teams.js';

const LOG_TAIL = 40;

async function snapshot(): Promise<unknown> {
  try {
    const teams = await listTeams();
    const logs: Record<string, unknown> = {};
    for (const t of teams) logs[t.name] = (await teamLog(t)).slice(-LOG_TAIL);
    return { teams, logs };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Claude Code teams · thclaws</title><style>
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#0f1115;color:#e6e6e6}header{padding:12px 16px;border-bottom:1px solid #2a2e37}
h1{font-size:16px;margin:0}h1 small{color:#9aa0aa;font-weight:normal}main{padding:12px 16px;display:grid;gap:16px}
section.team{border:1px solid #2a2e37;border-radius:8px;padding:12px}h2{font-size:15px;margin:0 0 8px}
.badge{font-size:12px;padding:1px 6px;border-radius:8px;background:#263041;margin-left:6px}.ended{background:#3a2a2a}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:12px}h3{font-size:13px;color:#9aa0aa;margin:8px 0 4px}
ul{list-style:none;margin:0;padding:0}li{padding:3px 0;border-bottom:1px solid #1c2029}.state-waiting{color:#f0c36a}.state-busy{color:#7cc4ff}
.state-idle{color:#9aa0aa}.state-ended{color:#e08080}.log li{white-space:pre-wrap;word-break:break-word;font-size:12px}.err{background:#3a2a2a;padding:10px;border-radius:6px}
</style></head><body><header><h1>Claude Code teams <small>read-only · from ~/.claude</small></h1></header><main id="root">loading…</main><script>
const token=new URLSearchParams(location.search).get('token');const esc=s=>String(s??'').replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
const board=['pending','in_progress','completed'];
function team(t,log){const members=t.members.map(m=>'<li data-member="'+esc(m.name)+'">'+esc(m.name)+' <span class="state-'+esc(m.state)+'">'+esc(m.state)+(m.waitingFor?' · waiting for '+esc(m.waitingFor):'')+'</span> <small>'+esc(m.backend)+'</small></li>').join('')||'<li>(no roster: the team folder is gone)</li>';
const cols=board.map(s=>'<div><h3>'+s.replace('_',' ')+'</h3><ul>'+t.tasks.filter(x=>x.status===s).map(x=>'<li data-task="'+esc(x.id)+'">#'+esc(x.id)+' '+esc(x.subject)+(x.owner?' <small>@'+esc(x.owner)+'</small>':'')+'</li>').join('')+'</ul></div>').join('');
const lines=(log||[]).map(e=>'<li>'+esc(e.member)+(e.direction==='in'?' ← ':' → ')+esc(e.text.slice(0,400))+'</li>').join('')||'<li>(no messages)</li>';
return '<section class="team" data-team="'+esc(t.name)+'"><h2>'+esc(t.name)+'<span class="badge'+(t.ended?' ended':'')+'">'+(t.ended?'ended':'live')+'</span>'+(t.version?'<span class="badge">Claude Code '+esc(t.version)+'</span>':'')+'</h2><div class="cols"><div><h3>roster</h3><ul>'+members+'</ul></div>'+cols+'</div><h3>log</h3><ul class="log">'+lines+'</ul></section>'}
async function tick(){try{const r=await fetch('/api/teams?token='+encodeURIComponent(token));const d=await r.json();const root=document.getElementById('root');
root.innerHTML=d.error?'<div class="err" role="alert">'+esc(d.error)+'</div>':(d.teams.map(t=>team(t,d.logs[t.name])).join('')||'<p>No Claude Code teams under ~/.claude/teams.</p>')}catch(e){}setTimeout(tick,1000)}tick();
</script></body></html>`;

function tokenOk(given: string | null, token: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Serves the page until closed; resolves with its URL (token included). */
export async function serveClaudeCodeDashboard(host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const token = randomBytes(18).toString('base64url');
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || !tokenOk(url.searchParams.get('token'), token)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden: open the URL thclaws printed');
      return;
    }
    if (url.pathname === '/api/teams') {
      void snapshot().then((s) => res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(s)));
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-frame-options': 'DENY' }).end(PAGE);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const addr = server.address() as AddressInfo;
  return { url: `http://${host}:${addr.port}/?token=${token}`, close: () => new Promise((f) => server.close(() => f())) };
}
