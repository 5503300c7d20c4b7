// @vitest-environment jsdom
import { DomainsApi, type DomainView, NodesApi, type UserNodeRow } from "@burrow/contract";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { DomainListPage } from "./DomainListPage";

const wildcard: DomainView = {
  id: 5,
  domain: "*.shop.example.com",
  node_id: 1,
  node_name: "上海一区",
  state: "pending",
  icp_no: null,
  records: [
    { type: "TXT", host: "_burrow-challenge.shop.example.com", value: "tok-123" },
    { type: "CNAME", host: "*.shop.example.com", value: "frp.example.net" },
  ],
  problem: null,
  verified_at: null,
  checked_at: null,
  flagged_at: null,
  grace_until: null,
  unbind_reason: null,
  tunnels: [],
  created_at: "2026-11-28T02:00:00.000Z",
};
const page = <T,>(list: T[]) => ({ list, total: list.length, page: 1, size: 10 });

describe("DomainListPage", () => {
  it("shows a wildcard with the apex's TXT record and the wildcard CNAME, and checks the form with the contract", async () => {
    const fake = new FakeApi()
      .on(DomainsApi.getUserDomain, page([wildcard]))
      .on(NodesApi.getUserNode, page<UserNodeRow>([]));
    renderPage(<DomainListPage />, fake, { path: "/domain" });
    expect(await screen.findByText("*.shop.example.com", { selector: "strong" })).toBeTruthy();
    expect(screen.getByText("泛域名：可用于 shop.example.com 下一级的任意子域名")).toBeTruthy();
    expect(screen.getAllByText("_burrow-challenge.shop.example.com").length).toBeGreaterThan(0);
    expect(screen.getAllByText("*.shop.example.com", { selector: "code" }).length).toBeGreaterThan(0);

    const [add] = (await screen.findAllByText("添加域名")).filter((el) => !el.closest(".ant-modal"));
    fireEvent.click(add.closest("button") as HTMLElement);
    const modal = (await screen.findByText("添加域名", { selector: ".ant-modal-title" })).closest(
      ".ant-modal",
    ) as HTMLElement;
    const input = within(modal).getByLabelText("域名");
    fireEvent.change(input, { target: { value: "*.*.example.com" } });
    expect(await within(modal).findByText("泛域名只能在最左边使用一个 *，例如 *.example.com")).toBeTruthy();
    fireEvent.change(input, { target: { value: "*.com.cn" } });
    expect(await within(modal).findByText("com.cn 是公共后缀，不能使用 *.com.cn")).toBeTruthy();
    fireEvent.change(input, { target: { value: "*.example.com" } });
    await waitFor(() => expect(within(modal).queryByText(/公共后缀|最左边/)).toBeNull());
    expect(fake.callsTo(DomainsApi.postUserDomain)).toHaveLength(0);
  });
});
