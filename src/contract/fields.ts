/**
 * The field schemas every part of the API contract shares (names, ids, bounded text, the states a view shows).
 * Node-free, like api.ts, which re-exports what views use.
 */
import { z } from 'zod';
import { AGENT_NAME_PATTERN, TASK_ID_PATTERN } from './limits.js';
import { AGENT_STATES } from './store-schemas.js';

export const agentName = z.string().regex(AGENT_NAME_PATTERN, 'invalid agent name');
export const taskId = z.string().regex(TASK_ID_PATTERN, 'invalid task id');
export const text = (max: number) => z.string().max(max);

/** The store's states, and `not_configured`: the lead cannot start for want of a model key (the welcome says what to do). */
export const VIEW_STATES = [...AGENT_STATES, 'not_configured'] as const;
export const AgentStateSchema = z.enum(VIEW_STATES);
export type AgentStateName = z.infer<typeof AgentStateSchema>;
