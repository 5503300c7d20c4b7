import { describe, expect, it } from "vitest";
import { labelOptions, valueOptions } from "./options";

describe("labelOptions", () => {
  it("turns a label map into numeric options in key order", () => {
    expect(labelOptions({ 1: "待处理", [-1]: "已取消", 0: "未知" })).toEqual([
      { value: 0, label: "未知" },
      { value: 1, label: "待处理" },
      { value: -1, label: "已取消" },
    ]);
  });
});

describe("valueOptions", () => {
  it("labels a list of values in the list's order, leaving out values the list does not name", () => {
    const labels = { done: "已完成", failed: "失败", pending: "待投递" };
    expect(valueOptions(["pending", "failed"] as const, labels)).toEqual([
      { value: "pending", label: "待投递" },
      { value: "failed", label: "失败" },
    ]);
  });
});
