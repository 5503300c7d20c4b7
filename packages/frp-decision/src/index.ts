export * from "./entries";
export * from "./wire";
