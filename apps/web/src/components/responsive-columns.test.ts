import { describe, expect, it } from "vitest";
import {
  cellValue,
  DEFAULT_COLUMN_WIDTH,
  EXPAND_COLUMN_WIDTH,
  planCard,
  planColumns,
  type ResponsiveColumns,
} from "./responsive-columns";

interface Row {
  id: number;
  name: string;
  node: { name: string };
}

const cols: ResponsiveColumns<Row> = [
  { key: "id", title: "ID", width: 80, priority: 4 },
  { key: "status", title: "状态", width: 100, role: "status" },
  { key: "name", title: "名称", width: 200, role: "title" },
  { key: "ports", title: "端口", width: 160, priority: 2 },
  { key: "load", title: "负载", width: 100, priority: 3 },
  { key: "traffic", title: "流量", width: 150, priority: 2 },
  { key: "note", title: "备注" }, // unset: priority 3, default width
  { key: "actions", title: "操作", width: 140 },
];
const keys = (cs: ResponsiveColumns<Row>) => cs.map((c) => c.key);
const total = cols.reduce((w, c) => w + (typeof c.width === "number" ? c.width : DEFAULT_COLUMN_WIDTH), 0);

describe("planColumns", () => {
  it("shows every column, with no detail, when they all fit or the width is not known yet", () => {
    expect(planColumns(cols, total)).toEqual({ shown: cols, hidden: [] });
    expect(planColumns(cols, 0)).toEqual({ shown: cols, hidden: [] });
  });

  it("keeps status, title and actions however narrow, and moves the rest into the detail", () => {
    const plan = planColumns(cols, 300);
    expect(keys(plan.shown)).toEqual(["status", "name", "actions"]);
    expect(keys(plan.hidden)).toEqual(["id", "ports", "load", "traffic", "note"]);
  });

  it("adds columns by priority (declared order within one) while they fit beside the expand icon", () => {
    const base = EXPAND_COLUMN_WIDTH + 100 + 200 + 140;
    // room for both priority-2 columns, not for a priority-3 one
    const plan = planColumns(cols, base + 160 + 150 + 99);
    expect(keys(plan.shown)).toEqual(["status", "name", "ports", "traffic", "actions"]);
    expect(keys(plan.hidden)).toEqual(["id", "load", "note"]);
    // one pixel more than the first priority-3 column (load, 100 px) needs
    expect(keys(planColumns(cols, base + 160 + 150 + 100).shown)).toContain("load");
  });

  it("never lets a narrow column jump ahead of a more important one that did not fit", () => {
    const base = EXPAND_COLUMN_WIDTH + 100 + 200 + 140;
    // ports (160) does not fit, though load (100) would
    const plan = planColumns(cols, base + 150);
    expect(keys(plan.shown)).toEqual(["status", "name", "actions"]);
  });

  it("keeps the declared order of the shown columns", () => {
    const plan = planColumns(cols, total - 1);
    expect(keys(plan.shown)).toEqual(keys(cols).filter((k) => plan.shown.some((c) => c.key === k)));
    expect(plan.hidden.length).toBeGreaterThan(0);
  });
});

describe("planCard", () => {
  it("puts status first, then title, the main fields, the detail and the actions", () => {
    const card = planCard(cols);
    expect(keys(card.status)).toEqual(["status"]);
    expect(keys(card.title)).toEqual(["name"]);
    expect(keys(card.fields)).toEqual(["ports", "load", "traffic"]);
    expect(keys(card.detail)).toEqual(["id", "note"]);
    expect(keys(card.actions)).toEqual(["actions"]);
  });

  it("shows at least the three most important fields, so a card never shows only 更多", () => {
    const plain: ResponsiveColumns<Row> = [
      { key: "a", priority: 5 },
      { key: "b", priority: 3 },
      { key: "c" },
      { key: "d", priority: 4 },
    ];
    const card = planCard(plain);
    expect(keys(card.fields)).toEqual(["b", "c", "d"]);
    expect(keys(card.detail)).toEqual(["a"]);
  });
});

describe("cellValue", () => {
  it("follows a key or a path of keys", () => {
    const row = { id: 1, name: "a", node: { name: "n1" } };
    expect(cellValue({ dataIndex: "name" }, row)).toBe("a");
    expect(cellValue({ dataIndex: ["node", "name"] }, row)).toBe("n1");
    expect(cellValue({ key: "x" }, row)).toBeUndefined();
  });
});
