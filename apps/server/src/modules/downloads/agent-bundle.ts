import fs from "node:fs/promises";
import type { AppContext } from "../../context";
import type { FileDownload } from "../../shared/download";
import { notFound } from "../../shared/errors";

/** Where node agents download their bundle (the node set-up page's installer fetches it). */
export const AGENT_BUNDLE_PATH = "/download/agent/burrow-agent.mjs";

/** The agent's bundle as built (apps/agent/dist), or a 404 saying it was not built. */
export async function agentBundle(ctx: AppContext): Promise<FileDownload> {
  let body: Buffer;
  try {
    body = await fs.readFile(ctx.config.AGENT_BUNDLE);
  } catch {
    throw notFound("节点代理程序尚未构建（在控制台所在机器上运行 npm run build -w apps/agent），安装包");
  }
  return { body, name: "burrow-agent.mjs", type: "text/javascript; charset=utf-8" };
}
