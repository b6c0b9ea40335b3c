/**
 * A small, safe Markdown subset for plans in the approval inbox: the text becomes a tree of plain nodes
 * that the view maps to elements, never HTML — `<script>` in a plan stays text. Headings, paragraphs,
 * bullet and numbered lists, fenced code, inline code, **bold**, *italic*, and links with http(s) targets
 * only (anything else stays text).
 */
export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'b'; c: Inline[] }
  | { t: 'i'; c: Inline[] }
  | { t: 'a'; href: string; c: Inline[] };

export type Block =
  | { t: 'h'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'p'; c: Inline[] }
  | { t: 'ul'; items: Inline[][] }
  | { t: 'ol'; start: number; items: Inline[][] }
  | { t: 'pre'; lang: string; v: string };

const SAFE_HREF = /^https?:\/\/[^\s<>"']+$/i;

const MARKERS = new Set(['`', '*', '_', '[']);

export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ t: 'text', v: text });
    text = '';
  };
  let nextClose = -1; // where the next ']' is: one search for the whole text, not one per '['
  for (let i = 0; i < s.length; ) {
    // Only a marker can start a span; each pattern's span is bounded, so a plan full of unclosed markers
    // parses in linear time (an unbounded one scanned to the end of the text from every marker).
    if (s[i] === '[' && nextClose < i) nextClose = s.indexOf(']', i) === -1 ? Infinity : s.indexOf(']', i);
    if (!MARKERS.has(s[i]!) || (s[i] === '[' && nextClose - i > 2001)) {
      text += s[i];
      i++;
      continue;
    }
    const rest = s.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^`([^`]{1,2000})`/.exec(rest))) {
      flush();
      out.push({ t: 'code', v: m[1]! });
    } else if ((m = /^\*\*(.{1,2000}?)\*\*/.exec(rest)) || (m = /^__(.{1,2000}?)__/.exec(rest))) {
      flush();
      out.push({ t: 'b', c: parseInline(m[1]!) });
    } else if ((m = /^\*([^*\s][^*]{0,2000}?)\*/.exec(rest)) || (m = /^_([^_\s][^_]{0,2000}?)_(?![A-Za-z0-9])/.exec(rest))) {
      flush();
      out.push({ t: 'i', c: parseInline(m[1]!) });
    } else if ((m = /^\[([^\]]{1,2000})\]\(([^)\s]{1,2000})\)/.exec(rest))) {
      flush();
      if (SAFE_HREF.test(m[2]!)) out.push({ t: 'a', href: m[2]!, c: parseInline(m[1]!) });
      else out.push({ t: 'text', v: m[0] });
    } else {
      text += s[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  flush();
  return out;
}

export function parseMarkdown(src: string): Block[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length) blocks.push({ t: 'p', c: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^\s*(```|~~~)\s*([\w+-]*)\s*$/.exec(line))) {
      endPara();
      const fence = m[1]!;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence); i++) body.push(lines[i]!);
      blocks.push({ t: 'pre', lang: m[2] ?? '', v: body.join('\n') });
    } else if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      endPara();
      blocks.push({ t: 'h', level: m[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, c: parseInline(m[2]!) });
    } else if (/^\s*[-*+]\s+/.test(line)) {
      endPara();
      const items: Inline[][] = [];
      for (; i < lines.length && /^\s*[-*+]\s+/.test(lines[i]!); i++) items.push(parseInline(lines[i]!.replace(/^\s*[-*+]\s+/, '')));
      i--;
      blocks.push({ t: 'ul', items });
    } else if ((m = /^\s*(\d{1,9})[.)]\s+/.exec(line))) {
      endPara();
      const start = Number(m[1]);
      const items: Inline[][] = [];
      for (; i < lines.length && /^\s*\d{1,9}[.)]\s+/.test(lines[i]!); i++) items.push(parseInline(lines[i]!.replace(/^\s*\d{1,9}[.)]\s+/, '')));
      i--;
      blocks.push({ t: 'ol', start, items });
    } else if (!line.trim()) {
      endPara();
    } else {
      para.push(line.trim());
    }
  }
  endPara();
  return blocks;
}
