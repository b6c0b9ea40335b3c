/**
 * An agent's states, once for every reader: what it writes into its status file, what the store derives from
 * liveness, and what the dashboard shows.
 */
import { z } from 'zod';

/** The states an agent writes into its status. */
export const AGENT_STATUS_VALUES = ['spawning', 'idle', 'working', 'error', 'stopped'] as const;
export const AgentStatusValue = z.enum(AGENT_STATUS_VALUES);
export type AgentStatusValue = z.infer<typeof AgentStatusValue>;
/** What a person sees: a written state, or `dead` / `defined` derived from liveness (core/store/status.ts). */
export const AGENT_STATES = [...AGENT_STATUS_VALUES, 'dead', 'defined'] as const;
export type AgentState = (typeof AGENT_STATES)[number];
/** The store's states, and `not_configured`: the lead cannot start for want of a model key (the welcome says what to do). */
export const VIEW_STATES = [...AGENT_STATES, 'not_configured'] as const;
export const AgentStateSchema = z.enum(VIEW_STATES);
export type AgentStateName = z.infer<typeof AgentStateSchema>;
