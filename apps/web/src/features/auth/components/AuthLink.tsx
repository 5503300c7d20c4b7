import { Typography } from "antd";
import type { MouseEvent, ReactNode } from "react";
import { useHref, useNavigate } from "react-router";
import { isModifiedClick } from "@/components/LinkButton";

/**
 * A link between the sign-in pages, styled like the rest of the antd form (a plain router link is
 * the browser's underlined default) and navigating in-app; a modified click (new tab) stays native.
 */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    void navigate(to);
  };
  return (
    <Typography.Link href={href} onClick={onClick}>
      {children}
    </Typography.Link>
  );
}
