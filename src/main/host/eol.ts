/**
 * Line feeds as a terminal shows them. An agent writing its own `output.log` (background, tmux, another
 * host) writes bare "\n"; a pty's line discipline would have sent "\r\n", and xterm moves down without
 * returning to column 0 on a bare "\n". A read-only tail therefore turns each "\n" not preceded by "\r"
 * into "\r\n". Stateful, so a "\r\n" split across two reads is never doubled into "\r\r\n"; text that
 * already has "\r\n" (a log a pty wrote) passes through unchanged.
 */
export class CrlfConverter {
  private lastWasCr = false;

  write(text: string): string {
    if (!text) return text;
    let out = '';
    let from = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      const prevCr = i > 0 ? text.charCodeAt(i - 1) === 13 : this.lastWasCr;
      if (prevCr) continue;
      out += text.slice(from, i) + '\r\n';
      from = i + 1;
    }
    this.lastWasCr = text.charCodeAt(text.length - 1) === 13;
    return from === 0 ? text : out + text.slice(from);
  }

  /** The stream starts over (the log was truncated). */
  reset(): void {
    this.lastWasCr = false;
  }
}
