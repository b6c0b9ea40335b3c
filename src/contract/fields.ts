/**
 * The field schemas every part of the API contract shares (names, ids, bounded text).
 */
import { z } from 'zod';
import { AGENT_NAME_PATTERN, TASK_ID_PATTERN } from './limits.js';

export const agentName = z.string().regex(AGENT_NAME_PATTERN, 'invalid agent name');
export const taskId = z.string().regex(TASK_ID_PATTERN, 'invalid task id');
export const text = (max: number) => z.string().max(max);

