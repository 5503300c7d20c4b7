export * from "./auth";
export * from "./common";
export * from "./enums";
export * from "./menu";
export * from "./site";
export * from "./users";
