import type { SetupChecklist, SetupItem } from "@burrow/contract";
import { RiCheckboxCircleFill, RiErrorWarningFill } from "@remixicon/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Col, Popconfirm, Progress, Space, Typography } from "antd";
import { Link } from "react-router";
import { setSetupDismissed, setupQuery } from "../overview.api";

/** Where a line is fixed: its console page, or the environment variables docs/deploy.md describes. */
function Fix({ item }: { item: SetupItem }) {
  if ("page" in item.fix)
    return item.done ? (
      <Link to={`/admin${item.fix.page}`}>查看</Link>
    ) : (
      <Link to={`/admin${item.fix.page}`}>去设置</Link>
    );
  return (
    <Typography.Text type="secondary" className="setup-env">
      环境变量{" "}
      {item.fix.env.map((v) => (
        <Typography.Text key={v} code>
          {v}
        </Typography.Text>
      ))}{" "}
      · 见 <Typography.Text code>{item.fix.doc}</Typography.Text>
      {item.shown_at ? (
        <>
          {" · "}
          <Link to={`/admin${item.shown_at}`}>当前设置</Link>
        </>
      ) : null}
    </Typography.Text>
  );
}

function Line({ item }: { item: SetupItem }) {
  return (
    <li data-testid={`setup-${item.key}`} data-done={item.done} style={{ display: "flex", gap: 8, padding: "8px 0" }}>
      {item.done ? (
        <RiCheckboxCircleFill size={18} color="#52c41a" aria-label="已完成" style={{ flex: "none", marginTop: 2 }} />
      ) : (
        <RiErrorWarningFill size={18} color="#faad14" aria-label="未完成" style={{ flex: "none", marginTop: 2 }} />
      )}
      <Space orientation="vertical" size={0} style={{ minWidth: 0, flex: 1 }}>
        <Typography.Text strong delete={item.done}>
          {item.label}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ wordBreak: "break-word" }}>
          {item.detail}
        </Typography.Text>
        <Fix item={item} />
      </Space>
    </li>
  );
}

/**
 * The overview's set-up checklist (managers): shown until every line is done or a manager hides it;
 * a hidden one leaves a link to show it again while lines remain open.
 */
export function SetupChecklistCard() {
  const queryClient = useQueryClient();
  const { data } = useQuery(setupQuery());
  const toggle = useMutation({
    mutationFn: setSetupDismissed,
    onSuccess: (next: SetupChecklist) => queryClient.setQueryData(setupQuery().queryKey, next),
  });
  if (!data || data.done) return null;
  if (data.dismissed)
    return (
      <Col span={24}>
        <Button type="link" style={{ padding: 0 }} onClick={() => toggle.mutate(false)} loading={toggle.isPending}>
          显示站点设置清单（还有 {data.items.filter((i) => !i.done).length} 项未完成）
        </Button>
      </Col>
    );
  const done = data.items.filter((i) => i.done).length;
  return (
    <Col span={24}>
      <Card
        title="站点设置清单"
        className="overview-setup"
        extra={
          <Popconfirm
            title="隐藏设置清单？"
            description="未完成的项目不会因此生效，之后可在本页重新显示。"
            okText="隐藏"
            cancelText="取消"
            onConfirm={() => toggle.mutateAsync(true)}
          >
            <Button size="small">隐藏</Button>
          </Popconfirm>
        }
      >
        <Space orientation="vertical" style={{ width: "100%" }}>
          <Typography.Text>
            完成以下设置后，用户即可注册、购买套餐并创建可用的隧道（已完成 {done} / {data.items.length}）。
          </Typography.Text>
          <Progress percent={Math.round((done / data.items.length) * 100)} showInfo={false} size="small" />
          <ul className="overview-list">
            {data.items.map((item) => (
              <Line key={item.key} item={item} />
            ))}
          </ul>
        </Space>
      </Card>
    </Col>
  );
}
