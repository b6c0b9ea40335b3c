/** Splits a byte stream into UTF-8 lines (one JSON message each), refusing a line longer than `max`. */
export class LineReader {
  private buf = '';
  private readonly decoder = new TextDecoder();
  private dead = false;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.dead) return;
    this.buf += this.decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      if (line.trim()) this.onLine(line);
      if (this.dead) return;
    }
    if (this.buf.length > this.max) {
      this.dead = true;
      this.buf = '';
      this.onTooLong();
    }
  }
}
