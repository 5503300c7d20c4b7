import { IpNetText, SHIELD_LIST_MAX, type ShieldBanRow, type ShieldBody } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Col, Form, InputNumber, Popconfirm, Row, Typography } from "antd";
import { useEffect, useState } from "react";
import { HalfCol } from "@/components/form/HalfCol";
import { ListItem } from "@/components/form/ListItem";
import { SwitchItem } from "@/components/form/SwitchItem";
import { type ResponsiveColumns, ResponsiveTable } from "@/components/ResponsiveTable";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { liftShieldBan, saveShield, shieldBansQuery, shieldKeys, shieldQuery } from "../shield.api";

/** The form's values: the ban in minutes (the API takes seconds). */
type ShieldValues = Omit<ShieldBody, "ban_s"> & { ban_min: number };

const toValues = ({ ban_s, ...s }: ShieldBody): ShieldValues => ({ ...s, ban_min: Math.round(ban_s / 60) });
const toBody = ({ ban_min, ...v }: ShieldValues): ShieldBody => ({ ...v, ban_s: ban_min * 60 });

/** addresses are often pasted a line each */
const SEPARATORS = [",", " ", "\n"];

/**
 * 访客防护 on the tunnel page: allow and deny lists (IPs and CIDRs, v4 and v6) and the automatic
 * ban rule, enforced by frps's NewUserConn for tcp, https, stcp, sudp and xtcp's relayed fallback;
 * the bans in force, each with its reason and expiry and a 解除 button. http and udp visitors are
 * never announced by frps: the card says so instead of offering a setting that would do nothing.
 */
export function TunnelShieldCard({
  tunId,
  disabled,
  protocol,
}: {
  tunId: number;
  disabled: boolean;
  protocol?: string;
}) {
  const qc = useQueryClient();
  const [form] = Form.useForm<ShieldValues>();
  const setting = useQuery(shieldQuery(tunId));
  const [page, setPage] = useState({ page: 1, size: 10 });
  const bans = useQuery({ ...shieldBansQuery(tunId, page), enabled: setting.data?.applies === true });
  const data = setting.data;
  useEffect(() => {
    if (data) form.setFieldsValue(toValues(data));
  }, [data, form]);
  const save = useMutation({
    mutationFn: (v: ShieldValues) => saveShield(tunId, toBody(v)),
    onSuccess: (view) => {
      qc.setQueryData(shieldKeys.setting(tunId), view);
      feedback.success("访客防护已保存");
    },
  });
  const lift = useMutation({
    mutationFn: (banId: number) => liftShieldBan(tunId, banId),
    onSuccess: () => {
      feedback.success("已解除封禁");
      return qc.invalidateQueries({ queryKey: shieldKeys.all });
    },
  });
  const ruleOn = Form.useWatch("rule_enabled", form);

  const columns: ResponsiveColumns<ShieldBanRow> = [
    { title: "访客 IP", role: "title", dataIndex: "ip", width: 200 },
    { title: "原因", priority: 2, dataIndex: "reason" },
    { title: "封禁至", priority: 2, dataIndex: "until", width: 190, render: (v: string) => formatTime(v) },
    {
      title: "操作",
      role: "action",
      width: 90,
      render: (_: unknown, row) => (
        <Popconfirm title={`解除对 ${row.ip} 的封禁？`} okText="解除" onConfirm={() => lift.mutateAsync(row.id)}>
          <Button size="small" type="link" disabled={disabled}>
            解除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card title="访客防护" loading={setting.isPending} className="tunnel-shield-card">
      {data && !data.applies ? (
        <Alert
          type="info"
          showIcon
          title="HTTP 与 UDP 隧道不支持访客防护"
          description="frps 不会就 HTTP、UDP 隧道的每个访客询问控制台，允许/拒绝列表和自动封禁对它们不起作用。TCP、HTTPS、STCP、SUDP、XTCP 隧道可以使用访客防护。"
        />
      ) : (
        <>
          {protocol === "xtcp" ? (
            <Alert
              className="tunnel-shield-xtcp"
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title="XTCP 隧道的访客防护只作用于经节点中转的连接"
              description="打洞成功的点对点连接不经过节点，frps 不会询问控制台；打洞失败改由节点中转（STCP 备用通道）的连接按下面的设置检查。"
            />
          ) : null}
          <Form<ShieldValues> form={form} layout="vertical" disabled={disabled} onFinish={(v) => save.mutate(v)}>
            <Row gutter={16}>
              <HalfCol>
                <ListItem
                  name="allow"
                  label="允许列表"
                  extra={`填写后只有这些地址可以连接；IP 或 CIDR 网段，回车添加，最多 ${SHIELD_LIST_MAX} 条`}
                  schema={IpNetText}
                  separators={SEPARATORS}
                  placeholder="如：203.0.113.0/24"
                  ariaLabel="允许列表"
                />
              </HalfCol>
              <HalfCol>
                <ListItem
                  name="deny"
                  label="拒绝列表"
                  extra="这些地址的连接一律断开；支持 IPv4、IPv6 与 CIDR 网段"
                  schema={IpNetText}
                  separators={SEPARATORS}
                  placeholder="如：198.51.100.7、2001:db8::/32"
                  ariaLabel="拒绝列表"
                />
              </HalfCol>
            </Row>
            <SwitchItem
              name="rule_enabled"
              label="自动封禁"
              ariaLabel="自动封禁"
              extra="同一地址短时间内新建连接过多时自动封禁（22、3389、5900 端口默认开启）；允许列表中的地址不会被封禁"
            />
            <Row gutter={16}>
              <Col xs={24} sm={8}>
                <Form.Item name="window_s" label="统计时长（秒）" rules={[{ required: true }]}>
                  <InputNumber min={1} max={86_400} precision={0} disabled={!ruleOn} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={8}>
                <Form.Item name="conns" label="新建连接超过（次）" rules={[{ required: true }]}>
                  <InputNumber min={1} max={100_000} precision={0} disabled={!ruleOn} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={8}>
                <Form.Item name="ban_min" label="封禁时长（分钟）" rules={[{ required: true }]}>
                  <InputNumber min={1} max={43_200} precision={0} disabled={!ruleOn} style={{ width: "100%" }} />
                </Form.Item>
              </Col>
            </Row>
            <Button type="primary" htmlType="submit" loading={save.isPending}>
              保存访客防护
            </Button>
          </Form>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            当前封禁
          </Typography.Title>
          {data && data.bans >= data.ban_cap && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              title={`封禁已达上限 ${data.ban_cap} 条`}
              description="自动封禁暂停新增，已有封禁到期或解除后恢复；允许/拒绝列表照常生效。来源较多时可考虑改用允许列表。"
            />
          )}
          <ResponsiveTable<ShieldBanRow>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={bans.data?.list ?? []}
            loading={bans.isPending}
            pagination={{
              current: page.page,
              pageSize: page.size,
              total: bans.data?.total ?? 0,
              hideOnSinglePage: true,
              showTotal: (total) => `共 ${total} 条`,
              onChange: (p, s) => setPage({ page: s === page.size ? p : 1, size: s }),
            }}
            locale={{ emptyText: "没有被封禁的地址" }}
          />
        </>
      )}
    </Card>
  );
}
