import { useQuery } from "@tanstack/react-query";
import { Descriptions, Drawer, Result, Skeleton, Space } from "antd";
import { useIsPhone } from "@/hooks/useIsPhone";
import { myOrderQuery } from "../orders.api";
import { OrderAmountLines, orderInfoItems } from "./OrderInfo";

/** One of the customer's orders in a drawer: what it was, what it cost, what became of it. */
export function MyOrderDrawer({ tradeId, onClose }: { tradeId: string | null; onClose: () => void }) {
  const phone = useIsPhone();
  const { data: order, isError } = useQuery({ ...myOrderQuery(tradeId ?? ""), enabled: tradeId !== null });
  return (
    <Drawer open={tradeId !== null} title="订单详情" size={phone ? "100%" : 560} onClose={onClose} destroyOnHidden>
      {isError ? (
        <Result status="404" title="订单不存在" />
      ) : !order ? (
        <Skeleton active />
      ) : (
        <Space orientation="vertical" size={20} style={{ width: "100%" }}>
          <Descriptions
            title="订单信息"
            size="small"
            column={{ xs: 1, sm: 2 }}
            bordered
            items={orderInfoItems(order)}
          />
          <OrderAmountLines order={order} />
        </Space>
      )}
    </Drawer>
  );
}
