import type { ModuleManifest } from "../../shared/module";
import { launchRoutes, serveLaunchFiles } from "./launch.routes";

/** 一键启动: the customer's launch token, the installers and what they fetch (docs/launch.md). */
export const launchModule: ModuleManifest = { name: "launch", routes: launchRoutes, server: serveLaunchFiles };
