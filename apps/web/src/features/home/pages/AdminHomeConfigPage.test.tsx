// @vitest-environment jsdom
import { HomeApi, type HomeConfigRow, Role, type UserInfo, UsersApi } from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { formatTime } from "@/lib/format";
import { FakeApi, type FakeCall, renderPage } from "@/testing/page-harness";
import { AdminHomeConfigPage } from "./AdminHomeConfigPage";

const me = (role: number) => ({ uid: 1, role, personal_info: { avatar: "", phone_number: "" } }) as unknown as UserInfo;
const entry = (o: Partial<HomeConfigRow>): HomeConfigRow => ({
  id: 1,
  data_type: 2,
  title: "春节放假通知",
  title_color: "#cf1322",
  content: "2 月 1 日至 7 日客服休息",
  link: "/doc/holiday",
  sort: 5,
  addon: { published: true },
  created_at: "2026-11-20T02:00:00.000Z",
  updated_at: "2026-11-27T08:30:00.000Z",
  ...o,
});
const notice = entry({});
const quote = entry({
  id: 2,
  data_type: 3,
  title: "保持好奇",
  title_color: "",
  content: "",
  link: "",
  sort: 0,
  addon: { published: false },
});

/** GET /super/config/index filtered by type as the server does. */
function api(role: number = Role.Manager) {
  return new FakeApi().on(UsersApi.getUserUserInfo, me(role)).on(HomeApi.getSuperConfigIndex, (c: FakeCall) => {
    const list = [notice, quote].filter((r) => !c.query.data_type || r.data_type === Number(c.query.data_type));
    return { list, total: list.length, page: 1, size: 10 };
  });
}
const show = (fake: FakeApi) => renderPage(<AdminHomeConfigPage />, fake, { path: "/admin/setter/main" });
const row = async (title: string) =>
  (await screen.findAllByText(title)).find((el) => el.closest("tr"))?.closest("tr") as HTMLElement;
const modal = async (title: string) =>
  (await screen.findByText(title, { selector: ".ant-modal-title" })).closest(".ant-modal") as HTMLElement;
const press = (scope: HTMLElement, name: string | RegExp) =>
  fireEvent.click(within(scope).getByRole("button", { name }));

describe("AdminHomeConfigPage", () => {
  it("lists the entries with their kind, title colour, state, link and update time", async () => {
    const fake = api();
    show(fake);
    const first = await row("春节放假通知");
    expect(within(first).getByText("公告")).toBeTruthy();
    expect(within(first).getByText("春节放假通知").style.color).toBe("rgb(207, 19, 34)");
    expect(within(first).getByText("已发布")).toBeTruthy();
    expect(within(first).getByText("/doc/holiday")).toBeTruthy();
    expect(within(first).getByText(formatTime(notice.updated_at))).toBeTruthy();
    const second = await row("保持好奇");
    expect(within(second).getByText("一句话")).toBeTruthy();
    expect(within(second).getByText("未发布")).toBeTruthy();
    expect(within(second).getByText("保持好奇").style.color).toBe("");
    expect(fake.unanswered).toEqual([]);
  });

  it("filters by kind from the search card", async () => {
    const fake = api();
    show(fake);
    await row("保持好奇");
    const card = document.querySelector(".search-card") as HTMLElement;
    fireEvent.mouseDown(within(card).getByLabelText("类型"));
    fireEvent.click((await screen.findAllByTitle("一句话")).at(-1) as HTMLElement);
    press(card, /查\s*询/);
    await waitFor(() => expect(screen.queryByText("春节放假通知")).toBeNull());
    expect(await row("保持好奇")).toBeTruthy();
    expect(fake.callsTo(HomeApi.getSuperConfigIndex).at(-1)?.query).toEqual({ page: "1", size: "10", data_type: "3" });
  });

  it("adds a notice: refuses an unsafe link, previews what customers will see, sends the whole entry", async () => {
    const fake = api().on(HomeApi.postSuperConfigIndex, (c) => entry({ id: 3, ...(c.body as object) }));
    show(fake);
    await row("春节放假通知");
    fireEvent.click(screen.getByRole("button", { name: /新增内容/ }));
    const dialog = await modal("新增内容");
    expect(within(dialog).getByText("填写标题后在此预览")).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText("标题"), { target: { value: " 周日维护 " } });
    fireEvent.change(within(dialog).getByLabelText("内容"), { target: { value: "**凌晨** 两点开始" } });
    fireEvent.change(within(dialog).getByLabelText("链接"), { target: { value: "javascript:alert(1)" } });
    // the preview is the dashboard's own notice card, markdown rendered, an unsafe link left out
    const preview = await within(dialog).findByRole("region", { name: /周日维护/ });
    expect(within(preview).getByText("凌晨").tagName).toBe("STRONG");
    expect(within(preview).queryByRole("link")).toBeNull();
    press(dialog, "保存");
    expect(await within(dialog).findByText("链接只能是 http(s) 地址或以 / 开头的站内路径")).toBeTruthy();
    expect(fake.callsTo(HomeApi.postSuperConfigIndex)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("链接"), { target: { value: "/doc/maint" } });
    await waitFor(() =>
      expect(
        within(dialog)
          .getByRole("link", { name: /周日维护/ })
          .getAttribute("href"),
      ).toBe("/doc/maint"),
    );
    press(dialog, "保存");
    await waitFor(() => expect(fake.callsTo(HomeApi.postSuperConfigIndex)).toHaveLength(1));
    expect(fake.callsTo(HomeApi.postSuperConfigIndex)[0].body).toEqual({
      data_type: 2,
      title: "周日维护",
      title_color: "",
      content: "**凌晨** 两点开始",
      link: "/doc/maint",
      sort: 0,
      addon: { published: true },
    });
    expect(await screen.findByText("内容已添加")).toBeTruthy();
  });

  it("edits an entry sending only what changed, and deletes one after its confirm", async () => {
    const fake = api()
      .on(HomeApi.patchSuperConfigIndex, () => notice)
      .on(HomeApi.deleteSuperConfigIndex, null);
    show(fake);
    press(await row("春节放假通知"), "编辑");
    const dialog = await modal("编辑内容");
    const title = within(dialog).getByLabelText("标题") as HTMLInputElement;
    await waitFor(() => expect(title.value).toBe("春节放假通知"));
    fireEvent.change(title, { target: { value: "春节客服安排" } });
    fireEvent.click(within(dialog).getByRole("switch"));
    press(dialog, "保存");
    await waitFor(() => expect(fake.callsTo(HomeApi.patchSuperConfigIndex)).toHaveLength(1));
    expect(fake.callsTo(HomeApi.patchSuperConfigIndex)[0].body).toEqual({
      id: 1,
      param: { title: "春节客服安排", addon: { published: false } },
    });
    expect(await screen.findByText("内容已保存")).toBeTruthy();

    press(await row("保持好奇"), "删除");
    const confirm = (await screen.findAllByText("删除「保持好奇」？")).at(-1)?.closest(".ant-popover") as HTMLElement;
    press(confirm, "删除");
    await waitFor(() => expect(fake.callsTo(HomeApi.deleteSuperConfigIndex)).toHaveLength(1));
    expect(fake.callsTo(HomeApi.deleteSuperConfigIndex)[0].body).toEqual({ id: 2 });
    expect(await screen.findByText("内容已删除")).toBeTruthy();
  });

  it("offers support staff neither 新增 nor 编辑 or 删除", async () => {
    show(api(Role.Support));
    await row("春节放假通知");
    expect(screen.queryByRole("button", { name: /新增内容/ })).toBeNull();
    expect(screen.queryAllByRole("button", { name: /^(编辑|删除)$/ })).toEqual([]);
  });
});
