import { explainFrpcLog, FRPC_LOG_RULE_IDS } from "@burrow/contract";
import { describe, expect, it } from "vitest";

/**
 * The offline rule table (packages/contract/src/frpc-log.ts) against frpc's real log lines. Each
 * line is frp's log prefix ("<time> [W] [<file>:<line>]") around the exact format string and
 * error text of fatedier/frp (v0.70, the version Burrow's nodes run; paths cited per case), with
 * Burrow's own plugin refusals (apps/server/src/modules/frp/plugin.ts) where frps passes them on.
 */
const W = "2026-11-24 10:00:00.000 [W]";
const E = "2026-11-24 10:00:00.000 [E]";
/** client/service.go:322 `xl.Warnf("connect to server error: %v", err)` */
const connectError = (err: string) => `${W} [client/service.go:322] connect to server error: ${err}`;
/** client/control.go:163 `xl.Warnf("[%s] start error: %v", proxyName, err)` (the user prefix stripped) */
const startError = (proxy: string, err: string) => `${W} [client/control.go:163] [${proxy}] start error: ${err}`;

const CASES: { name: string; line: string; rule: string; path: string }[] = [
  {
    // pkg/auth/token.go:66 `fmt.Errorf("token in login doesn't match token from configuration")`
    name: "token mismatch at login",
    line: connectError("token in login doesn't match token from configuration"),
    rule: "token-mismatch",
    path: "/tun/list",
  },
  {
    // client/service.go:266 `login to the server failed: %v. With loginFailExit enabled, …`
    name: "login failed with loginFailExit, token mismatch",
    line: `${E} [client/service.go:266] login to the server failed: token in login doesn't match token from configuration. With loginFailExit enabled, no additional retries will be attempted`,
    rule: "token-mismatch",
    path: "/tun/list",
  },
  {
    // frp ≤ 0.20 server/service.go RegisterControl: `fmt.Errorf("authorization failed")`
    name: "authorization failed (older frps)",
    line: `2026/11/24 10:00:00 [W] [service.go:82] login to server failed: authorization failed`,
    rule: "token-mismatch",
    path: "/tun/list",
  },
  {
    // plugin.ts checkUser: reject("访问令牌无效，请重新下载配置文件"), passed on as the login error
    name: "Burrow refuses the token",
    line: connectError("访问令牌无效，请重新下载配置文件"),
    rule: "token-mismatch",
    path: "/tun/list",
  },
  {
    // plugin.ts checkUser: "套餐已过期"
    name: "plan expired",
    line: connectError("套餐已过期"),
    rule: "no-plan",
    path: "/purchase/plan",
  },
  {
    // plugin.ts checkUser: limits.reason ?? "流量已用尽"
    name: "traffic used up",
    line: connectError("流量已用尽"),
    rule: "traffic-exhausted",
    path: "/epay/plan",
  },
  {
    // plugin.ts checkUser: "节点已下架"
    name: "node off the shelf",
    line: connectError("节点已下架"),
    rule: "node-off-shelf",
    path: "/tun/node",
  },
  {
    // plugin.ts checkUser: "未知用户：请使用控制台生成的 frpc 配置（user 字段）"
    name: "unknown user",
    line: connectError("未知用户：请使用控制台生成的 frpc 配置（user 字段）"),
    rule: "unknown-user",
    path: "/tun/list",
  },
  {
    // plugin.ts checkUser: "账号已被封禁"
    name: "account banned",
    line: connectError("账号已被封禁"),
    rule: "account-banned",
    path: "/help/ticket",
  },
  {
    // plugin.ts checkUser: "套餐等级不足，无法使用该节点"
    name: "plan level too low",
    line: connectError("套餐等级不足，无法使用该节点"),
    rule: "plan-level",
    path: "/purchase/plan",
  },
  {
    // modules/frp/decision-cache.ts:66 `隧道 ${t.tun_name} 已被锁定：${t.banned_reason}`
    name: "tunnel locked",
    line: startError("t_8", "隧道 web 已被锁定：违规内容"),
    rule: "tunnel-locked",
    path: "/help/ticket",
  },
  {
    // modules/frp/decision-cache.ts:68 `隧道 ${t.tun_name} 已停用`
    name: "tunnel disabled",
    line: startError("t_8", "隧道 web 已停用"),
    rule: "tunnel-disabled",
    path: "/tun/list/8",
  },
  {
    // server/ports/ports.go:23 `ErrPortAlreadyUsed = errors.New("port already used")`
    name: "port already used",
    line: startError("t_12", "port already used"),
    rule: "port-used",
    path: "/tun/list/12",
  },
  {
    // server/ports/ports.go:25 `ErrPortUnAvailable = errors.New("port unavailable")`
    name: "port unavailable",
    line: startError("t_12", "port unavailable"),
    rule: "port-used",
    path: "/tun/list/12",
  },
  {
    // server/proxy/udp.go:82 `fmt.Errorf("acquire port %d error: %v", …)` around ports.go's error
    name: "udp port acquire error",
    line: startError("t_7", "acquire port 30001 error: port already used"),
    rule: "port-used",
    path: "/tun/list/7",
  },
  {
    // server/ports/ports.go:24 `ErrPortNotAllowed = errors.New("port not allowed")`
    name: "port not allowed",
    line: startError("t_3", "port not allowed"),
    rule: "port-not-allowed",
    path: "/tun/list/3",
  },
  {
    // server/control.go:850 `fmt.Errorf("proxy [%s] already exists", pxyMsg.ProxyName)` (frps names it with the user prefix)
    name: "proxy already exists",
    line: startError("t_5", "proxy [u_42.t_5] already exists"),
    rule: "proxy-exists",
    path: "/tun/list/5",
  },
  {
    // server/proxy/proxy.go:529 `fmt.Errorf("proxy name [%s] is already in use", name)`
    name: "proxy name already in use",
    line: startError("t_5", "proxy name [u_42.t_5] is already in use"),
    rule: "proxy-exists",
    path: "/tun/list/5",
  },
  {
    // pkg/util/vhost/router.go:11 `ErrRouterConfigConflict = errors.New("router config conflict")`
    name: "router config conflict",
    line: startError("t_9", "router config conflict"),
    rule: "router-conflict",
    path: "/tun/list/9",
  },
  {
    // plugin.ts newProxy: `隧道 ${t.tun_name} 的远程端口应为 ${t.remote_port}，请重新下载配置文件`
    name: "config drifted from the console",
    line: startError("t_9", "隧道 web 的远程端口应为 30009，请重新下载配置文件"),
    rule: "config-drift",
    path: "/tun/list/9",
  },
  {
    // an unknown reason after client/control.go:163's "start error"
    name: "other start error",
    line: startError("t_4", "proxy type not support"),
    rule: "start-error",
    path: "/tun/list/4",
  },
  {
    // client/service.go:322 around Go's net dial error (net/net.go: "i/o timeout")
    name: "i/o timeout",
    line: connectError("dial tcp 203.0.113.10:7000: i/o timeout"),
    rule: "connect-failed",
    path: "/tun/node",
  },
  {
    // client/service.go:322 around Go's syscall error "connection refused"
    name: "connection refused",
    line: connectError("dial tcp 203.0.113.10:7000: connect: connection refused"),
    rule: "connect-failed",
    path: "/tun/node",
  },
  {
    // client/service.go:322 around crypto/tls + crypto/x509 (Go: "x509: certificate signed by unknown authority")
    name: "certificate error",
    line: connectError("tls: failed to verify certificate: x509: certificate signed by unknown authority"),
    rule: "certificate",
    path: "/tun/node",
  },
  {
    // crypto/x509 verify.go: "x509: certificate has expired or is not yet valid"
    name: "expired certificate",
    line: connectError(
      "tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2020-01-01T00:00:00Z is before 2026-01-01T00:00:00Z",
    ),
    rule: "certificate",
    path: "/tun/node",
  },
  {
    // client/proxy/proxy.go:219 `xl.Errorf("connect to local service [%s:%d] error: %v", …)`
    name: "local service down (not the node)",
    line: `${E} [client/proxy/proxy.go:219] [t_6] connect to local service [127.0.0.1:8080] error: dial tcp 127.0.0.1:8080: connect: connection refused`,
    rule: "local-service",
    path: "/tun/list/6",
  },
  {
    // client/service.go:322 with an error no rule knows
    name: "other login failure",
    line: connectError("session shutdown"),
    rule: "login-failed",
    path: "/doc/errors",
  },
];

describe("frpc log rule table", () => {
  for (const c of CASES)
    it(c.name, () => {
      const [hit, ...more] = explainFrpcLog(c.line);
      expect(more).toEqual([]);
      expect(hit).toMatchObject({ rule: c.rule, line: c.line.slice(0, 300) });
      expect(hit.link.path).toBe(c.path);
      expect(hit.cause).not.toBe("");
      expect(hit.action).not.toBe("");
    });

  it("covers every rule with a case", () => {
    const tested = new Set(CASES.map((c) => c.rule));
    expect(FRPC_LOG_RULE_IDS.filter((id) => !tested.has(id))).toEqual([]);
  });

  it("reads a whole pasted log: info lines skipped, each problem once, in order", () => {
    const log = [
      "2026-11-24 10:00:00.000 [I] [client/service.go:311] try to connect to server...",
      "2026-11-24 10:00:00.100 [I] [client/service.go:331] [d1f0] login to server success, get run id [d1f0]",
      startError("t_12", "port already used"),
      startError("t_12", "port already used"),
      startError("t_13", "router config conflict"),
      "2026-11-24 10:00:00.300 [I] [client/control.go:165] [t_14] start proxy success",
    ].join("\r\n");
    expect(explainFrpcLog(log).map((e) => [e.rule, e.tun_id])).toEqual([
      ["port-used", 12],
      ["router-conflict", 13],
    ]);
    expect(explainFrpcLog("你好，怎么安装 frpc？")).toEqual([]);
  });
});
