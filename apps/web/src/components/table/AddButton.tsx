import { RiAddLine } from "@remixicon/react";
import { Button } from "antd";
import type { ReactNode } from "react";
import { LinkButton } from "../LinkButton";

/**
 * A list's primary 新增/新建 button (a page's or card's header action): the plus icon and the label;
 * it opens a form (`onClick`) or is a link to the page that makes one (`to`).
 */
export function AddButton({
  children,
  ...action
}: { children: ReactNode } & ({ onClick: () => void } | { to: string })) {
  const icon = <RiAddLine size={16} />;
  return "to" in action ? (
    <LinkButton type="primary" icon={icon} to={action.to}>
      {children}
    </LinkButton>
  ) : (
    <Button type="primary" icon={icon} onClick={action.onClick}>
      {children}
    </Button>
  );
}
