// @vitest-environment jsdom
import { idNumberProblem, ProcessStatus, VerifyApi, type VerifyState } from "@burrow/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { VerifyPage } from "./VerifyPage";

const ID = "11010519491231002X";
const none: VerifyState = {
  status: ProcessStatus.None,
  real_name: null,
  id_number: null,
  reason: null,
  updated_at: null,
  required_for_tunnels: true,
  mode: "redirect",
};
const type = (label: string, value: string) => {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const submit = () => fireEvent.click(screen.getByText("提交认证").closest("button") as HTMLElement);

describe("VerifyPage", () => {
  it("checks the name and number with the contract's rules, then submits and goes to the result", async () => {
    expect(idNumberProblem(ID)).toBeNull();
    const fake = new FakeApi().on(VerifyApi.getUserVerify, none).on(VerifyApi.postUserVerify, {
      ...none,
      status: ProcessStatus.Processing,
      real_name: "张*",
      redirect_url: null,
    });
    renderPage(<VerifyPage />, fake, { path: "/account/verify" });
    expect(await screen.findByText("完成实名认证后才能创建隧道。")).toBeTruthy();
    type("真实姓名", "Zhang San");
    type("身份证号码", "110105194912310021");
    submit();
    expect(await screen.findByText("姓名应为身份证上的中文姓名")).toBeTruthy();
    expect(await screen.findByText(idNumberProblem("110105194912310021") as string)).toBeTruthy();
    expect(fake.callsTo(VerifyApi.postUserVerify)).toHaveLength(0);

    type("真实姓名", "张三");
    type("身份证号码", ID);
    submit();
    await waitFor(() => expect(fake.callsTo(VerifyApi.postUserVerify)).toHaveLength(1));
    expect(fake.callsTo(VerifyApi.postUserVerify)[0].body).toEqual({ real_name: "张三", id_number: ID });
    await screen.findByTestId("navigated");
    expect(fake.unanswered).toEqual([]);
  });

  it("shows a done verification masked, with no form, and a rejection's reason with the form to resubmit", async () => {
    const done = { ...none, status: ProcessStatus.Done, real_name: "张*", id_number: "1101**********002X" };
    const first = renderPage(<VerifyPage />, new FakeApi().on(VerifyApi.getUserVerify, done), { path: "/" });
    expect(await screen.findByText("1101**********002X")).toBeTruthy();
    expect(screen.queryByText("提交认证")).toBeNull();
    expect(screen.queryByText("完成实名认证后才能创建隧道。")).toBeNull();
    first.unmount();

    const rejected = { ...none, status: ProcessStatus.Rejected, real_name: "张*", reason: "姓名与证件号码不一致" };
    renderPage(<VerifyPage />, new FakeApi().on(VerifyApi.getUserVerify, rejected), { path: "/" });
    expect(await screen.findByText("姓名与证件号码不一致")).toBeTruthy();
    expect(screen.getByText("重新提交")).toBeTruthy();
  });

  it("asks for the ID card's photos in the manual mode before anything is sent", async () => {
    const fake = new FakeApi().on(VerifyApi.getUserVerify, { ...none, mode: "manual" });
    renderPage(<VerifyPage />, fake, { path: "/" });
    await screen.findByText(/提交的证件照片加密保存/);
    type("真实姓名", "张三");
    type("身份证号码", ID);
    submit();
    expect((await screen.findAllByText(/^请上传.*照片$/)).length).toBeGreaterThanOrEqual(2);
    expect(fake.calls.filter((c) => c.method === "POST")).toEqual([]);
  });
});
