/** Reading `-p --output-format stream-json` of a team run: Claude-Code-shaped lead messages plus team lines. */
export interface ToolResult {
  id: string;
  name: string;
  content: string;
  is_error: boolean;
}

export function parseLines(stdout: string): any[] {
  return stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** The lead's tool calls, by name, in order. */
export function toolUses(events: any[]): Array<{ id: string; name: string; input: any }> {
  return events.filter((e) => e.type === 'assistant').flatMap((e) => e.message.content.filter((b: any) => b.type === 'tool_use'));
}

/** The lead's tool results with the name of the tool that produced each. */
export function toolResults(events: any[]): ToolResult[] {
  const names = new Map(toolUses(events).map((u) => [u.id, u.name]));
  return events
    .filter((e) => e.type === 'user')
    .flatMap((e) => e.message.content.filter((b: any) => b.type === 'tool_result'))
    .map((b: any) => ({ id: b.tool_use_id, name: names.get(b.tool_use_id) ?? '?', content: typeof b.content === 'string' ? b.content : JSON.stringify(b.content), is_error: !!b.is_error }));
}

/** The team's events (`{type:'system', subtype:'team', event}`). */
export function teamEvents(events: any[]): any[] {
  return events.filter((e) => e.type === 'system' && e.subtype === 'team').map((e) => e.event);
}
