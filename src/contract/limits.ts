/**
 * Every limit and pattern of team state, in one place. Writers (send, create, complete) and readers (the zod
 * schemas, the change feed, the path builders) use these same values, so nothing accepted is rejected later.
 */
export const LIMITS = {
  /** Agent names: 1-64 of A-Z a-z 0-9 _ -, not starting with `-` (they become file names). */
  nameMaxChars: 64,
  /** Task ids: positive integers of at most 15 digits (exact in a double, short as a file name). */
  taskIdMaxDigits: 15,
  /** A message body (a 1 MB inbox broke Claude Code). */
  messageChars: 100_000,
  summaryChars: 1_000,
  messageIdChars: 100,
  /** Protocol frame names (shutdown_request, …). */
  messageTypeChars: 64,
  subjectChars: 500,
  descriptionChars: 50_000,
  resultChars: 50_000,
  /**
   * A `_hwm` more than this far beyond the highest task id on disk is garbled, not trusted: a claim probes ids
   * up to it, and a 15-digit one would make every next id too long.
   */
  hwmMaxAhead: 10_000,
} as const;

/**
 * What names a budget (`budgets.json`, the settings' `budgets`): a role, free text as members carry it (`API`,
 * `backend developer`), or a teammate. 1-64 characters without NUL or newline, and never `__proto__`: a
 * JavaScript object cannot hold that key (set, it stores nothing and reads back as the limit just given).
 */
export const BUDGET_KEY_PATTERN = /^(?!__proto__$)[^\0\n]{1,64}$/;
/**
 * The reserved participant names: the lead agent and the person. Each names an inbox file
 * (`inboxes/lead.json`, `inboxes/user.json`), a status, an approver in the settings; no teammate takes one.
 */
export const LEAD = 'lead';
export const USER = 'user';
/** A message's recipient meaning every teammate. */
export const BROADCAST = '*';
export const AGENT_NAME_PATTERN = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,${LIMITS.nameMaxChars - 1}}$`);
export const TASK_ID_PATTERN = new RegExp(`^[1-9][0-9]{0,${LIMITS.taskIdMaxDigits - 1}}$`);
/** `<id>.json`, and its quarantined copies `<id>.json.corrupt-…` (whose ids are never reused). */
export const TASK_FILE_PATTERN = new RegExp(`^([1-9][0-9]{0,${LIMITS.taskIdMaxDigits - 1}})\\.json$`);
export const TASK_FILE_OR_COPY_PATTERN = new RegExp(`^([1-9][0-9]{0,${LIMITS.taskIdMaxDigits - 1}})\\.json`);
