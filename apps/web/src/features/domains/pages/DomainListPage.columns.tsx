import { type DomainRecord, type DomainView, domainApex, isWildcard } from "@burrow/contract";
import { Space, Typography } from "antd";
import { Link } from "react-router";
import { statusColumn, timeColumn } from "@/components/ListColumns";
import type { ResponsiveColumn, ResponsiveColumns } from "@/components/responsive-columns";
import { DomainStateTag } from "../components/DomainStateTag";

/** One DNS record to create, each part copyable. */
function RecordLine({ r }: { r: DomainRecord }) {
  return (
    <div className="domain-record">
      <Typography.Text strong>{r.type}</Typography.Text>{" "}
      <Typography.Text code copyable={{ text: r.host, tooltips: ["复制主机记录", "已复制"] }}>
        {r.host}
      </Typography.Text>{" "}
      →{" "}
      <Typography.Text code copyable={{ text: r.value, tooltips: ["复制记录值", "已复制"] }}>
        {r.value}
      </Typography.Text>
    </div>
  );
}

/**
 * 我的域名's columns: the domain, its state and the check result first (issue 35 §5); the DNS
 * records to create are long and go into the row's detail when the table is narrow.
 */
export function domainColumns(actions: ResponsiveColumn<DomainView>): ResponsiveColumns<DomainView> {
  return [
    {
      title: "域名",
      role: "title",
      dataIndex: "domain",
      width: 220,
      render: (d: string, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{d}</Typography.Text>
          <Typography.Text type="secondary">节点：{row.node_name}</Typography.Text>
          {isWildcard(d) ? (
            <Typography.Text type="secondary">泛域名：可用于 {domainApex(d)} 下一级的任意子域名</Typography.Text>
          ) : null}
          {row.icp_no ? <Typography.Text type="secondary">备案号：{row.icp_no}</Typography.Text> : null}
        </Space>
      ),
    },
    statusColumn("state", 100, (s: DomainView["state"]) => <DomainStateTag state={s} />),
    {
      title: "需要添加的解析记录",
      priority: 4,
      key: "records",
      width: 460,
      render: (_: unknown, row) =>
        row.state === "unbound" ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <Space orientation="vertical" size={2}>
            {row.records.map((r) => (
              <RecordLine key={r.type} r={r} />
            ))}
          </Space>
        ),
    },
    {
      title: "检查结果",
      priority: 2,
      key: "problem",
      width: 280,
      render: (_: unknown, row) => {
        if (row.state === "unbound")
          return <Typography.Text type="danger">已被管理员解绑：{row.unbind_reason}</Typography.Text>;
        if (row.problem) return <Typography.Text type="warning">{row.problem}</Typography.Text>;
        if (row.state === "verified") return <Typography.Text type="success">记录正确</Typography.Text>;
        return <Typography.Text type="secondary">添加记录后点击「验证」</Typography.Text>;
      },
    },
    {
      title: "使用的隧道",
      priority: 3,
      dataIndex: "tunnels",
      width: 160,
      render: (ts: DomainView["tunnels"]) =>
        ts.length ? (
          <Space orientation="vertical" size={0}>
            {ts.map((t) => (
              <Link key={t.tun_id} to={`/tun/list/${t.tun_id}`}>
                {t.tun_name}
              </Link>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    },
    timeColumn("最近检查", "checked_at", { priority: 3, width: 170 }),
    actions,
  ];
}
