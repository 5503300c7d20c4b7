import { Card, Col, Form, type FormInstance, Row } from "antd";
import type { ReactNode } from "react";
import { SearchActions } from "./SearchActions";
import { SEARCH_COL } from "./SearchFields";

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

/**
 * A list's search card on a grid: the children are `<Col {...SEARCH_COL}>` cells of filters, with
 * their labels above; 查询 / 重置 end the row (or take a row of their own with `actionsRow`).
 */
export function GridSearchCard<V>({
  form,
  initialValues,
  onFinish,
  onReset,
  actionsRow = false,
  children,
}: {
  form: FormInstance<V>;
  initialValues?: Partial<V>;
  onFinish: (values: V) => void;
  onReset: () => void;
  actionsRow?: boolean;
  children: ReactNode;
}) {
  return (
    <Card className="search-card">
      <Form form={form} layout="vertical" initialValues={initialValues} onFinish={onFinish}>
        <Row gutter={16}>
          {children}
          {actionsRow ? (
            <Col xs={24} className="search-actions">
              <SearchActions onReset={onReset} />
            </Col>
          ) : (
            <Col {...SEARCH_COL} className="search-actions">
              <SearchActions onReset={onReset} label=" " />
            </Col>
          )}
        </Row>
      </Form>
    </Card>
  );
}
