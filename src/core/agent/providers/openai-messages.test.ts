import { describe, expect, it } from 'vitest';
import { toOpenAIMessages } from './openai-messages.js';

const png = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'AAAA' } };

describe('toOpenAIMessages: images and documents', () => {
  it('a user message with an image becomes content parts with a data URL', () => {
    const out = toOpenAIMessages('sys', [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, png] }]);
    expect(out[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  it("a tool result's image follows the tool message in a user message; the tool message keeps the text", () => {
    const out = toOpenAIMessages('sys', [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.png' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.png' }, png] }] },
    ]);
    expect(out.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'a.png' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
  });

  it('a PDF is named as left out, never dropped silently; plain text stays one string', () => {
    const out = toOpenAIMessages('sys', [
      { role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }] },
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    ]);
    expect(out[1]).toEqual({ role: 'user', content: '[a PDF document was left out: this provider takes no documents]' });
    expect(out[2]).toEqual({ role: 'user', content: 'a\n\nb' });
  });
});
