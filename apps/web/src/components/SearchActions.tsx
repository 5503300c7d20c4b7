import { RiRefreshLine, RiSearchLine } from "@remixicon/react";
import { Button, Form, Space } from "antd";

/** The 查询 / 重置 buttons of a list's search form. */
export function SearchActions({ onReset }: { onReset: () => void }) {
  return (
    <Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" icon={<RiSearchLine size={16} />}>
          查询
        </Button>
        <Button onClick={onReset} icon={<RiRefreshLine size={16} />}>
          重置
        </Button>
      </Space>
    </Form.Item>
  );
}
