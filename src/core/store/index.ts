/** Public surface of the team store. */
export { TeamStore, modelTrouble, usageOf, type MemberView, type TeamStatusView, type SendOptions } from './store.js';
export { TeamError, type TeamErrorCode } from './errors.js';
export { resolveTeamDir, TeamPaths } from './paths.js';
export { watchTeam, type TeamWatcher } from './watch.js';
export { classifyTeamPath, classifyEntry, type TeamEvent, type TeamDirKind } from './classify.js';
export { deriveState, isLive, pidAlive, spawnerDead, type AgentState } from './status.js';
export { pidIsSame, processStart, selfProcess, type ProcessId } from './holder.js';
export { createInboxConsumer, type InboxConsumer } from './consumer.js';
export type { Lease, LeaseInfo } from './lease.js';
export { holdExclusive, leaseHeldByLive, liveLeasePid, readLeaseInfo } from './lease.js';
export type { Message, Task, TaskStatus, TeamConfig, Member, AgentStatus, UsageTotals } from './schemas.js';
export { TEAM_POLICY } from './policy.js';
export { assertMemberName, isAgentName, isTaskId, LEAD, USER, BROADCAST } from './names.js';
export { startHeartbeat, type Heartbeat } from './heartbeat.js';
export type { OutputAppender, OutputLogs } from './output.js';
export { SpawnRequestSchema, SpawnRequests, type StoredSpawnRequest } from './spawn-requests.js';
export { Reviews, ReviewCommentSchema, REVIEW_STATES, type ReviewComment, type ReviewState, type NewComment } from './reviews.js';
export { MAX_SPEND_CALLS, SpendHistory, type SpendCall } from './spend.js';
