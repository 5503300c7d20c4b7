import { agentSuite } from "./agent-suite";

agentSuite("v0.61.2");
