// @vitest-environment jsdom
import { type DeletionPrecheck, type DeletionView, LeavingApi, type PasskeyOptions } from "@burrow/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { FakeApi, renderPage } from "@/testing/page-harness";
import { LeavingPage } from "./LeavingPage";

// The browser's passkey prompt, as the device would answer it.
const answered = { id: "cred-1", rawId: "cred-1", type: "public-key", response: { signature: "sig" } };
vi.mock("@/features/auth/passkey.requests", () => ({ answerWithPasskey: vi.fn(async () => answered) }));

const options: PasskeyOptions = { options: { challenge: "c1" }, expires_at: "2026-11-28T13:00:00Z" };
const view: DeletionView = {
  status: "pending",
  requested_at: "2026-11-28T12:00:00Z",
  executes_at: "2026-12-05T12:00:00Z",
  forfeit_fen: 0,
};
const type = (label: string | RegExp, value: string) => {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const submit = () => fireEvent.click(screen.getByText("申请注销").closest("button") as HTMLElement);

function fakeFor(check: DeletionPrecheck) {
  return new FakeApi()
    .on(LeavingApi.getUserLeaving, null)
    .on(LeavingApi.getUserLeavingPrecheck, check)
    .on(LeavingApi.postUserLeavingPasskeyOptions, options)
    .on(LeavingApi.postUserLeaving, view);
}

describe("LeavingPage: the deletion's second factor", () => {
  it("a passkey-only account confirms with the passkey: options, the device's answer, the request carrying it", async () => {
    const fake = fakeFor({ balance: 0, affiliate_available: 0, totp: false, passkey: true });
    renderPage(<LeavingPage />, fake, { path: "/account/leaving" });
    expect(await screen.findByText(/提交时请在设备上验证通行密钥/)).toBeTruthy();
    expect(screen.queryByLabelText("两步验证码")).toBeNull();
    type("登录密码", "secret-1");
    type(/请输入“注销账号”确认/, "注销账号");
    submit();
    await waitFor(() => expect(fake.callsTo(LeavingApi.postUserLeaving)).toHaveLength(1));
    expect(fake.callsTo(LeavingApi.postUserLeavingPasskeyOptions)).toHaveLength(1);
    expect(fake.callsTo(LeavingApi.postUserLeaving)[0].body).toEqual({
      password: "secret-1",
      confirm: "注销账号",
      credential: answered,
    });
    expect(fake.unanswered).toEqual([]);
  });

  it("with TOTP and a passkey: a typed code is sent without a passkey prompt", async () => {
    const fake = fakeFor({ balance: 0, affiliate_available: 0, totp: true, passkey: true });
    renderPage(<LeavingPage />, fake, { path: "/account/leaving" });
    expect(await screen.findByText("也可留空，提交时使用通行密钥验证")).toBeTruthy();
    type("登录密码", "secret-1");
    type("两步验证码", "123456");
    type(/请输入“注销账号”确认/, "注销账号");
    submit();
    await waitFor(() => expect(fake.callsTo(LeavingApi.postUserLeaving)).toHaveLength(1));
    expect(fake.callsTo(LeavingApi.postUserLeaving)[0].body).toMatchObject({ code: "123456" });
    expect(fake.callsTo(LeavingApi.postUserLeavingPasskeyOptions)).toHaveLength(0);
  });
});
