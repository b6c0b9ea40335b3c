import { FLOW, parseEvent, type HostEvent } from '../../contract/api.js';

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

/** The host writes a reply `{"type":"reply","id":…`: its id, read without parsing the rest. */
const REPLY_HEAD = /^\{"type":"reply","id":(-?\d+)[,}]/;

/** A reply's id, not validated (null for any other event): tells main's own replies from the page's. */
export function viewReplyId(e: ViewEvent): number | null {
  if (typeof e !== 'string') return e.type === 'reply' ? e.id : null;
  const m = REPLY_HEAD.exec(e);
  if (m) return Number(m[1]);
  if (viewEventType(e) !== 'reply') return null;
  try {
    const id = (JSON.parse(e) as { id?: unknown }).id;
    return typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** The id of Electron main's own request to the host (stopping the team as the window closes): never a page's. */
export const MAIN_REQUEST_ID = 2 ** 31;

/**
 * Electron main's way to its window: every event goes on as JSON text (the renderer parses it once); only
 * those main itself acts on, told by a peek, are parsed here for its listeners: the host closing, and the
 * reply to main's own request (the page's replies pass unparsed).
 */
export function forwardToWindow(listeners: Iterable<(e: HostEvent) => void>, toWindow: (text: string) => void): (e: ViewEvent) => void {
  return (e) => {
    if (viewEventType(e) === 'host_closed' || viewReplyId(e) === MAIN_REQUEST_ID) {
      const ev = readViewEvent(e);
      if (ev) for (const l of listeners) l(ev);
    }
    toWindow(viewEventText(e));
  };
}

/** An event this short (a keystroke's echo, a status, a reply) ends its message at once. */
export const SMALL_EVENT_CHARS = 4096;

/**
 * A view's events as messages of lines, one event per line (an event's JSON text never holds a raw newline):
 * the events made in one turn of the event loop (a scheduler tick's panes, the lines read from the host's
 * socket at once) go as one message of at most `maxChars` (a larger event goes alone). The page pays per
 * message, not per event: a task, a receipt report back (see the renderer's `received`). A small event goes at
 * once, closing the message it ends: the page parses nothing after an echo before the frame that draws it.
 */
export function eventMessages(send: (text: string) => void, maxChars: number = FLOW.maxChunk * 4): (e: ViewEvent) => void {
  let lines: string[] = [];
  let chars = 0;
  const flush = () => {
    const l = lines;
    lines = [];
    chars = 0;
    if (l.length) send(l.length === 1 ? l[0]! : l.join('\n'));
  };
  return (e) => {
    const text = viewEventText(e);
    // `chars` counts each line with its newline: appended, the message would be `chars + text.length` long.
    if (chars && chars + text.length > maxChars) flush();
    lines.push(text);
    chars += text.length + 1;
    if (text.length <= SMALL_EVENT_CHARS) flush();
    else if (lines.length === 1) setImmediate(flush);
  };
}
