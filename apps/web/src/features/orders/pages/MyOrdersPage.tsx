import { fenToYuan, type OrderView, PayStatus, PayStatusLabel } from "@burrow/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Empty, List, Popconfirm, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { LinkButton } from "@/components/LinkButton";
import { amountColumn, timeColumn } from "@/components/ListColumns";
import { PageContainer } from "@/components/PageContainer";
import type { ResponsiveColumns } from "@/components/ResponsiveTable";
import { StatusFilter, useStatusPaging } from "@/components/StatusFilter";
import { OrderTypeTag, PayStatusTag } from "@/components/StoreTags";
import { PagedTable } from "@/components/table/PagedTable";
import { useIsPhone } from "@/hooks/useIsPhone";
import { feedback } from "@/lib/feedback";
import { formatTime } from "@/lib/format";
import { MyOrderDrawer } from "../components/MyOrderDrawer";
import { cancelOrder, myOrdersQuery, ordersKeys } from "../orders.api";

/** Whether the customer may still pay an order here: awaiting, with a gateway link, before it closes. */
const payable = (o: OrderView, now = Date.now()) =>
  o.status === PayStatus.Awaiting && !!o.pay_url && Date.parse(o.expires_at) > now;

/** 去支付 / 取消订单 for an order awaiting payment, 详情 for every order. */
function OrderActions({
  order,
  cancelling,
  onCancel,
  onDetail,
}: {
  order: OrderView;
  cancelling: boolean;
  onCancel: () => void;
  onDetail: () => void;
}) {
  return (
    <Space size={4} wrap>
      {payable(order) ? (
        <Button type="primary" size="small" href={order.pay_url ?? undefined} aria-label={`支付订单 ${order.trade_id}`}>
          去支付
        </Button>
      ) : null}
      {order.status === PayStatus.Awaiting ? (
        <Popconfirm
          title="取消这个订单？"
          description="取消后订单关闭，不能再支付。"
          okText="取消订单"
          okButtonProps={{ danger: true }}
          cancelText="再想想"
          onConfirm={onCancel}
        >
          <Button size="small" danger loading={cancelling} aria-label={`取消订单 ${order.trade_id}`}>
            取消
          </Button>
        </Popconfirm>
      ) : null}
      <Button type="link" size="small" onClick={onDetail} aria-label={`订单 ${order.trade_id} 详情`}>
        详情
      </Button>
    </Space>
  );
}

/** The status, and for an order awaiting payment until when it may be paid. */
function StatusCell({ order }: { order: OrderView }) {
  return (
    <Space orientation="vertical" size={0}>
      <PayStatusTag status={order.status} />
      {order.status === PayStatus.Awaiting ? (
        <Typography.Text type="secondary" className="my-order-deadline">
          {formatTime(order.expires_at).slice(11, 16)} 前支付
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/**
 * /epay/order: every order of the customer (plans, traffic packs, renewals, recharges, abandoned
 * ones too) with its status, amount in yuan and Beijing time; one awaiting payment can be paid or
 * cancelled here. Phones get one card per order, status first.
 */
export function MyOrdersPage() {
  const qc = useQueryClient();
  const phone = useIsPhone();
  const { page, size, status, setStatus, pagination } = useStatusPaging();
  const orders = useQuery(myOrdersQuery({ page, size, status }));
  const { data, isFetching } = orders;
  const [detail, setDetail] = useState<string | null>(null);
  const paging = pagination(data?.total);

  const cancel = useMutation({
    mutationFn: (tradeId: string) => cancelOrder(tradeId),
    onSuccess: () => feedback.success("订单已取消"),
    // Refused too (paid or closed meanwhile): the list shows what the order is now.
    onSettled: () => qc.invalidateQueries({ queryKey: ordersKeys.all }),
  });

  const actions = (o: OrderView) => (
    <OrderActions
      order={o}
      cancelling={cancel.isPending && cancel.variables === o.trade_id}
      onCancel={() => cancel.mutate(o.trade_id)}
      onDetail={() => setDetail(o.trade_id)}
    />
  );

  const columns: ResponsiveColumns<OrderView> = [
    {
      title: "订单",
      role: "title",
      key: "order",
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text>{o.name}</Typography.Text>
          <Typography.Text type="secondary" className="my-order-trade">
            {o.trade_id}
          </Typography.Text>
        </Space>
      ),
    },
    { title: "状态", role: "status", key: "status", width: 110, render: (_: unknown, o) => <StatusCell order={o} /> },
    {
      title: "类型",
      priority: 2,
      dataIndex: "type",
      width: 100,
      render: (t: number, o) => (
        <Space size={4} wrap>
          <OrderTypeTag type={t} />
          {o.automatic ? <Tag color="purple">自动</Tag> : null}
        </Space>
      ),
    },
    amountColumn({ priority: 2, width: 110 }),
    timeColumn("下单时间", "created_at", { priority: 3, width: 170 }),
    { title: "操作", key: "actions", width: 190, render: (_: unknown, o) => actions(o) },
  ];

  const empty = (
    <Empty description={status === undefined ? "还没有订单" : `没有${PayStatusLabel[status]}的订单`}>
      {status === undefined ? (
        <Space>
          <LinkButton type="primary" to="/purchase/plan">
            购买套餐
          </LinkButton>
          <LinkButton to="/epay/recharge">余额充值</LinkButton>
        </Space>
      ) : null}
    </Empty>
  );

  return (
    <PageContainer title="我的订单" description="套餐、流量包、续费和充值的全部订单；待支付的订单可以继续支付或取消。">
      <Card>
        <StatusFilter labels={PayStatusLabel} value={status} onChange={setStatus} />
        {phone ? (
          <List<OrderView>
            className="my-order-list"
            loading={isFetching}
            dataSource={data?.list}
            locale={{ emptyText: empty }}
            pagination={
              data?.total
                ? {
                    current: paging.current,
                    pageSize: paging.pageSize,
                    total: paging.total,
                    onChange: paging.onChange,
                    size: "small",
                  }
                : false
            }
            renderItem={(o) => (
              <List.Item key={o.trade_id} data-testid="my-order">
                <Space orientation="vertical" size={6} style={{ width: "100%" }}>
                  <Space style={{ width: "100%", justifyContent: "space-between" }} align="start">
                    <StatusCell order={o} />
                    <Typography.Text strong>¥{fenToYuan(o.amount)}</Typography.Text>
                  </Space>
                  <Typography.Text>{o.name}</Typography.Text>
                  <Space size={8} wrap>
                    <OrderTypeTag type={o.type} />
                    <Typography.Text type="secondary">{formatTime(o.created_at)}</Typography.Text>
                  </Space>
                  {actions(o)}
                </Space>
              </List.Item>
            )}
          />
        ) : (
          <PagedTable<OrderView>
            rowKey="trade_id"
            size="middle"
            columns={columns}
            query={orders}
            locale={{ emptyText: empty }}
            pagination={pagination}
          />
        )}
      </Card>
      <MyOrderDrawer tradeId={detail} onClose={() => setDetail(null)} />
    </PageContainer>
  );
}
