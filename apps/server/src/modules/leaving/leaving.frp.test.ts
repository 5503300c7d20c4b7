import { describe, expect, it } from "vitest";
import { ALLOW, tcpProxy, userInfo } from "../../../test/frps-bodies";
import { pluginSuite } from "../../../test/plugin-fixtures";

/* A deletion request cuts the customer's running frp sessions the way an operator's lock does. */

const suite = pluginSuite();
const { customer, plugin, flush } = suite;

describe("a deletion request and frp", () => {
  it("refuses the connected tunnel's next heartbeat and new proxies; a cancel lets frpc reconnect", async () => {
    const { t } = suite.get();
    const c = await customer();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
    await flush();
    expect((await plugin("Ping", { user: userInfo(c) })).body).toEqual(ALLOW);

    const r = await t.api("POST", "/user/leaving", {
      token: c.token,
      body: { password: "password-123", confirm: "注销账号" },
    });
    expect(r.body.code).toBe("SUCCESS");
    const ping = await plugin("Ping", { user: userInfo(c) });
    expect(ping.body.reject).toBe(true);
    expect(ping.body.reject_reason).toContain("已停用");
    await plugin("CloseProxy", { user: userInfo(c), proxy_name: tcpProxy(c).proxy_name });
    await flush();
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(true);

    expect((await t.api("DELETE", "/user/leaving", { token: c.token })).body.code).toBe("SUCCESS");
    expect((await plugin("NewProxy", tcpProxy(c))).body.reject).toBe(false);
  });
});
