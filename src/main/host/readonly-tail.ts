import { StringDecoder } from 'node:string_decoder';
import type { TeamStore } from '../../core/store/index.js';
import { FLOW } from '../../contract/api.js';
import { CrlfConverter } from './eol.js';
import type { AgentTerminal } from './terminal.js';

const READ_CHUNK = 256 * 1024;

/**
 * A read-only terminal fed from `output.log` of an agent this host did not start. Reads happen on change
 * events (level-triggered: read to the end each time), never on a timer; flow control stops the reads.
 */
export class OutputTail {
  private offset: number;
  private paused = false;
  private readonly decoder = new StringDecoder('utf8');
  /** The log's bare line feeds, as a pty would have shown them. */
  private readonly eol = new CrlfConverter();

  constructor(
    private readonly store: TeamStore,
    private readonly terminal: AgentTerminal,
    reason: string,
    /** The terminal already shows the log up to its end (this host wrote it): tail only what comes next. */
    fromEnd = false,
  ) {
    // Otherwise start with the last scrollback's worth, as a terminal would show it.
    const size = store.outputs.size(terminal.agent);
    this.offset = fromEnd ? size : Math.max(0, size - FLOW.scrollback);
    this.setReason(reason);
    this.pull();
  }

  /**
   * Why the pane is read-only. Only a new reason (or a terminal whose input is not a tail's any more) is given to
   * the terminal: giving it an input resets the size
   * its views agreed on, and the host calls this on every push of the member (each CPU sample, each beat) —
   * which told every view the size again, 200 teammates making 50 `pty_size` events a second.
   */
  setReason(reason: string): void {
    const now = this.terminal.mode;
    // Still this tail's input (a pty of this host's, set since and gone, left none or its own): nothing to do.
    if (now?.kind === 'readonly' && now.reason === reason) return;
    this.terminal.setInput({
      mode: { kind: 'readonly', reason },
      pause: () => {
        this.paused = true;
      },
      resume: () => {
        this.paused = false;
        this.pull();
      },
    });
  }

  /** Reads what was appended since the last read. */
  pull(): void {
    while (!this.paused) {
      const { data, next } = this.store.outputs.read(this.terminal.agent, this.offset, READ_CHUNK);
      if (next < this.offset) {
        this.decoder.end(); // truncated: start over
        this.eol.reset();
      }
      this.offset = next;
      if (!data.length) return;
      this.terminal.push(this.eol.write(this.decoder.write(data)));
    }
  }
}
