import { realFrpSuite } from "./suite";

realFrpSuite("v0.52.3");
