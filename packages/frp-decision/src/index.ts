export * from "./dashboard";
export * from "./entries";
export * from "./plugin";
export * from "./plugin-schema";
export * from "./shield";
export * from "./state";
export * from "./wire";
