/**
 * `--include-partial-messages` for providers that have no Messages API stream of their own (an OpenAI-compatible
 * profile, the scripted provider): the same event sequence Claude Code forwards (message_start, a start/delta/stop
 * per content block, message_delta, message_stop), built from the text and thinking deltas as they arrive and
 * the tool calls once the response is complete. A provider that streams the API's own events is passed through
 * as is: once one raw event arrives for a response, nothing is made up for it.
 */
import { randomBytes } from 'node:crypto';
import type { ChatMessage, Usage } from '../../core/agent/providers/types.js';

type Emit = (event: Record<string, unknown>) => void;

export class PartialEvents {
  private raw = false;
  private started = false;
  private index = -1;
  private open: 'text' | 'thinking' | undefined;

  constructor(
    private readonly emit: Emit,
    private readonly model: () => string,
  ) {}

  /** A raw API event was forwarded for the current response. */
  sawRaw(): void {
    this.raw = true;
  }

  text(delta: string): void {
    this.delta('text', { type: 'text_delta', text: delta });
  }

  thinking(delta: string): void {
    this.delta('thinking', { type: 'thinking_delta', thinking: delta });
  }

  /** The response is complete: its tool calls, its stop reason, then the next response starts afresh. */
  end(message: ChatMessage, stopReason: string, usage: Usage): void {
    if (!this.raw) {
      this.start();
      this.close();
      for (const b of message.content) {
        if (b.type !== 'tool_use') continue;
        const index = ++this.index;
        this.emit({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        this.emit({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input ?? {}) } });
        this.emit({ type: 'content_block_stop', index });
      }
      this.emit({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.outputTokens } });
      this.emit({ type: 'message_stop' });
    }
    this.raw = false;
    this.started = false;
    this.index = -1;
    this.open = undefined;
  }

  private delta(kind: 'text' | 'thinking', delta: Record<string, unknown>): void {
    if (this.raw) return;
    this.start();
    if (this.open !== kind) {
      this.close();
      this.open = kind;
      this.emit({ type: 'content_block_start', index: ++this.index, content_block: kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' } });
    }
    this.emit({ type: 'content_block_delta', index: this.index, delta });
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.emit({
      type: 'message_start',
      message: { id: `msg_${randomBytes(12).toString('hex')}`, type: 'message', role: 'assistant', model: this.model(), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } },
    });
  }

  private close(): void {
    if (this.open) this.emit({ type: 'content_block_stop', index: this.index });
    this.open = undefined;
  }
}
