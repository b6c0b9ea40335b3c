/**
 * Whether the person's request to the lead asks for plans before work ("have them plan first", "require
 * plan approval", "plan before coding"). A small phrase matcher, no model call: the runtime, not the lead's
 * model, decides that the teammates it spawns start in plan mode. A request that says the opposite
 * ("no plan approval", "skip planning") switches it off again.
 */

export interface PlanRequest {
  /** The words of the person's request that matched, as written. */
  phrase: string;
}

const WS = String.raw`[\s,]+`;
const THEM = String.raw`(?:the\s+)?(?:them|teammates?|everyone|each(?: one| of them)?|all(?: of them)?|the team|workers?)`;

/** Each pattern names one way people say it; matched case-insensitively against the whole request. */
const ASKS: RegExp[] = [
  // "have them plan first", "make the teammates plan before coding", "get each of them to plan first"
  new RegExp(String.raw`\b(?:have|make|let|get|ask|tell)${WS}${THEM}${WS}(?:to${WS})?(?:write${WS}(?:up${WS})?(?:a${WS})?|submit${WS}(?:a${WS})?|propose${WS}(?:a${WS})?)?plans?${WS}(?:first|before)\b`, 'i'),
  // "plan first", "plan before coding / writing code / editing / any changes / implementing"
  /\bplans?\s+(?:first|before\s+(?:coding|writing|editing|implementing|making|changing|touching|starting|they|you|any))\b/i,
  // "require plan approval", "plan approval required", "with plan approval", "approve their plans first"
  /\b(?:requir(?:e|es|ing)|with|need|needs|using)\s+(?:a\s+)?plan[-\s]+(?:approval|review|sign-?off)\b/i,
  /\bplan[-\s]+(?:approval|review|sign-?off)\s+(?:is\s+)?(?:required|needed|first|mandatory)\b/i,
  /\bapprove\s+(?:their|the|each|every|all)\s+(?:\w+\s+)?plans?\s+(?:first|before)\b/i,
  // "in plan mode", "plan mode required", "plan_mode_required"
  /\b(?:in|use|using|with|start\w*\s+in)\s+plan[-\s_]mode\b/i,
  /\bplan[-\s_]mode[-\s_]required\b/i,
  // "no coding / no code / no changes until I approve (the|a|their) plan"
  /\bno\s+(?:coding|code|changes|edits|writes)\s+(?:until|before)\s+(?:I|we|you)?\s*(?:have\s+)?(?:approved?|see|review(?:ed)?|sign(?:ed)?\s+off)\s+(?:on\s+)?(?:the|a|their|each|your)\s+plans?\b/i,
];

const REVOKES: RegExp[] = [
  /\b(?:no|without|skip(?:ping)?|don'?t\s+(?:need|require))\s+(?:the\s+)?plan[-\s]+(?:approval|review|mode)\b/i,
  /\b(?:no\s+need\s+to|(?:don'?t|do\s+not)(?:\s+need\s+to)?|needn'?t)\s+plan\s+first\b/i,
  /\bskip(?:ping)?\s+(?:the\s+)?planning\b/i,
];

/** `{ phrase }` when the request asks for plans first; `'off'` when it says not to; undefined when it says neither. */
export function planRequestIn(text: string): PlanRequest | 'off' | undefined {
  for (const re of REVOKES) if (re.test(text)) return 'off';
  // The longest match quotes the person best ("approve their plans first" over "plans first").
  let best: string | undefined;
  for (const re of ASKS) {
    const m = re.exec(text)?.[0];
    if (m && m.length > (best?.length ?? 0)) best = m;
  }
  return best === undefined ? undefined : { phrase: best.replace(/\s+/g, ' ').trim() };
}
