import { agentSuite } from "./agent-suite";

agentSuite("v0.52.3", { smoke: true });
