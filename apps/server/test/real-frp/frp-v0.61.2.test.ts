import { realFrpSuite } from "./suite";

realFrpSuite("v0.61.2");
