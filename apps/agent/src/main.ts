/** burrow-agent: started by systemd (burrow-agent.service) with /etc/burrow-agent.env. */
import { Agent } from "./agent";
import { ConfigError, loadConfig } from "./config";

let agent: Agent;
try {
  agent = new Agent(loadConfig(process.env));
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`burrow-agent: configuration error: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
await agent.start();
for (const sig of ["SIGTERM", "SIGINT"] as const)
  process.once(sig, () => {
    void agent.stop().then(() => process.exit(0));
  });
