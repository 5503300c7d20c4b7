import { RiRefreshLine, RiSearchLine } from "@remixicon/react";
import { Button, Form, Space } from "antd";

/**
 * The 查询 / 重置 buttons of a list's search form.
 * @param label " " in a vertical form, to line the buttons up with the fields beside them
 */
export function SearchActions({ onReset, label }: { onReset: () => void; label?: string }) {
  return (
    <Form.Item label={label}>
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
