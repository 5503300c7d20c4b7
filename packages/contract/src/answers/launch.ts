import { z } from "zod";
import { time } from "../answers";
import { LaunchSystems } from "../launch";

/* Answers of the 一键启动 endpoints (launch.ts). */

export const LaunchTokenViewAnswer = z.strictObject({
  token: z.string().nullable().describe("null: none yet or revoked"),
  created_at: time().nullable(),
});

export const LaunchCommandsAnswer = z.strictObject({
  node_id: z.number().int(),
  node_name: z.string(),
  missing: z.string().nullable().describe("why there are no commands (no PUBLIC_URL)"),
  commands: z
    .strictObject(
      Object.fromEntries(LaunchSystems.map((s) => [s, z.string()])) as Record<
        (typeof LaunchSystems)[number],
        z.ZodString
      >,
    )
    .nullable(),
  token_created_at: time().nullable(),
});
