import { describe, expect, it } from 'vitest';
import { AGENT_NAME_PATTERN, LIMITS, TASK_FILE_OR_COPY_PATTERN, TASK_FILE_PATTERN, TASK_ID_PATTERN } from '../../contract/limits.js';
import { assertAgentName, assertMemberName, assertRecipient, assertTaskId, BROADCAST, isAgentName, isTaskId, LEAD, USER } from './names.js';

const refusal = (fn: () => unknown): { code?: string; message: string } => {
  try {
    fn();
  } catch (err) {
    return err as { code?: string; message: string };
  }
  throw new Error('not refused');
};

describe('agent names (they become file names)', () => {
  it.each([['a'], ['A9_-'], ['_x'], ['0'], ['a-'], ['x'.repeat(LIMITS.nameMaxChars)]])('%s is a name', (n) => {
    expect(AGENT_NAME_PATTERN.test(n)).toBe(true);
    expect(isAgentName(n)).toBe(true);
    expect(assertAgentName(n)).toBe(n);
  });

  it.each([[''], ['-x'], ['a b'], ['a/b'], ['..'], ['a.b'], ['x'.repeat(LIMITS.nameMaxChars + 1)], ['é'], ['a\n'], [' a']])('%j is refused before any path is built', (n) => {
    expect(AGENT_NAME_PATTERN.test(n)).toBe(false);
    expect(isAgentName(n)).toBe(false);
    expect(refusal(() => assertAgentName(n))).toMatchObject({ code: 'invalid', message: `invalid agent name ${JSON.stringify(n)}: use 1-64 of A-Z a-z 0-9 _ - (not starting with -)` });
  });

  it('non-strings are not names, and the refusal says what was checked', () => {
    for (const v of [null, undefined, 7, ['a'], { a: 1 }]) expect(isAgentName(v)).toBe(false);
    expect(refusal(() => assertAgentName(3, 'claimer')).message).toBe('invalid claimer 3: use 1-64 of A-Z a-z 0-9 _ - (not starting with -)');
  });

  it('members may not take the reserved names; lead and user are still valid participants', () => {
    expect([LEAD, USER, BROADCAST]).toEqual(['lead', 'user', '*']);
    for (const n of [LEAD, USER]) {
      expect(assertAgentName(n)).toBe(n);
      expect(refusal(() => assertMemberName(n))).toMatchObject({ code: 'invalid', message: `member name "${n}" is reserved (lead is the lead, user is the person)` });
    }
    expect(assertMemberName('alice')).toBe('alice');
    expect(refusal(() => assertMemberName('-a')).message).toBe('invalid member name "-a": use 1-64 of A-Z a-z 0-9 _ - (not starting with -)');
  });

  it('a recipient is a participant or the broadcast address, nothing else', () => {
    expect(assertRecipient('*')).toBe('*');
    expect(assertRecipient('lead')).toBe('lead');
    expect(refusal(() => assertRecipient('**')).message).toBe('invalid recipient "**": use 1-64 of A-Z a-z 0-9 _ - (not starting with -)');
  });
});

describe('task ids', () => {
  it.each([['1'], ['10'], ['9'.repeat(LIMITS.taskIdMaxDigits)]])('%s is a task id', (id) => {
    expect(TASK_ID_PATTERN.test(id)).toBe(true);
    expect(isTaskId(id)).toBe(true);
    expect(assertTaskId(id)).toBe(id);
  });

  it.each([['0'], ['01'], ['-1'], ['1.5'], ['1e3'], [' 1'], ['1 '], ['a'], [''], ['9'.repeat(LIMITS.taskIdMaxDigits + 1)]])('%j is refused', (id) => {
    expect(TASK_ID_PATTERN.test(id)).toBe(false);
    expect(isTaskId(id)).toBe(false);
    expect(refusal(() => assertTaskId(id))).toMatchObject({ code: 'invalid', message: `invalid task id ${JSON.stringify(id)}: expected a positive integer of at most 15 digits` });
  });

  it('a number is accepted as its decimal string; other types are refused', () => {
    expect(assertTaskId(42)).toBe('42');
    expect(isTaskId(42)).toBe(false);
    expect(refusal(() => assertTaskId(0)).message).toBe('invalid task id 0: expected a positive integer of at most 15 digits');
    expect(refusal(() => assertTaskId(null)).message).toBe('invalid task id null: expected a positive integer of at most 15 digits');
  });

  it('task file names: `<id>.json` exactly, and quarantined copies only through the copy pattern', () => {
    expect(TASK_FILE_PATTERN.exec('12.json')?.[1]).toBe('12');
    expect(TASK_FILE_PATTERN.exec(`${'9'.repeat(15)}.json`)?.[1]).toBe('9'.repeat(15));
    for (const n of ['12.json.corrupt-1-1', '012.json', '12.jsonx', 'x12.json', '12_json', `${'9'.repeat(16)}.json`, '0.json']) expect(TASK_FILE_PATTERN.test(n)).toBe(false);
    expect(TASK_FILE_OR_COPY_PATTERN.exec('12.json.corrupt-1-1')?.[1]).toBe('12');
    expect(TASK_FILE_OR_COPY_PATTERN.exec('7.json')?.[1]).toBe('7');
    for (const n of ['x7.json', '07.json', '7_json', `${'9'.repeat(16)}.json`]) expect(TASK_FILE_OR_COPY_PATTERN.test(n)).toBe(false);
  });
});
