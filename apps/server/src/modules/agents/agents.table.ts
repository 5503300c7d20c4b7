/**
 * Per node and agent journal, the highest event seq applied (POST /api/agent/events): an event at
 * or below it is a resend and skipped. Advanced in the transaction that applies the event.
 */
export interface AgentCursorTable {
  node_id: number;
  /** the agent's journal id (a uuid fixed for the journal's life) */
  stream: string;
  last_seq: number;
  updated_at: string;
}

/** Owned by the agents module. */
export interface AgentTables {
  agent_cursors: AgentCursorTable;
}
