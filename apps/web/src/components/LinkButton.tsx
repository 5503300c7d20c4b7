import { Button, type ButtonProps } from "antd";
import { useHref, useNavigate } from "react-router";
import { isModifiedClick } from "@/lib/links";

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
