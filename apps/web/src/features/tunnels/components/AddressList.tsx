import { Space, Typography } from "antd";

/** The addresses a tunnel can be reached at, each with a copy button. */
export function AddressList({ addresses }: { addresses: string[] }) {
  if (!addresses.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space orientation="vertical" size={0}>
      {addresses.map((a) => (
        <Typography.Text key={a} copyable={{ text: a, tooltips: ["复制地址", "已复制"] }} className="tunnel-address">
          {a}
        </Typography.Text>
      ))}
    </Space>
  );
}
