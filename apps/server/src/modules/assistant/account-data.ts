import type { Tx } from "../../shared/tx";

/** Erases the account's conversations with the assistant (docs/leaving.md): their text is the customer's. */
export async function eraseAssistantOf(trx: Tx, uid: number): Promise<void> {
  await trx.deleteFrom("assistant_messages").where("uid", "=", uid).execute();
  await trx.deleteFrom("assistant_conversations").where("uid", "=", uid).execute();
  await trx.deleteFrom("assistant_usage").where("uid", "=", uid).execute();
}
