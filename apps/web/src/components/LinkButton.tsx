import { Button, type ButtonProps } from "antd";
import type { MouseEvent } from "react";
import { useHref, useNavigate } from "react-router";

/** Whether a click should stay the browser's own (new tab, new window, download, middle button). */
export function isModifiedClick(e: MouseEvent<HTMLElement>): boolean {
  return e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
}

/**
 * An antd button that is a real link (`<a href>`): the address shows on hover, ctrl/middle-click
 * opens a new tab, and a plain click navigates in-app without reloading.
 */
export function LinkButton({ to, onClick, ...props }: Omit<ButtonProps, "href"> & { to: string }) {
  const navigate = useNavigate();
  const href = useHref(to);
  return (
    <Button
      {...props}
      href={href}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || isModifiedClick(e)) return;
        e.preventDefault();
        void navigate(to);
      }}
    />
  );
}
