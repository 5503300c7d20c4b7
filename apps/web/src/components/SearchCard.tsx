import { Card, Form, type FormInstance } from "antd";
import type { ReactNode } from "react";
import { SearchActions } from "./SearchActions";

/** A list's search card: one inline row of filter fields, then 查询 / 重置. */
export function SearchCard<V>({
  form,
  onFinish,
  onReset,
  children,
}: {
  form: FormInstance<V>;
  onFinish: (values: V) => void;
  onReset: () => void;
  children: ReactNode;
}) {
  return (
    <Card className="search-card">
      <Form form={form} layout="inline" onFinish={onFinish}>
        {children}
        <SearchActions onReset={onReset} />
      </Form>
    </Card>
  );
}
