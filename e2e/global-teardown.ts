import { existsSync, readFileSync, rmSync } from "node:fs";
import { DNS_STATE, SERVER_STATE } from "./fixtures/env";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the server started by global-setup.ts and removes its data directory. */
export default async function globalTeardown(): Promise<void> {
  if (existsSync(DNS_STATE)) {
    const { pid } = JSON.parse(readFileSync(DNS_STATE, "utf8")) as { pid: number };
    if (pid && alive(pid)) process.kill(pid, "SIGTERM");
    rmSync(DNS_STATE, { force: true });
  }
  // The ACME CA global-setup started in this same process.
  await (globalThis as { __burrowAcme?: { stop(): Promise<void> } }).__burrowAcme?.stop();
  if (!existsSync(SERVER_STATE)) return;
  const { pid, dataDir } = JSON.parse(readFileSync(SERVER_STATE, "utf8")) as { pid: number; dataDir: string };
  if (alive(pid)) {
    process.kill(pid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, "SIGKILL");
  }
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(SERVER_STATE, { force: true });
}
