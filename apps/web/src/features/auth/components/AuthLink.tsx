import { Typography } from "antd";
import type { MouseEvent, ReactNode } from "react";
import { useHref, useNavigate } from "react-router";

/**
 * A link between the sign-in pages, styled like the rest of the antd form (a plain router link is
 * the browser's underlined default) and navigating in-app; a modified click (new tab) stays native.
 */
export function AuthLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (e: MouseEvent<HTMLElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(to);
  };
  return (
    <Typography.Link href={href} onClick={onClick}>
      {children}
    </Typography.Link>
  );
}
