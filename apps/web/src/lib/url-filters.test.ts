import { describe, expect, it } from "vitest";
import { readFilters, writeFilters } from "./url-filters";

const spec = { name: "text", node_id: "int", status: "int" } as const;

describe("list filters in the URL", () => {
  it("reads defaults from an empty query", () => {
    expect(readFilters(new URLSearchParams(), spec)).toEqual({
      page: 1,
      size: 10,
      name: undefined,
      node_id: undefined,
      status: undefined,
    });
    expect(readFilters(new URLSearchParams(), spec, 20).size).toBe(20);
  });

  it("round-trips every filter and drops defaults", () => {
    const filters = readFilters(new URLSearchParams("page=2&size=50&name=%20web%20&node_id=3&status=-1"), spec);
    expect(filters).toEqual({ page: 2, size: 50, name: "web", node_id: 3, status: -1 });
    expect(writeFilters(filters).toString()).toBe("page=2&size=50&name=web&node_id=3&status=-1");
    expect(writeFilters({ page: 1, size: 10, name: "" }).toString()).toBe("");
    expect(writeFilters({ page: 1, size: 20 }, 20).toString()).toBe("");
  });

  it("ignores junk and unknown names, and clamps paging", () => {
    expect(readFilters(new URLSearchParams("page=0&size=500&node_id=1.5&other=x"), spec)).toEqual({
      page: 1,
      size: 100,
      name: undefined,
      node_id: undefined,
      status: undefined,
    });
  });
});
