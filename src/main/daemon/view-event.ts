import { parseEvent, type HostEvent } from '../../contract/api.js';

/**
 * An event as a view is handed it: made in this process (typed), or the host's own line forwarded as it came
 * (JSON text). A process that only forwards events never parses them: the renderer does, where they enter it.
 */
export type ViewEvent = HostEvent | string;

/** The host writes every event with `type` first (`{ type: …, … }`): read without parsing the rest. */
const HEAD = /^\{"type":"([a-z_]+)"/;

/** An event's type, not validated: enough to pick the few a forwarding process acts on (then readViewEvent). */
export function viewEventType(e: ViewEvent): string | null {
  if (typeof e !== 'string') return e.type;
  const m = HEAD.exec(e);
  if (m) return m[1]!;
  try {
    const t = (JSON.parse(e) as { type?: unknown } | null)?.type;
    return typeof t === 'string' ? t : null;
  } catch {
    return null;
  }
}

/** The event validated against the contract (for one this process acts on); null when it is not one. */
export function readViewEvent(e: ViewEvent): HostEvent | null {
  if (typeof e !== 'string') return e;
  let raw: unknown;
  try {
    raw = JSON.parse(e);
  } catch {
    return null;
  }
  const r = parseEvent(raw);
  return r.ok ? r.event : null;
}

export const viewEventText = (e: ViewEvent): string => (typeof e === 'string' ? e : JSON.stringify(e));

/**
 * Electron main's way to its window: every event goes on as JSON text (the renderer parses it once); only
 * the types main itself acts on are parsed here, for its listeners.
 */
export function forwardToWindow(listeners: Iterable<(e: HostEvent) => void>, actsOn: readonly HostEvent['type'][], toWindow: (text: string) => void): (e: ViewEvent) => void {
  const acted = new Set<string | null>(actsOn);
  return (e) => {
    if (acted.has(viewEventType(e))) {
      const ev = readViewEvent(e);
      if (ev) for (const l of listeners) l(ev);
    }
    toWindow(viewEventText(e));
  };
}
