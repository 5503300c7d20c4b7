import { agentSuite } from "./agent-suite";

agentSuite("v0.70.1", { smoke: true });
