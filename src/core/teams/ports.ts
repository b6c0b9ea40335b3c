/**
 * Ports: the lead and each teammate get a block of PORT_BLOCK ports of their own, so two agents that start the
 * same dev server never collide. The lead has the first block at `worktree.portBase`; a teammate the lowest
 * free block after it, recorded on its member in config.json at its first spawn and kept on every respawn and
 * resume (a removed member's block is free again; no live member ever shares one). A block where another program
 * of this machine already listens is skipped: its teammate's dev server would fail on its own `$PORT`.
 */
import { PORT_BLOCK } from '../../contract/settings-schema.js';
import type { Ports, TeamConfig } from '../../contract/store-schemas.js';
import net from 'node:net';
import type { TeamStore } from '../store/index.js';

export type { Ports } from '../../contract/store-schemas.js';

export function leadPorts(portBase: number): Ports {
  return { base: portBase, count: PORT_BLOCK };
}

/**
 * The member's recorded block when it still fits `portBase` and no other member has it, else the lowest free one.
 * `busy`: bases of blocks found in use by another program (never picked).
 */
export function pickPorts(cfg: TeamConfig, name: string, portBase: number, busy: ReadonlySet<number> = new Set()): Ports {
  const taken = new Set<number>([portBase, ...busy]);
  for (const m of cfg.members) if (m.name !== name && m.ports) taken.add(m.ports.base);
  const own = cfg.members.find((m) => m.name === name)?.ports;
  const fits = (p: Ports) => p.count === PORT_BLOCK && p.base > portBase && (p.base - portBase) % PORT_BLOCK === 0 && !taken.has(p.base);
  if (own && fits(own)) return own;
  let base = portBase + PORT_BLOCK;
  while (taken.has(base)) base += PORT_BLOCK;
  if (base + PORT_BLOCK - 1 > 65_535) throw new Error(`no free block of ${PORT_BLOCK} ports above ${portBase} (setting worktree.portBase)`);
  return { base, count: PORT_BLOCK };
}

/**
 * Records (under the config lock) and returns the teammate's block; the lead's block is recorded beside it.
 * A block another program listens in is left (remembered as busy for this pick) and the next one recorded.
 */
export async function assignPorts(store: TeamStore, name: string, portBase: number, inUse: (p: Ports) => Promise<boolean> = blockInUse): Promise<Ports> {
  const busy = new Set<number>();
  for (;;) {
    let out: Ports | undefined;
    await store.config.update((c) => {
      out = pickPorts(c, name, portBase, busy);
      const m = c.members.find((x) => x.name === name);
      if (m) m.ports = out;
      c.lead_ports = leadPorts(portBase);
    });
    if (!(await inUse(out!))) return out!;
    busy.add(out!.base);
  }
}

/** Whether any port of the block is listened on at 127.0.0.1 (a server on 0.0.0.0 or :: holds it too). */
export async function blockInUse(p: Ports): Promise<boolean> {
  for (let port = p.base; port < p.base + p.count; port++) if (await listenedOn(port)) return true;
  return false;
}

function listenedOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRINUSE'));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** What an agent's process (and so every command it runs) finds in its environment. */
export function portEnv(p: Ports): Record<string, string> {
  return { THCLAWS_PORT_BASE: String(p.base), PORT: String(p.base) };
}

/** One line for the agent's instructions. */
export function portsInstruction(p: Ports): string {
  return `Your ports: ${p.base}–${p.base + p.count - 1} ($THCLAWS_PORT_BASE=${p.base}, $PORT=${p.base}); other agents of the team run servers at the same time. Start every server you run (dev server, API, test server) on $PORT or another port of your block, never a fixed port such as 3000.`;
}
