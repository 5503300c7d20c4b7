import { Col } from "antd";
import type { ReactNode } from "react";

/** A form grid cell: the full row on a phone, half of it from md (768 px) up. */
export function HalfCol({ children }: { children: ReactNode }) {
  return (
    <Col xs={24} md={12}>
      {children}
    </Col>
  );
}
