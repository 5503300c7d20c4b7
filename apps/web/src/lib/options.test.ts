import { describe, expect, it } from "vitest";
import { labelOptions } from "./options";

describe("labelOptions", () => {
  it("turns a label map into numeric options in key order", () => {
    expect(labelOptions({ 1: "待处理", [-1]: "已取消", 0: "未知" })).toEqual([
      { value: 0, label: "未知" },
      { value: 1, label: "待处理" },
      { value: -1, label: "已取消" },
    ]);
  });
});
