import { realFrpSuite } from "./suite";

realFrpSuite("v0.70.1");
