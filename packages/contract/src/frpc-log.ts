/**
 * The frpc log rule table: which console action fixes what frpc printed. It works offline (no AI
 * endpoint needed): the assistant shows these explanations next to (or, unconfigured, instead of)
 * the model's answer, and hands them to the model as facts. Rules are tried in order per line, the
 * specific ones (Burrow's own plugin refusals, frps' exact errors) before the generic ones.
 */

/** A console page that fixes the problem. */
export interface ConsoleLink {
  label: string;
  /** a route of the customer console */
  path: string;
}

/** One explained log line. */
export interface LogExplanation {
  rule: FrpcLogRuleId;
  /** the log line it explains (trimmed, at most 300 characters) */
  line: string;
  title: string;
  cause: string;
  action: string;
  link: ConsoleLink;
  /** the tunnel the line is about (frpc names proxies `t_<tun_id>`), when it names one */
  tun_id: number | null;
}

interface Rule {
  id: string;
  test: RegExp;
  title: string;
  cause: string;
  action: string;
  /** where to fix it; tunnel rules go to the tunnel itself when the line names it */
  link: ConsoleLink | ((tunId: number | null) => ConsoleLink);
}

const tunnelLink = (tunId: number | null): ConsoleLink =>
  tunId ? { label: `隧道 t_${tunId}`, path: `/tun/list/${tunId}` } : { label: "隧道列表", path: "/tun/list" };
const TUNNELS: ConsoleLink = { label: "隧道列表", path: "/tun/list" };
const NODES: ConsoleLink = { label: "节点列表", path: "/tun/node" };
const STORE: ConsoleLink = { label: "购买套餐", path: "/purchase/plan" };
const TICKET: ConsoleLink = { label: "提交工单", path: "/help/ticket" };

const RULES = [
  // Burrow's own refusals (modules/frp/plugin.ts), shown by frpc after "connect to server error:"
  // or "[t_N] start error:".
  {
    id: "token-mismatch",
    test: /token in (?:login|heartbeat|NewWorkConn) doesn't match token from configuration|authorization failed|访问令牌无效|缺少访问令牌/i,
    title: "访问令牌不匹配",
    cause: "frpc 配置里的访问令牌与控制台不一致：令牌被重置过，或配置文件被改过。",
    action: "在隧道详情重新下载配置文件并替换旧的 frpc.toml，然后重启 frpc。",
    link: TUNNELS,
  },
  {
    id: "unknown-user",
    test: /未知用户|用户不存在/,
    title: "配置中的用户无效",
    cause: "配置里的 user 字段被修改或缺失，节点认不出你的账号。",
    action: "使用控制台生成的配置文件，不要手动修改 user 字段。",
    link: TUNNELS,
  },
  {
    id: "account-banned",
    test: /账号已被封禁/,
    title: "账号已被封禁",
    cause: "你的账号被管理员封禁，节点拒绝登录。",
    action: "提交工单联系客服了解原因。",
    link: TICKET,
  },
  {
    id: "no-plan",
    test: /没有生效中的套餐|套餐已过期/,
    title: "没有可用的套餐",
    cause: "账号当前没有生效中的套餐（或套餐已过期）。",
    action: "购买或续费套餐，生效后 frpc 会自动重连。",
    link: STORE,
  },
  {
    id: "traffic-exhausted",
    test: /流量已用尽|剩余流量不足/,
    title: "流量已用尽",
    cause: "本期套餐流量已经用完。",
    action: "购买流量包或升级套餐，或等待下个流量周期。",
    link: { label: "我的套餐", path: "/epay/plan" },
  },
  {
    id: "plan-level",
    test: /套餐等级不足/,
    title: "套餐等级不足",
    cause: "这个节点要求更高等级的套餐。",
    action: "把隧道换到你的套餐可用的节点，或升级套餐。",
    link: STORE,
  },
  {
    id: "node-off-shelf",
    test: /节点已下架/,
    title: "节点已下架",
    cause: "这个节点已停止服务。",
    action: "在节点列表选一个在线节点，把隧道迁移过去后重新下载配置。",
    link: NODES,
  },
  {
    id: "tunnel-locked",
    test: /已被锁定/,
    title: "隧道已被锁定",
    cause: "隧道因违规被管理员锁定，节点拒绝启动它。",
    action: "查看锁定原因；如有异议，提交工单申诉。",
    link: TICKET,
  },
  {
    id: "tunnel-disabled",
    test: /隧道 \S+ 已停用/,
    title: "隧道已停用",
    cause: "你在控制台停用了这条隧道。",
    action: "在隧道详情里重新启用它。",
    link: tunnelLink,
  },
  {
    id: "config-drift",
    test: /远程端口应为|自定义域名与控制台不一致|子域名与控制台不一致|的类型应为|未知隧道/,
    title: "配置与控制台不一致",
    cause: "frpc 配置里的隧道与控制台记录的不同（隧道被修改过，或配置文件被手动改过）。",
    action: "在隧道详情重新下载配置文件，替换后重启 frpc。",
    link: tunnelLink,
  },
  // frps' own errors (fatedier/frp).
  {
    id: "proxy-exists",
    test: /proxy \[[^\]]*\] already exists|proxy name \[[^\]]*\] is already in use/,
    title: "隧道已在别处运行",
    cause: "同一条隧道已经有另一个 frpc 在线（另一台机器、另一个窗口，或旧进程没有退出）。",
    action: "停掉另一处的 frpc；旧连接断开后约 90 秒内自动释放，frpc 会自动重试。",
    link: tunnelLink,
  },
  {
    id: "port-used",
    test: /port already used|port unavailable|acquire port \d+ error/,
    title: "远程端口已被占用",
    cause: "节点上的这个远程端口正被其他隧道或程序使用。",
    action: "在隧道详情里换一个远程端口，再重新下载配置文件。",
    link: tunnelLink,
  },
  {
    id: "port-not-allowed",
    test: /port not allowed/,
    title: "远程端口不在允许范围内",
    cause: "远程端口超出了节点允许的端口范围。",
    action: "在隧道详情里改用节点端口范围内的端口（节点列表里可以看到范围），再重新下载配置文件。",
    link: tunnelLink,
  },
  {
    id: "router-conflict",
    test: /router config conflict/,
    title: "域名已被占用",
    cause: "这个域名（或子域名）在节点上已被其他隧道使用。",
    action: "在隧道详情里换一个域名或子域名，再重新下载配置文件。",
    link: tunnelLink,
  },
  {
    id: "local-service",
    test: /connect to local service \[[^\]]*\] error/,
    title: "frpc 连不上你的本地服务",
    cause: "隧道已连通节点，但 frpc 连不上本机服务：服务没启动、端口不对，或服务没监听这个地址。",
    action: "确认本地服务已启动；本地地址或端口不对时在隧道详情里修改，再重新下载配置。",
    link: tunnelLink,
  },
  {
    id: "certificate",
    test: /x509:|tls: |certificate/i,
    title: "证书校验失败",
    cause: "TLS 证书校验没通过：电脑时间不对、serverAddr 不是节点地址，或证书已过期 / 不受信任。",
    action: "校准系统时间，确认 serverAddr 与节点列表中的地址一致，重新下载配置文件。",
    link: NODES,
  },
  {
    id: "connect-failed",
    test: /i\/o timeout|connection refused|no route to host|no such host|network is unreachable|connection reset by peer/i,
    title: "连不上节点",
    cause: "frpc 连不上节点：节点离线，或网络 / 防火墙拦住了连接，或 serverAddr、serverPort 不对。",
    action: "在节点列表查看节点状态；节点在线时检查本机网络和防火墙，确认使用的是控制台生成的配置。",
    link: NODES,
  },
  // Generic catch-alls: the line says where it failed but no rule above knows why.
  {
    id: "login-failed",
    test: /login to (?:the )?server failed|connect to server error/i,
    title: "登录节点失败",
    cause: "frpc 没能登录节点，冒号后面是节点给出的原因。",
    action: "对照使用文档的错误说明处理；最常见的办法是重新下载配置文件。",
    link: { label: "错误说明", path: "/doc/errors" },
  },
  {
    id: "start-error",
    test: /\] start error/,
    title: "隧道启动失败",
    cause: "节点拒绝启动这条隧道，冒号后面是原因。",
    action: "打开隧道详情核对设置，重新下载配置文件；frpc 30 秒后会自动重试。",
    link: tunnelLink,
  },
] as const satisfies readonly Rule[];

export type FrpcLogRuleId = (typeof RULES)[number]["id"];

/** The rule ids, in the order they are tried. */
export const FRPC_LOG_RULE_IDS: readonly FrpcLogRuleId[] = RULES.map((r) => r.id);

/** `[t_12]`, `[u_3.t_12]`, `隧道 t_12` → 12 */
const TUNNEL_REF = /(?:\[|\bu_\d+\.|隧道 |未知隧道 )t_(\d{1,9})\b/;

/**
 * Explains every recognised line of a pasted frpc log (each rule and tunnel once, in the order
 * they appear). Lines no rule knows are left out.
 */
export function explainFrpcLog(text: string): LogExplanation[] {
  const out: LogExplanation[] = [];
  const seen = new Set<string>();
  for (const raw of text.slice(0, 50_000).split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const rule = (RULES as readonly Rule[]).find((r) => r.test.test(line));
    if (!rule) continue;
    const ref = TUNNEL_REF.exec(line);
    const tunId = ref ? Number(ref[1]) : null;
    const key = `${rule.id}:${tunId ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      rule: rule.id as FrpcLogRuleId,
      line: line.slice(0, 300),
      title: rule.title,
      cause: rule.cause,
      action: rule.action,
      link: typeof rule.link === "function" ? rule.link(tunId) : rule.link,
      tun_id: tunId,
    });
  }
  return out;
}
