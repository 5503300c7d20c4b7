export * from "./dashboard";
export * from "./entries";
export * from "./plugin";
export * from "./plugin-schema";
export * from "./schedule";
export * from "./shield";
export * from "./state";
export * from "./wire";
